package eventmesh_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

func publish(t *testing.T, s *emulator.Server, tok, q, body string) {
	t.Helper()
	r := emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages"), tok, []byte(body), map[string]string{"x-qos": "1", "Content-Type": "text/plain"})
	emulatortest.Expect(t, r, http.StatusNoContent)
}

// consume1 consumes with x-qos 1 and returns the message ID ("" when the queue is empty).
func consume1(t *testing.T, s *emulator.Server, tok, q string) (id, body string) {
	t.Helper()
	r := emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/consumption"), tok, nil, map[string]string{"x-qos": "1"})
	switch r.Status {
	case http.StatusNoContent:
		return "", ""
	case http.StatusOK:
		id = r.Header.Get("X-Message-Id")
		if id == "" {
			t.Fatal("200 without X-Message-Id")
		}
		return id, string(r.Body)
	}
	t.Fatalf("consume: status %d, body %s", r.Status, r.Body)
	return "", ""
}

// tokens returns a management and a messaging token of s.
func tokens(t *testing.T, s *emulator.Server) (mt, tok string) {
	t.Helper()
	return emulatortest.Token(t, s, emulator.AudienceManagement), emulatortest.Token(t, s, emulator.AudienceMessaging)
}

func reject(t *testing.T, s *emulator.Server, q, id string) emulator.RejectResult {
	t.Helper()
	r := emulatortest.Do(t, "POST", s.URL()+emulator.ControlBasePath+"/queues/"+url.PathEscape(q)+"/messages/"+id+"/rejection", "", nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var res emulator.RejectResult
	r.JSON(t, &res)
	return res
}

func TestPublishConsumeAck(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	mt, tok := tokens(t, s)
	q := "acme/crm/prod/orders"

	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages"), tok, []byte("x"), map[string]string{"x-qos": "0"}), http.StatusNotFound)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, q, ""), http.StatusCreated)

	r := emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages"), tok, []byte("x"), nil)
	emulatortest.Expect(t, r, http.StatusBadRequest)
	r.Message(t)

	publish(t, s, tok, q, "first")
	publish(t, s, tok, q, "second-")
	got, _ := s.Queue(q)
	if got.MessageCount != 2 || got.QueueSizeInBytes != int64(len("first")+len("second-")) || got.UnacknowledgedMessageCount != 0 {
		t.Fatalf("counters after publish: %+v", got)
	}

	id, body := consume1(t, s, tok, q)
	if body != "first" {
		t.Fatalf("consumed %q, want first", body)
	}
	r = emulatortest.Do(t, "GET", emulatortest.QPath(s, q), mt, nil, nil)
	var qv emulator.Queue
	r.JSON(t, &qv)
	if qv.MessageCount != 2 || qv.UnacknowledgedMessageCount != 1 {
		t.Fatalf("counters while unacknowledged: %s", r.Body)
	}

	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/"+id+"/acknowledgement"), tok, nil, nil), http.StatusOK)
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/"+id+"/acknowledgement"), tok, nil, nil), http.StatusBadRequest)
	got, _ = s.Queue(q)
	if got.MessageCount != 1 || got.UnacknowledgedMessageCount != 0 {
		t.Fatalf("counters after ack: %+v", got)
	}

	// x-qos 0 removes at once.
	r = emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/consumption"), tok, nil, map[string]string{"x-qos": "0"})
	emulatortest.Expect(t, r, http.StatusOK)
	if string(r.Body) != "second-" || r.Header.Get("Content-Type") != "text/plain" {
		t.Fatalf("consumed %q (%s)", r.Body, r.Header.Get("Content-Type"))
	}
	if got, _ := s.Queue(q); got.MessageCount != 0 {
		t.Fatalf("message count %d after QoS 0 consumption", got.MessageCount)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/consumption"), tok, nil, map[string]string{"x-qos": "1"}), http.StatusNoContent)

	st := s.Stats()
	if st.Broker.Published != 2 || st.Broker.Delivered != 2 || st.Broker.Acknowledged != 1 {
		t.Fatalf("broker stats %+v", st.Broker)
	}
	if st.MessagingCalls == 0 || st.Routes["POST /messagingrest/v1/queues/{queue}/messages/consumption"] != 3 {
		t.Fatalf("messaging stats %+v", st)
	}
}

func TestMessageSizeAndQueueLimits(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	mt, tok := tokens(t, s)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "small", `{"maxMessageSizeInBytes":4,"maxQueueMessageCount":1}`), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, "small", "/messages"), tok, []byte("12345"), map[string]string{"x-qos": "0"}), http.StatusBadRequest)
	publish(t, s, tok, "small", "1234")
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, "small", "/messages"), tok, []byte("1"), map[string]string{"x-qos": "0"}), http.StatusBadRequest)
}

func TestRejectRedeliversThenDeadLetters(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	mt, tok := tokens(t, s)
	q, dmq := "acme/crm/prod/orders", "acme/crm/prod/orders-dmq"
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, dmq, ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, q, `{"maxRedeliveryCount":2,"deadMsgQueue":"`+dmq+`"}`), http.StatusCreated)
	publish(t, s, tok, q, "poison")

	// maxRedeliveryCount 2: one delivery and two redeliveries, then the DMQ.
	var deliveries int
	for {
		id, body := consume1(t, s, tok, q)
		if id == "" {
			break
		}
		deliveries++
		if body != "poison" {
			t.Fatalf("body %q", body)
		}
		res := reject(t, s, q, id)
		if res.DeliveryCount != int64(deliveries) {
			t.Fatalf("delivery count %d at delivery %d", res.DeliveryCount, deliveries)
		}
		want := emulator.OutcomeRedelivered
		if deliveries == 3 {
			want = emulator.OutcomeDeadLettered
		}
		if res.Outcome != want {
			t.Fatalf("delivery %d: outcome %s, want %s (%+v)", deliveries, res.Outcome, want, res)
		}
		if deliveries > 10 {
			t.Fatal("message never left the queue")
		}
	}
	if deliveries != 3 {
		t.Fatalf("%d deliveries, want 3", deliveries)
	}
	msgs, _ := s.Messages(dmq)
	if len(msgs) != 1 || msgs[0].Body != "poison" || msgs[0].DeadFrom != q || msgs[0].DeliveryCount != 0 {
		t.Fatalf("DMQ holds %+v", msgs)
	}
	if got, _ := s.Queue(q); got.MessageCount != 0 {
		t.Fatalf("source queue still holds %d messages", got.MessageCount)
	}
	st := s.Stats().Broker
	if st.Rejected != 3 || st.Redelivered != 2 || st.DeadLettered != 1 {
		t.Fatalf("broker stats %+v", st)
	}
	// A message that is not in flight cannot be rejected.
	if _, err := s.Reject(dmq, msgs[0].ID); !errors.Is(err, emulator.ErrMessageNotFound) {
		t.Fatalf("Reject of an available message: %v", err)
	}
	if _, err := s.Reject("nope", "x"); !errors.Is(err, emulator.ErrQueueNotFound) {
		t.Fatalf("Reject on a missing queue: %v", err)
	}
}

func TestRejectWithoutDMQDiscards(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	mt := emulatortest.Token(t, s, emulator.AudienceManagement)
	// A dead message queue deleted after the queue named it: the message is discarded.
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "missing", ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "q", `{"maxRedeliveryCount":1,"deadMsgQueue":"missing"}`), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", emulatortest.QPath(s, "missing"), mt, nil, nil), http.StatusNoContent)
	if _, err := s.Publish("q", []byte("m"), ""); err != nil {
		t.Fatal(err)
	}
	var last emulator.RejectResult
	for range 2 {
		m, ok, err := s.Consume("q", 1)
		if err != nil || !ok {
			t.Fatalf("Consume: %v %v", ok, err)
		}
		if last, err = s.Reject("q", m.ID); err != nil {
			t.Fatal(err)
		}
	}
	if last.Outcome != emulator.OutcomeDiscarded || last.Reason == "" {
		t.Fatalf("result %+v, want discarded with a reason", last)
	}
	if got, _ := s.Queue("q"); got.MessageCount != 0 {
		t.Fatalf("%d messages left", got.MessageCount)
	}
}

func TestUnlimitedRedeliveryHitsCap(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{RedeliveryCap: 5})
	mt := emulatortest.Token(t, s, emulator.AudienceManagement)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "dmq", ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "q", `{"maxRedeliveryCount":0,"deadMsgQueue":"dmq"}`), http.StatusCreated)
	if _, err := s.Publish("q", []byte("m"), ""); err != nil {
		t.Fatal(err)
	}
	var res emulator.RejectResult
	deliveries := 0
	for {
		m, ok, err := s.Consume("q", 1)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		deliveries++
		if res, err = s.Reject("q", m.ID); err != nil {
			t.Fatal(err)
		}
	}
	if deliveries != 5 || res.Outcome != emulator.OutcomeRedeliveryCapReached {
		t.Fatalf("%d deliveries, last outcome %+v; want 5 and the cap", deliveries, res)
	}
	if msgs, _ := s.Messages("dmq"); len(msgs) != 0 {
		t.Fatal("unlimited redelivery must never dead-letter")
	}
	if s.Stats().Broker.RedeliveryCapReached != 1 {
		t.Fatal("cap not reported in stats")
	}
}

func TestTTLExpiryMovesToDMQ(t *testing.T) {
	t.Parallel()
	clock := emulatortest.NewClock()
	s := emulatortest.StartServer(t, emulator.Options{Now: clock.Now, TokenTTL: 1000 * time.Hour})
	mt := emulatortest.Token(t, s, emulator.AudienceManagement)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "dmq", ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "ttl", `{"respectTtl":true,"maxTtl":60,"deadMsgQueue":"dmq","maxRedeliveryCount":0}`), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "nottl", `{"maxTtl":60,"deadMsgQueue":"dmq"}`), http.StatusCreated)
	for _, q := range []string{"ttl", "nottl"} {
		if _, err := s.Publish(q, []byte("m"), ""); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(59 * time.Second)
	if got, _ := s.Queue("ttl"); got.MessageCount != 1 {
		t.Fatal("message expired early")
	}
	clock.Advance(time.Second)
	r := emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", mt, nil, nil)
	var list []emulator.Queue
	r.JSON(t, &list)
	counts := map[string]int64{}
	for _, q := range list {
		counts[q.Name] = q.MessageCount
	}
	if counts["ttl"] != 0 || counts["dmq"] != 1 || counts["nottl"] != 1 {
		t.Fatalf("message counts %v; want the respectTtl queue's message in the DMQ only", counts)
	}
}

func TestTopicPublish(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	mt, tok := tokens(t, s)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "a", ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "b", ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", emulatortest.QPath(s, "a", "/subscriptions/", url.PathEscape("acme/crm/prod/*/created")), mt, nil, nil), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", emulatortest.QPath(s, "b", "/subscriptions/", url.PathEscape("acme/crm/prod/order/changed")), mt, nil, nil), http.StatusCreated)
	topic := s.URL() + emulator.MessagingBasePath + "/topics/" + url.PathEscape("acme/crm/prod/order/created") + "/messages"
	emulatortest.Expect(t, emulatortest.Do(t, "POST", topic, tok, []byte("e"), map[string]string{"x-qos": "1"}), http.StatusNoContent)
	a, _ := s.Queue("a")
	b, _ := s.Queue("b")
	if a.MessageCount != 1 || b.MessageCount != 0 {
		t.Fatalf("a has %d, b has %d messages; want 1 and 0", a.MessageCount, b.MessageCount)
	}
}

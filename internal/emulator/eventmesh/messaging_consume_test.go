package eventmesh_test

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// An unacknowledged QoS 1 delivery returns to its queue after the acknowledgement timeout,
// counted as a delivery; an acknowledgement after it is refused.
func TestRESTUnacknowledgedDeliveryReturns(t *testing.T) {
	t.Parallel()
	clock := emulatortest.NewClock()
	s := emulatortest.StartServer(t, emulator.Options{Now: clock.Now, MessagingAckTimeout: 30 * time.Second})
	mt, tok := tokens(t, s)
	q := "acme/crm/prod/dmq"
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, q, ""), http.StatusCreated)
	publish(t, s, tok, q, "poison")

	id, body := consume1(t, s, tok, q)
	if id == "" || body != "poison" {
		t.Fatalf("consumed %q %q", id, body)
	}
	if again, _ := consume1(t, s, tok, q); again != "" {
		t.Fatal("an unacknowledged message was delivered twice while its delivery was open")
	}
	clock.Advance(29 * time.Second)
	if again, _ := consume1(t, s, tok, q); again != "" {
		t.Fatal("the delivery returned before its acknowledgement timeout")
	}
	clock.Advance(time.Second)
	msgs, _ := s.Messages(q)
	if len(msgs) != 1 || msgs[0].Unacknowledged {
		t.Fatalf("after the timeout the message is %+v, want it back in the queue, available", msgs)
	}
	r := emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/"+id+"/acknowledgement"), tok, nil, map[string]string{"x-qos": "1"})
	emulatortest.Expect(t, r, http.StatusBadRequest)
	r.Message(t)

	id2, _ := consume1(t, s, tok, q)
	if id2 != id {
		t.Fatalf("redelivered ID %q, want %q", id2, id)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/"+id2+"/acknowledgement"), tok, nil, map[string]string{"x-qos": "1"}), http.StatusOK)
	if msgs, _ := s.Messages(q); len(msgs) != 0 {
		t.Fatalf("after the acknowledgement %+v", msgs)
	}
	if st := s.Stats().Broker; st.AckTimedOut != 1 || st.Redelivered != 1 || st.Acknowledged != 1 {
		t.Fatalf("broker stats %+v", st)
	}
}

// An unacknowledged delivery that times out counts against the queue's maxRedeliveryCount
// as any failed delivery does.
func TestRESTUnacknowledgedDeliveryCountsAsFailed(t *testing.T) {
	t.Parallel()
	clock := emulatortest.NewClock()
	s := emulatortest.StartServer(t, emulator.Options{Now: clock.Now, MessagingAckTimeout: time.Second})
	mt, tok := tokens(t, s)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "acme/crm/prod/dmq", ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, "acme/crm/prod/q", `{"maxRedeliveryCount":1,"deadMsgQueue":"acme/crm/prod/dmq"}`), http.StatusCreated)
	publish(t, s, tok, "acme/crm/prod/q", "m")
	for range 2 {
		if id, _ := consume1(t, s, tok, "acme/crm/prod/q"); id == "" {
			t.Fatal("no delivery")
		}
		clock.Advance(time.Second)
	}
	if id, _ := consume1(t, s, tok, "acme/crm/prod/q"); id != "" {
		t.Fatal("delivered a third time past maxRedeliveryCount 1")
	}
	if msgs, _ := s.Messages("acme/crm/prod/dmq"); len(msgs) != 1 {
		t.Fatalf("dead message queue holds %+v", msgs)
	}
}

// A restarted broker gives unacknowledged messages back; their old deliveries cannot be acknowledged.
func TestRESTUnacknowledgedDeliveryAfterRestart(t *testing.T) {
	t.Parallel()
	stateFile := filepath.Join(t.TempDir(), "state.json")
	s1 := emulator.New(emulator.Options{StateFile: stateFile})
	if err := s1.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	mt, tok := tokens(t, s1)
	q := "acme/crm/prod/dmq"
	emulatortest.Expect(t, emulatortest.PutQueue(t, s1, mt, q, ""), http.StatusCreated)
	publish(t, s1, tok, q, "held")
	id, _ := consume1(t, s1, tok, q)
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := emulatortest.StartServer(t, emulator.Options{StateFile: stateFile})
	tok2 := emulatortest.Token(t, s2, emulator.AudienceMessaging)
	msgs, _ := s2.Messages(q)
	if len(msgs) != 1 || msgs[0].Unacknowledged {
		t.Fatalf("after the restart %+v, want the message available", msgs)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s2, q, "/messages/"+id+"/acknowledgement"), tok2, nil, map[string]string{"x-qos": "1"}), http.StatusBadRequest)
	if id2, body := consume1(t, s2, tok2, q); id2 != id || body != "held" {
		t.Fatalf("after the restart consumed %q %q", id2, body)
	}
}

// A publish keeps its CloudEvents headers and Content-Type and gives them back on consumption;
// other request headers are not carried.
func TestRESTMessageHeaders(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	mt, tok := tokens(t, s)
	q := "acme/crm/prod/q"
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, mt, q, ""), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages"), tok, []byte(`{"a":1}`), map[string]string{
		"x-qos": "1", "Content-Type": "application/json", "ce-type": "acme.order.created", "Ce-Id": "42", "X-Custom": "dropped",
	}), http.StatusNoContent)
	r := emulatortest.Do(t, "POST", emulatortest.MPath(s, q, "/messages/consumption"), tok, nil, map[string]string{"x-qos": "1"})
	emulatortest.Expect(t, r, http.StatusOK)
	if r.Header.Get("ce-type") != "acme.order.created" || r.Header.Get("ce-id") != "42" || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("consumed headers %v", r.Header)
	}
	if r.Header.Get("X-Custom") != "" {
		t.Fatalf("a header outside the carried set came back: %v", r.Header)
	}
	if msgs, _ := s.Messages(q); len(msgs) != 1 || msgs[0].Headers["ce-type"] != "acme.order.created" {
		t.Fatalf("messages %+v", msgs)
	}
}

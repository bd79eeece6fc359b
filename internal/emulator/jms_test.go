package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// jmsMinute lets the 30 days of the default expiration pass in about 0.9 s.
const jmsMinute = 20 * time.Microsecond

// deployJMS creates and deploys flow id with a JMS sender on queue (SAP's
// default retry settings overridden by props), an exception subprocess with
// an Error End, and the given guard routers and scripts.
func (e *rtEnv) deployJMS(t *testing.T, id, queue string, props map[string]string, routers []iflowbuild.Router, scripts []iflowbuild.Script) {
	t.Helper()
	p := iflowbuild.DefaultJMSSenderProperties(queue)
	for k, v := range props {
		p[k] = v
	}
	zip := iflowbuild.Build(iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: p}},
		ExceptionEnds: [][]string{{"error"}}, Routers: routers, Scripts: scripts})
	if err := e.s.CreateIFlow(id, id, "JMSTests", zip); err != nil {
		t.Fatal(err)
	}
	e.behaviour(t, id, `{"outcome": "error"}`)
	e.start(t, id)
}

// putJMS puts a message on queue; access names the access type the queue is
// created with when the flow's consumer has not created it yet.
func (e *rtEnv) putJMS(t *testing.T, queue, body string, access ...string) string {
	t.Helper()
	in := emulator.JMSMessageInput{Body: body}
	if len(access) > 0 {
		in.AccessType = access[0]
	}
	id, err := e.s.PutJMSMessage(queue, in)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// jmsRun waits until flow id settled message msg and returns its run.
func (e *rtEnv) jmsRun(t *testing.T, id, msg string) emulator.MessageRun {
	t.Helper()
	var run emulator.MessageRun
	waitFor(t, "message "+msg+" of "+id+" to settle", func() bool {
		for _, r := range e.s.MessageRuns(id) {
			if r.MessageID == msg && r.Settled() {
				run = r
				return true
			}
		}
		return false
	})
	return run
}

// logsOf returns the processing logs of message msg, oldest first.
func (e *rtEnv) logsOf(id, msg string) []emulator.MessageProcessingLog {
	var out []emulator.MessageProcessingLog
	for _, l := range e.s.MessageProcessingLogs(id) {
		if l.ApplicationMessageID == msg {
			out = append(out, l)
		}
	}
	return out
}

func TestJMSWithoutGuardRetriesUntilExpiration(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{JMSMinute: jmsMinute})
	e.deployJMS(t, "JMSNoGuard", "ORDERS", nil, nil, nil)
	msg := e.putJMS(t, "ORDERS", "poison")
	run := e.jmsRun(t, "JMSNoGuard", msg)

	sch := rules.JMSSchedule{RetryInterval: 1, MaxRetryInterval: 60, ExponentialBackoff: true}
	retries, err := sch.RetriesWithin(rules.DefaultJMSExpirationDays * 24 * 60)
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome != emulator.RunExpired || run.Executions != retries+1 {
		t.Fatalf("run = %s after %d executions, want %s after %d (1 + %d retries within 30 days)", run.Outcome, run.Executions, emulator.RunExpired, retries+1, retries)
	}
	if retries != 724 {
		t.Fatalf("rules predict %d retries in 30 days, the reference note says 724", retries)
	}
	logs := e.logsOf("JMSNoGuard", msg)
	if int64(len(logs)) != run.Executions {
		t.Fatalf("%d processing logs for %d executions", len(logs), run.Executions)
	}
	// Every wait is the schedule's: 1, 2, 4, ..., 32, then 60 minutes.
	for n := 1; n < len(logs); n++ {
		got := logs[n].LogStart.Sub(logs[n-1].LogStart)
		if want := time.Duration(sch.Wait(int64(n))) * time.Minute; got != want {
			t.Fatalf("wait before retry %d = %s, want %s", n, got, want)
		}
		if logs[n].Status != emulator.MPLStatusRetry {
			t.Fatalf("log %d status %s, want RETRY", n, logs[n].Status)
		}
	}
	for _, q := range e.s.JMSQueues() {
		if q.Name == "ORDERS" && q.Messages != 0 {
			t.Fatalf("the expired message is still on the queue: %+v", q)
		}
	}
}

func TestJMSGuardEndsMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, cond  string
		inException int
		wantRetries int64
	}{
		{"exception subprocess greater than", "${header.SAPJMSRetries} > 5", 1, rules.JMSGuardStopRetry(5, ">")},
		{"router at least", "${header.SAPJMSRetries} >= 3", 0, rules.JMSGuardStopRetry(3, ">=")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newRTEnv(t, emulator.Options{JMSMinute: jmsMinute})
			e.deployJMS(t, "JMSGuard", "INVOICES", nil, []iflowbuild.Router{{Condition: tc.cond, InException: tc.inException}}, nil)
			msg := e.putJMS(t, "INVOICES", "poison")
			run := e.jmsRun(t, "JMSGuard", msg)
			if run.Outcome != emulator.RunGuardEnded || run.Executions != tc.wantRetries+1 {
				t.Fatalf("run = %s after %d executions (%s), want %s after %d", run.Outcome, run.Executions, run.Reason, emulator.RunGuardEnded, tc.wantRetries+1)
			}
			logs := e.logsOf("JMSGuard", msg)
			if last := logs[len(logs)-1]; last.Status != emulator.MPLStatusEscalated {
				t.Fatalf("last log status %s, want ESCALATED", last.Status)
			}
			sch := rules.JMSSchedule{RetryInterval: 1, MaxRetryInterval: 60, ExponentialBackoff: true}
			want, _ := sch.GiveUpMinutes(tc.wantRetries)
			if got := logs[len(logs)-1].LogStart.Sub(logs[0].LogStart); got != time.Duration(want)*time.Minute {
				t.Fatalf("given up after %s, rules say %d minutes", got, want)
			}
		})
	}
}

func TestJMSExclusiveQueueHasNoRetryHeader(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{JMSMinute: jmsMinute})
	// On an exclusive queue SAPJMSRetries is not set, so the guard never fires.
	e.deployJMS(t, "JMSExclusive", "EXCL", map[string]string{"AccessType": "Exclusive", "MaxRetryInterval": "180"},
		[]iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 2", InException: 1}}, nil)
	msg := e.putJMS(t, "EXCL", "poison", emulator.JMSExclusive)
	run := e.jmsRun(t, "JMSExclusive", msg)
	sch := rules.JMSSchedule{RetryInterval: 1, MaxRetryInterval: 180, ExponentialBackoff: true}
	retries, _ := sch.RetriesWithin(30 * 24 * 60)
	if run.Outcome != emulator.RunExpired || run.Executions != retries+1 {
		t.Fatalf("run = %s after %d executions, want expired after %d", run.Outcome, run.Executions, retries+1)
	}
}

func TestJMSExclusiveQueueBlocksBehindFailingMessage(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{JMSMinute: time.Millisecond})
	e.deployJMS(t, "JMSBlock", "BLOCK", map[string]string{"AccessType": "Exclusive"}, nil, nil)
	first := e.putJMS(t, "BLOCK", "poison", emulator.JMSExclusive)
	second := e.putJMS(t, "BLOCK", "second")
	waitFor(t, "retries of the first message", func() bool { return len(e.logsOf("JMSBlock", first)) >= 3 })
	if n := len(e.logsOf("JMSBlock", second)); n != 0 {
		t.Fatalf("the second message ran %d times behind a failing first message on an exclusive queue", n)
	}
}

func TestJMSGuardWithInvisibleLimitIsUnbounded(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{JMSMinute: jmsMinute})
	e.deployJMS(t, "JMSScript", "SCRIPTED", nil, nil,
		[]iflowbuild.Script{{File: "guard.groovy", Content: `def n = message.getHeaders().get("SAPJMSRetries")`, InException: 1}})
	msg := e.putJMS(t, "SCRIPTED", "poison")
	if run := e.jmsRun(t, "JMSScript", msg); run.Outcome != emulator.RunExpired {
		t.Fatalf("run = %s, want expired: the script's limit is not visible", run.Outcome)
	}
}

func TestJMSSuccessAndOutOfRangeSettings(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{JMSMinute: jmsMinute})
	e.deployJMS(t, "JMSOK", "GOOD", nil, nil, nil)
	e.behaviour(t, "JMSOK", `{"outcome": "error", "fail_first": 2}`)
	msg := e.putJMS(t, "GOOD", "ok")
	if run := e.jmsRun(t, "JMSOK", msg); run.Outcome != emulator.RunCompleted || run.Executions != 3 {
		t.Fatalf("run = %s after %d executions, want completed after 3", run.Outcome, run.Executions)
	}
	// Retry Interval 61 is outside SAP's exclusive range 1-60: the channel does not consume.
	e.deployJMS(t, "JMSBad", "BAD", map[string]string{"AccessType": "Exclusive", "RetryInterval": "61"}, nil, nil)
	bad := e.putJMS(t, "BAD", "x", emulator.JMSExclusive)
	time.Sleep(50 * time.Millisecond)
	if len(e.logsOf("JMSBad", bad)) != 0 {
		t.Fatal("a JMS sender with a retry interval outside SAP's range consumed a message")
	}
}

func TestJMSLimitsAndValidation(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{JMSMaxQueues: 2, JMSMaxCapacity: 100})
	for _, c := range []struct {
		queue string
		in    emulator.JMSMessageInput
		want  string
	}{
		{"bad-name", emulator.JMSMessageInput{}, "not valid"},
		{strings.Repeat("Q", 81), emulator.JMSMessageInput{}, "not valid"},
		{"Q1", emulator.JMSMessageInput{ExpirationDays: 181}, "expiration_days"},
		{"Q1", emulator.JMSMessageInput{AccessType: "Shared"}, "access_type"},
		{"Q1", emulator.JMSMessageInput{Body: strings.Repeat("x", 96)}, "exhausted"},
	} {
		if _, err := s.PutJMSMessage(c.queue, c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("PutJMSMessage(%.10s, %+v) = %v, want an error with %q", c.queue, c.in, err, c.want)
		}
	}
	if _, err := s.PutJMSMessage("Q1", emulator.JMSMessageInput{Body: strings.Repeat("x", 95)}); err != nil {
		t.Fatalf("95%% of the capacity: %v", err)
	}
	if _, err := s.PutJMSMessage("Q2", emulator.JMSMessageInput{AccessType: emulator.JMSExclusive}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutJMSMessage("Q3", emulator.JMSMessageInput{}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("a third queue over a limit of 2: %v", err)
	}
	if _, err := s.PutJMSMessage("Q2", emulator.JMSMessageInput{AccessType: emulator.JMSNonExclusive}); err == nil {
		t.Fatal("the access type of an existing queue changed")
	}
}

// TestJMSMonitoringAPI reads the broker, queues and messages through the
// cpi client against the emulator's OData answers.
func TestJMSMonitoringAPI(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{JMSMaxQueues: 3, JMSMaxCapacity: 1000})
	ctx := context.Background()
	b, err := e.cpi.JMSBroker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b.Key != "Broker1" || b.MaxQueueNumber != 3 || b.MaxCapacity != 1000 || b.QueueNumber != 0 || len(b.QueueStates) != 0 {
		t.Fatalf("empty broker = %+v", b)
	}
	e.putJMS(t, "A", "12345")
	e.putJMS(t, "A", "678")
	if _, err := e.s.PutJMSMessage("B", emulator.JMSMessageInput{Body: strings.Repeat("y", 900), AccessType: emulator.JMSExclusive}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.SetJMSQueueActive("B", false); err != nil {
		t.Fatal(err)
	}
	b, err = e.cpi.JMSBroker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b.QueueNumber != 2 || b.Capacity != 908 || !b.IsQueuesHigh || !b.IsMessageSpoolHigh || b.CapacityWarning != 1 || b.CapacityOk != 0 {
		t.Fatalf("broker = %+v", b)
	}
	if fmt.Sprint(b.QueueStates) != "[{A 0} {B 0}]" || fmt.Sprint(b.InactiveQueues) != "[B]" {
		t.Fatalf("states %v, inactive %v", b.QueueStates, b.InactiveQueues)
	}
	qs, err := e.cpi.JMSQueues(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].Name != "A" || qs[0].Messages != 2 || qs[0].Size != 8 || !qs[0].Active || qs[0].Type != "Non-Exclusive" ||
		qs[1].Active || qs[1].Type != "Exclusive" {
		t.Fatalf("queues = %+v", qs)
	}
	ms, err := e.cpi.JMSQueueMessages(ctx, "A")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Queue != "A" || ms[0].Failed || ms[0].ExpirationDate.Sub(ms[0].CreatedAt) != 30*24*time.Hour ||
		ms[0].OverdueAt.Sub(ms[0].CreatedAt) != 48*time.Hour {
		t.Fatalf("messages = %+v", ms)
	}
	if _, err := e.cpi.JMSQueueMessages(ctx, "MISSING"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("messages of a missing queue: %v, want ErrNotFound", err)
	}
	// Only GET is served; Int64 fields are strings as in OData v2 JSON.
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", e.s.URL()+"/api/v1/Queues('A')", e.ci, nil, nil), http.StatusMethodNotAllowed)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", e.s.URL()+"/api/v1/JmsBrokers('Broker2')", e.ci, nil, nil), http.StatusNotFound)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", e.s.URL()+"/api/v1/JmsBrokers('Broker1')?$expand=Queues", e.ci, nil, nil), http.StatusBadRequest)
	raw := emulatortest.Do(t, "GET", e.s.URL()+"/api/v1/JmsBrokers('Broker1')", e.ci, nil, nil)
	emulatortest.Expect(t, raw, http.StatusOK)
	if !strings.Contains(string(raw.Body), `"MaxCapacity":"1000"`) || !strings.Contains(string(raw.Body), `"__deferred"`) {
		t.Fatalf("broker answer = %s", raw.Body)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "GET", e.s.URL()+"/api/v1/Queues", "", nil, nil), http.StatusUnauthorized)
}

// TestJMSControlEndpoint puts a message through the control endpoint.
func TestJMSControlEndpoint(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	c := s.URL() + emulator.ControlBasePath + "/jms/queues"
	emulatortest.Expect(t, emulatortest.Do(t, "POST", c+"/CTRL/messages", "", []byte(`{"body": "hello", "expiration_days": 2}`), nil), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.Do(t, "POST", c+"/CTRL/messages", "", []byte(`{"bodyy": "x"}`), nil), http.StatusBadRequest)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", c+"/CTRL/active", "", []byte(`{"active": false}`), nil), http.StatusNoContent)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", c+"/NOPE/active", "", []byte(`{"active": false}`), nil), http.StatusNotFound)
	qs := s.JMSQueues()
	if len(qs) != 1 || qs[0].Messages != 1 || qs[0].Active {
		t.Fatalf("queues = %+v", qs)
	}
}

func TestJMSExpirationWithoutConsumer(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{JMSMinute: time.Microsecond})
	if _, err := s.PutJMSMessage("IDLE", emulator.JMSMessageInput{ExpirationDays: 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the unconsumed message to expire", func() bool { return s.JMSQueues()[0].Messages == 0 })
}

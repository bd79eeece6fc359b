package emulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// waitTimeout bounds every wait for the runtime.
const waitTimeout = 30 * time.Second

// cpiBase is the base path of the Cloud Integration OData API.
const cpiBase = emulator.CloudIntegrationBasePath

// waitFor polls cond until it holds, failing the test after waitTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", waitTimeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// rtEnv is an emulator with queues and deployed flows for runtime tests.
type rtEnv struct {
	s   *emulator.Server
	cpi *cpi.Client
	mgt string // management token
	msg string // messaging token
	ci  string // Cloud Integration token
}

func newRTEnv(t *testing.T, opts emulator.Options) *rtEnv {
	t.Helper()
	s := emulatortest.StartServer(t, opts)
	s.SetDeployDelay(0)
	id, secret := emulatortest.Creds(t, s, emulator.AudienceCloudIntegration)
	h, err := httpx.New(httpx.Config{
		BaseURL: s.URL(), TokenURL: s.URL() + emulator.TokenPath, ClientID: id, ClientSecret: secret,
		CSRFFetchPath: cpi.CSRFFetchPath, MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond,
		RequestTimeout: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &rtEnv{s: s, cpi: cpi.New(h),
		mgt: emulatortest.Token(t, s, emulator.AudienceManagement),
		msg: emulatortest.Token(t, s, emulator.AudienceMessaging),
		ci:  emulatortest.Token(t, s, emulator.AudienceCloudIntegration)}
}

// queues creates a dead message queue and a queue with maxRedeliveryCount r
// (nil leaves it unset, which means 0) that dead-letters into it.
func (e *rtEnv) queues(t *testing.T, name string, r *int) (queue, dmq string) {
	t.Helper()
	queue, dmq = "acme/crm/prod/"+name, "acme/crm/prod/"+name+"/dmq"
	emulatortest.Expect(t, emulatortest.PutQueue(t, e.s, e.mgt, dmq, `{}`), http.StatusCreated)
	body := fmt.Sprintf(`{"deadMsgQueue": %q}`, dmq)
	if r != nil {
		body = fmt.Sprintf(`{"deadMsgQueue": %q, "maxRedeliveryCount": %d}`, dmq, *r)
	}
	emulatortest.Expect(t, emulatortest.PutQueue(t, e.s, e.mgt, queue, body), http.StatusCreated)
	return queue, dmq
}

// deploy creates integration flow id with one AMQP sender on queue and
// deploys it through the Cloud Integration API.
func (e *rtEnv) deploy(t *testing.T, id, queue string, props map[string]string, ends [][]string, params map[string]string) {
	t.Helper()
	e.create(t, id, queue, props, ends, params)
	e.start(t, id)
}

// create creates integration flow id with one AMQP sender on queue.
func (e *rtEnv) create(t *testing.T, id, queue string, props map[string]string, ends [][]string, params map[string]string) {
	t.Helper()
	p := iflowbuild.DefaultSenderProperties(queue)
	for k, v := range props {
		p[k] = v
	}
	zip := iflowbuild.Build(iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{{Properties: p}}, ExceptionEnds: ends, Parameters: params})
	if err := e.s.CreateIFlow(id, id, "RuntimeTests", zip); err != nil {
		t.Fatal(err)
	}
}

// start deploys the existing integration flow id and waits until it runs.
func (e *rtEnv) start(t *testing.T, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if _, err := e.cpi.DeployAndWait(ctx, id, "active", 5*time.Millisecond); err != nil {
		t.Fatalf("deploying %s: %v", id, err)
	}
}

// behaviour sets the behaviour of flow id through the control endpoint.
func (e *rtEnv) behaviour(t *testing.T, id, body string) {
	t.Helper()
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", e.s.URL()+emulator.ControlBasePath+"/iflows/"+url.PathEscape(id)+"/behaviour", "", []byte(body), nil), http.StatusOK)
}

// publish sends a message through the messaging REST API.
func (e *rtEnv) publish(t *testing.T, queue, body string) {
	t.Helper()
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(e.s, queue, "/messages"), e.msg, []byte(body), map[string]string{"x-qos": "1", "Content-Type": "text/plain"}), http.StatusNoContent)
}

// settled waits until flow id settled n messages and returns its runs.
func (e *rtEnv) settled(t *testing.T, id string, n int) []emulator.MessageRun {
	t.Helper()
	var runs []emulator.MessageRun
	waitFor(t, fmt.Sprintf("%d settled messages of %s", n, id), func() bool {
		runs = e.s.MessageRuns(id)
		done := 0
		for _, r := range runs {
			if r.Settled() {
				done++
			}
		}
		return done >= n
	})
	return runs
}

// wireMPL is a MessageProcessingLog as the OData API returns it.
type wireMPL struct {
	MessageGuid          string `json:"MessageGuid"`
	CorrelationID        string `json:"CorrelationId"`
	ApplicationMessageID string `json:"ApplicationMessageId"`
	IntegrationFlowName  string `json:"IntegrationFlowName"`
	Status               string `json:"Status"`
	LogStart             string `json:"LogStart"`
	LogEnd               string `json:"LogEnd"`
	IntegrationArtifact  struct {
		ID string `json:"Id"`
	} `json:"IntegrationArtifact"`
}

// mpls lists the processing logs through the OData API with query options.
func (e *rtEnv) mpls(t *testing.T, query url.Values) ([]wireMPL, emulatortest.Resp) {
	t.Helper()
	r := emulatortest.Do(t, "GET", e.s.URL()+cpiBase+"/MessageProcessingLogs?"+query.Encode(), e.ci, nil, map[string]string{"Accept": "application/json"})
	if r.Status != http.StatusOK {
		return nil, r
	}
	var env struct {
		D struct {
			Results []wireMPL `json:"results"`
			Count   string    `json:"__count"`
		} `json:"d"`
	}
	r.JSON(t, &env)
	return env.D.Results, r
}

func (e *rtEnv) flowMPLs(t *testing.T, id string) []wireMPL {
	t.Helper()
	logs, r := e.mpls(t, url.Values{"$filter": {"IntegrationFlowName eq '" + strings.ReplaceAll(id, "'", "''") + "'"}})
	emulatortest.Expect(t, r, http.StatusOK)
	return logs
}

func statuses(logs []wireMPL) string {
	s := make([]string, len(logs))
	for i, l := range logs {
		s[i] = l.Status
	}
	return strings.Join(s, ",")
}

var odataDateRE = regexp.MustCompile(`^/Date\([0-9]+\)/$`)

func intp(v int) *int { return &v }

// TestPoisonMessageTotals replays seed 000: one always-failing message on a
// queue with maxRedeliveryCount R, consumed by a flow whose AMQP sender has
// maxRetries n and deliveryState REJECTED, takes (R + 1) × n + 1 executions
// and then sits in the dead message queue.
func TestPoisonMessageTotals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		r, n                 int
		prefetch, concurrent int
		want                 int
	}{
		{r: 1, n: 1, want: 3},
		{r: 2, n: 2, want: 7},
		{r: 1, n: 4, want: 9},
		// maxRetries 0: the redeliveries get the outcome at once, unprocessed.
		{r: 2, n: 0, want: 1},
		// Prefetch and concurrency do not multiply the attempts.
		{r: 2, n: 2, prefetch: 5, concurrent: 3, want: 7},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("R%d_n%d_p%d_c%d", tc.r, tc.n, tc.prefetch, tc.concurrent), func(t *testing.T) {
			t.Parallel()
			e := newRTEnv(t, emulator.Options{})
			id := fmt.Sprintf("Poison_R%d_n%d", tc.r, tc.n)
			queue, dmq := e.queues(t, "poison", intp(tc.r))
			props := map[string]string{"maxRetries": strconv.Itoa(tc.n), "queuePrefetch": "1", "NumberConcurrentProcesses": "1"}
			if tc.prefetch > 0 {
				props["queuePrefetch"], props["NumberConcurrentProcesses"] = strconv.Itoa(tc.prefetch), strconv.Itoa(tc.concurrent)
			}
			e.deploy(t, id, queue, props, [][]string{{"error"}}, nil)
			e.behaviour(t, id, `{"outcome": "error"}`)
			e.publish(t, queue, "poison")

			runs := e.settled(t, id, 1)
			run := runs[0]
			if run.Executions != int64(tc.want) || run.Outcome != emulator.RunDeadLettered || run.DeadMsgQueue != dmq {
				t.Fatalf("run %+v: want %d executions and the message dead-lettered into %s", run, tc.want, dmq)
			}
			if run.Deliveries != int64(tc.r+1) {
				t.Errorf("the message was delivered %d times, want R+1 = %d", run.Deliveries, tc.r+1)
			}
			dead, ok := e.s.Messages(dmq)
			if !ok || len(dead) != 1 || dead[0].DeadFrom != queue || dead[0].Body != "poison" {
				t.Fatalf("dead message queue holds %+v, want the poison message from %s", dead, queue)
			}
			if left, _ := e.s.Messages(queue); len(left) != 0 {
				t.Fatalf("queue still holds %+v", left)
			}

			logs := e.flowMPLs(t, id)
			if len(logs) != tc.want {
				t.Fatalf("%d processing logs (%s), want %d", len(logs), statuses(logs), tc.want)
			}
			failed := tc.r + 1
			if tc.n == 0 {
				failed = 1
			}
			var gotFailed, gotRetry int
			for _, l := range logs {
				switch l.Status {
				case emulator.MPLStatusFailed:
					gotFailed++
				case emulator.MPLStatusRetry:
					gotRetry++
				default:
					t.Errorf("log status %s, want RETRY or FAILED", l.Status)
				}
				if l.CorrelationID != run.CorrelationID || l.ApplicationMessageID != run.MessageID || l.IntegrationFlowName != id || l.IntegrationArtifact.ID != id {
					t.Errorf("log %+v does not belong to run %+v", l, run)
				}
				if !odataDateRE.MatchString(l.LogStart) || !odataDateRE.MatchString(l.LogEnd) {
					t.Errorf("LogStart %q / LogEnd %q are not OData dates", l.LogStart, l.LogEnd)
				}
			}
			if gotFailed != failed || gotRetry != tc.want-failed {
				t.Errorf("statuses %s: %d FAILED and %d RETRY, want %d and %d", statuses(logs), gotFailed, gotRetry, failed, tc.want-failed)
			}
			if logs[len(logs)-1].Status != emulator.MPLStatusFailed {
				t.Errorf("the last execution has status %s, want FAILED", logs[len(logs)-1].Status)
			}
			st := e.s.RuntimeStats(id)
			if st.Executions != int64(tc.want) || st.Rejected != int64(tc.r+1) || st.DeadLettered != 1 {
				t.Errorf("stats %+v: want %d executions, %d rejections, 1 dead-lettered", st, tc.want, tc.r+1)
			}
		})
	}
}

// TestUndeliverableNeverReachesDMQ: MODIFIED_FAILED_UNDELIVERABLE cancels
// the outer loop: 1 + n executions and the message is gone, not dead-lettered.
func TestUndeliverableNeverReachesDMQ(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{})
	queue, dmq := e.queues(t, "undeliverable", intp(2))
	e.deploy(t, "Undeliverable", queue, map[string]string{"maxRetries": "2", "deliveryState": "MODIFIED_FAILED_UNDELIVERABLE"}, [][]string{{"error"}}, nil)
	e.behaviour(t, "Undeliverable", `{"outcome": "error"}`)
	e.publish(t, queue, "poison")

	run := e.settled(t, "Undeliverable", 1)[0]
	if run.Outcome != emulator.RunUndeliverable || run.Executions != 3 || run.Deliveries != 1 {
		t.Fatalf("run %+v: want undeliverable after 3 executions in 1 delivery", run)
	}
	if dead, _ := e.s.Messages(dmq); len(dead) != 0 {
		t.Fatalf("the dead message queue holds %+v, want nothing", dead)
	}
	if left, _ := e.s.Messages(queue); len(left) != 0 {
		t.Fatalf("the queue still holds %+v", left)
	}
	if got := statuses(e.flowMPLs(t, "Undeliverable")); got != "RETRY,RETRY,FAILED" {
		t.Fatalf("statuses %s, want RETRY,RETRY,FAILED", got)
	}
}

// TestEscalationConsumesAfterOneExecution: an Escalation End acknowledges
// the message: one execution, status ESCALATED, nothing retried.
func TestEscalationConsumesAfterOneExecution(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{})
	queue, dmq := e.queues(t, "escalation", intp(3))
	e.deploy(t, "Escalation", queue, map[string]string{"maxRetries": "2"}, [][]string{{"escalation"}}, nil)
	e.behaviour(t, "Escalation", `{"outcome": "escalation"}`)
	e.publish(t, queue, "handled")

	run := e.settled(t, "Escalation", 1)[0]
	if run.Outcome != emulator.RunEscalated || run.Executions != 1 || run.Deliveries != 1 {
		t.Fatalf("run %+v: want escalated after 1 execution", run)
	}
	if got := statuses(e.flowMPLs(t, "Escalation")); got != "ESCALATED" {
		t.Fatalf("statuses %s, want ESCALATED", got)
	}
	if dead, _ := e.s.Messages(dmq); len(dead) != 0 {
		t.Fatalf("the dead message queue holds %+v", dead)
	}
	if left, _ := e.s.Messages(queue); len(left) != 0 {
		t.Fatalf("the queue still holds %+v", left)
	}
}

// TestFailFirstSucceedsLater: the first k executions fail, a later one
// succeeds, within the inner loop or after a redelivery.
func TestFailFirstSucceedsLater(t *testing.T) {
	t.Parallel()
	cases := []struct {
		failFirst  int
		want       string
		deliveries int64
	}{
		{failFirst: 1, want: "RETRY,COMPLETED", deliveries: 1},
		{failFirst: 2, want: "RETRY,FAILED,COMPLETED", deliveries: 2},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("fail_first_%d", tc.failFirst), func(t *testing.T) {
			t.Parallel()
			e := newRTEnv(t, emulator.Options{})
			queue, dmq := e.queues(t, "failfirst", intp(1))
			e.deploy(t, "FailFirst", queue, map[string]string{"maxRetries": "1"}, [][]string{{"error"}}, nil)
			e.behaviour(t, "FailFirst", fmt.Sprintf(`{"outcome": "error", "fail_first": %d}`, tc.failFirst))
			e.publish(t, queue, "flaky")

			run := e.settled(t, "FailFirst", 1)[0]
			if run.Outcome != emulator.RunCompleted || run.Deliveries != tc.deliveries {
				t.Fatalf("run %+v: want completed in delivery %d", run, tc.deliveries)
			}
			if got := statuses(e.flowMPLs(t, "FailFirst")); got != tc.want {
				t.Fatalf("statuses %s, want %s", got, tc.want)
			}
			if dead, _ := e.s.Messages(dmq); len(dead) != 0 {
				t.Fatalf("the dead message queue holds %+v", dead)
			}
		})
	}
}

// TestExceptionBehaviourFollowsTheFlow: outcome "exception" lets the
// deployed exception subprocess decide between NACK and ACK.
func TestExceptionBehaviourFollowsTheFlow(t *testing.T) {
	t.Parallel()
	cases := []struct {
		end     string
		outcome emulator.RunOutcome
		want    string
	}{
		{end: "error", outcome: emulator.RunDeadLettered, want: "RETRY,FAILED,FAILED"},
		{end: "escalation", outcome: emulator.RunEscalated, want: "ESCALATED"},
		{end: "message", outcome: emulator.RunCompleted, want: "COMPLETED"},
	}
	for _, tc := range cases {
		t.Run(tc.end, func(t *testing.T) {
			t.Parallel()
			e := newRTEnv(t, emulator.Options{})
			queue, _ := e.queues(t, "exception", intp(1))
			e.deploy(t, "Exception", queue, map[string]string{"maxRetries": "1"}, [][]string{{tc.end}}, nil)
			e.behaviour(t, "Exception", `{"outcome": "exception"}`)
			e.publish(t, queue, "x")
			run := e.settled(t, "Exception", 1)[0]
			if run.Outcome != tc.outcome {
				t.Fatalf("run %+v: want outcome %s", run, tc.outcome)
			}
			if got := statuses(e.flowMPLs(t, "Exception")); got != tc.want {
				t.Fatalf("statuses %s, want %s", got, tc.want)
			}
		})
	}
}

// TestUnlimitedRedeliveryHitsSafetyCap: maxRedeliveryCount 0 redelivers
// without end; the emulator stops at RedeliveryCap deliveries and says so.
func TestUnlimitedRedeliveryHitsSafetyCap(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{RedeliveryCap: 5})
	queue, dmq := e.queues(t, "unlimited", nil)
	e.deploy(t, "Unlimited", queue, map[string]string{"maxRetries": "1"}, [][]string{{"error"}}, nil)
	e.behaviour(t, "Unlimited", `{"outcome": "error"}`)
	e.publish(t, queue, "poison")

	run := e.settled(t, "Unlimited", 1)[0]
	if run.Outcome != emulator.RunRedeliveryCapReached || run.Executions != 1+5*1 || run.Deliveries != 5 {
		t.Fatalf("run %+v: want the redelivery cap reached after 5 deliveries and 6 executions", run)
	}
	if !strings.Contains(run.Reason, "maxRedeliveryCount 0") || !strings.Contains(run.Reason, "5 deliveries") {
		t.Fatalf("reason %q does not report the cap", run.Reason)
	}
	if dead, _ := e.s.Messages(dmq); len(dead) != 0 {
		t.Fatalf("the dead message queue holds %+v", dead)
	}
	if st := e.s.RuntimeStats("Unlimited"); st.RedeliveryCapReached != 1 {
		t.Fatalf("stats %+v: want one redeliveryCapReached", st)
	}
	if st := e.s.Stats().Broker; st.RedeliveryCapReached != 1 {
		t.Fatalf("broker stats %+v: want one redeliveryCapReached", st)
	}
}

// TestEndlessRetriesHitSafetyCap: an empty maxRetries retries without end;
// the emulator stops after RetryCap retries and reports it.
func TestEndlessRetriesHitSafetyCap(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{RetryCap: 4})
	queue, dmq := e.queues(t, "endless", intp(1))
	e.deploy(t, "Endless", queue, map[string]string{"maxRetries": ""}, [][]string{{"error"}}, nil)
	e.behaviour(t, "Endless", `{"outcome": "error"}`)
	e.publish(t, queue, "poison")

	run := e.settled(t, "Endless", 1)[0]
	if run.Outcome != emulator.RunRetryCapReached || run.Executions != 1+4 || !strings.Contains(run.Reason, "maxRetries") {
		t.Fatalf("run %+v: want the retry cap reached after 5 executions, with a reason", run)
	}
	if c := e.s.RuntimeStats("Endless"); c.RetryCapReached != 1 {
		t.Fatalf("stats %+v: want one retryCapReached", c)
	}
	if dead, _ := e.s.Messages(dmq); len(dead) != 0 {
		t.Fatalf("the dead message queue holds %+v", dead)
	}
}

// TestPrefetchLockDuplicates: one lock clock covers a prefetched batch;
// with slow processing and one worker the waiting messages' lock expires
// and they are delivered again. Concurrency or a long lock avoid it.
func TestPrefetchLockDuplicates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		lock       time.Duration
		concurrent string
		duplicates bool
	}{
		{name: "short_lock_one_worker", lock: 200 * time.Millisecond, concurrent: "1", duplicates: true},
		{name: "long_lock", lock: time.Minute, concurrent: "1", duplicates: false},
		{name: "short_lock_five_workers", lock: 2 * time.Second, concurrent: "5", duplicates: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newRTEnv(t, emulator.Options{LockDuration: tc.lock})
			queue, _ := e.queues(t, "batch", intp(10))
			e.create(t, "Batch", queue, map[string]string{"queuePrefetch": "5", "NumberConcurrentProcesses": tc.concurrent}, nil, nil)
			e.behaviour(t, "Batch", `{"outcome": "success", "processing_ms": 60}`)
			const n = 5
			for i := range n {
				e.publish(t, queue, fmt.Sprint("m", i))
			}
			e.start(t, "Batch")

			runs := e.settled(t, "Batch", n)
			var dups, execs, deliveries int64
			for _, r := range runs {
				if r.Outcome != emulator.RunCompleted {
					t.Fatalf("run %+v: want completed", r)
				}
				if r.Executions != r.Deliveries || r.Deliveries != 1+r.Duplicates {
					t.Errorf("run %+v: every delivery is executed once and every duplicate adds one delivery", r)
				}
				dups += r.Duplicates
				execs += r.Executions
				deliveries += r.Deliveries
			}
			if left, _ := e.s.Messages(queue); len(left) != 0 {
				t.Fatalf("the queue still holds %+v", left)
			}
			st := e.s.RuntimeStats("Batch")
			if st.Duplicates != dups || st.Executions != execs {
				t.Errorf("stats %+v disagree with the runs (%d duplicates, %d executions)", st, dups, execs)
			}
			if tc.duplicates && dups == 0 {
				t.Fatalf("no duplicate deliveries with a %s lock, prefetch 5 and 60 ms per message on one worker", tc.lock)
			}
			if !tc.duplicates && (dups != 0 || execs != n) {
				t.Fatalf("%d duplicates and %d executions, want 0 and %d", dups, execs, n)
			}
		})
	}
}

// TestRuntimeFollowsDeployments: a redeploy applies new parameter values,
// an undeploy stops the consumer, and Close stops every goroutine.
func TestRuntimeFollowsDeployments(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{})
	queue, _ := e.queues(t, "lifecycle", intp(1))
	e.deploy(t, "Lifecycle", queue, map[string]string{"maxRetries": "{{Retries}}", "queuePrefetch": "{{Prefetch}}"}, [][]string{{"error"}},
		map[string]string{"Retries": "1", "Prefetch": "2"})
	consumer := func() (emulator.Consumer, bool) {
		for _, c := range e.s.Consumers() {
			if c.IFlowID == "Lifecycle" {
				return c, true
			}
		}
		return emulator.Consumer{}, false
	}
	waitFor(t, "the consumer of the first deploy", func() bool {
		c, ok := consumer()
		return ok && c.MaxRetries != nil && *c.MaxRetries == 1
	})
	consumerCount := func() int64 {
		q, _ := e.s.Queue(queue)
		return q.ConsumerCount
	}
	waitFor(t, "consumerCount 1 while the flow consumes", func() bool { return consumerCount() == 1 })
	first, _ := consumer()
	if first.Queue != queue || first.QueuePrefetch != 2 || first.DeliveryState != emulator.DeliveryStateRejected || first.ExceptionEnd != "error" {
		t.Fatalf("consumer %+v does not reflect the flow", first)
	}

	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := e.cpi.SetConfiguration(ctx, "Lifecycle", "active", "Retries", "3", "xsd:integer"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cpi.DeployAndWait(ctx, "Lifecycle", "active", 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the consumer of the redeploy", func() bool {
		c, ok := consumer()
		return ok && c.TaskID != first.TaskID && c.MaxRetries != nil && *c.MaxRetries == 3
	})
	e.behaviour(t, "Lifecycle", `{"outcome": "error"}`)
	e.publish(t, queue, "poison")
	if run := e.settled(t, "Lifecycle", 1)[0]; run.Executions != (1+1)*3+1 {
		t.Fatalf("run %+v: want (1+1)*3+1 = 7 executions after the redeploy", run)
	}

	if err := e.cpi.Undeploy(ctx, "Lifecycle"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the consumer to stop after the undeploy", func() bool {
		_, ok := consumer()
		return !ok && e.s.ActiveConsumers() == 0
	})
	if n := consumerCount(); n != 0 {
		t.Fatalf("consumerCount %d after the undeploy", n)
	}

	e.deploy(t, "Other", queue, nil, nil, nil)
	waitFor(t, "a running consumer", func() bool { return e.s.ActiveConsumers() == 1 })
	if err := e.s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := e.s.ActiveConsumers(); n != 0 {
		t.Fatalf("%d consumers still run after Close", n)
	}
	if got := e.s.Consumers(); len(got) != 0 {
		t.Fatalf("Consumers() after Close: %+v", got)
	}
}

// TestBehaviourEndpoint checks the control endpoint's validation.
func TestBehaviourEndpoint(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", iflowbuild.Build(iflowbuild.Options{Name: "Flow"})); err != nil {
		t.Fatal(err)
	}
	u := s.URL() + emulator.ControlBasePath + "/iflows/Flow/behaviour"
	if r := emulatortest.Do(t, "GET", u, "", nil, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"outcome":"success"`) {
		t.Fatalf("default behaviour: %d %s", r.Status, r.Body)
	}
	r := emulatortest.Do(t, "PUT", u, "", []byte(`{"outcome": "error", "fail_first": 2}`), nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var b emulator.Behaviour
	r.JSON(t, &b)
	if b != (emulator.Behaviour{Outcome: emulator.FlowError, FailFirst: 2}) || s.IFlowBehaviour("Flow") != b {
		t.Fatalf("behaviour %+v, stored %+v", b, s.IFlowBehaviour("Flow"))
	}
	for _, body := range []string{
		`{"outcome": "explode"}`,
		`{"outcome": "error", "fail_first": -1}`,
		`{"outcome": "success", "fail_first": 1}`,
		`{"outcome": "error", "retries": 1}`,
		`{"outcome": "error", "processing_ms": -5}`,
		`not json`,
	} {
		r := emulatortest.Do(t, "PUT", u, "", []byte(body), nil)
		emulatortest.Expect(t, r, http.StatusBadRequest)
		if msg := r.Message(t); !strings.HasSuffix(msg, ".") {
			t.Errorf("%s: message %q is not a sentence", body, msg)
		}
	}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", s.URL()+emulator.ControlBasePath+"/iflows/Missing/behaviour", "", []byte(`{"outcome":"error"}`), nil), http.StatusNotFound)
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", u, "", nil, nil), http.StatusNoContent)
	if got := s.IFlowBehaviour("Flow"); got.Outcome != emulator.FlowSuccess {
		t.Fatalf("behaviour after DELETE: %+v", got)
	}
	if err := s.SetBehaviour("Missing", emulator.Behaviour{}); err == nil {
		t.Fatal("SetBehaviour accepted an unknown flow")
	}
}

// TestMessageProcessingLogsAPI checks the OData list: authentication,
// $filter, $orderby, $top, $inlinecount and single entities.
func TestMessageProcessingLogsAPI(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{})
	queueA, _ := e.queues(t, "a", intp(1))
	queueB, _ := e.queues(t, "b", intp(1))
	e.deploy(t, "FlowA", queueA, map[string]string{"maxRetries": "1"}, nil, nil)
	e.deploy(t, "FlowB", queueB, nil, nil, nil)
	e.behaviour(t, "FlowA", `{"outcome": "error"}`)
	e.publish(t, queueA, "a")
	e.publish(t, queueB, "b")
	e.settled(t, "FlowA", 1)
	e.settled(t, "FlowB", 1)

	emulatortest.Expect(t, emulatortest.Do(t, "GET", e.s.URL()+cpiBase+"/MessageProcessingLogs", "", nil, nil), http.StatusUnauthorized)
	if got := e.s.MessageProcessingLogs(""); len(got) != 4 {
		t.Fatalf("%d logs in all, want 3 of FlowA and 1 of FlowB", len(got))
	}

	logs, r := e.mpls(t, url.Values{"$filter": {"IntegrationFlowName eq 'FlowA' and Status eq 'FAILED'"}, "$inlinecount": {"allpages"}})
	emulatortest.Expect(t, r, http.StatusOK)
	if len(logs) != 2 || !strings.Contains(string(r.Body), `"__count":"2"`) {
		t.Fatalf("FAILED logs of FlowA: %s", r.Body)
	}
	logs, r = e.mpls(t, url.Values{"$filter": {"(Status eq 'COMPLETED' or Status eq 'RETRY') and IntegrationFlowName ne 'Nope'"}, "$orderby": {"IntegrationFlowName desc"}})
	emulatortest.Expect(t, r, http.StatusOK)
	if statuses(logs) != "COMPLETED,RETRY" || logs[0].IntegrationFlowName != "FlowB" {
		t.Fatalf("or/orderby: %s", statuses(logs))
	}
	logs, r = e.mpls(t, url.Values{"$filter": {"LogStart ge datetime'2000-01-01T00:00:00'"}, "$top": {"1"}, "$skip": {"1"}})
	emulatortest.Expect(t, r, http.StatusOK)
	if len(logs) != 1 {
		t.Fatalf("$top 1: %d logs", len(logs))
	}
	one := emulatortest.Do(t, "GET", e.s.URL()+cpiBase+"/MessageProcessingLogs('"+logs[0].MessageGuid+"')", e.ci, nil, nil)
	emulatortest.Expect(t, one, http.StatusOK)
	var single wireMPL
	one.ODataD(t, &single)
	if single.MessageGuid != logs[0].MessageGuid || single.Status == "" {
		t.Fatalf("single entity %+v", single)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "GET", e.s.URL()+cpiBase+"/MessageProcessingLogs('nope')", e.ci, nil, nil), http.StatusNotFound)
	for _, bad := range []url.Values{
		{"$filter": {"Nope eq 'x'"}},
		{"$filter": {"Status eq"}},
		{"$filter": {"Status eq 'x"}},
		{"$filter": {"Status like 'x'"}},
		{"$filter": {"LogStart gt 'x'"}},
		{"$orderby": {"Status sideways"}},
		{"$top": {"-1"}},
	} {
		_, r := e.mpls(t, bad)
		emulatortest.Expect(t, r, http.StatusBadRequest)
		if msg := r.ODataError(t); !strings.HasSuffix(msg, ".") {
			t.Errorf("%v: message %q is not a sentence", bad, msg)
		}
	}
	var rt struct {
		Consumers []emulator.Consumer   `json:"consumers"`
		Stats     emulator.RuntimeStats `json:"stats"`
	}
	if err := json.Unmarshal(emulatortest.Do(t, "GET", e.s.URL()+emulator.ControlBasePath+"/runtime", "", nil, nil).Body, &rt); err != nil {
		t.Fatal(err)
	}
	if len(rt.Consumers) != 2 || rt.Stats.Executions != 4 {
		t.Fatalf("runtime view %+v", rt)
	}
}

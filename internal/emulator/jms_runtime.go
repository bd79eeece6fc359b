package emulator

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The JMS sender channels of deployed flows. Sources are those of the
// project's reference note on the Cloud Integration JMS adapter:
//
//   - A failed message is retried after the Retry Interval; Exponential
//     Backoff doubles the wait after each failed retry up to the Maximum
//     Retry Interval [SAP "Configure the JMS Sender Adapter", 161791b]. The
//     waits are rules.JMSSchedule's, measured from the due time of the
//     previous execution, so lateness of the scaled clock never shifts the
//     schedule. SAP's once-a-minute job that moves due messages back to the
//     processing queue may start a retry up to a minute late [SAP 35c4caf];
//     the emulator starts each retry on time, the most retries a message can
//     get (assumed: the largest count is the one a check must survive).
//   - The adapter has no retry limit: a failing message is retried until its
//     expiration deletes it [SAP 161791b; 6733197].
//   - SAPJMSRetries is set on non-exclusive queues only [SAP d0fcb09]; on
//     retry n it is n, the number of the retry, because it is incremented
//     after each retry [SAP aeb106f, ed9b82c]. On exclusive queues a guard
//     never sees it (a Simple comparison with a missing header is false;
//     assumed).
//   - The flow's guard is what iflow.RetryGuards finds and
//     iflow.SummarizeGuards reports; it ends the message on retry
//     rules.JMSGuardStopRetry(limit, operator). A guard whose limit is not
//     visible (a script, a header from the Partner Directory, a parameter
//     without a value) cannot be evaluated, so the emulator treats the flow
//     as unbounded and says so. SAP's pattern ends the message over the limit
//     with an Escalation End [SAP ed9b82c]: the message leaves the queue and
//     its last processing log is ESCALATED. A router guard in the integration
//     process fires at the start of the execution; one in an exception
//     subprocess or a script when the execution fails.
//   - Exclusive queues deliver in order: a failing message blocks the queue
//     [SAP 161791b].
//
// How an execution ends is set per flow with SetBehaviour, as for AMQP senders.

// Outcomes of messages consumed by JMS sender channels.
const (
	// RunExpired: the JMS broker deleted the message at its expiration while it was still being retried.
	RunExpired RunOutcome = "expired"
	// RunGuardEnded: the flow's retry guard on SAPJMSRetries ended the message.
	RunGuardEnded RunOutcome = "guardEnded"
)

// SAP's ranges of the JMS sender's retry settings in minutes [SAP 161791b,
// da17d2d]; they differ between exclusive and non-exclusive queues.
var (
	jmsIntervalRange    = map[bool][2]int64{true: {1, 60}, false: {1, 10080}}
	jmsMaxIntervalRange = map[bool][2]int64{true: {10, 180}, false: {10, 43200}}
)

// jmsConsumer is one JMS sender channel of a deployed flow.
type jmsConsumer struct {
	s         *integrationRuntime
	cn        *consumer // identity of the flow for the run bookkeeping
	queue     string
	exclusive bool
	schedule  rules.JMSSchedule
	end       string
	// The guard: stop is the retry on which it ends the message.
	guard    iflow.RetryGuard
	hasGuard bool
	stop     int64
}

// jmsSetting reads a whole-number setting in [lo, hi], def when absent.
func jmsSetting(st iflow.Setting, def int64, bounds [2]int64) (int64, error) {
	if !st.Present || strings.TrimSpace(st.Value) == "" {
		return def, nil
	}
	n, ok := st.Int()
	if !ok {
		return 0, fmt.Errorf("%s %q is not a whole number (or its parameter has no value)", st.Key, st.Value)
	}
	if n < bounds[0] || n > bounds[1] {
		return 0, fmt.Errorf("%s %d is outside SAP's range %d to %d", st.Key, n, bounds[0], bounds[1])
	}
	return n, nil
}

// newJMSConsumer reads a JMS sender channel. It returns nil with the reason
// when the channel cannot consume: no queue, a setting outside SAP's range
// (the emulator does not run a channel SAP's editor refuses; assumed), or a
// queue that cannot be created.
func (s *integrationRuntime) newJMSConsumer(w startedFlow, art *iflow.Artifact, snd iflow.JMSChannel, end string) (*jmsConsumer, string) {
	st := art.JMSSenderSettings(snd, w.params)
	queue := strings.TrimSpace(st.QueueName.Value)
	if !st.QueueName.Resolved || queue == "" {
		return nil, "the JMS sender has no queue name (QueueName_inbound), so it consumes nothing."
	}
	exclusive, known := st.Exclusive()
	var notes []string
	if !known {
		notes = append(notes, fmt.Sprintf("access type %q is not known, so the emulator uses %s.", st.AccessType.Value, JMSNonExclusive))
	}
	backoff := true
	if st.ExponentialBackoff.Present && strings.TrimSpace(st.ExponentialBackoff.Value) != "" {
		v, ok := st.ExponentialBackoff.Bool()
		if !ok {
			return nil, fmt.Sprintf("ExponentialBackoff %q is not 1/0 or true/false, so the channel consumes nothing.", st.ExponentialBackoff.Value)
		}
		backoff = v
	}
	interval, err := jmsSetting(st.RetryInterval, rules.DefaultJMSRetryInterval, jmsIntervalRange[exclusive])
	if err != nil {
		return nil, err.Error() + ", so the channel consumes nothing."
	}
	maxInterval, err := jmsSetting(st.MaxRetryInterval, rules.DefaultJMSMaxRetryInterval, jmsMaxIntervalRange[exclusive])
	if err != nil {
		return nil, err.Error() + ", so the channel consumes nothing."
	}
	jc := &jmsConsumer{s: s, queue: queue, exclusive: exclusive, end: end,
		schedule: rules.JMSSchedule{RetryInterval: interval, MaxRetryInterval: maxInterval, ExponentialBackoff: backoff},
		cn: &consumer{s: s, flowName: w.name, pkg: w.pkg, queue: queue,
			info: Consumer{IFlowID: w.id, TaskID: w.taskID, Channel: snd.ID, Queue: queue, ExceptionEnd: end}}}
	guards, err := iflow.RetryGuards(w.content, w.params)
	if err != nil {
		notes = append(notes, "its retry guards cannot be read ("+err.Error()+"), so the emulator treats the flow as unbounded.")
	}
	if sum := iflow.SummarizeGuards(guards); sum.Present {
		jc.guard = sum.Guard
		switch {
		case exclusive:
			notes = append(notes, "the flow compares SAPJMSRetries, but the queue is exclusive, where the header is not set; the guard never ends a message.")
		case !sum.Guard.Limit.Known:
			notes = append(notes, fmt.Sprintf("the flow's retry guard (%s) has a limit the emulator cannot see (%q), so it treats the flow as unbounded.", sum.Guard.Kind, sum.Guard.Limit.Raw))
		default:
			jc.hasGuard = true
			jc.stop = rules.JMSGuardStopRetry(sum.Guard.Limit.Value, sum.Guard.Operator)
		}
	}
	access := JMSNonExclusive
	if exclusive {
		access = JMSExclusive
	}
	j := s.jms
	j.mu.Lock()
	q, err := j.ensureQueueLocked(queue, access)
	if err == nil {
		q.consumers++
	}
	j.mu.Unlock()
	if err != nil {
		return nil, err.Error()
	}
	return jc, strings.Join(notes, " ")
}

// startJMSConsumers starts one consumer per JMS sender channel of a deployment.
func (s *integrationRuntime) startJMSConsumers(ctx context.Context, w startedFlow, art *iflow.Artifact, end string, fr *flowRunner) {
	for _, snd := range art.JMSSenders() {
		jc, note := s.newJMSConsumer(w, art, snd, end)
		if note != "" {
			s.logf("emulator: integration flow %s, JMS channel %s: %s", w.id, snd.ID, note)
		}
		if jc == nil {
			continue
		}
		fr.wg.Add(1)
		go func() {
			defer fr.wg.Done()
			jc.run(ctx)
		}()
		guard := "no retry guard"
		if jc.hasGuard {
			guard = fmt.Sprintf("guard ends a message on retry %d", jc.stop)
		}
		s.logf("emulator: integration flow %s consumes JMS queue %s (retry interval %d, backoff %t, max %d minutes, %s)",
			w.id, jc.queue, jc.schedule.RetryInterval, jc.schedule.ExponentialBackoff, jc.schedule.MaxRetryInterval, guard)
	}
}

// run executes due messages until ctx ends.
func (jc *jmsConsumer) run(ctx context.Context) {
	j := jc.s.jms
	jc.s.rt.active.Add(1)
	defer jc.s.rt.active.Add(-1)
	defer func() {
		j.mu.Lock()
		if q := j.queues[jc.queue]; q != nil {
			q.consumers--
		}
		j.mu.Unlock()
	}()
	tick := min(max(j.minute/4, time.Millisecond), 20*time.Millisecond)
	for {
		jc.step()
		if !sleepCtx(ctx, tick) {
			return
		}
	}
}

// maxStepExecutions bounds the executions of one step, so a stop is not delayed.
const maxStepExecutions = 10000

// step executes every message due by the JMS clock, in due order.
func (jc *jmsConsumer) step() {
	s, j := jc.s, jc.s.jms
	j.mu.Lock()
	defer j.mu.Unlock()
	now := j.now()
	for range maxStepExecutions {
		j.expireLocked(s, now)
		q := j.queues[jc.queue]
		if q == nil || q.stopped || len(q.msgs) == 0 {
			return
		}
		var next *jmsMessage
		if jc.exclusive {
			next = q.msgs[0] // in order: a failing message blocks the queue
		} else {
			for _, m := range q.msgs {
				if next == nil || m.nextRetry.Before(next.nextRetry) {
					next = m
				}
			}
		}
		if next.nextRetry.After(now) {
			return
		}
		jc.executeLocked(q, next)
	}
}

// executeLocked runs the flow once for m at its due time.
func (jc *jmsConsumer) executeLocked(q *jmsQueue, m *jmsMessage) {
	s, cn := jc.s, jc.cn
	at := m.nextRetry
	flow := cn.info.IFlowID
	_, corr := s.rt.beginDelivery(cn, Message{ID: m.id}, at)
	number := s.rt.executions(flow, m.id) + 1
	res := s.rt.behaviour(flow).result(number, jc.end)
	// SAPJMSRetries on retry n is n; the first execution has no retry.
	guardEnds := jc.hasGuard && m.retries >= jc.stop
	if guardEnds && jc.guard.Kind != iflow.GuardRouter && res != execFailed {
		guardEnds = false // exception subprocess and script guards run only when the execution fails
	}
	status := MPLStatusRetry
	switch {
	case guardEnds:
		status = MPLStatusEscalated
	case res == execCompleted:
		status = MPLStatusCompleted
	case res == execEscalated:
		status = MPLStatusEscalated
	}
	guid := newMPLID()
	s.rt.recordExecution(cn, MessageProcessingLog{
		MessageGuid: guid, CorrelationID: corr, ApplicationMessageID: m.id,
		IntegrationFlowName: flow, ArtifactName: cn.flowName, PackageID: cn.pkg,
		Status: status, LogStart: at, LogEnd: at, Sender: "JMS:" + jc.queue,
		Queue: jc.queue, DeliveryCount: m.retries + 1, Attempt: m.retries + 1,
	})
	m.mplID, m.lastFlow = guid, flow
	if status == MPLStatusRetry {
		m.failed = true
		m.retries++
		m.nextRetry = at.Add(time.Duration(jc.schedule.Wait(m.retries)) * time.Minute)
		return
	}
	q.removeMessage(m)
	outcome, reason := RunCompleted, ""
	switch {
	case guardEnds:
		outcome = RunGuardEnded
		reason = fmt.Sprintf("The flow's retry guard (%s %q) ended the message on retry %d (SAPJMSRetries %d).", jc.guard.Kind, jc.guard.Condition, m.retries, m.retries)
	case res == execEscalated:
		outcome = RunEscalated
	}
	s.rt.settle(cn, m.id, outcome, reason, at)
}

func (q *jmsQueue) removeMessage(m *jmsMessage) {
	for i, x := range q.msgs {
		if x == m {
			q.msgs = append(q.msgs[:i], q.msgs[i+1:]...)
			return
		}
	}
}

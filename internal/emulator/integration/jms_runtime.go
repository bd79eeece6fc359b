package integration

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/integration/flowreader"
)

// The JMS sender channels of deployed flows. The emulator reads them with
// its own reader (flowreader/flowarchive.go, flowreader/flowmodel.go) and runs them from SAP's
// documentation alone, as the project's reference note on the Cloud
// Integration JMS adapter (cpi-jms.md) cites it; it shares no code with the
// provider's rules, which a test compares with it (internal/emulator/crosscheck_test.go):
//
//   - A failed message is retried after the Retry Interval; Exponential
//     Backoff doubles the wait after each failed retry; the Maximum Retry
//     Interval is the longest wait [SAP "Configure the JMS Sender Adapter",
//     161791b; "Apply the Retry Pattern with JMS Queue", da17d2d]. Defaults:
//     1 minute, backoff on, 60 minutes [161791b, da17d2d]. Each wait is
//     measured from the due time of the previous execution, so lateness of
//     the scaled clock never shifts the schedule. SAP's once-a-minute job
//     that moves due messages back to the processing queue may start a retry
//     up to a minute late [SAP 35c4caf]; the emulator starts each retry on
//     time, the most retries a message can get (assumed: the largest count is
//     the one a check must survive).
//   - The adapter has no retry limit: a failing message is retried until its
//     expiration deletes it [SAP 161791b; 6733197].
//   - SAPJMSRetries is set on non-exclusive queues only [SAP d0fcb09]. It
//     counts the retries made so far: 0 on the first execution, n on retry n,
//     because it is incremented after each retry [SAP aeb106f, ed9b82c: "N
//     retries need max N+1"]. On exclusive queues the header is missing.
//   - The flow's retry guards are the routes of its routers whose condition
//     reads SAPJMSRetries [reference note cpi-jms.md, section 2]. Each guard's
//     condition is evaluated as a Camel Simple expression (flowreader/simple.go) with the
//     header's value of the execution: a router in the integration process
//     at the start of every execution, one in an exception subprocess when the
//     execution fails. A route that leads to an Error End is the way to the
//     next retry, so its router ends the message when the condition does not
//     hold (the default route); any other route ends the message when its
//     condition holds. SAP's pattern ends the message over the limit with an
//     Escalation End [SAP ed9b82c]: the message leaves the queue and its last
//     processing log is ESCALATED (COMPLETED for a Message End or a plain
//     End). A route whose target the reader cannot find counts as the one that
//     ends the message with an Escalation End (assumed: SAP's pattern puts the
//     condition on the route over the limit).
//   - A condition the emulator cannot evaluate (a parameter without a value,
//     an XPath, a form it does not parse) and a script step never end a
//     message: the emulator cannot know what they do, so it treats the flow
//     as unbounded and says so. A comparison with a value set at run time
//     (for example the limit from the Partner Directory) is unknown; the
//     condition ends a message only when SAPJMSRetries alone decides it
//     (three-valued logic, flowreader/simple.go).
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

// Defaults and ranges of the JMS sender's retry settings in minutes [SAP
// 161791b, da17d2d]; the ranges differ between exclusive and non-exclusive
// queues.
const (
	jmsDefaultRetryInterval    = 1
	jmsDefaultMaxRetryInterval = 60
)

var (
	jmsIntervalRange    = map[bool][2]int64{true: {1, 60}, false: {1, 10080}}
	jmsMaxIntervalRange = map[bool][2]int64{true: {10, 180}, false: {10, 43200}}
)

// jmsWaits is the retry timing of a JMS sender channel, in minutes.
type jmsWaits struct {
	interval, maxInterval int64
	backoff               bool
}

// next returns the wait before the retry that follows a wait of prev
// minutes (0: the first retry): the Retry Interval first; with Exponential
// Backoff twice the previous wait, at most the Maximum Retry Interval;
// without it the Retry Interval again [SAP 161791b].
func (w jmsWaits) next(prev int64) int64 {
	if !w.backoff {
		return w.interval
	}
	d := w.interval
	if prev > 0 {
		d = prev * 2
	}
	return min(d, w.maxInterval)
}

// jmsGuard is one route condition that reads SAPJMSRetries.
type jmsGuard struct {
	route, condition string
	expr             flowreader.SimpleExpr
	// inException is true for a route of an exception subprocess, which runs
	// only when the execution fails.
	inException bool
	// endsWhen is the value of the condition that ends the message.
	endsWhen bool
	// endKind is the kind of the end event that ends the message.
	endKind string
}

// jmsConsumer is one JMS sender channel of a deployed flow.
type jmsConsumer struct {
	s         *Runtime
	cn        *consumer // identity of the flow for the run bookkeeping
	queue     string
	exclusive bool
	waits     jmsWaits
	end       string
	guards    []jmsGuard
}

// jmsSetting reads a whole-number setting in [lo, hi], def when absent.
func jmsSetting(st flowreader.ChannelSetting, def int64, bounds [2]int64) (int64, error) {
	if st.Empty() {
		return def, nil
	}
	n, ok := st.Whole()
	if !ok {
		return 0, fmt.Errorf("%s %q is not a whole number (or its parameter has no value)", st.Key, st.Raw)
	}
	if n < bounds[0] || n > bounds[1] {
		return 0, fmt.Errorf("%s %d is outside SAP's range %d to %d", st.Key, n, bounds[0], bounds[1])
	}
	return n, nil
}

// jmsGuards reads the retry guards of a flow and says which it cannot evaluate.
func jmsGuards(m *flowreader.Model, params map[string]string) ([]jmsGuard, []string) {
	var out []jmsGuard
	var notes []string
	routes := map[string]flowreader.Route{}
	for _, r := range m.Routes {
		routes[r.ID] = r
	}
	for _, r := range m.Routes {
		cond := strings.TrimSpace(r.Condition)
		if cond == "" || !strings.Contains(cond, "SAPJMSRetries") {
			continue
		}
		text, resolved := flowreader.ExpandParameters(cond, params)
		expr, ok := flowreader.ParseSimpleGuard(text)
		if !resolved || !ok || !expr.MentionsRetries() || strings.EqualFold(r.ExpressionType, "XML") {
			notes = append(notes, fmt.Sprintf("the retry guard %q (route %s) cannot be evaluated, so it never ends a message.", cond, r.ID))
			continue
		}
		if expr.Partial() {
			notes = append(notes, fmt.Sprintf("the retry guard %q (route %s) reads values set at run time, so it ends a message only when SAPJMSRetries alone decides the condition.", cond, r.ID))
		}
		g := jmsGuard{route: r.ID, condition: cond, expr: expr, inException: r.Subprocess != "", endsWhen: true, endKind: flowreader.EndKindEscalation}
		if kind, ok := m.EndEvents[r.Target]; ok {
			if kind == flowreader.EndKindError {
				g.endsWhen = false
				if def, ok := routes[m.Defaults[r.Source]]; ok {
					if k, ok := m.EndEvents[def.Target]; ok && k != flowreader.EndKindError {
						g.endKind = k
					}
				}
			} else {
				g.endKind = kind
			}
		}
		out = append(out, g)
	}
	if len(m.Scripts) > 0 {
		notes = append(notes, fmt.Sprintf("the flow has %d script step(s), which the emulator does not run; a script never ends a message.", len(m.Scripts)))
	}
	return out, notes
}

// newJMSConsumer reads a JMS sender channel. It returns nil with the reason
// when the channel cannot consume: no queue, a setting outside SAP's range
// (the emulator does not run a channel SAP's editor refuses; assumed), or a
// queue that cannot be created.
func (s *Runtime) newJMSConsumer(w startedFlow, art *flowreader.Archive, snd flowreader.Channel, end string) (*jmsConsumer, string) {
	params := art.ParameterValues(w.params)
	queueSt := snd.Setting("QueueName_inbound", params)
	queue := queueSt.Value
	if !queueSt.Resolved || queue == "" {
		return nil, "the JMS sender has no queue name (QueueName_inbound), so it consumes nothing."
	}
	// A sender without AccessType reads a non-exclusive queue: exports of the
	// sender v1.3 carry no AccessType but settings that exist for
	// non-exclusive queues only [reference note cpi-jms.md, section 1].
	var notes []string
	exclusive := false
	if at := snd.Setting("AccessType", params); at.Present {
		switch {
		case at.Resolved && strings.EqualFold(at.Value, "Exclusive"):
			exclusive = true
		case at.Resolved && strings.EqualFold(at.Value, "Non-Exclusive"):
		default:
			notes = append(notes, fmt.Sprintf("access type %q is not known, so the emulator uses %s.", at.Raw, JMSNonExclusive))
		}
	}
	backoff := true
	if st := snd.Setting("ExponentialBackoff", params); !st.Empty() {
		v, ok := st.Flag()
		if !ok {
			return nil, fmt.Sprintf("ExponentialBackoff %q is not 1/0 or true/false, so the channel consumes nothing.", st.Raw)
		}
		backoff = v
	}
	interval, err := jmsSetting(snd.Setting("RetryInterval", params), jmsDefaultRetryInterval, jmsIntervalRange[exclusive])
	if err != nil {
		return nil, err.Error() + ", so the channel consumes nothing."
	}
	maxInterval, err := jmsSetting(snd.Setting("MaxRetryInterval", params), jmsDefaultMaxRetryInterval, jmsMaxIntervalRange[exclusive])
	if err != nil {
		return nil, err.Error() + ", so the channel consumes nothing."
	}
	jc := &jmsConsumer{s: s, queue: queue, exclusive: exclusive, end: end,
		waits: jmsWaits{interval: interval, maxInterval: maxInterval, backoff: backoff},
		cn: &consumer{s: s, flowName: w.name, pkg: w.pkg, queue: queue,
			info: Consumer{IFlowID: w.id, TaskID: w.taskID, Channel: snd.ID, Queue: queue, ExceptionEnd: end}}}
	guards, guardNotes := jmsGuards(art.Model, params)
	notes = append(notes, guardNotes...)
	if len(guards) > 0 && exclusive {
		notes = append(notes, "the flow compares SAPJMSRetries, but the queue is exclusive, where the header is not set.")
	}
	jc.guards = guards
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

// guardEnding returns the guard that ends the message on this execution,
// nil when none does. retries is the number of retries so far; failed says
// whether the execution fails (exception subprocess routes run only then).
func (jc *jmsConsumer) guardEnding(retries int64, failed bool) *jmsGuard {
	for i := range jc.guards {
		g := &jc.guards[i]
		if g.inException && !failed {
			continue
		}
		if g.expr.Eval(retries, !jc.exclusive) == flowreader.TriOf(g.endsWhen) {
			return g
		}
	}
	return nil
}

// startJMSConsumers starts one consumer per JMS sender channel of a deployment.
func (s *Runtime) startJMSConsumers(ctx context.Context, w startedFlow, art *flowreader.Archive, end string, fr *flowRunner) {
	for _, snd := range art.Model.ChannelsOf("JMS", "Sender") {
		jc, note := s.newJMSConsumer(w, art, snd, end)
		if note != "" {
			s.Logf("emulator: integration flow %s, JMS channel %s: %s", w.id, snd.ID, note)
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
		if n := len(jc.guards); n > 0 {
			guard = fmt.Sprintf("%d retry guard(s) evaluated on each execution", n)
		}
		s.Logf("emulator: integration flow %s consumes JMS queue %s (retry interval %d, backoff %t, max %d minutes, %s)",
			w.id, jc.queue, jc.waits.interval, jc.waits.backoff, jc.waits.maxInterval, guard)
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
		if !core.SleepCtx(ctx, tick) {
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
	now := j.Now()
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
	_, corr := s.rt.beginDelivery(cn, core.Message{ID: m.id}, at)
	number := s.rt.executions(flow, m.id) + 1
	res := s.rt.behaviour(flow).result(number, jc.end)
	// SAPJMSRetries is the number of retries so far (0 on the first execution).
	guard := jc.guardEnding(m.retries, res == execFailed)
	status := MPLStatusRetry
	switch {
	case guard != nil && (guard.endKind == flowreader.EndKindMessage || guard.endKind == flowreader.EndKindNone):
		status = MPLStatusCompleted
	case guard != nil:
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
		m.lastWait = jc.waits.next(m.lastWait)
		m.nextRetry = at.Add(time.Duration(m.lastWait) * time.Minute)
		return
	}
	q.removeMessage(m)
	outcome, reason := RunCompleted, ""
	switch {
	case guard != nil:
		outcome = RunGuardEnded
		place := "router"
		if guard.inException {
			place = "exception subprocess router"
		}
		reason = fmt.Sprintf("The flow's retry guard (%s, route %s: %q) ended the message on retry %d (SAPJMSRetries %d).", place, guard.route, guard.condition, m.retries, m.retries)
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

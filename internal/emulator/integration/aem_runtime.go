package integration

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/integration/flowreader"
)

// The AdvancedEventMesh sender channels of deployed flows: a flow in status STARTED whose content has such a
// channel consumes the AEM queue it names from the emulator's AEM room (aem/aem_broker.go, over core.AEMBroker). The emulator reads
// the channel with its own reader (flowreader/flowmodel.go) and runs it from SAP's page "Configure the Advanced Event
// Mesh Sender Adapter" (configure-the-advanced-event-mesh-sender-adapter-abd2efc.md) as the project's
// reference note quotes it (aem.md §4) and the note's arithmetic (aem.md §5); it shares no code with the
// provider's rules, which a test compares with it (internal/emulator/aem_sender_crosscheck_test.go):
//
//   - Keys (aem.md §4): queueName, consumerMode (GUARANTEED, DIRECT), ackMode
//     (AUTOMATIC_ON_EXCHANGE_COMPLETE, AUTOMATIC_IMMEDIATE), failedMessageSettlementOutcome (FAILED, REJECTED),
//     maxMessageProcessingAttempts, messageRetryInitialDelayInterval, messageRetryMaxDelayInterval (ms),
//     messageRetryDelayIntervalMultiplier, parallelConsumers. A value "{{Name}}" is an externalized
//     parameter, resolved as for every channel (flowreader/flowarchive.go). An empty mode, outcome or wait counts as the
//     value of every tenant-written channel (GUARANTEED, AUTOMATIC_ON_EXCHANGE_COMPLETE, FAILED, 1000 ms,
//     30000 ms, 3.0, one consumer; assumed: the page gives no defaults, aem.md §4 lists the values seen).
//   - Each delivery runs the flow up to m = maxMessageProcessingAttempts times, the first run included;
//     between two runs the adapter waits initial × multiplier^(k−1) ms after run k, at most the maximum
//     interval ("Retry Interval", "Maximum Retry Interval", "Exponential Backoff Multiplier" [SAP page];
//     that m counts the first run is assumed from the tenant-written channels, which pair 5 attempts with
//     waits of 1, 3, 9 and 27 s, aem.md §5). The runs are local: they do not change the broker's delivery
//     count ("an adapter level retry and hence will not result in DeliveryCount header increment" [SAP
//     page]). The waits, the runs' processing time and the broker's redelivery delay all run on the AEM
//     clock (Options.AEMMinute), so the time from the first delivery to the message's end is measured in
//     the broker's time.
//   - After m failed runs a guaranteed consumer acknowledging on exchange completion settles the message
//     with the outcome: FAILED hands it back and the broker redelivers it "while adhering to delivery count
//     limits" (the queue's maxRedeliveryCount, 0 = for ever, redeliveryEnabled false = one delivery, its
//     redelivery delay between deliveries), then moves it to the DMQ, or deletes it without one; REJECTED
//     makes the broker "remove the message from its queue and then move the message to the Dead Message
//     Queue (DMQ) if it is configured", deleted without one [SAP page; aem.md §4; the broker's part is
//     aem/aem_broker.go]. Each redelivery starts a fresh set of m runs (assumed, aem.md §5).
//   - A run that completes, or ends in an Escalation End, completes the exchange: the message is
//     acknowledged (assumed, as for the AMQP sender: an escalated exchange is not a failed one).
//   - AUTOMATIC_IMMEDIATE acknowledges the message on receipt, before the flow runs: the broker deletes it,
//     so a failure is never redelivered and never reaches the DMQ; the message is lost (aem.md §4). The flow
//     runs once (assumed, aem.md §5 "one delivery, then gone": the adapter's attempts retry a message it
//     still has to settle, and an acknowledged one it has not).
//   - A DIRECT consumer receives direct messages of topic subscriptions, which the AEM room does not carry
//     (its REST messaging spools persistent messages on queues), so the emulator does not run it and says so.
//   - parallelConsumers binds that many consumers to the queue; each takes the next available message.
//   - A channel without a queue name, or with attempts, waits or a multiplier the emulator cannot read or
//     that are below 1 (0 for the multiplier), consumes nothing and the emulator says why (assumed: SAP's
//     page defines no run for them and the provider's rules refuse them).
//   - FAILED on a queue that redelivers for ever is stopped after Options.RedeliveryCap deliveries: the
//     emulator removes the message and reports it (assumed: keeps an endless loop finite, as for Event Mesh).
//   - An undeploy stops the consumers; a message one of them holds unsettled goes back to the queue at once
//     with its delivery counted (assumed: the broker takes back what an unbound consumer did not settle).
//
//   - Solace's own adapter (ComponentType SolacePubSubPlus) writes the same keys and values (its sender
//     MessageFlow_17 in SolaceLabs/solace-ep-codegen's src/test/resources/sap/iflow/Inventory Service.iflw), so
//     the emulator runs its sender channels as AdvancedEventMesh ones (assumed: no source documents how that
//     adapter settles a message after its attempts or counts them; the provider reports this as unconfirmed).
//
// How a run ends is set per flow with SetBehaviour, as for the AMQP and JMS senders.

// Outcomes of messages consumed by AEM sender channels.
const (
	// RunDeleted: the AEM broker removed the message (after its last delivery, or rejected) and deleted it,
	// because its queue has no dead message queue that takes it.
	RunDeleted RunOutcome = "deleted"
	// RunLost: the channel acknowledged the message on receipt (AUTOMATIC_IMMEDIATE) and the flow failed it:
	// the broker had already deleted it, so it is neither redelivered nor dead-lettered.
	RunLost RunOutcome = "lost"
)

// Values of the AEM sender's keys (aem.md §4).
const (
	aemModeGuaranteed      = "GUARANTEED"
	aemModeDirect          = "DIRECT"
	aemAckExchangeComplete = "AUTOMATIC_ON_EXCHANGE_COMPLETE"
	aemAckImmediate        = "AUTOMATIC_IMMEDIATE"
	aemSettleFailed        = "FAILED"
	aemSettleRejected      = "REJECTED"
	// The waits of every tenant-written channel (aem.md §4), used for empty values (assumed).
	aemDefaultRetryInitialMs = 1000
	aemDefaultRetryMaxMs     = 30000
	aemDefaultRetryMult      = 3.0
	// maxAEMAttempts bounds the runs of one delivery the emulator makes (assumed: keeps a run finite).
	maxAEMAttempts = 10000
)

// AEMConsumer describes one AdvancedEventMesh sender channel of a deployed flow that consumes an AEM queue.
type AEMConsumer struct {
	IFlowID string `json:"iflowId"`
	TaskID  string `json:"taskId"`
	// Adapter is the channel's ComponentType: AdvancedEventMesh, or SolacePubSubPlus (Solace's own adapter).
	Adapter string `json:"adapter"`
	// Channel is the id of the sender's message flow; Queue the AEM queue it reads.
	Channel string `json:"channel"`
	Queue   string `json:"queue"`
	// ConsumerMode, AckMode and SettlementOutcome are the effective values of consumerMode, ackMode and
	// failedMessageSettlementOutcome.
	ConsumerMode      string `json:"consumerMode"`
	AckMode           string `json:"ackMode"`
	SettlementOutcome string `json:"settlementOutcome"`
	// MaxAttempts is m, the runs per delivery; the waits between them are RetryInitialMs × RetryMultiplier^k,
	// at most RetryMaxMs.
	MaxAttempts     int64   `json:"maxAttempts"`
	RetryInitialMs  int64   `json:"retryInitialMs"`
	RetryMaxMs      int64   `json:"retryMaxMs"`
	RetryMultiplier float64 `json:"retryMultiplier"`
	// ParallelConsumers is the number of consumers bound to the queue.
	ParallelConsumers int    `json:"parallelConsumers"`
	ExceptionEnd      string `json:"exceptionEnd"`
}

// aemConsumer is one AEM sender channel of a deployed flow.
type aemConsumer struct {
	s    *Runtime
	cn   *consumer // identity of the flow for the run bookkeeping
	info AEMConsumer
}

// aemWait returns the adapter's wait after run k (k = 1 is the wait between the first and the second run).
func (ac *aemConsumer) aemWait(k int64) time.Duration {
	ms := float64(ac.info.RetryInitialMs) * math.Pow(ac.info.RetryMultiplier, float64(k-1))
	if maxMs := float64(ac.info.RetryMaxMs); ms > maxMs || math.IsInf(ms, 0) || math.IsNaN(ms) {
		ms = maxMs
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// aemEnum reads an enumeration key: def when empty, else one of allowed (case-insensitive).
func aemEnum(st flowreader.ChannelSetting, def string, allowed ...string) (string, error) {
	if st.Empty() {
		return def, nil
	}
	if st.Resolved {
		for _, a := range allowed {
			if strings.EqualFold(st.Value, a) {
				return a, nil
			}
		}
	}
	return "", fmt.Errorf("%s %q is not one of %s (or its parameter has no value)", st.Key, st.Raw, strings.Join(allowed, ", "))
}

// aemWhole reads a whole-number key of at least lo: def when empty.
func aemWhole(st flowreader.ChannelSetting, def, lo int64) (int64, error) {
	if st.Empty() {
		return def, nil
	}
	n, ok := st.Whole()
	if !ok || n < lo {
		return 0, fmt.Errorf("%s %q is not a whole number from %d (or its parameter has no value)", st.Key, st.Raw, lo)
	}
	return n, nil
}

// newAEMConsumer reads an AdvancedEventMesh sender channel and logs what it had to say about it: nil, with
// the reason, when the channel does not consume.
func (s *Runtime) newAEMConsumer(w startedFlow, params map[string]string, snd flowreader.Channel, end string) *aemConsumer {
	ac, note := s.readAEMConsumer(w, params, snd, end)
	if note != "" {
		s.Logf("emulator: integration flow %s, AdvancedEventMesh channel %s: %s", w.id, snd.ID, note)
	}
	return ac
}

func (s *Runtime) readAEMConsumer(w startedFlow, params map[string]string, snd flowreader.Channel, end string) (*aemConsumer, string) {
	queueSt := snd.Setting("queueName", params)
	if !queueSt.Resolved || queueSt.Value == "" {
		return nil, "the AdvancedEventMesh sender has no queueName, so it consumes nothing."
	}
	info := AEMConsumer{IFlowID: w.id, TaskID: w.taskID, Channel: snd.ID, Queue: queueSt.Value, ExceptionEnd: end}
	var err error
	fail := func(e error) (*aemConsumer, string) { return nil, e.Error() + ", so the channel consumes nothing." }
	if info.ConsumerMode, err = aemEnum(snd.Setting("consumerMode", params), aemModeGuaranteed, aemModeGuaranteed, aemModeDirect); err != nil {
		return fail(err)
	}
	if info.ConsumerMode == aemModeDirect {
		return nil, "the AdvancedEventMesh sender is a DIRECT consumer, which receives direct messages of topic subscriptions; the emulator's AEM broker carries only messages spooled on queues, so it does not run the channel."
	}
	if info.AckMode, err = aemEnum(snd.Setting("ackMode", params), aemAckExchangeComplete, aemAckExchangeComplete, aemAckImmediate); err != nil {
		return fail(err)
	}
	if info.SettlementOutcome, err = aemEnum(snd.Setting("failedMessageSettlementOutcome", params), aemSettleFailed, aemSettleFailed, aemSettleRejected); err != nil {
		return fail(err)
	}
	attempts := snd.Setting("maxMessageProcessingAttempts", params)
	if attempts.Empty() {
		return nil, "the AdvancedEventMesh sender has no maxMessageProcessingAttempts, for which SAP documents no behaviour, so the channel consumes nothing."
	}
	if info.MaxAttempts, err = aemWhole(attempts, 0, 1); err != nil {
		return fail(err)
	}
	info.MaxAttempts = min(info.MaxAttempts, maxAEMAttempts)
	info.RetryInitialMs, info.RetryMaxMs, info.RetryMultiplier = aemDefaultRetryInitialMs, aemDefaultRetryMaxMs, aemDefaultRetryMult
	if info.MaxAttempts > 1 { // the page shows the waits only for more than one attempt [SAP page]
		if info.RetryInitialMs, err = aemWhole(snd.Setting("messageRetryInitialDelayInterval", params), aemDefaultRetryInitialMs, 1); err != nil {
			return fail(err)
		}
		if info.RetryMaxMs, err = aemWhole(snd.Setting("messageRetryMaxDelayInterval", params), aemDefaultRetryMaxMs, 1); err != nil {
			return fail(err)
		}
		if st := snd.Setting("messageRetryDelayIntervalMultiplier", params); !st.Empty() {
			x, perr := strconv.ParseFloat(st.Value, 64)
			if !st.Resolved || perr != nil || !(x > 0) || math.IsInf(x, 0) {
				return fail(fmt.Errorf("messageRetryDelayIntervalMultiplier %q is not a number above 0 (or its parameter has no value)", st.Raw))
			}
			info.RetryMultiplier = x
		}
	}
	var problems []string
	info.ParallelConsumers = intSetting(snd.Setting("parallelConsumers", params), 1, maxConcurrency, &problems)
	ac := &aemConsumer{s: s, info: info,
		cn: &consumer{s: s, flowName: w.name, pkg: w.pkg, queue: info.Queue,
			info: Consumer{IFlowID: w.id, TaskID: w.taskID, Channel: snd.ID, Queue: info.Queue, ExceptionEnd: end}}}
	return ac, strings.Join(problems, " ")
}

// startAEMConsumers starts the consumers of every AdvancedEventMesh sender channel of a deployment.
func (s *Runtime) startAEMConsumers(ctx context.Context, w startedFlow, art *flowreader.Archive, end string, fr *flowRunner) {
	if s.aem == nil {
		return
	}
	params := art.ParameterValues(w.params)
	for _, adapter := range []string{"AdvancedEventMesh", "SolacePubSubPlus"} {
		for _, snd := range art.Model.ChannelsOf(adapter, "Sender") {
			if ac := s.newAEMConsumer(w, params, snd, end); ac != nil {
				ac.info.Adapter = adapter
				s.runAEMConsumer(ctx, ac, fr)
			}
		}
	}
}

// runAEMConsumer binds the channel's consumers to its queue until ctx ends.
func (s *Runtime) runAEMConsumer(ctx context.Context, ac *aemConsumer, fr *flowRunner) {
	fr.aemConsumers = append(fr.aemConsumers, ac.info)
	for range ac.info.ParallelConsumers {
		fr.wg.Add(1)
		go func() {
			defer fr.wg.Done()
			ac.run(ctx)
		}()
	}
	i := ac.info
	s.Logf("emulator: integration flow %s consumes AEM queue %s (%s, %s, %s, %d attempts, waits %d ms × %g up to %d ms, %d consumers)",
		i.IFlowID, i.Queue, i.ConsumerMode, i.AckMode, i.SettlementOutcome, i.MaxAttempts, i.RetryInitialMs, i.RetryMultiplier, i.RetryMaxMs, i.ParallelConsumers)
}

// run receives and processes messages until ctx ends.
func (ac *aemConsumer) run(ctx context.Context) {
	s, a := ac.s, ac.s.aem
	s.rt.active.Add(1)
	defer s.rt.active.Add(-1)
	idle, reported := time.Millisecond, false
	var free time.Time // AEM clock: when this consumer finished its last message
	for ctx.Err() == nil {
		d, ok := a.AEMReceive(ac.info.Queue)
		if !ok {
			if missing := a.AEMQueueDepth(ac.info.Queue) < 0; missing && !reported {
				s.Logf("emulator: integration flow %s cannot consume AEM queue %s: it does not exist", ac.info.IFlowID, ac.info.Queue)
				reported = true
			}
			if !core.SleepCtx(ctx, idle) {
				return
			}
			idle = min(idle*2, maxIdlePoll)
			continue
		}
		idle, reported = time.Millisecond, false
		free = ac.deliver(ctx, d, free)
	}
}

// sleepUntil waits until the AEM clock reaches t; false when ctx ends first.
func (ac *aemConsumer) sleepUntil(ctx context.Context, t time.Time) bool {
	a := ac.s.aem
	if d := t.Sub(a.AEMNow()); d > 0 {
		return core.SleepCtx(ctx, max(a.AEMReal(d), time.Microsecond))
	}
	return ctx.Err() == nil
}

// deliver runs the adapter's attempts on one delivery and settles the message; it returns when the consumer
// is free again. All its times are on the AEM clock: the delivery starts when the broker made the message
// available (AEMDelivery.At) or, when the consumer was still busy then, when it finished its last message
// (free); that the emulator's consumer asks later than that is its polling, not the adapter's timing.
func (ac *aemConsumer) deliver(ctx context.Context, d core.AEMDelivery, free time.Time) time.Time {
	s, a, q := ac.s, ac.s.aem, ac.info.Queue
	id := strconv.FormatInt(d.MsgID, 10)
	due := d.At
	if free.After(due) {
		due = free
	}
	_, corr := s.rt.beginDelivery(ac.cn, core.Message{ID: id}, due)
	immediate := ac.info.AckMode == aemAckImmediate
	attempts := ac.info.MaxAttempts
	if immediate {
		// Acknowledged on receipt: the broker deletes the message before the flow runs [aem.md §4].
		if _, err := a.AEMSettleAt(q, d.MsgID, core.AEMAccepted, due); err != nil {
			s.Logf("emulator: integration flow %s could not acknowledge message %s on AEM queue %s: %v", ac.info.IFlowID, id, q, err)
			return due
		}
		attempts = 1
	}
	for k := int64(1); k <= attempts; k++ {
		if k > 1 {
			due = due.Add(ac.aemWait(k - 1))
		}
		if !ac.sleepUntil(ctx, due) {
			ac.release(d, immediate)
			return due
		}
		res, end, ok := ac.execute(ctx, d, id, corr, due, k, k == attempts)
		if !ok {
			ac.release(d, immediate)
			return due
		}
		due = end
		if res != execFailed {
			outcome := RunCompleted
			if res == execEscalated {
				outcome = RunEscalated
			}
			if !immediate {
				if _, err := a.AEMSettleAt(q, d.MsgID, core.AEMAccepted, due); err != nil {
					s.Logf("emulator: integration flow %s could not acknowledge message %s on AEM queue %s: %v", ac.info.IFlowID, id, q, err)
					return due
				}
			}
			s.rt.settleAt(ac.cn, id, outcome, "", "", due)
			return due
		}
	}
	ac.settleFailure(d, id, due)
	return due
}

// execute runs the flow once at the AEM time start and records its processing log; it returns the result
// and when the run ended.
func (ac *aemConsumer) execute(ctx context.Context, d core.AEMDelivery, id, corr string, start time.Time, attempt int64, last bool) (execResult, time.Time, bool) {
	s, flow := ac.s, ac.info.IFlowID
	b := s.rt.behaviour(flow)
	res := b.result(s.rt.executions(flow, id)+1, ac.info.ExceptionEnd)
	// The run's processing time passes on the AEM clock too, so that the run's times add up (assumed).
	end := start.Add(time.Duration(b.ProcessingMs) * time.Millisecond)
	if !ac.sleepUntil(ctx, end) {
		return res, end, false
	}
	s.rt.recordExecution(ac.cn, MessageProcessingLog{
		MessageGuid: newMPLID(), CorrelationID: corr, ApplicationMessageID: id,
		IntegrationFlowName: flow, ArtifactName: ac.cn.flowName, PackageID: ac.cn.pkg,
		Status: mplStatus(res, last), LogStart: start, LogEnd: end, Sender: "AEM:" + ac.info.Queue,
		Queue: ac.info.Queue, DeliveryCount: d.DeliveryCount, Attempt: attempt,
	})
	return res, end, true
}

// release gives a message the consumer holds unsettled back to the broker when the flow stops.
func (ac *aemConsumer) release(d core.AEMDelivery, acknowledged bool) {
	if !acknowledged {
		ac.s.aem.AEMRelease(ac.info.Queue, d.MsgID)
	}
}

// settleFailure settles a message after the adapter's last failed attempt of a delivery, at AEM time at.
func (ac *aemConsumer) settleFailure(d core.AEMDelivery, id string, at time.Time) {
	s, a, q, flow := ac.s, ac.s.aem, ac.info.Queue, ac.info.IFlowID
	if ac.info.AckMode == aemAckImmediate {
		reason := fmt.Sprintf("The AdvancedEventMesh sender of integration flow %q acknowledges on receipt (ackMode %s), so the broker deleted the message before the flow failed it: it was not redelivered and did not reach a dead message queue. Set ackMode to %s.",
			flow, aemAckImmediate, aemAckExchangeComplete)
		s.rt.settleAt(ac.cn, id, RunLost, "", reason, at)
		return
	}
	outcome := core.AEMFailed
	if ac.info.SettlementOutcome == aemSettleRejected {
		outcome = core.AEMRejected
	}
	if outcome == core.AEMFailed && d.DeliveryCount > s.Opts.RedeliveryCap && a.AEMRedeliversForever(q) {
		a.AEMDiscard(q, d.MsgID)
		reason := fmt.Sprintf("AEM queue %q redelivers without limit (maxRedeliveryCount 0) and the AdvancedEventMesh sender of integration flow %q settles failures with %s; the emulator stopped after %d deliveries and removed the message. Set the queue's maxRedeliveryCount to a value from 1 to 255.",
			q, flow, aemSettleFailed, d.DeliveryCount)
		s.Logf("emulator: %s", reason)
		s.rt.settleAt(ac.cn, id, RunRedeliveryCapReached, "", reason, at)
		return
	}
	where, err := a.AEMSettleAt(q, d.MsgID, outcome, at)
	if err != nil {
		s.Logf("emulator: integration flow %s could not settle message %s on AEM queue %s: %v", flow, id, q, err)
		return
	}
	switch where {
	case "": // redelivered later
	case "deleted":
		s.rt.settleAt(ac.cn, id, RunDeleted, "", fmt.Sprintf("AEM queue %q has no dead message queue that takes the message, so the broker deleted it. Set the queue's deadMsgQueue to a queue that exists.", q), at)
	default:
		s.rt.settleAt(ac.cn, id, RunDeadLettered, where, "", at)
	}
}

// settleAt records where a message ended at time now of its broker's clock (dmq for RunDeadLettered).
func (rt *runtimeState) settleAt(cn *consumer, id string, outcome RunOutcome, dmq, reason string, now time.Time) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.settleLocked(cn.info.IFlowID, id, outcome, dmq, reason, now)
}

// AEMConsumers returns the AdvancedEventMesh sender channels that consume AEM queues now, sorted by
// integration flow and channel.
func (s *Runtime) AEMConsumers() []AEMConsumer {
	rt := s.rt
	rt.mu.Lock()
	out := []AEMConsumer{}
	for _, fr := range rt.flows {
		out = append(out, fr.aemConsumers...)
	}
	rt.mu.Unlock()
	slices.SortFunc(out, func(a, b AEMConsumer) int {
		return cmp.Or(cmp.Compare(a.IFlowID, b.IFlowID), cmp.Compare(a.Channel, b.Channel))
	})
	return out
}

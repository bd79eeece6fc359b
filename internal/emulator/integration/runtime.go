package integration

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/integration/flowreader"
)

// The runtime of the emulated Cloud Integration tenant: every deployed
// integration flow in status STARTED with an AMQP sender channel consumes its
// queue on the emulated Event Mesh broker, as seed 000 describes:
//
//   - The first delivery of a message runs one initial execution plus
//     maxRetries retries in memory (the inner loop); every redelivery runs
//     maxRetries executions. An always-failing message therefore takes
//     (R + 1) × n + 1 executions on a queue with maxRedeliveryCount R and a
//     sender with maxRetries n, and deliveryState REJECTED.
//   - When the inner loop is exhausted, deliveryState REJECTED rejects (NACKs)
//     the message: the broker redelivers it within the queue's
//     maxRedeliveryCount (the outer loop), then moves it to the deadMsgQueue.
//     MODIFIED_FAILED_UNDELIVERABLE tells the broker not to deliver it again:
//     the outer loop never runs and the message never reaches the DMQ.
//   - maxRetries 0 processes a redelivered message not at all: it gets the
//     delivery status at once. An empty maxRetries retries without end; the
//     emulator stops after Options.RetryCap retries and reports it.
//   - The flow fetches up to queuePrefetch messages at a time and works on
//     them with NumberConcurrentProcesses workers. One redelivery lock clock
//     covers the batch, starting when the flow begins processing its first
//     message; messages still unsettled when Options.LockDuration runs out
//     go back to the broker, which delivers them again (duplicates).
//
// How an execution ends is set per flow with SetBehaviour.

// Defaults of the runtime options.
const (
	// DefaultRetryInterval is the default pause between two executions of
	// the retry loop and before a rejected message is fetched again.
	DefaultRetryInterval = time.Millisecond
	// DefaultLockDuration is the default redelivery lock of a prefetched batch.
	DefaultLockDuration = time.Minute
	// DefaultRetryCap is the default bound of endless retries (empty maxRetries).
	DefaultRetryCap = 1000
	// DefaultMaxRetries is the AMQP sender's maxRetries when the channel does not set it.
	DefaultMaxRetries = 5
	// DefaultQueuePrefetch is the AMQP sender's queuePrefetch when the channel does not set it.
	DefaultQueuePrefetch = 5
)

// Delivery states of the AMQP sender after its retries are exhausted.
const (
	DeliveryStateRejected      = "REJECTED"
	DeliveryStateUndeliverable = "MODIFIED_FAILED_UNDELIVERABLE"
)

// Bounds of what the runtime keeps and how often it looks.
const (
	maxMessageRuns    = 10000
	maxProcessingLogs = 20000
	superviseEvery    = 10 * time.Millisecond
	maxIdlePoll       = 50 * time.Millisecond
	maxPrefetch       = 1000
	maxConcurrency    = 99
)

// RunOutcome says where a message consumed by a deployed flow ended.
type RunOutcome string

// Outcomes of a MessageRun.
const (
	// RunPending: the message is not settled yet (in process or waiting for redelivery).
	RunPending RunOutcome = "pending"
	// RunCompleted: an execution succeeded and the flow acknowledged the message.
	RunCompleted RunOutcome = "completed"
	// RunEscalated: an execution ended in an Escalation End; the flow acknowledged (consumed) the message.
	RunEscalated RunOutcome = "escalated"
	// RunDeadLettered, RunDiscarded and RunRedeliveryCapReached: the broker's last answer to a reject of
	// the message (core.OutcomeDeadLettered, core.OutcomeDiscarded, core.OutcomeRedeliveryCapReached): it
	// moved the message to the queue's deadMsgQueue, dropped it because the queue has no usable
	// deadMsgQueue, or discarded it after Options.RedeliveryCap deliveries of a queue that redelivers
	// without limit (maxRedeliveryCount 0).
	RunDeadLettered         = RunOutcome(core.OutcomeDeadLettered)
	RunDiscarded            = RunOutcome(core.OutcomeDiscarded)
	RunRedeliveryCapReached = RunOutcome(core.OutcomeRedeliveryCapReached)
	// RunUndeliverable: the sender settled the message MODIFIED_FAILED_UNDELIVERABLE; the broker
	// does not deliver it again and it never reaches the dead message queue.
	RunUndeliverable RunOutcome = "undeliverable"
	// RunRetryCapReached: the sender retries without limit (empty maxRetries) and the emulator
	// discarded the message after Options.RetryCap retries.
	RunRetryCapReached RunOutcome = "retryCapReached"
)

// MessageRun is what one deployed flow did with one message.
type MessageRun struct {
	IFlowID   string `json:"iflowId"`
	Queue     string `json:"queue"`
	MessageID string `json:"messageId"`
	// CorrelationID is the CorrelationId of every processing log of the message.
	CorrelationID string `json:"correlationId"`
	// Executions counts the executions of the flow for this message.
	Executions int64 `json:"executions"`
	// Deliveries counts the deliveries of the message to the flow.
	Deliveries int64 `json:"deliveries"`
	// Duplicates counts the deliveries whose redelivery lock expired before
	// the flow settled them; the broker delivered the message again each time.
	Duplicates int64      `json:"duplicates"`
	Outcome    RunOutcome `json:"outcome"`
	// DeadMsgQueue names the queue the message moved to (RunDeadLettered).
	DeadMsgQueue string `json:"deadMsgQueue,omitempty"`
	// Reason explains discards and reached safety caps.
	Reason string    `json:"reason,omitempty"`
	First  time.Time `json:"first"`
	Last   time.Time `json:"last"`
}

// Settled reports whether the message left the flow for good.
func (r MessageRun) Settled() bool { return r.Outcome != RunPending && r.Outcome != "" }

// RuntimeStats count what deployed flows did with messages.
type RuntimeStats struct {
	// Executions counts every execution (one processing log each).
	Executions int64 `json:"executions"`
	// Completed, Escalated, Retried and Failed count executions by their log status.
	Completed int64 `json:"completed"`
	Escalated int64 `json:"escalated"`
	Retried   int64 `json:"retried"`
	Failed    int64 `json:"failed"`
	// Deliveries counts messages handed to flows by the broker.
	Deliveries int64 `json:"deliveries"`
	// Rejected counts NACKs (deliveryState REJECTED) sent to the broker.
	Rejected int64 `json:"rejected"`
	// DeadLettered, Discarded, RedeliveryCapReached, Undeliverable and
	// RetryCapReached count messages by where they ended.
	DeadLettered         int64 `json:"deadLettered"`
	Discarded            int64 `json:"discarded"`
	RedeliveryCapReached int64 `json:"redeliveryCapReached"`
	Undeliverable        int64 `json:"undeliverable"`
	RetryCapReached      int64 `json:"retryCapReached"`
	// Deleted and Lost count messages of AEM sender channels the AEM broker
	// deleted without a dead message queue, and failed after an acknowledgement
	// on receipt (aem_runtime.go).
	Deleted int64 `json:"deleted"`
	Lost    int64 `json:"lost"`
	// Duplicates counts deliveries whose redelivery lock expired before the
	// flow settled them; each makes the broker deliver the message again.
	Duplicates int64 `json:"duplicates"`
}

func (a *RuntimeStats) add(b *RuntimeStats) {
	a.Executions += b.Executions
	a.Completed += b.Completed
	a.Escalated += b.Escalated
	a.Retried += b.Retried
	a.Failed += b.Failed
	a.Deliveries += b.Deliveries
	a.Rejected += b.Rejected
	a.DeadLettered += b.DeadLettered
	a.Discarded += b.Discarded
	a.RedeliveryCapReached += b.RedeliveryCapReached
	a.Undeliverable += b.Undeliverable
	a.RetryCapReached += b.RetryCapReached
	a.Deleted += b.Deleted
	a.Lost += b.Lost
	a.Duplicates += b.Duplicates
}

// Consumer describes one AMQP sender channel of a deployed flow that
// consumes a queue.
type Consumer struct {
	IFlowID string `json:"iflowId"`
	// TaskID identifies the deploy the consumer belongs to.
	TaskID string `json:"taskId"`
	// Channel is the id of the sender's message flow.
	Channel string `json:"channel"`
	Queue   string `json:"queue"`
	// MaxRetries is the effective maxRetries; nil means endless.
	MaxRetries          *int64 `json:"maxRetries"`
	DeliveryState       string `json:"deliveryState"`
	QueuePrefetch       int    `json:"queuePrefetch"`
	ConcurrentProcesses int    `json:"concurrentProcesses"`
	// ExceptionEnd is the end event kind of the flow's exception subprocess
	// that the "exception" behaviour follows ("" when the flow has none).
	ExceptionEnd string `json:"exceptionEnd"`
}

// Runtime is the room of the Cloud Integration runtime: the
// deployed flows whose AMQP senders consume the Event Mesh queues through
// the broker, their behaviours, message runs, processing logs and
// statistics (runtimeState, under its own lock), and its control endpoints.
// It reads the deployments of the design time (cpiState).
type Runtime struct {
	*core.Core
	broker core.EventMeshBroker
	cpi    *cpiState
	rt     *runtimeState
	// jms is the tenant's JMS broker, which the JMS sender channels of the
	// deployed flows consume (jms.go, jms_runtime.go).
	jms *jmsState
	// aem is the Advanced Event Mesh broker, whose queues the AdvancedEventMesh
	// sender channels of the deployed flows consume (aem_runtime.go).
	aem core.AEMBroker
}

// runtimeState is the runtime of the deployed flows.
type runtimeState struct {
	mu      sync.Mutex
	closed  bool
	running bool
	stop    context.CancelFunc
	done    chan struct{}
	kick    chan struct{}
	active  atomic.Int64

	flows      map[string]*flowRunner
	behaviours map[string]Behaviour
	runs       map[string]*MessageRun
	runOrder   []string
	logs       []MessageProcessingLog
	stats      map[string]*RuntimeStats
}

func newRuntimeState() *runtimeState {
	return &runtimeState{
		kick:       make(chan struct{}, 1),
		flows:      map[string]*flowRunner{},
		behaviours: map[string]Behaviour{},
		runs:       map[string]*MessageRun{},
		stats:      map[string]*RuntimeStats{},
	}
}

// flowRunner runs the consumers of one deployment of one flow.
type flowRunner struct {
	taskID       string
	consumers    []Consumer
	aemConsumers []AEMConsumer
	cancel       context.CancelFunc
	wg           sync.WaitGroup
}

func (fr *flowRunner) stopAndWait() {
	fr.cancel()
	fr.wg.Wait()
}

// KickRuntime starts the runtime supervisor when needed and asks it to look
// at the deployments now. It does nothing after Close.
func (s *Runtime) KickRuntime() {
	rt := s.rt
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return
	}
	if !rt.running {
		ctx, cancel := context.WithCancel(context.Background())
		rt.running, rt.stop, rt.done = true, cancel, make(chan struct{})
		go s.supervise(ctx, rt.done)
	}
	rt.mu.Unlock()
	select {
	case rt.kick <- struct{}{}:
	default:
	}
}

// StopRuntime stops the supervisor and every consumer and waits for them.
// The runtime does not start again afterwards.
func (s *Runtime) StopRuntime() {
	rt := s.rt
	rt.mu.Lock()
	rt.closed = true
	running, stop, done := rt.running, rt.stop, rt.done
	rt.mu.Unlock()
	if running {
		stop()
		<-done
	}
}

// HasRuntimes reports whether any flow is deployed (or being deployed).
func (s *Runtime) HasRuntimes() bool {
	c := s.cpi
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.runtimes) > 0
}

// supervise starts and stops consumers as deployments come and go, until ctx ends.
func (s *Runtime) supervise(ctx context.Context, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(superviseEvery)
	defer t.Stop()
	for {
		s.reconcile(ctx)
		select {
		case <-ctx.Done():
			s.stopFlows(func(string, *flowRunner) bool { return true })
			return
		case <-t.C:
		case <-s.rt.kick:
		}
	}
}

// startedFlow is a deployment in status STARTED.
type startedFlow struct {
	id, taskID, name, pkg string
	content               []byte
	params                map[string]string
}

// startedFlows returns the deployments in force that are STARTED.
func (s *Runtime) startedFlows() map[string]startedFlow {
	c := s.cpi
	now := s.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]startedFlow{}
	for id := range c.runtimes {
		d := c.runtimeLocked(id, now)
		if d == nil || d.status(now) != cpiRunStarted {
			continue
		}
		f := startedFlow{id: id, taskID: d.TaskID, name: d.Name, content: d.Content, params: d.Parameters}
		if def := c.iflows[id]; def != nil {
			f.pkg = def.PackageID
		}
		out[id] = f
	}
	return out
}

// stopFlows stops and forgets the runners for which drop is true.
func (s *Runtime) stopFlows(drop func(string, *flowRunner) bool) {
	rt := s.rt
	rt.mu.Lock()
	var stopping []*flowRunner
	for id, fr := range rt.flows {
		if drop(id, fr) {
			stopping = append(stopping, fr)
			delete(rt.flows, id)
		}
	}
	rt.mu.Unlock()
	for _, fr := range stopping {
		fr.stopAndWait()
	}
}

// reconcile makes the running consumers match the STARTED deployments.
func (s *Runtime) reconcile(ctx context.Context) {
	want := s.startedFlows()
	s.stopFlows(func(id string, fr *flowRunner) bool {
		w, ok := want[id]
		return !ok || w.taskID != fr.taskID
	})
	rt := s.rt
	for id, w := range want {
		rt.mu.Lock()
		_, running := rt.flows[id]
		rt.mu.Unlock()
		if running || ctx.Err() != nil {
			continue
		}
		fr := s.startFlow(ctx, w)
		rt.mu.Lock()
		rt.flows[id] = fr
		rt.mu.Unlock()
	}
}

// startFlow starts one consumer per AMQP sender channel of a deployment.
func (s *Runtime) startFlow(parent context.Context, w startedFlow) *flowRunner {
	ctx, cancel := context.WithCancel(parent)
	fr := &flowRunner{taskID: w.taskID, cancel: cancel}
	art, err := flowreader.ReadArchive(w.content)
	if err != nil {
		s.Logf("emulator: integration flow %s is deployed, but its content cannot be read, so it consumes nothing: %v", w.id, err)
		return fr
	}
	end := art.Model.ExceptionEnd()
	for _, snd := range art.Model.ChannelsOf("AMQP", "Sender") {
		cn, problem := newConsumer(s, w, art.ParameterValues(w.params), snd, end)
		if problem != "" {
			s.Logf("emulator: integration flow %s, channel %s: %s", w.id, snd.ID, problem)
		}
		if cn == nil {
			continue
		}
		fr.consumers = append(fr.consumers, cn.info)
		fr.wg.Add(1)
		go func() {
			defer fr.wg.Done()
			cn.run(ctx)
		}()
		s.Logf("emulator: integration flow %s consumes queue %s (maxRetries %s, %s, prefetch %d, %d concurrent)",
			w.id, cn.queue, retriesText(cn.info.MaxRetries), cn.info.DeliveryState, cn.prefetch, cn.concurrency)
	}
	s.startJMSConsumers(ctx, w, art, end, fr) // jms_runtime.go
	s.startAEMConsumers(ctx, w, art, end, fr) // aem_runtime.go
	return fr
}

func retriesText(p *int64) string {
	if p == nil {
		return "endless"
	}
	return fmt.Sprint(*p)
}

// consumer is one AMQP sender channel of a deployed flow.
type consumer struct {
	s             *Runtime
	info          Consumer
	flowName, pkg string
	queue         string
	retries       int64 // -1: endless
	undeliverable bool
	prefetch      int
	concurrency   int
}

// newConsumer reads the retry settings of an AMQP sender channel. It
// returns nil when the channel names no queue, and a problem text for
// settings it had to replace.
func newConsumer(s *Runtime, w startedFlow, params map[string]string, snd flowreader.Channel, end string) (*consumer, string) {
	// destinationName names the queue, with or without the prefix "queue:"
	// [SAP configure-the-amqp-sender-adapter-99ce674.md; SAP's
	// EMIS_AMQP_Consumer flow writes "queue:<name>"].
	queue := snd.Setting("destinationName", params).Value
	if len(queue) >= 6 && strings.EqualFold(queue[:6], "queue:") {
		queue = strings.TrimSpace(queue[6:])
	}
	if queue == "" {
		return nil, "the AMQP sender has no destinationName, so it consumes nothing."
	}
	var problems []string
	cn := &consumer{s: s, flowName: w.name, pkg: w.pkg, queue: queue, retries: DefaultMaxRetries}
	switch st := snd.Setting("maxRetries", params); {
	case !st.Present:
	case st.Value == "":
		cn.retries = -1
	default:
		n, ok := st.Whole()
		if !ok || n < 0 {
			problems = append(problems, fmt.Sprintf("maxRetries %q is not a whole number from 0, so the emulator uses %d.", st.Value, DefaultMaxRetries))
		} else {
			cn.retries = n
		}
	}
	state := DeliveryStateRejected
	if strings.EqualFold(snd.Setting("deliveryState", params).Value, DeliveryStateUndeliverable) {
		state = DeliveryStateUndeliverable
		cn.undeliverable = true
	}
	cn.prefetch = intSetting(snd.Setting("queuePrefetch", params), DefaultQueuePrefetch, maxPrefetch, &problems)
	cn.concurrency = intSetting(snd.Setting("NumberConcurrentProcesses", params), 1, maxConcurrency, &problems)
	cn.info = Consumer{IFlowID: w.id, TaskID: w.taskID, Channel: snd.ID, Queue: queue, DeliveryState: state,
		QueuePrefetch: cn.prefetch, ConcurrentProcesses: cn.concurrency, ExceptionEnd: end}
	if cn.retries >= 0 {
		n := cn.retries
		cn.info.MaxRetries = &n
	}
	return cn, strings.Join(problems, " ")
}

// intSetting reads a count setting: def when absent or empty, clamped to 1..upper.
func intSetting(st flowreader.ChannelSetting, def, upper int, problems *[]string) int {
	if st.Empty() {
		return def
	}
	n, ok := st.Whole()
	switch {
	case !ok:
		*problems = append(*problems, fmt.Sprintf("%s %q is not a whole number, so the emulator uses %d.", st.Key, st.Value, def))
		return def
	case n < 1:
		return 1
	case n > int64(upper):
		return upper
	}
	return int(n)
}

// retryInterval is the pause between executions of the retry loop.
func (s *Runtime) retryInterval() time.Duration { return s.Opts.RetryInterval }

// run fetches and processes batches until ctx ends.
func (cn *consumer) run(ctx context.Context) {
	s := cn.s
	s.rt.active.Add(1)
	defer s.rt.active.Add(-1)
	s.broker.CountConsumer(cn.queue, 1)
	defer s.broker.CountConsumer(cn.queue, -1)
	base := max(s.retryInterval(), time.Millisecond)
	idle := base
	reported := false
	for ctx.Err() == nil {
		batch, err := cn.fetch()
		if err != nil && !reported {
			s.Logf("emulator: integration flow %s cannot consume queue %s: %v", cn.info.IFlowID, cn.queue, err)
		}
		reported = err != nil
		if len(batch) == 0 {
			if !core.SleepCtx(ctx, idle) {
				return
			}
			idle = min(idle*2, maxIdlePoll)
			continue
		}
		idle = base
		if cn.process(ctx, batch) && !core.SleepCtx(ctx, s.retryInterval()) {
			return
		}
	}
}

// fetch takes up to prefetch messages from the queue.
func (cn *consumer) fetch() ([]core.Message, error) {
	var out []core.Message
	for len(out) < cn.prefetch {
		m, ok, err := cn.s.broker.Consume(cn.queue, 1)
		if err != nil {
			return out, err
		}
		if !ok {
			break
		}
		out = append(out, m)
	}
	return out, nil
}

// batchLock is the one redelivery lock clock of a prefetched batch.
type batchLock struct {
	mu    sync.Mutex
	start time.Time
	dur   time.Duration
}

// begin starts the clock when the first message of the batch is processed.
func (b *batchLock) begin() {
	b.mu.Lock()
	if b.start.IsZero() {
		b.start = time.Now()
	}
	b.mu.Unlock()
}

func (b *batchLock) expired() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.start.IsZero() && time.Since(b.start) >= b.dur
}

// Delivery states within a batch.
const (
	deliveryPending = iota
	deliverySettled
	deliveryReleased
)

// delivery is one prefetched message. Exactly one worker handles it.
type delivery struct {
	msg   core.Message
	state int
}

// process works on a batch with the configured number of workers and
// reports whether any message was rejected.
func (cn *consumer) process(ctx context.Context, msgs []core.Message) bool {
	lock := &batchLock{dur: cn.s.Opts.LockDuration}
	items := make([]*delivery, len(msgs))
	queue := make(chan *delivery, len(msgs))
	for i, m := range msgs {
		items[i] = &delivery{msg: m}
		queue <- items[i]
	}
	close(queue)
	var rejected atomic.Bool
	var wg sync.WaitGroup
	for range min(cn.concurrency, len(items)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range queue {
				if ctx.Err() != nil {
					continue
				}
				if cn.deliver(ctx, lock, d) {
					rejected.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, d := range items {
		if d.state == deliveryPending {
			// The flow stopped: in-memory retries are lost and the
			// broker gets the message back.
			cn.s.broker.ReleaseMessage(cn.queue, d.msg.ID)
		}
	}
	return rejected.Load()
}

// execution results.
type execResult int

const (
	execCompleted execResult = iota
	execEscalated
	execFailed
)

// deliver runs the retry loop for one delivery and settles the message. It
// reports whether the message was rejected for redelivery.
func (cn *consumer) deliver(ctx context.Context, lock *batchLock, d *delivery) bool {
	s := cn.s
	lock.begin()
	done, corr := s.rt.beginDelivery(cn, d.msg, s.Now())
	budget, capped := cn.budget(done == 0)
	for i := int64(0); i < budget; i++ {
		if i > 0 && !core.SleepCtx(ctx, s.retryInterval()) {
			return false
		}
		cn.checkLock(lock, d)
		res, ok := cn.execute(ctx, d, corr, i+1, i == budget-1)
		if !ok {
			return false
		}
		switch res {
		case execCompleted:
			cn.settleAck(lock, d, RunCompleted)
			return false
		case execEscalated:
			cn.settleAck(lock, d, RunEscalated)
			return false
		}
	}
	return cn.settleFailure(lock, d, capped)
}

// budget returns the number of executions of one delivery: the initial
// execution plus the retries for the first delivery, the retries for a
// redelivery. capped is true when the sender retries without end and the
// budget is the emulator's safety cap.
func (cn *consumer) budget(first bool) (int64, bool) {
	n, capped := cn.retries, false
	if n < 0 {
		n, capped = cn.s.Opts.RetryCap, true
	}
	if first {
		n++
	}
	return n, capped
}

// checkLock gives the message back to the broker when the batch's lock ran out.
func (cn *consumer) checkLock(lock *batchLock, d *delivery) {
	if d.state != deliveryPending || !lock.expired() {
		return
	}
	d.state = deliveryReleased
	res, ok := cn.s.broker.ExpireLock(cn.queue, d.msg.ID)
	outcome := RunPending
	if ok {
		outcome = runOutcomeOf(res.Outcome)
	}
	cn.s.rt.duplicate(cn, d.msg.ID, outcome, res.DeadMsgQueue, res.Reason, cn.s.Now())
}

// execute runs the flow once and records its processing log.
func (cn *consumer) execute(ctx context.Context, d *delivery, corr string, attempt int64, last bool) (execResult, bool) {
	s := cn.s
	b := s.rt.behaviour(cn.info.IFlowID)
	number := s.rt.executions(cn.info.IFlowID, d.msg.ID) + 1
	res := b.result(number, cn.info.ExceptionEnd)
	start := s.Now()
	if b.ProcessingMs > 0 && !core.SleepCtx(ctx, time.Duration(b.ProcessingMs)*time.Millisecond) {
		return res, false
	}
	s.rt.recordExecution(cn, MessageProcessingLog{
		MessageGuid: newMPLID(), CorrelationID: corr, ApplicationMessageID: d.msg.ID,
		IntegrationFlowName: cn.info.IFlowID, ArtifactName: cn.flowName, PackageID: cn.pkg,
		Status: mplStatus(res, last), LogStart: start, LogEnd: s.Now(), Sender: "queue:" + cn.queue,
		Queue: cn.queue, DeliveryCount: d.msg.DeliveryCount, Attempt: attempt, Duplicate: d.state == deliveryReleased,
	})
	return res, true
}

// mplStatus is the processing log status of an execution that ended with
// res; last says whether the sender retries no more on this delivery.
func mplStatus(res execResult, last bool) string {
	switch {
	case res == execEscalated:
		return MPLStatusEscalated
	case res == execFailed && last:
		return MPLStatusFailed
	case res == execFailed:
		return MPLStatusRetry
	}
	return MPLStatusCompleted
}

// settleAck acknowledges a message the flow completed or escalated.
func (cn *consumer) settleAck(lock *batchLock, d *delivery, outcome RunOutcome) {
	cn.checkLock(lock, d)
	if d.state != deliveryPending {
		return
	}
	d.state = deliverySettled
	s := cn.s
	if err := s.broker.Ack(cn.queue, d.msg.ID); err != nil {
		s.Logf("emulator: integration flow %s could not acknowledge message %s on queue %s: %v", cn.info.IFlowID, d.msg.ID, cn.queue, err)
		return
	}
	s.rt.settle(cn, d.msg.ID, outcome, "", s.Now())
}

// settleFailure settles a message whose retries are exhausted, per the
// sender's delivery state. It reports whether the broker redelivers it.
func (cn *consumer) settleFailure(lock *batchLock, d *delivery, capped bool) bool {
	cn.checkLock(lock, d)
	if d.state != deliveryPending {
		return false
	}
	d.state = deliverySettled
	s := cn.s
	id, flow := d.msg.ID, cn.info.IFlowID
	switch {
	case capped:
		s.broker.DiscardMessage(cn.queue, id)
		reason := fmt.Sprintf("The AMQP sender of integration flow %q has an empty maxRetries, which retries without limit; the emulator stopped after %d retries and discarded the message. Set maxRetries to a value from 1 to 99.", flow, s.Opts.RetryCap)
		s.Logf("emulator: %s", reason)
		s.rt.settle(cn, id, RunRetryCapReached, reason, s.Now())
		return false
	case cn.undeliverable:
		s.broker.DiscardMessage(cn.queue, id)
		s.Logf("emulator: integration flow %s settled message %s as %s: the broker does not deliver it again and it does not reach a dead message queue", flow, id, DeliveryStateUndeliverable)
		s.rt.settle(cn, id, RunUndeliverable, "The AMQP sender settled the message with delivery state MODIFIED_FAILED_UNDELIVERABLE, so the broker did not redeliver it and it did not reach the dead message queue. Set deliveryState to REJECTED.", s.Now())
		return false
	}
	res, err := s.broker.Reject(cn.queue, id)
	if err != nil {
		s.Logf("emulator: integration flow %s could not reject message %s on queue %s: %v", flow, id, cn.queue, err)
		return false
	}
	s.rt.rejected(cn, id, res, s.Now())
	if res.Outcome != core.OutcomeRedelivered {
		s.Logf("emulator: integration flow %s rejected message %s for the last time: %s %s%s", flow, id, res.Outcome, res.DeadMsgQueue, res.Reason)
	}
	return res.Outcome == core.OutcomeRedelivered
}

// runOutcomeOf is the run's outcome after the broker answered a reject with o: pending while the broker
// redelivers the message, otherwise the broker's last answer (RunDeadLettered, RunDiscarded,
// RunRedeliveryCapReached).
func runOutcomeOf(o core.RejectOutcome) RunOutcome {
	if o == core.OutcomeRedelivered {
		return RunPending
	}
	return RunOutcome(o)
}

// Bookkeeping of runs, logs and statistics.

func runKey(flow, msg string) string { return flow + "\x00" + msg }

func (rt *runtimeState) statsLocked(flow string) *RuntimeStats {
	st := rt.stats[flow]
	if st == nil {
		st = &RuntimeStats{}
		rt.stats[flow] = st
	}
	return st
}

// beginDelivery records a delivery and returns the executions so far and
// the correlation id of the message.
func (rt *runtimeState) beginDelivery(cn *consumer, m core.Message, now time.Time) (int64, string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	key := runKey(cn.info.IFlowID, m.ID)
	r := rt.runs[key]
	if r == nil {
		r = &MessageRun{IFlowID: cn.info.IFlowID, Queue: cn.queue, MessageID: m.ID, CorrelationID: newMPLID(),
			Outcome: RunPending, First: now}
		rt.runs[key] = r
		rt.runOrder = append(rt.runOrder, key)
		for len(rt.runs) > maxMessageRuns && len(rt.runOrder) > 0 {
			delete(rt.runs, rt.runOrder[0])
			rt.runOrder = rt.runOrder[1:]
		}
	}
	r.Deliveries++
	r.Last = now
	rt.statsLocked(cn.info.IFlowID).Deliveries++
	return r.Executions, r.CorrelationID
}

// executions returns how often flow executed message id.
func (rt *runtimeState) executions(flow, id string) int64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if r := rt.runs[runKey(flow, id)]; r != nil {
		return r.Executions
	}
	return 0
}

func (rt *runtimeState) recordExecution(cn *consumer, l MessageProcessingLog) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if r := rt.runs[runKey(cn.info.IFlowID, l.ApplicationMessageID)]; r != nil {
		r.Executions++
		r.Last = l.LogEnd
	}
	st := rt.statsLocked(cn.info.IFlowID)
	st.Executions++
	switch l.Status {
	case MPLStatusCompleted:
		st.Completed++
	case MPLStatusEscalated:
		st.Escalated++
	case MPLStatusRetry:
		st.Retried++
	case MPLStatusFailed:
		st.Failed++
	}
	rt.logs = append(rt.logs, l)
	if len(rt.logs) > maxProcessingLogs {
		keep := maxProcessingLogs * 9 / 10
		rt.logs = append([]MessageProcessingLog(nil), rt.logs[len(rt.logs)-keep:]...)
	}
}

// settle records where a message ended that did not move to a dead message queue; a settled run
// keeps its outcome.
func (rt *runtimeState) settle(cn *consumer, id string, outcome RunOutcome, reason string, now time.Time) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.settleLocked(cn.info.IFlowID, id, outcome, "", reason, now)
}

func (rt *runtimeState) settleLocked(flow, id string, outcome RunOutcome, dmq, reason string, now time.Time) {
	if outcome == RunPending {
		return
	}
	st := rt.statsLocked(flow)
	switch outcome {
	case RunDeadLettered:
		st.DeadLettered++
	case RunDiscarded:
		st.Discarded++
	case RunRedeliveryCapReached:
		st.RedeliveryCapReached++
	case RunUndeliverable:
		st.Undeliverable++
	case RunRetryCapReached:
		st.RetryCapReached++
	case RunDeleted:
		st.Deleted++
	case RunLost:
		st.Lost++
	}
	r := rt.runs[runKey(flow, id)]
	if r == nil || r.Settled() {
		return
	}
	r.Outcome, r.DeadMsgQueue, r.Reason, r.Last = outcome, dmq, reason, now
}

// rejected records a NACK and what the broker did with it.
func (rt *runtimeState) rejected(cn *consumer, id string, res core.RejectResult, now time.Time) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.statsLocked(cn.info.IFlowID).Rejected++
	rt.settleLocked(cn.info.IFlowID, id, runOutcomeOf(res.Outcome), res.DeadMsgQueue, res.Reason, now)
}

// duplicate records a delivery whose lock expired.
func (rt *runtimeState) duplicate(cn *consumer, id string, outcome RunOutcome, dmq, reason string, now time.Time) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.statsLocked(cn.info.IFlowID).Duplicates++
	if r := rt.runs[runKey(cn.info.IFlowID, id)]; r != nil {
		r.Duplicates++
	}
	rt.settleLocked(cn.info.IFlowID, id, outcome, dmq, reason, now)
}

// MessageRuns returns what integration flow id did with each message it
// consumed, oldest first; id "" returns the runs of every flow.
func (s *Runtime) MessageRuns(id string) []MessageRun {
	rt := s.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := []MessageRun{}
	for _, key := range rt.runOrder {
		if r := rt.runs[key]; r != nil && (id == "" || r.IFlowID == id) {
			out = append(out, *r)
		}
	}
	return out
}

// RuntimeStats returns the message statistics of integration flow id, or
// of all flows for id "".
func (s *Runtime) RuntimeStats(id string) RuntimeStats {
	rt := s.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var out RuntimeStats
	for flow, st := range rt.stats {
		if id == "" || flow == id {
			out.add(st)
		}
	}
	return out
}

// Consumers returns the AMQP sender channels that consume queues now,
// sorted by integration flow and channel.
func (s *Runtime) Consumers() []Consumer {
	rt := s.rt
	rt.mu.Lock()
	out := []Consumer{}
	for _, fr := range rt.flows {
		for _, c := range fr.consumers {
			if c.MaxRetries != nil {
				n := *c.MaxRetries
				c.MaxRetries = &n
			}
			out = append(out, c)
		}
	}
	rt.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].IFlowID != out[j].IFlowID {
			return out[i].IFlowID < out[j].IFlowID
		}
		return out[i].Channel < out[j].Channel
	})
	return out
}

// ActiveConsumers returns the number of consumer goroutines running; it is
// zero after Close.
func (s *Runtime) ActiveConsumers() int { return int(s.rt.active.Load()) }

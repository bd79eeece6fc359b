package emulator_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatorcontrol"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The AEM sender cross-check: the emulator runs an always-failing message through a deployed flow whose
// AdvancedEventMesh sender consumes a queue of its AEM room, with its own reader and runtime
// (aem_runtime.go, written from SAP's adapter page as aem.md §4–5 quotes it); the provider's side reads the
// same flow with internal/iflow and predicts the run with internal/rules (AEMSenderPath, AEMSenderMaxRuns,
// AEMAdapterWait, AEMRedeliveryDelay). Flow, deploy and processing logs go over HTTP through the Cloud
// Integration client; queues and the message through SEMP and REST messaging.

// aemSenderMinute makes one AEM second last 1 ms of real time: the seed row's 271 s take about 0.3 s.
const aemSenderMinute = 60 * time.Millisecond

// aemSenderRow is one channel and the queue it reads.
type aemSenderRow struct {
	name string
	// Channel keys that differ from iflowbuild.DefaultAEMSenderProperties; params are externalized values.
	props, params map[string]string
	// The queue: redelivery, R, the delay (initial, max ms, multiplier in percent) and its DMQ (created or not).
	enabled             bool
	r                   int64
	delay               bool
	initial, maxMs, mul int64
	dmq                 bool
	// dmqIngressOff creates the DMQ with the broker's default ingressEnabled false, as a queue made by hand.
	dmqIngressOff bool
	// adapter is the iflowbuild adapter of the channel: "" for AEM, or SolacePubSubPlus.
	adapter string
}

// aemSenderEnv is one emulator with the Cloud Integration client and the AEM broker's SEMP.
type aemSenderEnv struct {
	*crossEnv
	aem *emulatortest.AEM
}

func newAEMSenderEnv(t *testing.T, opts emulator.Options) *aemSenderEnv {
	t.Helper()
	e := newCrossEnv(t, opts)
	return &aemSenderEnv{crossEnv: e, aem: emulatortest.AEMOf(t, e.s)}
}

// newAEMSenderCase starts an emulator for one test and a context bounded by waitTimeout.
func newAEMSenderCase(t *testing.T, opts emulator.Options) (context.Context, *aemSenderEnv) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx, newAEMSenderEnv(t, opts)
}

// queueRow is a channel with props on a queue with R = r, the broker's redelivery delay settings (off) and a
// dead message queue.
func queueRow(r int64, props map[string]string) aemSenderRow {
	return aemSenderRow{enabled: true, r: r, dmq: true, initial: 1000, maxMs: 64000, mul: 200, props: props}
}

// deployRow creates the row's queues and deploys flow id with its channel, every run failing, and returns
// the flow's content.
func (e *aemSenderEnv) deployRow(t *testing.T, ctx context.Context, id string, row aemSenderRow) []byte {
	t.Helper()
	zip := aemSenderZip(id, row)
	e.queues(row)
	e.deployContent(t, ctx, id, zip)
	return zip
}

// publishOne puts one message on "orders".
func (e *aemSenderEnv) publishOne(t *testing.T) {
	t.Helper()
	if st := e.aem.Publish("orders", http.Header{}); st != http.StatusOK {
		t.Fatalf("publish: %d", st)
	}
}

// queues creates the row's queue "orders" and, with row.dmq, its dead message queue "orders.dmq"; a queue
// without one names "orders.dmq" all the same, which then does not exist.
func (e *aemSenderEnv) queues(row aemSenderRow) {
	if row.dmq {
		e.aem.CreateQueue("orders.dmq", map[string]any{"ingressEnabled": !row.dmqIngressOff})
	}
	e.aem.CreateQueue("orders", map[string]any{"deadMsgQueue": "orders.dmq", "redeliveryEnabled": row.enabled, "maxRedeliveryCount": row.r,
		"redeliveryDelayEnabled": row.delay, "redeliveryDelayInitialInterval": row.initial, "redeliveryDelayMaxInterval": row.maxMs,
		"redeliveryDelayMultiplier": row.mul})
}

// aemSenderZip builds flow id with one AEM sender on "orders" and the row's keys.
func aemSenderZip(id string, row aemSenderRow) []byte {
	props := iflowbuild.DefaultAEMSenderProperties("orders")
	for k, v := range row.props {
		props[k] = v
	}
	adapter := row.adapter
	if adapter == "" {
		adapter = "AEM"
	}
	return iflowbuild.Build(iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{{Adapter: adapter, Properties: props}},
		ExceptionEnds: [][]string{{"error"}}, Parameters: row.params})
}

// aemSenderRules reads the flow's channel with the provider's reader and returns the rules' view of it on
// the row's queue.
func aemSenderRules(t *testing.T, zip []byte, row aemSenderRow) rules.AEMSender {
	t.Helper()
	art, err := iflow.ReadZip(zip)
	if err != nil {
		t.Fatal(err)
	}
	chs := art.AEMSenders()
	if len(chs) != 1 {
		t.Fatalf("the provider's reader finds %d AEM senders", len(chs))
	}
	st := art.AEMSenderSettings(chs[0], nil)
	known := func(v string, ok bool) rules.Value[string] {
		if !ok {
			t.Fatalf("the provider's reader cannot read a mode of %+v", st)
		}
		return rules.Known(v)
	}
	whole := func(s iflow.Setting) rules.Value[int64] {
		n, ok := s.Int()
		if !ok {
			t.Fatalf("the provider's reader cannot read %s %q", s.Key, s.Raw)
		}
		return rules.Known(n)
	}
	mult, ok := st.Multiplier()
	if !ok {
		t.Fatalf("the provider's reader cannot read the multiplier %q", st.RetryMultiplier.Raw)
	}
	return rules.AEMSender{
		MaxMessageProcessingAttempts: whole(st.MaxAttempts), RetryInterval: whole(st.RetryInterval),
		MaxRetryInterval: whole(st.MaxRetryInterval), RetryMultiplier: rules.Known(mult),
		SettlementOutcome: known(st.Outcome()), AcknowledgementMode: known(st.Acknowledgement()), ConsumerMode: known(st.Consumer()),
		Queue: rules.AEMQueue{Name: rules.Known("orders"), DeadMessageQueue: rules.Known("orders.dmq"),
			RedeliveryEnabled: rules.Known(row.enabled), MaxRedeliveryCount: rules.Known(row.r),
			RedeliveryDelayEnabled: rules.Known(row.delay), RedeliveryDelayInitialInterval: rules.Known(row.initial),
			RedeliveryDelayMaxInterval: rules.Known(row.maxMs), RedeliveryDelayMultiplier: rules.Known(row.mul),
			DeadMessageQueueExists: rules.Known(row.dmq), DeadMessageQueueIngress: rules.Known(!row.dmqIngressOff)},
	}
}

// aemEndOf maps a run's outcome to the end the rules name.
func aemEndOf(outcome emulator.RunOutcome) string {
	switch outcome {
	case emulator.RunDeadLettered:
		return rules.AEMEndDeadMessageQueue
	case emulator.RunDeleted:
		return rules.AEMEndDeleted
	case emulator.RunLost:
		return rules.AEMEndLost
	}
	return string(outcome)
}

// predictedStarts returns when each run of a poison message starts, after the first delivery, by the
// rules: m runs per delivery with the adapter's waits between them, the broker's redelivery delay between
// deliveries.
func predictedStarts(s rules.AEMSender, p rules.AEMSenderPoisonPath) []time.Duration {
	perDelivery := p.Runs / p.Deliveries
	var out []time.Duration
	var at time.Duration
	for j := int64(0); j < p.Deliveries; j++ {
		if j > 0 && s.Queue.RedeliveryDelayEnabled.V {
			at += rules.AEMRedeliveryDelay(j, s.Queue.RedeliveryDelayInitialInterval.V, s.Queue.RedeliveryDelayMaxInterval.V, s.Queue.RedeliveryDelayMultiplier.V)
		}
		for k := int64(1); k <= perDelivery; k++ {
			if k > 1 {
				at += rules.AEMAdapterWait(k-1, s.RetryInterval.V, s.MaxRetryInterval.V, s.RetryMultiplier.V)
			}
			out = append(out, at)
		}
	}
	return out
}

// TestCrossCheckAEMSender runs a poison message through an AEM sender flow for a table of channel and
// queue settings, the seed table's first (5 attempts, 1000 ms × 3.0 up to 30000 ms on a queue with R = 5
// and the provider example's redelivery delay: N_max 30), and compares the emulator's runs, deliveries, end
// and times with the rules.
func TestCrossCheckAEMSender(t *testing.T) {
	t.Parallel()
	seedQueue := aemSenderRow{enabled: true, r: 5, delay: true, initial: 1000, maxMs: 64000, mul: 200, dmq: true}
	row := func(name string, base aemSenderRow, props map[string]string, change func(*aemSenderRow)) aemSenderRow {
		base.name, base.props = name, props
		if change != nil {
			change(&base)
		}
		return base
	}
	rows := []aemSenderRow{
		row("seed", seedQueue, nil, nil),
		row("seed without redelivery delay", seedQueue, nil, func(r *aemSenderRow) { r.delay = false }),
		row("FAILED R=2 m=3 500ms x2.0", seedQueue, map[string]string{"maxMessageProcessingAttempts": "3", "messageRetryInitialDelayInterval": "500",
			"messageRetryMaxDelayInterval": "2000", "messageRetryDelayIntervalMultiplier": "2.0"}, func(r *aemSenderRow) { r.r = 2 }),
		row("FAILED redelivery off", seedQueue, map[string]string{"maxMessageProcessingAttempts": "4"}, func(r *aemSenderRow) { r.enabled = false }),
		row("FAILED without DMQ", seedQueue, nil, func(r *aemSenderRow) { r.r, r.dmq = 3, false }),
		row("FAILED m=1", seedQueue, map[string]string{"maxMessageProcessingAttempts": "1"}, func(r *aemSenderRow) { r.r = 3 }),
		row("FAILED constant waits", seedQueue, map[string]string{"maxMessageProcessingAttempts": "4", "messageRetryInitialDelayInterval": "2000",
			"messageRetryMaxDelayInterval": "2000", "messageRetryDelayIntervalMultiplier": "1.0"}, func(r *aemSenderRow) { r.r = 2 }),
		row("FAILED maximum below initial", seedQueue, map[string]string{"messageRetryInitialDelayInterval": "5000", "messageRetryMaxDelayInterval": "2000"},
			func(r *aemSenderRow) { r.r = 1 }),
		row("REJECTED", seedQueue, map[string]string{"failedMessageSettlementOutcome": "REJECTED"}, nil),
		row("REJECTED without DMQ", seedQueue, map[string]string{"failedMessageSettlementOutcome": "REJECTED"}, func(r *aemSenderRow) { r.dmq = false }),
		row("REJECTED, DMQ ingress off", seedQueue, map[string]string{"failedMessageSettlementOutcome": "REJECTED"}, func(r *aemSenderRow) { r.dmqIngressOff = true }),
		row("FAILED, DMQ ingress off", seedQueue, nil, func(r *aemSenderRow) { r.r, r.dmqIngressOff = 2, true }),
		row("AUTOMATIC_IMMEDIATE", seedQueue, map[string]string{"ackMode": "AUTOMATIC_IMMEDIATE"}, nil),
		row("SolacePubSubPlus seed", seedQueue, nil, func(r *aemSenderRow) { r.adapter = "SolacePubSubPlus" }),
		row("SolacePubSubPlus AUTOMATIC_IMMEDIATE", seedQueue, map[string]string{"ackMode": "AUTOMATIC_IMMEDIATE"}, func(r *aemSenderRow) { r.adapter = "SolacePubSubPlus" }),
		row("externalized attempts and outcome", seedQueue, map[string]string{"maxMessageProcessingAttempts": "{{attempts}}",
			"failedMessageSettlementOutcome": "{{outcome}}"}, func(r *aemSenderRow) {
			r.r, r.params = 2, map[string]string{"attempts": "2", "outcome": "FAILED"}
		}),
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			ctx, e := newAEMSenderCase(t, emulator.Options{AEMMinute: aemSenderMinute})
			id := "CrossAEM"
			s := aemSenderRules(t, aemSenderZip(id, row), row)
			p, known := rules.AEMSenderPath(s)
			if !known || p.Unlimited {
				t.Fatalf("the rules give no bounded path for %+v: %+v", s, p)
			}
			maxRuns, unlimited := rules.AEMSenderMaxRuns(s.MaxMessageProcessingAttempts.V, s.ConsumerMode.V, s.AcknowledgementMode.V,
				s.SettlementOutcome.V, row.enabled, row.r)
			if unlimited || maxRuns != p.Runs {
				t.Fatalf("AEMSenderMaxRuns %d (unlimited %t), AEMSenderPath %d runs", maxRuns, unlimited, p.Runs)
			}
			if row.name == "seed" && (p.Runs != 30 || p.TimeToEnd != 271*time.Second) {
				t.Fatalf("the seed table's settings give N_max %d over %v, want 30 over 4 min 31 s", p.Runs, p.TimeToEnd)
			}

			e.deployRow(t, ctx, id, row)
			e.publishOne(t)
			run := waitSettledRun(t, ctx, e.control, id)
			if run.Executions != p.Runs || run.Deliveries != p.Deliveries {
				t.Errorf("the emulator ran the message %d times on %d deliveries; the rules plan N_max %d on %d", run.Executions, run.Deliveries, p.Runs, p.Deliveries)
			}
			if end := aemEndOf(run.Outcome); end != p.End || run.DeadMsgQueue != p.DeadMessageQueue {
				t.Errorf("the message ended %q (%q), the rules plan %q (%q)", end, run.DeadMsgQueue, p.End, p.DeadMessageQueue)
			}
			if d := run.Last.Sub(run.First) - p.TimeToEnd; d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("the message ended %v (AEM clock) after its first delivery; the rules plan %v", run.Last.Sub(run.First), p.TimeToEnd)
			}
			// Every run at the time the adapter's waits and the broker's delays give it, from the processing logs.
			logs, err := e.cpi.MessageProcessingLogs(ctx, id, run.CorrelationID)
			if err != nil {
				t.Fatal(err)
			}
			want := predictedStarts(s, p)
			if len(logs) != len(want) {
				t.Fatalf("%d processing logs, the rules plan %d runs", len(logs), len(want))
			}
			for i, l := range logs {
				if d := l.LogStart.Sub(logs[0].LogStart) - want[i]; d < -time.Millisecond || d > time.Millisecond {
					t.Errorf("run %d started %v after the first, the rules plan %v", i+1, l.LogStart.Sub(logs[0].LogStart), want[i])
				}
			}
			// Where the message is now: on the DMQ, or nowhere.
			if left := e.s.AEMQueueDepth("orders"); left != 0 {
				t.Errorf("%d messages left on the queue", left)
			}
			if row.dmq {
				wantDMQ := 0
				if p.End == rules.AEMEndDeadMessageQueue {
					wantDMQ = 1
				}
				if n := e.s.AEMQueueDepth("orders.dmq"); n != wantDMQ {
					t.Errorf("%d messages on the DMQ, want %d", n, wantDMQ)
				}
			}
		})
	}
}

// TestAEMSenderForeverStopsAtCap: FAILED on a queue with R = 0 redelivers for ever, as the rules say
// (unlimited); the emulator stops at Options.RedeliveryCap deliveries and says so.
func TestAEMSenderForeverStopsAtCap(t *testing.T) {
	t.Parallel()
	const redeliveryCap = 7
	ctx, e := newAEMSenderCase(t, emulator.Options{AEMMinute: aemSenderMinute, RedeliveryCap: redeliveryCap})
	row := queueRow(0, map[string]string{"maxMessageProcessingAttempts": "2", "messageRetryInitialDelayInterval": "100"})
	zip := e.deployRow(t, ctx, "Forever", row)
	if p, known := rules.AEMSenderPath(aemSenderRules(t, zip, row)); !known || !p.Unlimited {
		t.Fatalf("the rules give %+v, want unlimited", p)
	}
	e.publishOne(t)
	run := waitSettledRun(t, ctx, e.control, "Forever")
	if run.Outcome != emulator.RunRedeliveryCapReached || run.Deliveries != redeliveryCap+1 || run.Executions != 2*(redeliveryCap+1) {
		t.Fatalf("run %+v; want %s after %d deliveries of 2 runs", run, emulator.RunRedeliveryCapReached, redeliveryCap+1)
	}
	if n := e.s.AEMQueueDepth("orders.dmq"); n != 0 {
		t.Fatalf("%d messages on the DMQ; a message redelivered for ever never reaches it", n)
	}
}

// TestAEMSenderUndeployStopsConsumption: an undeployed flow consumes nothing more, and a message it held
// in its retries goes back to the queue, not lost.
func TestAEMSenderUndeployStopsConsumption(t *testing.T) {
	t.Parallel()
	ctx, e := newAEMSenderCase(t, emulator.Options{AEMMinute: aemSenderMinute})
	// Every run waits 30 s of AEM time before the next (30 ms of real time), and the queue redelivers for ever.
	e.deployRow(t, ctx, "Undeploy", queueRow(0, map[string]string{"maxMessageProcessingAttempts": "100",
		"messageRetryInitialDelayInterval": "30000", "messageRetryDelayIntervalMultiplier": "1.0"}))
	waitFor(t, "the AEM consumer", func() bool { return len(e.s.AEMConsumers()) == 1 })
	if c := e.s.AEMConsumers()[0]; c.Queue != "orders" || c.MaxAttempts != 100 {
		t.Fatalf("consumer %+v", c)
	}
	e.publishOne(t)
	waitFor(t, "a few runs", func() bool { return e.s.RuntimeStats("Undeploy").Executions >= 2 })
	if err := e.cpi.Undeploy(ctx, "Undeploy"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the consumers to stop", func() bool { return len(e.s.AEMConsumers()) == 0 && e.s.ActiveConsumers() == 0 })
	runs := e.s.RuntimeStats("Undeploy").Executions
	if n := e.s.AEMQueueDepth("orders"); n != 1 {
		t.Fatalf("%d messages on the queue after the undeploy; the message in its retries must go back to it", n)
	}
	e.publishOne(t)
	time.Sleep(100 * time.Millisecond)
	if got := e.s.RuntimeStats("Undeploy").Executions; got != runs {
		t.Fatalf("%d runs after the undeploy, %d before: an undeployed flow consumed", got, runs)
	}
	if n := e.s.AEMQueueDepth("orders"); n != 2 {
		t.Fatalf("%d messages on the queue, want both", n)
	}
	// The message goes on where it stopped when the flow is deployed again: still on the queue, delivered again.
	ds, _, err := e.s.AEMPoisonRun("orders", 1, 5*time.Second)
	if err != nil || len(ds) != 1 || ds[0].DeliveryCount != 2 {
		t.Fatalf("the released message: %+v, %v; want its second delivery", ds, err)
	}
}

// TestAEMSenderParallelConsumers: parallelConsumers binds that many consumers, which process that many
// messages at once and no more.
func TestAEMSenderParallelConsumers(t *testing.T) {
	t.Parallel()
	ctx, e := newAEMSenderCase(t, emulator.Options{AEMMinute: aemSenderMinute})
	e.deployRow(t, ctx, "Parallel", queueRow(3, map[string]string{"parallelConsumers": "3"}))
	// Each run completes after 60 s of AEM time (60 ms real).
	if err := emulatorcontrol.Call(ctx, e.control, http.MethodPut, "/iflows/Parallel/behaviour", `{"outcome": "success", "processing_ms": 60000}`, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the AEM consumers", func() bool { return len(e.s.AEMConsumers()) == 1 })
	if c := e.s.AEMConsumers()[0]; c.ParallelConsumers != 3 {
		t.Fatalf("consumer %+v, want 3 parallel consumers", c)
	}
	const n = 7
	for range n {
		e.publishOne(t)
	}
	runs := e.settled(t, "Parallel", n)
	peak := 0
	for _, r := range runs {
		if r.Outcome != emulator.RunCompleted || r.Executions != 1 {
			t.Fatalf("run %+v, want completed in one run", r)
		}
		at := 0
		for _, o := range runs {
			if !o.First.After(r.First) && o.Last.After(r.First) {
				at++
			}
		}
		peak = max(peak, at)
	}
	if peak != 3 {
		t.Fatalf("at most %d messages in process at once, want 3 (parallelConsumers)", peak)
	}
	if left := e.s.AEMQueueDepth("orders"); left != 0 {
		t.Fatalf("%d messages left", left)
	}
}

// TestAEMSenderNotRun: channels the emulator does not run say why and consume nothing.
func TestAEMSenderNotRun(t *testing.T) {
	t.Parallel()
	for name, props := range map[string]map[string]string{
		"direct consumer":   {"consumerMode": "DIRECT"},
		"no attempts":       {"maxMessageProcessingAttempts": ""},
		"zero attempts":     {"maxMessageProcessingAttempts": "0"},
		"unknown outcome":   {"failedMessageSettlementOutcome": "REQUEUE"},
		"no queue":          {"queueName": ""},
		"unresolved":        {"maxMessageProcessingAttempts": "{{missing}}"},
		"zero multiplier":   {"messageRetryDelayIntervalMultiplier": "0"},
		"negative interval": {"messageRetryInitialDelayInterval": "-5"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, e := newAEMSenderCase(t, emulator.Options{AEMMinute: aemSenderMinute})
			e.deployRow(t, ctx, "NotRun", queueRow(3, props))
			e.publishOne(t)
			time.Sleep(50 * time.Millisecond)
			if cs := e.s.AEMConsumers(); len(cs) != 0 {
				t.Fatalf("consumers %+v, want none", cs)
			}
			if n := e.s.AEMQueueDepth("orders"); n != 1 {
				t.Fatalf("%d messages on the queue, want the one published", n)
			}
		})
	}
}

// TestAEMSenderRuntimeAPI: GET /emulator/v1/runtime lists the AEM sender channels with their effective
// settings.
func TestAEMSenderRuntimeAPI(t *testing.T) {
	t.Parallel()
	ctx, e := newAEMSenderCase(t, emulator.Options{AEMMinute: aemSenderMinute})
	row := queueRow(3, map[string]string{"messageRetryDelayIntervalMultiplier": "{{mult}}", "parallelConsumers": "2"})
	row.params = map[string]string{"mult": "2.5"}
	e.deployRow(t, ctx, "API", row)
	var got struct {
		AEMConsumers []emulator.AEMConsumer `json:"aemConsumers"`
		Stats        emulator.RuntimeStats  `json:"stats"`
	}
	waitFor(t, "the AEM consumer in the runtime API", func() bool {
		if err := emulatorcontrol.Call(ctx, e.control, http.MethodGet, "/runtime", "", &got); err != nil {
			t.Fatal(err)
		}
		return len(got.AEMConsumers) == 1
	})
	c := got.AEMConsumers[0]
	want := emulator.AEMConsumer{IFlowID: "API", TaskID: c.TaskID, Adapter: "AdvancedEventMesh", Channel: c.Channel, Queue: "orders", ConsumerMode: "GUARANTEED",
		AckMode: "AUTOMATIC_ON_EXCHANGE_COMPLETE", SettlementOutcome: "FAILED", MaxAttempts: 5, RetryInitialMs: 1000, RetryMaxMs: 30000,
		RetryMultiplier: 2.5, ParallelConsumers: 2, ExceptionEnd: "error"}
	if c != want || c.TaskID == "" || c.Channel == "" {
		t.Fatalf("runtime API lists %+v, want %+v", c, want)
	}
}

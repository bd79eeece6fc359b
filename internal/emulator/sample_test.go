package emulator_test

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func TestLoadSampleContent(t *testing.T) {
	t.Parallel()
	srv := emulatortest.NewServer(t, emulator.Options{})
	if srv.IFlowContent("Acme_Orders_Inbound") != nil {
		t.Fatal("a new emulator already holds a sample flow")
	}
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	for _, f := range emulator.SampleIFlows {
		art, err := iflow.ReadZip(srv.IFlowContent(f.ID))
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		if f.Adapter == "JMS" {
			jms := art.JMSSenders()
			if len(jms) != 1 || jms[0].Name != f.Channel || jms[0].Properties["QueueName_inbound"] != f.Queue {
				t.Fatalf("%s: JMS senders %+v, want one named %s reading %s", f.ID, jms, f.Channel, f.Queue)
			}
			guards, err := iflow.RetryGuards(srv.IFlowContent(f.ID), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g := iflow.SummarizeGuards(guards); !g.Present || g.Guard.Limit.Value != int64(f.RetryGuard) {
				t.Errorf("%s: retry guard %+v, want a limit of %d", f.ID, g, f.RetryGuard)
			}
			continue
		}
		senders := art.AMQPSenders()
		if len(senders) != 1 {
			t.Fatalf("%s has %d AMQP senders, want 1", f.ID, len(senders))
		}
		if senders[0].Name != f.Channel {
			t.Errorf("%s: channel %q, want %q", f.ID, senders[0].Name, f.Channel)
		}
		if got := senders[0].Properties["destinationName"]; got != "queue:"+f.Queue {
			t.Errorf("%s reads %q, want queue:%s", f.ID, got, f.Queue)
		}
	}
	// A flow that exists (for example from a state file) is kept as it is.
	own := iflowbuild.Build(iflowbuild.Options{Name: "OrdersInbound", Senders: []iflowbuild.Sender{
		{Properties: iflowbuild.DefaultSenderProperties("acme/crm/dev/orders")},
	}})
	if err := srv.CreateIFlow("OrdersInbound", "", "", own); err != nil {
		t.Fatal(err)
	}
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	if string(srv.IFlowContent("OrdersInbound")) != string(own) {
		t.Error("loading the sample content replaced a flow that already existed")
	}
}

// A state file that cannot be read is never rewritten by the sample content.
func TestLoadSampleContent_keepsUnreadableStateFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := emulator.New(emulator.Options{StateFile: path})
	if err := srv.LoadSampleContent(); err == nil {
		t.Error("sample content loaded over a state file that could not be read")
	}
	if b, _ := os.ReadFile(path); string(b) != "{not json" {
		t.Errorf("the unreadable state file was rewritten: %q", b)
	}
}

// The sample landscape is on the service as its tables say, read through the real clients: the
// queues with their redelivery, dead message queue, time to live and subscriptions, and the
// flows of the landscape deployed and running with their senders, end events and retry guards.
func TestLoadSampleContent_landscape(t *testing.T) {
	t.Parallel()
	e := emulatortest.Start(t, emulator.Options{})
	if err := e.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	em := eventmesh.New(e.ManagementClient(t))
	queues, err := em.ListQueues(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]eventmesh.Queue{}
	for _, q := range queues {
		byName[q.Name] = q
	}
	if len(queues) != len(emulator.SampleQueues) {
		t.Errorf("%d queues on the service, want the %d of the sample landscape", len(queues), len(emulator.SampleQueues))
	}
	deref := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	for _, want := range emulator.SampleQueues {
		if !strings.HasPrefix(want.Name, emulator.SampleLandscapePrefix) || want.Note == "" {
			t.Errorf("%s: every sample queue is under %s and says what it shows", want.Name, emulator.SampleLandscapePrefix)
		}
		q, ok := byName[want.Name]
		if !ok {
			t.Errorf("queue %s missing", want.Name)
			continue
		}
		if got := deref(q.MaxRedeliveryCount); got != want.MaxRedeliveryCount {
			t.Errorf("%s: maxRedeliveryCount %d, want %d", want.Name, got, want.MaxRedeliveryCount)
		}
		if got := ptrString(q.DeadMsgQueue); got != want.DeadMessageQueue {
			t.Errorf("%s: deadMsgQueue %q, want %q", want.Name, got, want.DeadMessageQueue)
		}
		if ttl := q.RespectTTL != nil && *q.RespectTTL; ttl != (want.MaxTTL > 0) || want.MaxTTL > 0 && deref(q.MaxTTL) != want.MaxTTL {
			t.Errorf("%s: respectTtl %v, maxTtl %d, want maxTtl %d", want.Name, ttl, deref(q.MaxTTL), want.MaxTTL)
		}
		subs, err := em.ListSubscriptions(ctx, want.Name)
		if err != nil {
			t.Fatal(err)
		}
		var topics []string
		for _, s := range subs {
			topics = append(topics, s.TopicPattern)
		}
		if strings.Join(topics, ",") != strings.Join(want.Topics, ",") {
			t.Errorf("%s: subscriptions %v, want %v", want.Name, topics, want.Topics)
		}
	}

	// The broken paths the landscape promises are there.
	if q := byName[emulator.SampleLandscapePrefix+"shipments"]; deref(q.MaxRedeliveryCount) != 0 {
		t.Error("no consumed queue with unlimited redelivery")
	}
	if q := byName[emulator.SampleLandscapePrefix+"payments/dmq"]; q.RespectTTL != nil && *q.RespectTTL {
		t.Error("no dead message queue without a time to live")
	}
	if q := byName[emulator.SampleLandscapePrefix+"credit-notes"]; q.DeadMsgQueue != nil {
		t.Error("no consumed queue without a dead message queue")
	}
	// A chained error queue: another queue names it as dead message queue, and it has a
	// redelivery count and a dead message queue of its own.
	if q := byName[emulator.SampleLandscapePrefix+"sales-orders/errors"]; deref(q.MaxRedeliveryCount) == 0 || ptrString(q.DeadMsgQueue) == "" ||
		ptrString(byName[emulator.SampleLandscapePrefix+"sales-orders"].DeadMsgQueue) != q.Name {
		t.Error("no chained error queue")
	}
	hooks, err := eventmesh.NewMessaging(e.MessagingClient(t)).ListWebhooks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(hooks) != len(emulator.SampleWebhooks) {
		t.Errorf("%d webhook subscriptions on the service, want the %d of the sample landscape", len(hooks), len(emulator.SampleWebhooks))
	}
	for _, want := range emulator.SampleWebhooks {
		found := false
		for _, w := range hooks {
			if w.Name == want.Name {
				found = true
				if w.Queue != want.Queue || w.QoS != want.QoS || w.Endpoint != want.Endpoint || want.Note == "" {
					t.Errorf("webhook %s: %+v, want %+v", want.Name, w.WebhookSpec, want)
				}
			}
		}
		if !found {
			t.Errorf("webhook %s missing", want.Name)
		}
	}

	ci := cpi.New(e.CloudIntegrationClient(t))
	consumed := map[string]bool{}
	for _, f := range emulator.SampleLandscapeIFlows {
		rt, err := ci.RuntimeArtifact(ctx, f.ID)
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		if rt == nil || rt.Status != "STARTED" {
			t.Errorf("%s: runtime artifact %+v, want STARTED", f.ID, rt)
		}
		content, err := ci.Content(ctx, f.ID, "active")
		if err != nil {
			t.Fatal(err)
		}
		art, err := iflow.ReadZip(content)
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		if f.Adapter == "JMS" {
			guards, err := iflow.RetryGuards(content, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g := iflow.SummarizeGuards(guards); g.Present != (f.RetryGuard > 0) {
				t.Errorf("%s: retry guard present %v, want %v", f.ID, g.Present, f.RetryGuard > 0)
			}
			if jms := art.JMSSenders(); len(jms) != 1 || jms[0].Properties["QueueName_inbound"] != f.Queue {
				t.Errorf("%s: JMS senders %+v, want one reading %s", f.ID, jms, f.Queue)
			}
			continue
		}
		channels := append([]emulator.SampleChannel{{Name: f.Channel, Queue: f.Queue, MaxRetries: f.MaxRetries, DeliveryState: f.DeliveryState}}, f.More...)
		senders := art.AMQPSenders()
		if len(senders) != len(channels) {
			t.Fatalf("%s has %d AMQP senders, want %d", f.ID, len(senders), len(channels))
		}
		for i, c := range channels {
			p := senders[i].Properties
			retries, state := cmp.Or(c.MaxRetries, "5"), cmp.Or(c.DeliveryState, "REJECTED")
			if senders[i].Name != c.Name || p["destinationName"] != "queue:"+c.Queue || p["maxRetries"] != retries || p["deliveryState"] != state {
				t.Errorf("%s: sender %s %v, want %s reading %s with %s retries and %s", f.ID, senders[i].Name, p, c.Name, c.Queue, retries, state)
			}
			consumed[c.Queue] = true
		}
		subs := art.ExceptionSubprocesses()
		if want := cmp.Or(f.ExceptionEnd, "error"); len(subs) != 1 || strings.Join(subs[0].EndEvents, ",") != want {
			t.Errorf("%s: exception subprocesses %+v, want one ending in %s", f.ID, subs, want)
		}
	}
	if !consumed[emulator.SampleLandscapePrefix+"shipments"] || consumed[emulator.SampleLandscapePrefix+"audit"] {
		t.Errorf("consumed queues %v: want shipments consumed and audit not", consumed)
	}
	// The deployed flows consume: the service counts their consumers.
	deadline := time.Now().Add(10 * time.Second)
	for name := range consumed {
		for {
			q, err := em.GetQueue(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if q.ConsumerCount != nil && *q.ConsumerCount > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("queue %s has no consumer although a deployed flow reads it", name)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// The flows the examples configure stay undeployed: the examples deploy them.
	for _, f := range emulator.SampleIFlows {
		if _, deployed := e.Deployed(f.ID); deployed {
			t.Errorf("%s is deployed; the examples deploy it themselves", f.ID)
		}
	}
	// Loading again changes nothing and fails on nothing.
	if err := e.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	if again, _ := em.ListQueues(ctx); len(again) != len(queues) {
		t.Errorf("loading the sample content again left %d queues, want %d", len(again), len(queues))
	}
}

func ptrString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// A poison message on each AMQP path of the sample landscape ends as the path's Note says: the
// healthy path after (3 + 1) × 2 + 1 = 9 executions in its dead message queue, the queue without
// a dead message queue dropping it after (2 + 1) × 2 + 1 = 7, MODIFIED_FAILED_UNDELIVERABLE after
// the 1 + 5 executions of one delivery, the Escalation End after one execution (acknowledged and
// lost), and the queue with unlimited redelivery only at the emulator's redelivery cap.
func TestLoadSampleContent_landscapePaths(t *testing.T) {
	t.Parallel()
	e := newRTEnv(t, emulator.Options{RedeliveryCap: 3})
	if err := e.s.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	p := emulator.SampleLandscapePrefix
	for _, id := range []string{"Acme_Invoices_Inbound", "Acme_Shipments_Inbound", "Acme_Payments_Inbound", "Acme_Returns_Inbound"} {
		// Every execution fails, and the flow's own exception subprocess decides what follows.
		e.behaviour(t, id, `{"outcome": "exception"}`)
	}
	for _, queue := range []string{"invoices", "credit-notes", "shipments", "payments", "returns"} {
		e.publish(t, p+queue, "poison for "+queue)
	}
	byQueue := map[string]emulator.MessageRun{}
	for id, n := range map[string]int{"Acme_Invoices_Inbound": 2, "Acme_Shipments_Inbound": 1, "Acme_Payments_Inbound": 1, "Acme_Returns_Inbound": 1} {
		for _, r := range e.settled(t, id, n) {
			byQueue[r.Queue] = r
		}
	}
	for _, want := range []struct {
		queue      string
		executions int64
		outcome    emulator.RunOutcome
		dmq        string
	}{
		{"invoices", 9, emulator.RunDeadLettered, p + "dmq"},
		{"credit-notes", 7, emulator.RunDiscarded, ""},
		{"payments", 6, emulator.RunUndeliverable, ""},
		{"returns", 1, emulator.RunEscalated, ""},
		// Stopped by the emulator's cap of 3 deliveries, i.e. as if R were 2: (2 + 1) × 5 + 1.
		{"shipments", 16, emulator.RunRedeliveryCapReached, ""},
	} {
		r := byQueue[p+want.queue]
		if r.Executions != want.executions || r.Outcome != want.outcome || r.DeadMsgQueue != want.dmq {
			t.Errorf("%s: run %+v, want %d executions, outcome %s, dead message queue %q", want.queue, r, want.executions, want.outcome, want.dmq)
		}
	}
	if dead, _ := e.s.Messages(p + "payments/dmq"); len(dead) != 0 {
		t.Errorf("payments/dmq holds %+v although MODIFIED_FAILED_UNDELIVERABLE never dead-letters", dead)
	}
}

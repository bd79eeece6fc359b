package audit

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/mermaid"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

func ptr[T any](v T) *T { return &v }

// queue is an Event Mesh queue with R and a dead message queue ("" for none).
func queue(name string, r int64, dmq string) eventmesh.Queue {
	q := eventmesh.Queue{Name: name}
	q.MaxRedeliveryCount = ptr(r)
	q.AccessType = ptr("NON_EXCLUSIVE")
	if dmq != "" {
		q.DeadMsgQueue = ptr(dmq)
	}
	return q
}

// dmq is a dead message queue with a time to live of 7 days.
func dmq(name string) eventmesh.Queue {
	q := eventmesh.Queue{Name: name}
	q.AccessType = ptr("NON_EXCLUSIVE")
	q.RespectTTL, q.MaxTTL = ptr(true), ptr[int64](rules.DefaultDMQTTL)
	return q
}

// amqp is an AMQP sender reading queue with n retries ("" leaves maxRetries empty).
func amqp(queue, n string, change ...func(map[string]string)) iflowbuild.Sender {
	props := iflowbuild.DefaultSenderProperties(queue)
	props[iflow.KeyMaxRetries] = n
	props[iflow.KeyQueuePrefetch] = "1"
	for _, c := range change {
		c(props)
	}
	return iflowbuild.Sender{Name: "EventMesh", Properties: props}
}

// jms is a JMS sender reading the JMS queue Retry_Orders.
func jms() iflowbuild.Sender {
	return iflowbuild.Sender{Name: "JMS_In", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("Retry_Orders")}
}

// flow is a deployed flow read from content built with o; ends defaults to one Error End.
type flow struct {
	id, pkg  string
	o        iflowbuild.Options
	deployed string // the runtime's version; "" means 1.0.0, the built content's
	err      error  // the content could not be read
}

func input(t *testing.T, queues []eventmesh.Queue, flows ...flow) Input {
	t.Helper()
	in := Input{EventMesh: true, CloudIntegration: true, Queues: queues, Flows: map[string]*cpi.Flow{}, Unreadable: map[string]error{}, Packages: map[string]string{}}
	for _, f := range flows {
		v := cmpOr(f.deployed, "1.0.0")
		in.Deployed = append(in.Deployed, cpi.RuntimeArtifact{ID: f.id, Version: v, Type: cpi.TypeIntegrationFlow, Status: "STARTED"})
		in.Packages[f.id] = cmpOr(f.pkg, "Orders")
		if f.err != nil {
			in.Unreadable[f.id] = f.err
			continue
		}
		o := f.o
		o.Name = f.id
		if o.ExceptionEnds == nil {
			o.ExceptionEnds = [][]string{{"error"}}
		}
		zip := iflowbuild.Build(o)
		art, err := iflow.ReadZip(zip)
		if err != nil {
			t.Fatal(err)
		}
		in.Flows[f.id] = &cpi.Flow{ID: f.id, Version: "active", DesignVersion: art.Manifest["Bundle-Version"], Content: zip, Artifact: art}
	}
	return in
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func one(senders ...iflowbuild.Sender) iflowbuild.Options {
	return iflowbuild.Options{Senders: senders}
}

// ordersFlow is the one flow Orders, its one AMQP sender reading the orders queue with retries n.
func ordersFlow(n string) []flow {
	return []flow{{id: "Orders", o: one(amqp(orders, n))}}
}

// onOrdersSender is the finding of rule on the sender of ordersFlow, as rulesOf spells it.
func onOrdersSender(rule string) string {
	return rule + " channel:Orders/EventMesh queue:" + orders + " flow:Orders"
}

const (
	orders    = "acme/crm/prod/orders"
	ordersDMQ = "acme/crm/prod/orders/dmq"
)

func healthyQueues() []eventmesh.Queue {
	return []eventmesh.Queue{queue(orders, 5, ordersDMQ), dmq(ordersDMQ)}
}

// onlyPath runs the audit of in at every severity and returns the report and its one path; it fails the test for
// another number of paths.
func onlyPath(t *testing.T, in Input) (Report, Path) {
	t.Helper()
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	if len(r.Paths) != 1 {
		t.Fatalf("paths = %+v, want one", r.Paths)
	}
	return r, r.Paths[0]
}

// rulesOf returns "rule objects…" of each finding, for comparing.
func rulesOf(fs []Finding) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		objs := make([]string, 0, len(f.Objects))
		for _, o := range f.Objects {
			objs = append(objs, o.String())
		}
		out = append(out, strings.TrimSpace(f.Rule+" "+strings.Join(objs, " ")))
	}
	slices.Sort(out)
	return out
}

// expectFindings checks the report's findings ("rule objects…", in any order) and their style.
func expectFindings(t *testing.T, r Report, want []string) {
	t.Helper()
	got := rulesOf(r.Findings)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("findings\n got %q\nwant %q", got, want)
		for _, f := range r.Findings {
			t.Logf("%s: %s", f.Rule, f.Message)
		}
	}
	for _, f := range r.Findings {
		for _, p := range rules.StyleProblems(f.Summary, f.Message, []string{"Set"}) {
			t.Errorf("%s: %s", f.Rule, p)
		}
	}
}

// hook is a webhook subscription on queue with qos, pushing to https://hooks.example.com, active.
func hook(name, queue string, qos int) eventmesh.Webhook {
	w := eventmesh.Webhook{State: eventmesh.WebhookActive, HandshakeStatus: eventmesh.HandshakeCompleted}
	w.Name, w.Queue, w.QoS, w.Endpoint = name, queue, qos, "https://hooks.example.com/"+name
	w.Present = eventmesh.WebhookFields{Address: true, QoS: true, Endpoint: true, ExemptHandshake: true}
	return w
}

// withHooks is in with the webhook subscriptions listed.
func withHooks(in Input, hooks ...eventmesh.Webhook) Input {
	in.Webhooks, in.WebhooksRead = hooks, true
	return in
}

// webhookQueues are the orders queue with R = 2 (3 tries within 45 minutes) and its dead
// message queue: healthy for a QoS 1 webhook.
func webhookQueues() []eventmesh.Queue {
	return []eventmesh.Queue{queue(orders, 2, ordersDMQ), dmq(ordersDMQ)}
}

func TestRunFindings(t *testing.T) {
	t.Parallel()
	exclusive := func(qs []eventmesh.Queue) []eventmesh.Queue {
		qs[0].AccessType = ptr("EXCLUSIVE")
		return qs
	}
	tests := []struct {
		name     string
		queues   []eventmesh.Queue
		flows    []flow
		hooks    []eventmesh.Webhook
		hooksErr error
		noCI     bool
		noEM     bool
		want     []string
	}{
		{
			name:   "healthy path",
			queues: healthyQueues(),
			flows:  ordersFlow("1"),
			want:   nil,
		},
		{
			name:   "consumed queue with R = 0 is reported once, on the path",
			queues: []eventmesh.Queue{queue(orders, 0, ordersDMQ), dmq(ordersDMQ)},
			flows:  ordersFlow("1"),
			want:   []string{onOrdersSender("amqp.queue_redelivery_unlimited")},
		},
		{
			name: "consumed queue without R",
			queues: func() []eventmesh.Queue {
				q := queue(orders, 0, ordersDMQ)
				q.MaxRedeliveryCount = nil
				return []eventmesh.Queue{q, dmq(ordersDMQ)}
			}(),
			flows: ordersFlow("1"),
			want:  []string{onOrdersSender("amqp.queue_redelivery_unlimited")},
		},
		{
			name:   "unconsumed queue with R = 0 is the queue's own finding",
			queues: []eventmesh.Queue{queue(orders, 0, ordersDMQ), dmq(ordersDMQ)},
			want:   []string{"audit.queue_unconsumed queue:" + orders, "queue.redelivery_unlimited queue:" + orders},
		},
		{
			name:   "empty retry count",
			queues: healthyQueues(),
			flows:  ordersFlow(""),
			want:   []string{onOrdersSender("amqp.retries_endless")},
		},
		{
			name:   "zero retry count",
			queues: healthyQueues(),
			flows:  ordersFlow("0"),
			want:   []string{onOrdersSender("amqp.retries_zero")},
		},
		{
			name:   "inner retries",
			queues: healthyQueues(),
			flows:  ordersFlow("3"),
			want:   []string{onOrdersSender("amqp.inner_retries")},
		},
		{
			name:   "redelivery cancelled",
			queues: healthyQueues(),
			flows: []flow{{id: "Orders", o: one(amqp(orders, "1", func(p map[string]string) {
				p[iflow.KeyDeliveryState] = "MODIFIED_FAILED_UNDELIVERABLE"
			}))}},
			want: []string{onOrdersSender("amqp.delivery_status_undeliverable")},
		},
		{
			name:   "consumed queue without dead message queue",
			queues: []eventmesh.Queue{queue(orders, 5, "")},
			flows:  ordersFlow("1"),
			want:   []string{"queue.dmq_missing queue:" + orders},
		},
		{
			name: "dead message queue without time to live",
			queues: []eventmesh.Queue{queue(orders, 5, ordersDMQ), func() eventmesh.Queue {
				q := dmq(ordersDMQ)
				q.RespectTTL, q.MaxTTL = ptr(false), nil
				return q
			}()},
			flows: ordersFlow("1"),
			want:  []string{"dmq.max_ttl_required queue:" + ordersDMQ, "dmq.respect_ttl_required queue:" + ordersDMQ},
		},
		{
			name:   "dead message queue that does not exist",
			queues: []eventmesh.Queue{queue(orders, 5, ordersDMQ)},
			flows:  ordersFlow("1"),
			want:   []string{"audit.dmq_not_found queue:" + orders + " queue:" + ordersDMQ},
		},
		{
			name:   "dead message queue chain",
			queues: []eventmesh.Queue{queue(orders, 5, ordersDMQ), queue(ordersDMQ, 5, ordersDMQ+"2"), dmq(ordersDMQ + "2")},
			flows:  ordersFlow("1"),
			// The middle queue is a dead message queue itself, without a time to live.
			want: []string{"queue.dmq_chain queue:" + orders + " queue:" + ordersDMQ, "dmq.max_ttl_required queue:" + ordersDMQ},
		},
		{
			name:   "dead message queue cycle is reported once",
			queues: []eventmesh.Queue{queue("acme/crm/prod/a", 5, "acme/crm/prod/b"), queue("acme/crm/prod/b", 5, "acme/crm/prod/a")},
			flows:  []flow{{id: "A", o: one(amqp("acme/crm/prod/a", "1"))}, {id: "B", o: one(amqp("acme/crm/prod/b", "1"))}},
			want: []string{"queue.dmq_cycle queue:acme/crm/prod/a queue:acme/crm/prod/b",
				"dmq.max_ttl_required queue:acme/crm/prod/a", "dmq.max_ttl_required queue:acme/crm/prod/b"},
		},
		{
			name:   "queue naming itself as its dead message queue with R = 0",
			queues: []eventmesh.Queue{queue(orders, 0, orders)},
			want:   []string{"dmq.max_ttl_required queue:" + orders, "queue.dmq_self queue:" + orders, "queue.redelivery_unlimited queue:" + orders},
		},
		{
			name:   "consumed queue naming itself as its dead message queue with R = 0",
			queues: []eventmesh.Queue{queue(orders, 0, orders)},
			flows:  ordersFlow("1"),
			want:   []string{onOrdersSender("amqp.queue_redelivery_unlimited"), "dmq.max_ttl_required queue:" + orders, "queue.dmq_self queue:" + orders},
		},
		{
			name:   "dead message queue cycle with R = 0",
			queues: []eventmesh.Queue{queue("acme/crm/prod/a", 0, "acme/crm/prod/b"), queue("acme/crm/prod/b", 0, "acme/crm/prod/a")},
			want: []string{"dmq.max_ttl_required queue:acme/crm/prod/a", "dmq.max_ttl_required queue:acme/crm/prod/b", "queue.dmq_cycle queue:acme/crm/prod/a queue:acme/crm/prod/b",
				"queue.redelivery_unlimited queue:acme/crm/prod/a", "queue.redelivery_unlimited queue:acme/crm/prod/b"},
		},
		{
			name:   "dead message queue chain with R = 0 in the middle",
			queues: []eventmesh.Queue{queue(orders, 5, ordersDMQ), queue(ordersDMQ, 0, ordersDMQ+"2"), dmq(ordersDMQ + "2")},
			flows:  ordersFlow("1"),
			want:   []string{"dmq.max_ttl_required queue:" + ordersDMQ, "queue.dmq_chain queue:" + orders + " queue:" + ordersDMQ, "queue.redelivery_unlimited queue:" + ordersDMQ},
		},
		{
			name:   "exception subprocess ending in an Escalation End",
			queues: healthyQueues(),
			flows:  []flow{{id: "Orders", o: iflowbuild.Options{Senders: []iflowbuild.Sender{amqp(orders, "1")}, ExceptionEnds: [][]string{{"escalation"}}}}},
			want:   []string{"iflow.exception_acknowledges flow:Orders"},
		},
		{
			name:   "exception subprocess ending in a Message End",
			queues: healthyQueues(),
			flows:  []flow{{id: "Orders", o: iflowbuild.Options{Senders: []iflowbuild.Sender{amqp(orders, "1")}, ExceptionEnds: [][]string{{"message"}}}}},
			want:   []string{"iflow.exception_acknowledges flow:Orders"},
		},
		{
			name:  "JMS sender without retry guard",
			flows: []flow{{id: "Retry", o: one(jms())}},
			want:  []string{"jms_sender.no_retry_limit channel:Retry/JMS_In jms_queue:Retry_Orders flow:Retry"},
		},
		{
			name: "JMS sender with SAP's retry pattern",
			flows: []flow{{id: "Retry", o: iflowbuild.Options{Senders: []iflowbuild.Sender{jms()},
				ExceptionEnds: [][]string{{"escalation", "error"}},
				Routers:       []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5", InException: 1}}}}},
			want: nil,
		},
		{
			name:   "sender reading a queue that does not exist",
			queues: healthyQueues(),
			flows:  []flow{{id: "Orders", o: one(amqp(orders, "1"))}, {id: "Typo", o: one(amqp("acme/crm/prod/order", "1"))}},
			want:   []string{"audit.queue_not_found channel:Typo/EventMesh queue:acme/crm/prod/order flow:Typo"},
		},
		{
			name: "flows competing on an exclusive queue",
			queues: func() []eventmesh.Queue {
				qs := healthyQueues()
				qs[0].AccessType = ptr("EXCLUSIVE")
				return qs
			}(),
			flows: []flow{{id: "A", o: one(amqp(orders, "1"))}, {id: "B", o: one(amqp(orders, "1"))}},
			want:  []string{"audit.exclusive_competing queue:" + orders},
		},
		{
			name:   "deployed version differs from the design time",
			queues: healthyQueues(),
			flows:  []flow{{id: "Orders", o: one(amqp(orders, "1")), deployed: "0.9.0"}},
			want:   []string{"audit.version_differs flow:Orders"},
		},
		{
			name:   "flow not analysable",
			queues: healthyQueues(),
			flows:  []flow{{id: "Orders", o: one(amqp(orders, "1"))}, {id: "Locked", err: errors.New("GET ...: 403 Forbidden")}},
			want:   []string{"audit.flow_not_analysable flow:Locked"},
		},
		{
			name:   "queues only",
			queues: healthyQueues(),
			noCI:   true,
			want:   []string{"audit.queues_only"},
		},
		{
			name:  "flows only",
			flows: ordersFlow("1"),
			noEM:  true,
			want:  []string{"audit.flows_only"},
		},
		{
			name:   "a queue only a webhook consumes is not unconsumed",
			queues: webhookQueues(),
			hooks:  []eventmesh.Webhook{hook("orders-push", orders, 1)},
			want:   nil,
		},
		{
			name:     "without messaging credentials the audit says so",
			queues:   webhookQueues(),
			hooksErr: ErrNoMessaging,
			want:     []string{"audit.webhooks_not_configured", "audit.queue_unconsumed queue:" + orders},
		},
		{
			name:     "a forbidden webhook list is a finding, not a failed read",
			queues:   webhookQueues(),
			hooksErr: &ListError{What: "the Event Mesh webhook subscriptions", Err: errors.New("GET /messagingrest/v1/subscriptions: 403 Forbidden")},
			want:     []string{"audit.webhooks_not_read", "audit.queue_unconsumed queue:" + orders},
		},
		{
			name:   "QoS 0 webhook",
			queues: webhookQueues(),
			hooks:  []eventmesh.Webhook{hook("orders-push", orders, 0)},
			want:   []string{"webhook.qos0_loses_messages webhook:orders-push queue:" + orders},
		},
		{
			name:   "QoS 1 webhook on a queue with R = 0 is reported on the webhook, not the queue",
			queues: []eventmesh.Queue{queue(orders, 0, ordersDMQ), dmq(ordersDMQ)},
			hooks:  []eventmesh.Webhook{hook("orders-push", orders, 1)},
			want: []string{"webhook.redelivery_unlimited webhook:orders-push queue:" + orders,
				"webhook.in_flight_stall webhook:orders-push queue:" + orders},
		},
		{
			name:   "QoS 1 webhook on a queue without dead message queue",
			queues: []eventmesh.Queue{queue(orders, 2, "")},
			hooks:  []eventmesh.Webhook{hook("orders-push", orders, 1)},
			want:   []string{"webhook.no_dead_message_queue webhook:orders-push queue:" + orders, "queue.dmq_missing queue:" + orders},
		},
		{
			name:   "QoS 1 webhook on a queue with R = 5 stalls",
			queues: []eventmesh.Queue{queue(orders, 5, ordersDMQ), dmq(ordersDMQ)},
			hooks:  []eventmesh.Webhook{hook("orders-push", orders, 1)},
			want:   []string{"webhook.in_flight_stall webhook:orders-push queue:" + orders},
		},
		{
			name:   "webhook endpoint not https",
			queues: webhookQueues(),
			hooks: []eventmesh.Webhook{func() eventmesh.Webhook {
				w := hook("orders-push", orders, 1)
				w.Endpoint = "http://hooks.example.com/orders"
				return w
			}()},
			want: []string{"webhook.endpoint_not_https webhook:orders-push queue:" + orders},
		},
		{
			name:   "several webhooks on one queue compete",
			queues: webhookQueues(),
			hooks:  []eventmesh.Webhook{hook("a", orders, 1), hook("b", orders, 1)},
			want:   []string{"webhook.competing webhook:a queue:" + orders, "webhook.competing webhook:b queue:" + orders},
		},
		{
			name:   "a webhook and a flow on an exclusive queue compete",
			queues: exclusive(webhookQueues()),
			flows:  ordersFlow("1"),
			hooks:  []eventmesh.Webhook{hook("orders-push", orders, 1)},
			want:   []string{"audit.exclusive_competing queue:" + orders},
		},
		{
			name:   "a webhook and a flow on a non-exclusive queue",
			queues: webhookQueues(),
			flows:  ordersFlow("1"),
			hooks:  []eventmesh.Webhook{hook("orders-push", orders, 1)},
			want:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := input(t, tt.queues, tt.flows...)
			if tt.noCI {
				in.CloudIntegration, in.Deployed, in.Flows = false, nil, nil
			}
			if tt.noEM {
				in.EventMesh, in.Queues = false, nil
			}
			if tt.hooks != nil {
				in = withHooks(in, tt.hooks...)
			}
			in.WebhooksErr = tt.hooksErr
			expectFindings(t, Run(in, Filter{MinSeverity: rules.SeverityInfo}), tt.want)
		})
	}
}

func TestRunPaths(t *testing.T) {
	t.Parallel()
	undeliverable := func(p map[string]string) { p[iflow.KeyDeliveryState] = "MODIFIED_FAILED_UNDELIVERABLE" }
	tests := []struct {
		name      string
		queues    []eventmesh.Queue
		sender    iflowbuild.Options
		noEM      bool
		worst     *int64
		unbounded bool
		note      string
	}{
		{"R = 5, n = 1", healthyQueues(), one(amqp(orders, "1")), false, ptr[int64](7), false, "(5 + 1) × 1 + 1"},
		{"R = 5, n = 3", healthyQueues(), one(amqp(orders, "3")), false, ptr[int64](19), false, "(5 + 1) × 3 + 1"},
		{"R = 0", []eventmesh.Queue{queue(orders, 0, "")}, one(amqp(orders, "1")), false, nil, true, "R = 0"},
		{"n empty", healthyQueues(), one(amqp(orders, "")), false, nil, true, "for ever"},
		{"n = 0", healthyQueues(), one(amqp(orders, "0")), false, nil, false, "unprocessed"},
		{"undeliverable", healthyQueues(), one(amqp(orders, "2", undeliverable)), false, ptr[int64](3), false, "cancels the redelivery"},
		{"missing queue", nil, one(amqp(orders, "1")), false, nil, false, "does not exist"},
		{"no Event Mesh", nil, one(amqp(orders, "1")), true, nil, false, "unknown"},
		{"JMS without guard", nil, one(jms()), false, ptr[int64](725), false, "30 days"},
		{"JMS with guard > 5", nil, iflowbuild.Options{Senders: []iflowbuild.Sender{jms()}, ExceptionEnds: [][]string{{"escalation", "error"}},
			Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5", InException: 1}}}, false, ptr[int64](7), false, "retry 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := input(t, tt.queues, flow{id: "Orders", o: tt.sender})
			if tt.noEM {
				in.EventMesh = false
			}
			_, p := onlyPath(t, in)
			if fmt.Sprint(deref(p.WorstCase)) != fmt.Sprint(deref(tt.worst)) || p.Unbounded != tt.unbounded || !strings.Contains(p.WorstCaseNote, tt.note) {
				t.Errorf("worst case %v unbounded %v note %q, want %v %v containing %q", deref(p.WorstCase), p.Unbounded, p.WorstCaseNote, deref(tt.worst), tt.unbounded, tt.note)
			}
			if p.Flow != "Orders" || p.FlowStatus != "STARTED" || p.DeployedVersion != "1.0.0" || p.Package != "Orders" {
				t.Errorf("path = %+v", p)
			}
		})
	}
}

func TestRunWebhookPaths(t *testing.T) {
	t.Parallel()
	paused := hook("orders-push", orders, 1)
	paused.State = eventmesh.WebhookPaused
	noQoS := hook("orders-push", orders, 1)
	noQoS.Present.QoS = false
	tests := []struct {
		name    string
		queues  []eventmesh.Queue
		hook    eventmesh.Webhook
		noEM    bool
		worst   *int64
		minutes *int64
		note    string
	}{
		{"QoS 0", webhookQueues(), hook("orders-push", orders, 0), false, ptr[int64](1), nil, "lost after one try"},
		{"QoS 1, R = 2", webhookQueues(), hook("orders-push", orders, 1), false, ptr[int64](3), ptr[int64](45),
			"QoS 1: 3 tries within 45 minutes, then the dead message queue (max_redelivery_count = 2 ends the retries)"},
		// Waits of 15, 30, 60, …, 960 minutes, then once a day: the 7 days' time to live ends it after 13 tries.
		{"QoS 1, R = 0", []eventmesh.Queue{queue(orders, 0, "")}, hook("orders-push", orders, 1), false, ptr[int64](13), ptr[int64](7 * 24 * 60),
			"then purged (the queue's time to live of 604800 s ends the retries)"},
		{"paused", webhookQueues(), paused, false, ptr[int64](3), ptr[int64](45), "paused: nothing is pushed until it is resumed"},
		{"missing queue", nil, hook("orders-push", orders, 1), false, nil, nil, "does not exist"},
		{"no Event Mesh", nil, hook("orders-push", orders, 1), true, nil, nil, "unknown"},
		{"QoS not in the answer", webhookQueues(), noQoS, false, nil, nil, "QoS is unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := withHooks(input(t, tt.queues), tt.hook)
			if tt.noEM {
				in.EventMesh = false
			}
			_, p := onlyPath(t, in)
			if fmt.Sprint(deref(p.WorstCase)) != fmt.Sprint(deref(tt.worst)) || fmt.Sprint(deref(p.GiveUpMinutes)) != fmt.Sprint(deref(tt.minutes)) ||
				p.Unbounded || !strings.Contains(p.WorstCaseNote, tt.note) {
				t.Errorf("worst case %v in %v minutes (unbounded %v), note %q; want %v in %v containing %q",
					deref(p.WorstCase), deref(p.GiveUpMinutes), p.Unbounded, p.WorstCaseNote, deref(tt.worst), deref(tt.minutes), tt.note)
			}
			if p.Adapter != AdapterWebhook || p.Webhook != "orders-push" || p.Queue != orders || p.EndpointHost != "hooks.example.com" ||
				p.Flow != "" || p.Channel != "" || p.ConsumerLabel() != "webhook orders-push" {
				t.Errorf("path = %+v", p)
			}
			if wantPaused := tt.hook.State == eventmesh.WebhookPaused; p.Paused == nil || *p.Paused != wantPaused {
				t.Errorf("paused = %v, want %v", p.Paused, wantPaused)
			}
			if tt.hook.Present.QoS && fmt.Sprint(deref(p.QoS)) != fmt.Sprint(tt.hook.QoS) {
				t.Errorf("QoS = %v, want %d", deref(p.QoS), tt.hook.QoS)
			}
		})
	}
	// The worst case is rules.WebhookGiveUp's, not a second copy of the schedule.
	tries, minutes, _ := rules.WebhookGiveUp(0, rules.WebhookTTLSeconds(false, 0))
	if tries != 13 || minutes != 7*24*60 {
		t.Errorf("rules.WebhookGiveUp(0, 7 days) = %d tries, %d minutes; the R = 0 case above expects 13 and 10080", tries, minutes)
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestRunPathDetails(t *testing.T) {
	t.Parallel()
	r := Run(input(t, healthyQueues(), flow{id: "Orders", o: iflowbuild.Options{Senders: []iflowbuild.Sender{amqp(orders, "1")},
		ExceptionEnds: [][]string{{"error", "escalation"}}}}), Filter{})
	p := r.Paths[0]
	if p.Queue != orders || p.Channel != "EventMesh" || p.Adapter != AdapterAMQP || deref(p.RedeliveryCount) != int64(5) || deref(p.Retries) != int64(1) ||
		p.DeliveryStatus != "REJECTED" || p.DeadMessageQueue != ordersDMQ || deref(p.DeadMessageQueueTTL) != int64(rules.DefaultDMQTTL) {
		t.Errorf("path = %+v", p)
	}
	if len(p.EndEvents) != 2 || !strings.HasSuffix(p.EndEvents[0], ": error") || !strings.HasSuffix(p.EndEvents[1], ": escalation") {
		t.Errorf("end events = %q", p.EndEvents)
	}
}

func TestRunFilters(t *testing.T) {
	t.Parallel()
	queues := []eventmesh.Queue{
		queue(orders, 0, ordersDMQ), dmq(ordersDMQ),
		queue("acme/hr/prod/people", 0, ""), queue("acme/hr/prod/idle", 5, ""),
	}
	flows := []flow{
		{id: "Orders", pkg: "Orders", o: one(amqp(orders, "1"))},
		{id: "People", pkg: "HR", o: iflowbuild.Options{Senders: []iflowbuild.Sender{amqp("acme/hr/prod/people", "1")}, ExceptionEnds: [][]string{{"escalation"}}}},
		{id: "Locked", pkg: "HR", err: errors.New("403 Forbidden")},
	}
	in := input(t, queues, flows...)
	tests := []struct {
		name  string
		f     Filter
		want  []string
		paths []string
	}{
		{"errors only", Filter{MinSeverity: rules.SeverityError}, []string{
			onOrdersSender("amqp.queue_redelivery_unlimited"),
			"amqp.queue_redelivery_unlimited channel:People/EventMesh queue:acme/hr/prod/people flow:People",
		}, []string{orders, "acme/hr/prod/people"}},
		{"queue prefix", Filter{QueuePrefix: "acme/hr/", MinSeverity: rules.SeverityInfo}, []string{
			"amqp.queue_redelivery_unlimited channel:People/EventMesh queue:acme/hr/prod/people flow:People",
			"audit.flow_not_analysable flow:Locked",
			"audit.queue_unconsumed queue:acme/hr/prod/idle",
			"iflow.exception_acknowledges flow:People",
			"queue.dmq_missing queue:acme/hr/prod/idle",
			"queue.dmq_missing queue:acme/hr/prod/people",
		}, []string{"acme/hr/prod/people"}},
		{"package", Filter{Package: "Orders", MinSeverity: rules.SeverityWarning}, []string{
			onOrdersSender("amqp.queue_redelivery_unlimited"),
		}, []string{orders}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Run(in, tt.f)
			if got := rulesOf(r.Findings); !slices.Equal(got, tt.want) {
				t.Errorf("findings\n got %q\nwant %q", got, tt.want)
			}
			var paths []string
			for _, p := range r.Paths {
				paths = append(paths, p.Queue)
			}
			if !slices.Equal(paths, tt.paths) {
				t.Errorf("paths %q, want %q", paths, tt.paths)
			}
		})
	}
}

func TestRunSummaryAndDiagram(t *testing.T) {
	t.Parallel()
	queues := []eventmesh.Queue{queue(orders, 5, ordersDMQ), dmq(ordersDMQ), queue("acme/crm/prod/returns", 0, "")}
	in := input(t, queues,
		flow{id: "Orders", o: one(amqp(orders, "3"))},
		flow{id: "Returns", o: one(amqp("acme/crm/prod/returns", "1"))},
		flow{id: "Retry", o: one(jms())},
		flow{id: "Locked", err: errors.New("zip: not a valid zip file")},
	)
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	s := r.Summary
	if s.Paths != 3 || s.UnboundedPaths != 1 || s.Flows != 4 || s.Queues != 3 || s.NotAnalysable != 1 || !s.EventMesh || !s.CloudIntegration {
		t.Errorf("summary = %+v", s)
	}
	if deref(s.LargestWorstCase) != int64(725) || s.LargestWorstCasePath != "Retry_Orders → Retry/JMS_In" {
		t.Errorf("largest = %v at %q", deref(s.LargestWorstCase), s.LargestWorstCasePath)
	}
	if s.Errors+s.Warnings+s.Infos != len(r.Findings) || s.Errors == 0 || s.Warnings == 0 {
		t.Errorf("counts %d/%d/%d of %d findings", s.Errors, s.Warnings, s.Infos, len(r.Findings))
	}
	d := r.Diagram
	if err := mermaid.Check(d); err != nil {
		t.Errorf("the diagram is no valid Mermaid flowchart: %v\n%s", err, d)
	}
	for _, want := range []string{
		"flowchart LR\n",
		`[("acme/crm/prod/orders<br/>R = 5")]`,
		`-->|"N_max = 19"|`,
		`==>|"unbounded"|`,
		`-.->|"dead letters"|`,
		`[("acme/crm/prod/orders/dmq<br/>TTL 7 d")]`,
		`["Returns<br/>EventMesh (AMQP, n = 1)"]`,
		`[("JMS Retry_Orders")]`,
		"classDef error",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("diagram lacks %q:\n%s", want, d)
		}
	}
	// The channel of the unbounded path carries its error.
	ids := map[string]string{}
	for line := range strings.Lines(d) {
		if i := strings.Index(line, `["Returns`); i > 0 {
			ids["returns"] = strings.TrimSpace(line[:i])
		}
	}
	if id := ids["returns"]; id == "" || !strings.Contains(d, "class "+id+" error\n") {
		t.Errorf("the Returns channel (%q) is not marked as an error:\n%s", ids["returns"], d)
	}
	if got := Run(Input{EventMesh: true}, Filter{}).Diagram; !strings.Contains(got, "no sender channel or webhook") || mermaid.Check(got) != nil {
		t.Errorf("empty diagram = %q", got)
	}
}

func TestRunWebhookSummaryAndDiagram(t *testing.T) {
	t.Parallel()
	lossy := hook("returns-push", "acme/crm/prod/returns", 0)
	lossy.State = eventmesh.WebhookPaused
	in := withHooks(input(t, append(webhookQueues(), queue("acme/crm/prod/returns", 2, ordersDMQ)), flow{id: "Orders", o: one(amqp(orders, "1"))}),
		hook("orders-push", orders, 1), lossy)
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	s := r.Summary
	if s.Paths != 3 || s.Webhooks != 2 || s.Flows != 1 || deref(s.LargestWorstCase) != int64(4) || s.LargestWorstCasePath != orders+" → Orders/EventMesh" {
		t.Errorf("summary = %+v", s)
	}
	d := r.Diagram
	if err := mermaid.Check(d); err != nil {
		t.Errorf("the diagram is no valid Mermaid flowchart: %v\n%s", err, d)
	}
	for _, want := range []string{
		`{{"webhook orders-push<br/>QoS 1, hooks.example.com"}}`,
		`{{"webhook returns-push<br/>QoS 0, hooks.example.com, paused"}}`,
		`==>|"lost after one try"|`,
		`-->|"3 tries in 45 min"|`,
	} {
		if !strings.Contains(d, want) {
			t.Errorf("diagram lacks %q:\n%s", want, d)
		}
	}
	// One node per queue: the webhook and the flow hang on the same orders node, and the QoS 0
	// webhook carries its error.
	if strings.Count(d, `[("acme/crm/prod/orders<br/>R = 2")]`) != 1 || strings.Count(d, `[("acme/crm/prod/orders/dmq<br/>TTL 7 d")]`) != 1 {
		t.Errorf("queue nodes drawn more than once:\n%s", d)
	}
	for line := range strings.Lines(d) {
		if i := strings.Index(line, `{{"webhook returns-push`); i > 0 && !strings.Contains(d, "class "+strings.TrimSpace(line[:i])+" error\n") {
			t.Errorf("the QoS 0 webhook is not marked as an error:\n%s", d)
		}
	}
	// A queue prefix keeps the webhooks of its queues; a package keeps none (a webhook has none).
	if r := Run(in, Filter{QueuePrefix: "acme/crm/prod/returns"}); len(r.Paths) != 1 || r.Paths[0].Webhook != "returns-push" ||
		!slices.Equal(rulesOf(r.Findings), []string{"webhook.qos0_loses_messages webhook:returns-push queue:acme/crm/prod/returns"}) {
		t.Errorf("prefix: paths %+v, findings %q", r.Paths, rulesOf(r.Findings))
	}
	if r := Run(in, Filter{Package: "Orders"}); len(r.Paths) != 1 || r.Paths[0].Flow != "Orders" {
		t.Errorf("package: paths %+v", r.Paths)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	t.Parallel()
	queues := []eventmesh.Queue{queue(orders, 0, ""), queue("acme/crm/prod/b", 0, "acme/crm/prod/a"), queue("acme/crm/prod/a", 0, "acme/crm/prod/b")}
	in := input(t, queues, flow{id: "A", o: one(amqp(orders, ""))}, flow{id: "B", o: one(amqp("acme/crm/prod/a", "0"))})
	first := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	for range 5 {
		in2 := in
		in2.Flows = maps.Clone(in.Flows)
		in2.Deployed = slices.Clone(in.Deployed)
		slices.Reverse(in2.Deployed)
		again := Run(in2, Filter{MinSeverity: rules.SeverityInfo})
		if again.Diagram != first.Diagram || !slices.Equal(rulesOf(again.Findings), rulesOf(first.Findings)) {
			t.Fatal("the report changes with the order of the runtime list")
		}
	}
}

// The data source's page lists every rule ID the audit reports in these tests.
func TestTemplateListsRuleIDs(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "templates", "data-sources", "retry_audit.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"audit.queue_not_found", "audit.exclusive_competing", "audit.queue_unconsumed", "audit.dmq_not_found",
		"audit.version_differs", "audit.flow_not_analysable", "audit.queues_only", "audit.flows_only",
		"amqp.queue_redelivery_unlimited", "amqp.retries_endless", "amqp.retries_zero", "amqp.delivery_status_undeliverable",
		"amqp.inner_retries", "jms_sender.no_retry_limit", "iflow.exception_acknowledges", "queue.redelivery_unlimited",
		"queue.dmq_missing", "dmq.max_ttl_required", "dmq.respect_ttl_required", "queue.dmq_cycle", "queue.dmq_chain",
		"audit.webhooks_not_configured", "audit.webhooks_not_read", "webhook.qos0_loses_messages", "webhook.endpoint_not_https",
		"webhook.no_dead_message_queue", "webhook.redelivery_unlimited", "webhook.in_flight_stall", "webhook.competing",
		"audit.aem_queue_not_found", "audit.aem_queue_unconsumed", "audit.aem_not_configured", "audit.event_mesh_not_configured",
		"audit.aem_value_unconfirmed", "aem_sender.failed_unlimited_redelivery", "aem_sender.rejected_without_dmq", "aem_sender.ack_immediate",
		"aem_sender.attempts_missing", "aem.redelivery_unlimited", "aem.dmq_missing", "aem.redelivery_without_delay",
		"aem_sender.poison_messages_deleted", "aem.dmq_cycle", "aem.dmq_chain", "aem.dmq_ingress_disabled"}
	for _, id := range ids {
		if !strings.Contains(string(page), "`"+id+"`") {
			t.Errorf("the data source's page does not list %s", id)
		}
	}
}

// A JMS queue's expiration period comes from the JMS receiver of the deployed flow that fills it.
func TestRunJMSExpirationFromReceiver(t *testing.T) {
	t.Parallel()
	producer := iflowbuild.Options{Senders: []iflowbuild.Sender{amqp(orders, "1"),
		{Name: "JMS_Out", Adapter: "JMSReceiver", Properties: map[string]string{iflow.KeyJMSQueueOutbound: "Retry_Orders", iflow.KeyJMSExpirationPeriod: "10"}}}}
	r := Run(input(t, healthyQueues(), flow{id: "Producer", o: producer}, flow{id: "Retry", o: one(jms())}), Filter{MinSeverity: rules.SeverityInfo})
	var p *Path
	for i := range r.Paths {
		if r.Paths[i].Adapter == AdapterJMS {
			p = &r.Paths[i]
		}
	}
	if p == nil {
		t.Fatalf("no JMS path in %+v", r.Paths)
	}
	retries, err := rules.JMSSchedule{RetryInterval: 1, MaxRetryInterval: 60, ExponentialBackoff: true}.RetriesWithin(10 * 24 * 60)
	if err != nil {
		t.Fatal(err)
	}
	if deref(p.DeletedAfterDays) != int64(10) || deref(p.WorstCase) != retries+1 || !strings.Contains(p.WorstCaseNote, "JMS receiver") {
		t.Errorf("path = deleted after %v days, worst case %v (%s), want 10 days and %d", deref(p.DeletedAfterDays), deref(p.WorstCase), p.WorstCaseNote, retries+1)
	}
	for _, f := range r.Findings {
		if f.Rule == "jms_sender.no_retry_limit" && !strings.Contains(f.Message, "over 10 days") {
			t.Errorf("the finding does not count the 10 days: %s", f.Message)
		}
	}
}

// A queue no analysed flow reads is only "as far as the audit can see" unconsumed when a flow
// could not be analysed: the finding names that flow, which may read the queue.
func TestUnconsumedQueueNamesFlowsNotAnalysed(t *testing.T) {
	t.Parallel()
	idle := "acme/crm/prod/idle"
	queues := append(healthyQueues(), queue(idle, 5, ordersDMQ))
	detail := func(in Input) string {
		for _, f := range Run(in, Filter{MinSeverity: rules.SeverityInfo}).Findings {
			if f.Rule == "audit.queue_unconsumed" {
				return f.Message
			}
		}
		t.Fatal("no audit.queue_unconsumed finding")
		return ""
	}
	if d := detail(input(t, queues, flow{id: "Orders", o: one(amqp(orders, "1"))})); strings.Contains(d, "could not be analysed") {
		t.Errorf("every flow analysed, yet the finding speaks of flows not analysed: %s", d)
	}
	d := detail(input(t, queues, flow{id: "Orders", o: one(amqp(orders, "1"))},
		flow{id: "Locked", err: errors.New("GET ...: 403 Forbidden")}, flow{id: "Broken", err: errors.New("not a zip")}))
	if !strings.Contains(d, "flow(s) Broken, Locked could not be analysed") || !strings.Contains(d, idle) {
		t.Errorf("the finding does not name the flows that could not be analysed: %s", d)
	}
}

// A QoS 0 webhook subscription whose message loss the caller names as accepted is not reported as an error,
// as the resource with accept_message_loss = true does not refuse it; it keeps the warning the resource's plan
// gives, and its path stays.
func TestRunAcceptedMessageLoss(t *testing.T) {
	t.Parallel()
	in := withHooks(input(t, webhookQueues()), hook("orders-push", orders, 0), hook("other-push", orders, 0))
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo, AcceptMessageLoss: []string{"orders-push"}})
	if got, want := rulesOf(r.Findings), []string{"webhook.qos0_loses_messages webhook:other-push queue:" + orders}; !slices.Contains(got, want[0]) ||
		slices.ContainsFunc(got, func(s string) bool {
			return strings.Contains(s, "webhook:orders-push") && strings.HasPrefix(s, "webhook.qos0_loses_messages ")
		}) || !slices.Contains(got, "webhook.qos0_loses_messages_accepted webhook:orders-push queue:"+orders) {
		t.Errorf("findings %q: want %q, and of orders-push only its warning webhook.qos0_loses_messages_accepted", got, want)
	}
	found := false
	for _, p := range r.Paths {
		found = found || (p.Webhook == "orders-push" && p.QoS != nil && *p.QoS == 0)
	}
	if !found {
		t.Error("the accepted webhook has no path")
	}
}

// A webhook endpoint with credentials in its URL (userinfo, query, fragment) is reported without
// them: in the findings, the paths and the diagram, which the data source copies into its state.
func TestRunWebhookEndpointWithoutCredentials(t *testing.T) {
	t.Parallel()
	w := hook("orders-push", orders, 1)
	w.Endpoint = "http://hookuser:s3cret@hooks.example.com:8080/push?apikey=k3y#t0ken"
	r := Run(withHooks(input(t, webhookQueues()), w), Filter{MinSeverity: rules.SeverityInfo})
	if !slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Rule == "webhook.endpoint_not_https" }) {
		t.Fatalf("no webhook.endpoint_not_https finding: %v", rulesOf(r.Findings))
	}
	out := fmt.Sprintf("%+v", r)
	for _, secret := range []string{"hookuser", "s3cret", "k3y", "t0ken"} {
		if strings.Contains(out, secret) {
			t.Errorf("the report shows %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, `"http://hooks.example.com:8080/push"`) {
		t.Errorf("the finding does not name the endpoint without its credentials:\n%s", out)
	}
}

// A flow whose runtime runs another version than its design time holds: the path does not claim
// the design time's bound for what runs (before, unbounded was false and the worst case the
// design time's, while the running version could retry without end); the note says what the
// design time would give, and the finding that a deploy ships the design time's version.
func TestRunPathOfAnotherVersionRunning(t *testing.T) {
	t.Parallel()
	in := input(t, healthyQueues(), flow{id: "Orders", o: one(amqp(orders, "1")), deployed: "0.9.0"})
	r, p := onlyPath(t, in)
	if !p.RuntimeUnknown || p.Unbounded || p.WorstCase != nil || !strings.Contains(p.WorstCaseNote, "runs version 0.9.0") ||
		!strings.Contains(p.WorstCaseNote, "would give 7 executions") {
		t.Errorf("path = %+v, want the running settings unknown and the design time's 7 executions in the note", p)
	}
	found := false
	for _, f := range r.Findings {
		if f.Rule == "audit.version_differs" {
			found = true
			if !strings.Contains(f.Message, "ships version 1.0.0") || !strings.Contains(f.Message, "may retry without end") {
				t.Errorf("version_differs does not say the deploy ships the design time's version: %s", f.Message)
			}
		}
	}
	if !found {
		t.Error("no audit.version_differs finding")
	}
}

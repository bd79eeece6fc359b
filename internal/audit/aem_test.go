package audit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/mermaid"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

const (
	aemOrders    = "orders"
	aemOrdersDMQ = "orders.dmq"
)

// aemQueue is an AEM queue that takes and delivers messages, with R, a redelivery delay of 1 s doubling up
// to 64 s, and a dead message queue ("" names none: the broker's default #DEAD_MSG_QUEUE).
func aemQueue(name string, r int64, dmq string) aem.Queue {
	q := aem.Queue{Name: name}
	q.AccessType = aem.Ptr(rules.AEMAccessNonExclusive)
	q.MaxRedeliveryCount = aem.Ptr(r)
	q.IngressEnabled, q.EgressEnabled = aem.Ptr(true), aem.Ptr(true)
	q.RedeliveryEnabled, q.RedeliveryDelayEnabled = aem.Ptr(true), aem.Ptr(true)
	q.RedeliveryDelayInitialInterval, q.RedeliveryDelayMaxInterval, q.RedeliveryDelayMultiplier = aem.Ptr[int64](1000), aem.Ptr[int64](64000), aem.Ptr[int64](200)
	if dmq != "" {
		q.DeadMsgQueue = aem.Ptr(dmq)
	}
	return q
}

// aemDeadQueue is the AEM dead message queue orders.dmq, which takes messages and keeps them 7 days.
func aemDeadQueue() aem.Queue {
	q := aem.Queue{Name: aemOrdersDMQ}
	q.AccessType = aem.Ptr(rules.AEMAccessNonExclusive)
	q.IngressEnabled, q.EgressEnabled = aem.Ptr(true), aem.Ptr(true)
	q.RespectTTLEnabled, q.MaxTTL = aem.Ptr(true), aem.Ptr[int64](604800)
	return q
}

// aemDeadQueueWith is aemDeadQueue changed by change.
func aemDeadQueueWith(change func(*aem.Queue)) aem.Queue {
	q := aemDeadQueue()
	change(&q)
	return q
}

func healthyAEMQueues() []aem.Queue {
	return []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueue()}
}

// aemSender is an AdvancedEventMesh sender channel with the tenant-written settings reading queue.
func aemSender(queue string, change ...func(map[string]string)) iflowbuild.Sender {
	props := iflowbuild.DefaultAEMSenderProperties(queue)
	for _, c := range change {
		c(props)
	}
	return iflowbuild.Sender{Name: "AEM_In", Adapter: "AEM", Properties: props}
}

func set(key, value string) func(map[string]string) {
	return func(p map[string]string) { p[key] = value }
}

// aemInput is the landscape of input with the AEM queues read and no Event Mesh queue unless given.
func aemInput(t *testing.T, emQueues []eventmesh.Queue, aemQueues []aem.Queue, flows ...flow) Input {
	t.Helper()
	in := input(t, emQueues, flows...)
	in.EventMesh = emQueues != nil
	in.AEM, in.AEMQueues = true, aemQueues
	return in
}

func TestRunAEMFindings(t *testing.T) {
	t.Parallel()
	aemQ := Object{ObjectAEMQueue, aemOrders}.String()
	aemDMQObj := Object{ObjectAEMQueue, aemOrdersDMQ}.String()
	ch := "channel:Orders/AEM_In " + aemQ + " flow:Orders"
	tests := []struct {
		name   string
		em     []eventmesh.Queue
		queues []aem.Queue
		flows  []flow
		noAEM  bool
		noCI   bool
		want   []string
	}{
		{name: "healthy path", queues: healthyAEMQueues(), flows: []flow{{id: "Orders", o: one(aemSender(aemOrders))}}},
		{
			name:   "FAILED on a queue with R = 0 is reported once, on the channel",
			queues: []aem.Queue{aemQueue(aemOrders, 0, aemOrdersDMQ), aemDeadQueue()},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want:   []string{"aem_sender.failed_unlimited_redelivery " + ch},
		},
		{
			name:   "an unconsumed queue with R = 0 is the queue's own finding",
			queues: []aem.Queue{aemQueue(aemOrders, 0, aemOrdersDMQ), aemDeadQueue()},
			want:   []string{"aem.redelivery_unlimited " + aemQ, "audit.aem_queue_unconsumed " + aemQ},
		},
		{
			name:   "REJECTED without a dead message queue",
			queues: []aem.Queue{aemQueue(aemOrders, 3, "")},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders, set(iflow.KeyAEMSettlementOutcome, "REJECTED")))}},
			want:   []string{"aem_sender.rejected_without_dmq " + ch, "audit.aem_value_unconfirmed " + ch, "aem.dmq_missing " + aemQ},
		},
		{
			name:   "a dead message queue taking smaller messages than its queue deletes the large poison messages",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.MaxMsgSize = aem.Ptr[int64](1000) })},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want:   []string{"aem.dmq_max_msg_size_smaller " + aemQ},
		},
		{
			name:   "acknowledged on receipt",
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders, set(iflow.KeyAEMAckMode, "AUTOMATIC_IMMEDIATE")))}},
			want:   []string{"aem_sender.ack_immediate " + ch},
		},
		{
			name:   "no processing attempts",
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders, set(iflow.KeyAEMMaxAttempts, "")))}},
			want:   []string{"aem_sender.attempts_missing " + ch},
		},
		{
			name:   "attempts that are not a number make the flow not analysable",
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders, set(iflow.KeyAEMMaxAttempts, "five")))}},
			want:   []string{"audit.flow_not_analysable flow:Orders", "audit.aem_queue_unconsumed " + aemQ},
		},
		{
			name:   "sender reading a queue that does not exist",
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}, {id: "Typo", o: one(aemSender("order"))}},
			want:   []string{"audit.aem_queue_not_found channel:Typo/AEM_In aem_queue:order flow:Typo"},
		},
		{
			name: "flows competing on an exclusive queue",
			queues: func() []aem.Queue {
				qs := healthyAEMQueues()
				qs[0].AccessType = aem.Ptr(rules.AEMAccessExclusive)
				return qs
			}(),
			flows: []flow{{id: "A", o: one(aemSender(aemOrders))}, {id: "B", o: one(aemSender(aemOrders))}},
			want:  []string{"audit.exclusive_competing " + aemQ},
		},
		{
			name:   "exception subprocess of an AEM flow ending in an Escalation End",
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: iflowbuild.Options{Senders: []iflowbuild.Sender{aemSender(aemOrders)}, ExceptionEnds: [][]string{{"escalation"}}}}},
			want:   []string{"iflow.exception_acknowledges flow:Orders"},
		},
		{
			name:   "queue without delay and with the default dead message queue missing",
			queues: []aem.Queue{func() aem.Queue { q := aemQueue(aemOrders, 3, ""); q.RedeliveryDelayEnabled = aem.Ptr(false); return q }()},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want:   []string{"aem.dmq_missing " + aemQ, "aem.redelivery_without_delay " + aemQ, "aem_sender.poison_messages_deleted " + ch},
		},
		{
			// A dead message queue made by hand keeps the broker's ingressEnabled = false: it takes nothing.
			name:   "FAILED onto a dead message queue that takes nothing",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.IngressEnabled = aem.Ptr(false) })},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			// The queue's own rule says it too: its dead message queue keeps nothing.
			want: []string{"aem_sender.poison_messages_deleted " + ch, "aem.dmq_ingress_disabled " + aemDMQObj, "aem.dmq_takes_nothing aem_queue:" + aemOrders},
		},
		{
			name:   "REJECTED onto a dead message queue that takes nothing",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.IngressEnabled = nil })},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders, set(iflow.KeyAEMSettlementOutcome, "REJECTED")))}},
			want: []string{"aem_sender.rejected_without_dmq " + ch, "audit.aem_value_unconfirmed " + ch, "aem.dmq_ingress_disabled " + aemDMQObj,
				"aem.dmq_takes_nothing aem_queue:" + aemOrders},
		},
		{
			// The dead message queue takes messages of at most 4 bytes, the queue the broker's default: a larger
			// poison message is deleted instead of moved there.
			name:   "dead message queue with a smaller maxMsgSize than the queue's default",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.MaxMsgSize = aem.Ptr[int64](4) })},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want:   []string{"aem.dmq_max_msg_size_smaller " + aemQ},
		},
		{
			// deadMsgQueue = "": no dead message queue, removed messages are deleted.
			name:   "a queue that names no dead message queue",
			queues: []aem.Queue{func() aem.Queue { q := aemQueue(aemOrders, 3, ""); q.DeadMsgQueue = aem.Ptr(""); return q }()},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want:   []string{"aem.dmq_empty " + aemQ, "aem_sender.poison_messages_deleted " + ch},
		},
		{
			// orders → orders.dmq → orders: each is the other's dead message queue; orders.dmq keeps the broker's
			// R = 0, so what fails on it is redelivered for ever.
			name:   "dead message queue cycle",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.DeadMsgQueue = aem.Ptr(aemOrders) })},
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			// orders is read by the channel: what comes back into it is delivered again, not kept for ever (no
			// aem.dmq_ttl_missing), and the channel runs it for ever.
			want: []string{"aem.dmq_cycle " + aemQ + " " + aemDMQObj, "aem_sender.dmq_cycle " + ch, "aem.redelivery_unlimited " + aemDMQObj},
		},
		{
			// The queue deletes what its publisher did not flag DMQ-eligible: the channel says so too.
			name: "queue that respects the DMQ-eligible flag",
			queues: []aem.Queue{func() aem.Queue {
				q := aemQueue(aemOrders, 3, aemOrdersDMQ)
				q.RespectDmqEligibleEnabled = aem.Ptr(true)
				return q
			}(), aemDeadQueue()},
			flows: []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want:  []string{"aem.dmq_eligible_respected " + aemQ, "aem_sender.dmq_eligible_respected " + ch},
		},
		{
			// orders → orders.dmq → orders.dmq.dmq: the middle queue is a dead message queue with a dead message queue
			// of its own and the broker's R = 0.
			name: "chained dead message queue that retries for ever",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.DeadMsgQueue = aem.Ptr("orders.dmq.dmq") }),
				func() aem.Queue {
					q := aemDeadQueue()
					q.Name, q.DeadMsgQueue = "orders.dmq.dmq", aem.Ptr("")
					return q
				}()},
			flows: []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want:  []string{"aem.dmq_chain " + aemQ + " " + aemDMQObj, "aem.redelivery_unlimited " + aemDMQObj},
		},
		{
			// The broker's catch-all #DEAD_MSG_QUEUE exists, and orders.dmq keeps the broker's default deadMsgQueue, which
			// names it (as every sapmessaging_aem_dead_message_queue does): not reported as a chain, nor its R = 0.
			name: "dead message queue naming the broker's default #DEAD_MSG_QUEUE, which exists",
			queues: append(healthyAEMQueues(), func() aem.Queue {
				q := aemDeadQueue()
				q.Name, q.DeadMsgQueue = "#DEAD_MSG_QUEUE", aem.Ptr("#DEAD_MSG_QUEUE")
				return q
			}()),
			flows: []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
		},
		{
			// A cycle through #DEAD_MSG_QUEUE is a cycle all the same.
			name: "dead message queue cycle through #DEAD_MSG_QUEUE",
			queues: []aem.Queue{aemQueue(aemOrders, 3, ""), func() aem.Queue {
				q := aemDeadQueue()
				q.Name, q.DeadMsgQueue = "#DEAD_MSG_QUEUE", aem.Ptr(aemOrders)
				return q
			}()},
			flows: []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			want: []string{"aem.dmq_cycle aem_queue:#DEAD_MSG_QUEUE aem_queue:orders", "aem.redelivery_unlimited aem_queue:#DEAD_MSG_QUEUE",
				"aem_sender.dmq_cycle channel:Orders/AEM_In " + aemQ + " flow:Orders"},
		},
		{
			// A dead message queue naming the broker's default #DEAD_MSG_QUEUE, which does not exist: no chain.
			name:   "dead message queue whose own default dead message queue does not exist",
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
		},
		{
			name:  "AEM channels without the AEM connection",
			flows: []flow{{id: "Orders", o: one(aemSender(aemOrders))}},
			em:    healthyQueues(),
			noAEM: true,
			want:  []string{"audit.aem_not_configured", "audit.queue_unconsumed queue:" + orders},
		},
		{
			name:   "AMQP channels with AEM but without Event Mesh",
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}, {id: "Legacy", o: one(amqp("acme/crm/prod/orders", "1"))}},
			want:   []string{"audit.event_mesh_not_configured"},
		},
		{
			name:   "AEM queues only",
			queues: healthyAEMQueues(),
			noCI:   true,
			want:   []string{"audit.queues_only"},
		},
		{
			name:   "Event Mesh and AEM in one report",
			em:     healthyQueues(),
			queues: healthyAEMQueues(),
			flows:  []flow{{id: "Orders", o: one(aemSender(aemOrders))}, {id: "Legacy", o: one(amqp("acme/crm/prod/orders", "1"))}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := aemInput(t, tt.em, tt.queues, tt.flows...)
			if tt.noAEM {
				in.AEM, in.AEMQueues = false, nil
			}
			if tt.noCI {
				in.CloudIntegration, in.Deployed, in.Flows = false, nil, nil
			}
			r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
			expectFindings(t, r, tt.want)
			if err := mermaid.Check(r.Diagram); err != nil {
				t.Errorf("diagram: %v\n%s", err, r.Diagram)
			}
		})
	}
}

// The path of an AEM sender: N_max = m × (R + 1), the adapter's waits and the broker's redelivery delays
// until the message leaves the queue, and where it goes.
func TestRunAEMPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		queues    []aem.Queue
		change    []func(map[string]string)
		noAEM     bool
		worst     *int64
		unbounded bool
		end       string
		dmq       string
		timeToEnd time.Duration
		note      string
	}{
		// 4 deliveries of 5 attempts: 4 × (1 + 3 + 9 + 27 s) of adapter waits, and 1 + 2 + 4 s of redelivery delays.
		{name: "FAILED", queues: healthyAEMQueues(), worst: ptr[int64](20), end: rules.AEMEndDeadMessageQueue, dmq: aemOrdersDMQ,
			timeToEnd: 167 * time.Second, note: "runs 20 times"},
		{name: "FAILED on R = 0", queues: []aem.Queue{aemQueue(aemOrders, 0, aemOrdersDMQ), aemDeadQueue()}, unbounded: true, dmq: aemOrdersDMQ,
			note: "without end"},
		{name: "REJECTED", queues: healthyAEMQueues(), change: []func(map[string]string){set(iflow.KeyAEMSettlementOutcome, "REJECTED")},
			worst: ptr[int64](5), end: rules.AEMEndDeadMessageQueue, dmq: aemOrdersDMQ, timeToEnd: 40 * time.Second},
		{name: "REJECTED without a dead message queue", queues: []aem.Queue{aemQueue(aemOrders, 3, "")},
			change: []func(map[string]string){set(iflow.KeyAEMSettlementOutcome, "REJECTED")}, worst: ptr[int64](5), end: rules.AEMEndDeleted, timeToEnd: 40 * time.Second},
		{name: "acknowledged on receipt", queues: healthyAEMQueues(), change: []func(map[string]string){set(iflow.KeyAEMAckMode, "AUTOMATIC_IMMEDIATE")},
			worst: ptr[int64](1), end: rules.AEMEndLost},
		{name: "FAILED onto a dead message queue that takes nothing",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.IngressEnabled = aem.Ptr(false) })},
			worst:  ptr[int64](20), end: rules.AEMEndDeleted, timeToEnd: 167 * time.Second, note: "takes no messages"},
		{name: "REJECTED onto a dead message queue that takes nothing",
			queues: []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.IngressEnabled = aem.Ptr(false) })},
			change: []func(map[string]string){set(iflow.KeyAEMSettlementOutcome, "REJECTED")}, worst: ptr[int64](5), end: rules.AEMEndDeleted,
			timeToEnd: 40 * time.Second, note: "takes no messages"},
		{name: "FAILED on a queue that respects the DMQ-eligible flag", queues: []aem.Queue{func() aem.Queue {
			q := aemQueue(aemOrders, 3, aemOrdersDMQ)
			q.RespectDmqEligibleEnabled = aem.Ptr(true)
			return q
		}(), aemDeadQueue()}, worst: ptr[int64](20), end: rules.AEMEndDeletedUnlessEligible, dmq: aemOrdersDMQ, timeToEnd: 167 * time.Second,
			note: "deleted unless its publisher flagged it DMQ-eligible"},
		{name: "FAILED on a dead message queue cycle",
			queues:    []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.DeadMsgQueue = aem.Ptr(aemOrders) })},
			unbounded: true, dmq: aemOrdersDMQ, note: "orders → orders.dmq → orders"},
		{name: "REJECTED on a dead message queue cycle",
			queues:    []aem.Queue{aemQueue(aemOrders, 3, aemOrdersDMQ), aemDeadQueueWith(func(q *aem.Queue) { q.DeadMsgQueue = aem.Ptr(aemOrders) })},
			change:    []func(map[string]string){set(iflow.KeyAEMSettlementOutcome, "REJECTED")},
			unbounded: true, dmq: aemOrdersDMQ, note: "for ever"},
		{name: "queue missing", queues: []aem.Queue{aemDeadQueue()}, note: "the queue does not exist"},
		{name: "FAILED without the AEM connection", noAEM: true, note: "without an advanced_event_mesh connection"},
		{name: "REJECTED without the AEM connection", noAEM: true, change: []func(map[string]string){set(iflow.KeyAEMSettlementOutcome, "REJECTED")},
			worst: ptr[int64](5), end: rules.AEMEndDeadMessageQueue, timeToEnd: 40 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := aemInput(t, nil, tt.queues, flow{id: "Orders", o: one(aemSender(aemOrders, tt.change...))})
			if tt.noAEM {
				in.AEM, in.AEMQueues = false, nil
			}
			r, p := onlyPath(t, in)
			if p.Adapter != AdapterAEM || p.Broker() != BrokerAEM || p.Queue != aemOrders || p.ChannelLabel() != "Orders/AEM_In" ||
				deref(p.MaxAttempts) != int64(5) || deref(p.RetryIntervalMs) != int64(1000) || deref(p.MaxRetryIntervalMs) != int64(30000) ||
				p.RetryMultiplier == nil || *p.RetryMultiplier != 3.0 || p.ConsumerMode != rules.AEMConsumerGuaranteed {
				t.Errorf("path = %+v", p)
			}
			if deref(p.WorstCase) != deref(tt.worst) || (p.WorstCase == nil) != (tt.worst == nil) || p.Unbounded != tt.unbounded || p.End != tt.end ||
				p.DeadMessageQueue != tt.dmq || derefDuration(p.TimeToEnd) != tt.timeToEnd {
				t.Errorf("worst %v unbounded %v end %q dmq %q time %v; want %v %v %q %q %v (%s)", deref(p.WorstCase), p.Unbounded, p.End, p.DeadMessageQueue,
					derefDuration(p.TimeToEnd), deref(tt.worst), tt.unbounded, tt.end, tt.dmq, tt.timeToEnd, p.WorstCaseNote)
			}
			if !strings.Contains(p.WorstCaseNote, tt.note) {
				t.Errorf("note %q does not hold %q", p.WorstCaseNote, tt.note)
			}
			if p.DeadMessageQueue != "" && deref(p.DeadMessageQueueTTL) != int64(604800) {
				t.Errorf("dead message queue TTL = %v", p.DeadMessageQueueTTL)
			}
			if err := mermaid.Check(r.Diagram); err != nil {
				t.Errorf("diagram: %v\n%s", err, r.Diagram)
			}
		})
	}
}

// Both brokers in one report: a path per channel with its broker, one summary, one diagram.
func TestRunAEMSummaryAndDiagram(t *testing.T) {
	t.Parallel()
	in := aemInput(t, healthyQueues(), append(healthyAEMQueues(), aemQueue("idle", 3, aemOrdersDMQ)),
		flow{id: "Orders", o: one(aemSender(aemOrders))},
		flow{id: "Lossy", o: one(aemSender(aemOrders, set(iflow.KeyAEMAckMode, "AUTOMATIC_IMMEDIATE")))},
		flow{id: "Legacy", o: one(amqp(orders, "1"))},
		flow{id: "Mixed", o: one(amqp(orders, "1"), aemSender(aemOrders))})
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	var brokers []string
	for _, p := range r.Paths {
		brokers = append(brokers, p.Flow+":"+p.Broker())
	}
	want := []string{"Legacy:event_mesh", "Lossy:advanced_event_mesh", "Mixed:event_mesh", "Mixed:advanced_event_mesh", "Orders:advanced_event_mesh"}
	if !slices.Equal(brokers, want) {
		t.Errorf("paths %q, want %q", brokers, want)
	}
	s := r.Summary
	if !s.AEM || !s.EventMesh || s.AEMQueues != 3 || s.Queues != 2 || s.AEMPaths != 3 || s.Paths != 5 || s.Flows != 4 ||
		deref(s.LargestWorstCase) != int64(20) || s.LargestWorstCasePath != "orders → Mixed/AEM_In" {
		t.Errorf("summary = %+v (largest %v)", s, deref(s.LargestWorstCase))
	}
	if err := mermaid.Check(r.Diagram); err != nil {
		t.Fatalf("diagram: %v\n%s", err, r.Diagram)
	}
	for _, part := range []string{`[("AEM orders<br/>R = 3")]`, `"Orders<br/>AEM_In (AEM, m = 5, FAILED)"`, `-->|"N_max = 20 in 2 min 47 s"|`,
		`"Lossy<br/>AEM_In (AEM, m = 5, acknowledged on receipt)"`, `==>|"N_max = 1, then lost"|`, `[("orders.dmq<br/>TTL 7 d")]`,
		`-.->|"dead letters"|`, `[("acme/crm/prod/orders<br/>R = 5")]`} {
		if !strings.Contains(r.Diagram, part) {
			t.Errorf("diagram lacks %s:\n%s", part, r.Diagram)
		}
	}
	// The prefix filter selects AEM queues and the flows that read them as it does Event Mesh ones.
	f := Run(in, Filter{QueuePrefix: "idle", MinSeverity: rules.SeverityInfo})
	if len(f.Paths) != 0 || f.Summary.AEMQueues != 1 || len(f.Findings) != 1 || f.Findings[0].Rule != "audit.aem_queue_unconsumed" {
		t.Errorf("filtered: %+v %v", f.Summary, rulesOf(f.Findings))
	}
}

func derefDuration(d *time.Duration) time.Duration {
	if d == nil {
		return 0
	}
	return *d
}

// aemClient is a SEMP client of the emulator's broker; password "" uses the right one.
func aemClient(tb testing.TB, srv *emulatortest.Emulator, password string) *aem.Client {
	tb.Helper()
	c := srv.AdvancedEventMeshCredentials()
	if password == "" {
		password = c.Password
	}
	h, err := httpx.New(aem.HTTPConfig(c.SEMPURL, c.Username, password))
	if err != nil {
		tb.Fatal(err)
	}
	cl, err := aem.New(h, c.MsgVpnName)
	if err != nil {
		tb.Fatal(err)
	}
	return cl
}

// aemLandscape puts queues AEM queues (R = 3) and flows deployed flows on the emulator; flow i reads
// queue i with an AdvancedEventMesh sender.
func aemLandscape(tb testing.TB, srv *emulatortest.Emulator, queues, flows int) {
	tb.Helper()
	ctx := tb.Context()
	c := aemClient(tb, srv, "")
	for i := range queues {
		q := aemQueue(fmt.Sprintf("acme/q%04d", i), 3, "")
		if _, err := c.CreateQueue(ctx, q); err != nil {
			tb.Fatal(err)
		}
	}
	ci := cpi.New(srv.CloudIntegrationClient(tb))
	for i := range flows {
		id := fmt.Sprintf("AEMFlow%03d", i)
		zip := iflowbuild.Build(iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{aemSender(fmt.Sprintf("acme/q%04d", i))}, ExceptionEnds: [][]string{{"error"}}})
		if err := srv.CreateIFlow(id, id, "Bench", zip); err != nil {
			tb.Fatal(err)
		}
		if _, err := ci.DeployAndWait(ctx, id, "active", time.Millisecond); err != nil {
			tb.Fatal(err)
		}
	}
}

const routeListAEMQueues = "GET /SEMP/v2/config/msgVpns/{vpn}/queues"

// Read lists the AEM queues once (paged, 100 a page), the runtime once and downloads each deployed flow
// once, however many channels it has; a broker that refuses the list fails the read.
func TestReadAEM(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	aemLandscape(t, srv, 150, 4)
	srv.ResetStats()
	in, err := Read(t.Context(), Sources{AEM: aemClient(t, srv, ""), Flows: cpi.NewFlows(cpi.New(srv.CloudIntegrationClient(t)))})
	if err != nil {
		t.Fatal(err)
	}
	st := srv.Stats()
	if st.Routes[routeListAEMQueues] != 2 || st.SEMPCalls != 2 || st.Routes[routeListRuntime] != 1 || st.Routes[routeDownload] != 4 || st.ManagementCalls != 0 {
		t.Errorf("calls %v (SEMP %d), want two pages of the queue list, one runtime list and one download per deployed flow", st.Routes, st.SEMPCalls)
	}
	if !in.AEM || in.EventMesh || len(in.AEMQueues) != 150 || len(in.Flows) != 4 {
		t.Fatalf("input: AEM %v, Event Mesh %v, %d AEM queues, %d flows", in.AEM, in.EventMesh, len(in.AEMQueues), len(in.Flows))
	}
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	if r.Summary.AEMPaths != 4 || r.Summary.AEMQueues != 150 || deref(r.Summary.LargestWorstCase) != int64(20) {
		t.Errorf("summary = %+v", r.Summary)
	}

	_, err = Read(t.Context(), Sources{AEM: aemClient(t, srv, "wrong"), Flows: cpi.NewFlows(cpi.New(srv.CloudIntegrationClient(t)))})
	var le *ListError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "listing the Advanced Event Mesh queues") {
		t.Errorf("a refused queue list: %v, want a list error", err)
	}
}

// A direct consumer reads topics, not the queue: its m attempts on one delivery, then the message is gone;
// the queue it names is not consumed by it.
func TestRunAEMDirectConsumer(t *testing.T) {
	t.Parallel()
	in := aemInput(t, nil, healthyAEMQueues(), flow{id: "Orders", o: one(aemSender(aemOrders, set(iflow.KeyAEMConsumerMode, "DIRECT")))})
	r, p := onlyPath(t, in)
	if deref(p.WorstCase) != int64(5) || p.End != rules.AEMEndLost || derefDuration(p.TimeToEnd) != 40*time.Second || p.RedeliveryCount != nil ||
		p.DeadMessageQueue != "" || !p.QueueExists || p.ConsumerMode != rules.AEMConsumerDirect {
		t.Errorf("path = %+v (%s)", p, p.WorstCaseNote)
	}
	expectFindings(t, r, []string{"audit.aem_queue_unconsumed aem_queue:" + aemOrders})
	if err := mermaid.Check(r.Diagram); err != nil || !strings.Contains(r.Diagram, `"AEM direct messages"`) || !strings.Contains(r.Diagram, `(AEM, m = 5, direct)`) ||
		!strings.Contains(r.Diagram, `==>|"N_max = 5 in 40 s, then lost"|`) {
		t.Errorf("diagram (%v):\n%s", err, r.Diagram)
	}
}

// The summary's advanced_event_mesh says whether the report covers Advanced Event Mesh: AEM sender channel paths
// without the AEM connection are AEM in the report too (their queue settings unknown, audit.aem_not_configured
// says why), so a summary never shows aem_paths = 3 beside advanced_event_mesh = false.
func TestRunAEMSummaryWithPathsWithoutTheConnection(t *testing.T) {
	t.Parallel()
	in := aemInput(t, healthyQueues(), nil, flow{id: "Orders", o: one(aemSender(aemOrders))}, flow{id: "Legacy", o: one(amqp(orders, "1"))})
	in.AEM, in.AEMQueues = false, nil
	s := Run(in, Filter{MinSeverity: rules.SeverityInfo}).Summary
	if s.AEMPaths != 1 || !s.AEM || s.AEMQueues != 0 {
		t.Errorf("summary = %+v: want aem_paths 1 with advanced_event_mesh true and no AEM queue read", s)
	}
	// Neither the connection nor a path: not covered.
	in = aemInput(t, healthyQueues(), nil, flow{id: "Legacy", o: one(amqp(orders, "1"))})
	in.AEM, in.AEMQueues = false, nil
	if s := Run(in, Filter{MinSeverity: rules.SeverityInfo}).Summary; s.AEM {
		t.Errorf("summary = %+v: advanced_event_mesh true without the connection or an AEM path", s)
	}
}

// Solace's own adapter beside an AdvancedEventMesh sender, as in SolaceLabs/solace-ep-codegen's Inventory
// Service.iflw: the audit joins it with its queue like an AEM sender, names its adapter on the path, and reports
// what no source confirms about it (its settlement and its attempts) in a finding and on the path.
func TestRunAEMSolaceAdapter(t *testing.T) {
	t.Parallel()
	solace := aemSender("payments", set(iflow.KeyAEMAckMode, "AUTOMATIC_IMMEDIATE"))
	solace.Name, solace.Adapter = "From_SolacePubSubPlus_1", "SolacePubSubPlus"
	queues := append(healthyAEMQueues(), aemQueue("payments", 3, aemOrdersDMQ))
	in := aemInput(t, nil, queues, flow{id: "Inventory", o: iflowbuild.Options{Senders: []iflowbuild.Sender{solace, aemSender(aemOrders)}}})
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	ch := "channel:Inventory/From_SolacePubSubPlus_1 aem_queue:payments flow:Inventory"
	expectFindings(t, r, []string{"aem_sender.ack_immediate " + ch, "audit.aem_value_unconfirmed " + ch})
	if len(r.Paths) != 2 {
		t.Fatalf("paths = %+v, want the two channels", r.Paths)
	}
	byChannel := map[string]Path{}
	for _, p := range r.Paths {
		byChannel[p.Channel] = p
	}
	s, a := byChannel["From_SolacePubSubPlus_1"], byChannel["AEM_In"]
	if s.Adapter != AdapterAEM || s.AEMAdapter != iflow.ComponentTypeSolace || s.Queue != "payments" || !s.QueueExists ||
		deref(s.WorstCase) != int64(1) || s.End != rules.AEMEndLost {
		t.Errorf("Solace path = %+v", s)
	}
	if len(s.Unconfirmed) != 1 || !strings.Contains(s.Unconfirmed[0], "settlement outcome") {
		t.Errorf("Solace path unconfirmed = %q, want the adapter's behaviour", s.Unconfirmed)
	}
	if a.AEMAdapter != iflow.ComponentTypeAEM || len(a.Unconfirmed) != 0 || deref(a.WorstCase) != int64(20) {
		t.Errorf("AdvancedEventMesh path = %+v", a)
	}
	for _, f := range r.Findings {
		if f.Rule == "audit.aem_value_unconfirmed" && !strings.Contains(f.Message, "Solace") {
			t.Errorf("finding %s: %s, want it to name Solace's adapter", f.Rule, f.Message)
		}
	}
	if !strings.Contains(r.Diagram, `From_SolacePubSubPlus_1 (AEM via SolacePubSubPlus, m = 5, acknowledged on receipt)`) {
		t.Errorf("the diagram does not name Solace's adapter:\n%s", r.Diagram)
	}
	if err := mermaid.Check(r.Diagram); err != nil {
		t.Errorf("diagram: %v\n%s", err, r.Diagram)
	}
	if r.Summary.AEMPaths != 2 {
		t.Errorf("summary AEM paths = %d, want 2", r.Summary.AEMPaths)
	}
}

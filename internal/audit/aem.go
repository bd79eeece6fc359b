package audit

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The Advanced Event Mesh part of the audit: the AEM queues of one broker's Message VPN (one paged SEMP
// list) joined with the AEM sender channels of the deployed flows that read them (SAP's AdvancedEventMesh
// adapter, and Solace's own SolacePubSubPlus adapter, read with the same keys, its behaviour assumed the same
// and reported as unconfirmed)
// (shared/reference/aem.md §4–5). A channel's path is what rules.AEMSenderPath computes for its settings
// and the queue as the broker holds it: N_max = m × (R + 1) with the FAILED outcome, m with REJECTED, one
// run with AUTOMATIC_IMMEDIATE, or why it is unbounded; the time until the message leaves the queue; where
// it ends. The findings are those of rules.CheckAEMSender and rules.CheckAEMQueue, the landscape
// rules of rules/aem_landscape.go, and the dead message queue graph of rules/dmqgraph.go that the Event Mesh
// half uses (cycles, chains, and R = 0 on a dead message queue with one of its own).

// AdapterAEM is a path's adapter for an AdvancedEventMesh sender channel.
const AdapterAEM = "AEM"

// ObjectAEMQueue is the kind of an AEM queue in a finding.
const ObjectAEMQueue = "aem_queue"

// Brokers of a path's queue, named as the provider's connection blocks.
const (
	BrokerEventMesh        = "event_mesh"
	BrokerAEM              = "advanced_event_mesh"
	BrokerCloudIntegration = "cloud_integration" // the JMS queues of the Cloud Integration tenant
)

// Broker returns where the path's queue lives: BrokerAEM, BrokerCloudIntegration (JMS) or BrokerEventMesh.
func (p Path) Broker() string {
	switch p.Adapter {
	case AdapterAEM:
		return BrokerAEM
	case AdapterJMS:
		return BrokerCloudIntegration
	}
	return BrokerEventMesh
}

// queueObject is the object of the path's queue in findings and the diagram.
func (p Path) queueObject() Object {
	switch p.Adapter {
	case AdapterJMS:
		return Object{ObjectJMSQueue, p.Queue}
	case AdapterAEM:
		return Object{ObjectAEMQueue, p.Queue}
	}
	return Object{ObjectQueue, p.Queue}
}

// aemSenderChannels returns the AdvancedEventMesh sender channels of a flow, none for one not parsed.
func aemSenderChannels(f *cpi.Flow) []iflow.AEMChannel {
	if f == nil || f.Artifact == nil || f.Artifact.Model == nil {
		return nil
	}
	return f.Artifact.AEMSenders()
}

// flowParams are the flow's externalized parameter values: the tenant's configurations over parameters.prop.
func flowParams(f *cpi.Flow) map[string]string {
	configs := make(map[string]string, len(f.Configurations))
	for k, c := range f.Configurations {
		configs[k] = c.Value
	}
	return f.Artifact.ParameterValues(configs)
}

// aemDMQ returns the dead message queue of an AEM queue: the one it names, or the broker's default.
func aemDMQ(q *aem.Queue) string {
	if q.DeadMsgQueue != nil {
		return *q.DeadMsgQueue
	}
	return rules.AEMDefaultDeadMsgQueue
}

// ruleAEMQueue is the AEM queue q as the rules check it; dmq marks a dead message queue of another queue,
// dmqExists whether the broker holds q's own dead message queue.
func ruleAEMQueue(q *aem.Queue, dmq bool, dmqQueue *aem.Queue) rules.AEMQueue {
	rq := rules.AEMQueue{
		Name:                           rules.Known(q.Name),
		DeadMessageQueue:               nullable(q.DeadMsgQueue),
		MaxRedeliveryCount:             nullable(q.MaxRedeliveryCount),
		MaxTTL:                         nullable(q.MaxTTL),
		RedeliveryEnabled:              nullable(q.RedeliveryEnabled),
		RedeliveryDelayEnabled:         nullable(q.RedeliveryDelayEnabled),
		RespectTTL:                     nullable(q.RespectTTLEnabled),
		RedeliveryDelayInitialInterval: nullable(q.RedeliveryDelayInitialInterval),
		RedeliveryDelayMaxInterval:     nullable(q.RedeliveryDelayMaxInterval),
		RedeliveryDelayMultiplier:      nullable(q.RedeliveryDelayMultiplier),
		IngressEnabled:                 nullable(q.IngressEnabled),
		EgressEnabled:                  nullable(q.EgressEnabled),
		RespectDMQEligible:             nullable(q.RespectDmqEligibleEnabled),
		IsDeadMessageQueue:             dmq,
	}
	rules.AEMHeldDeadMessageQueue(&rq, aemHeld(q), aemHeld(dmqQueue))
	return rq
}

// aemHeld is what the rules read of a queue the broker holds (nil for nil).
func aemHeld(q *aem.Queue) *rules.AEMHeldQueue {
	if q == nil {
		return nil
	}
	return &rules.AEMHeldQueue{IngressEnabled: q.IngressEnabled, MaxMsgSize: q.MaxMsgSize, MaxMsgSpoolUsage: q.MaxMsgSpoolUsage}
}

// aemTTL is the time to live an AEM dead message queue applies, nil when it keeps messages for ever or
// does not exist.
func aemTTL(q *aem.Queue) *int64 {
	if q == nil || q.RespectTTLEnabled == nil || !*q.RespectTTLEnabled || q.MaxTTL == nil || *q.MaxTTL <= 0 {
		return nil
	}
	v := *q.MaxTTL
	return &v
}

// aemReading reads the settings of an AEM sender channel into the path and the rules' values; bad lists
// the settings that are not numbers.
type aemReading struct {
	p   *Path
	bad []string
}

func (r *aemReading) int(st iflow.Setting, field **int64) rules.Value[int64] {
	return aemNumber(r, st, field, st.Int, "a whole number")
}

func (r *aemReading) float(st iflow.Setting) rules.Value[float64] {
	return aemNumber(r, st, &r.p.RetryMultiplier, st.Float, "a number")
}

// aemNumber reads a number setting with parse into field: null when empty, unknown when not resolved or
// not what (which bad then records).
func aemNumber[T int64 | float64](r *aemReading, st iflow.Setting, field **T, parse func() (T, bool), what string) rules.Value[T] {
	switch {
	case !st.Resolved:
		return rules.Unknown[T]()
	case strings.TrimSpace(st.Value) == "":
		return rules.Null[T]()
	}
	v, ok := parse()
	if !ok {
		r.bad = append(r.bad, fmt.Sprintf("%s is %q, which is not %s", st.Key, st.Value, what))
		return rules.Unknown[T]()
	}
	*field = &v
	return rules.Known(v)
}

// enum reads an enumeration as written (the rules report a value they do not know); known is its value
// when the reader recognises it.
func (r *aemReading) enum(st iflow.Setting, known string, ok bool, field *string) rules.Value[string] {
	switch {
	case !st.Resolved:
		return rules.Unknown[string]()
	case strings.TrimSpace(st.Value) == "":
		return rules.Null[string]()
	case ok:
		*field = known
		return rules.Known(known)
	}
	*field = strings.TrimSpace(st.Value)
	return rules.Known(*field)
}

// aemPaths joins the AEM sender channels of one deployed flow; false when the flow has none. A channel
// whose numbers cannot be read makes the flow not analysable.
func (j *joined) aemPaths(rt cpi.RuntimeArtifact, f *cpi.Flow) bool {
	chans := aemSenderChannels(f)
	if len(chans) == 0 {
		return false
	}
	params := flowParams(f)
	for _, ch := range chans {
		j.aemPath(rt, ch, ch.AEMSenderSettings(params))
	}
	return true
}

// aemPath joins one AEM sender channel with the AEM queue it reads.
func (j *joined) aemPath(rt cpi.RuntimeArtifact, ch iflow.AEMChannel, st iflow.AEMSenderSettings) {
	queue := strings.TrimSpace(st.QueueName.Value)
	if !st.QueueName.Resolved {
		queue = st.QueueName.Raw
	}
	p := newPath(rt, AdapterAEM, queue, channelName(ch.Name, ch.ID), j.in.Packages)
	rd := aemReading{p: &p}
	consumer, cok := st.Consumer()
	ack, aok := st.Acknowledgement()
	outcome, ook := st.Outcome()
	s := rules.AEMSender{
		MaxMessageProcessingAttempts: rd.int(st.MaxAttempts, &p.MaxAttempts),
		RetryInterval:                rd.int(st.RetryInterval, &p.RetryIntervalMs),
		MaxRetryInterval:             rd.int(st.MaxRetryInterval, &p.MaxRetryIntervalMs),
		RetryMultiplier:              rd.float(st.RetryMultiplier),
		ConsumerMode:                 rd.enum(st.ConsumerMode, consumer, cok, &p.ConsumerMode),
		AcknowledgementMode:          rd.enum(st.AckMode, ack, aok, &p.AcknowledgementMode),
		SettlementOutcome:            rd.enum(st.SettlementOutcome, outcome, ook, &p.SettlementOutcome),
		MaxTotalAttempts:             rules.Null[int64](),
	}
	flowObj := Object{ObjectFlow, rt.ID}
	if len(rd.bad) > 0 {
		j.unread[rt.ID] = true
		j.add(rules.FlowNotAnalysable(rt.ID, fmt.Sprintf("the AdvancedEventMesh sender channel %q: %s", p.Channel, strings.Join(rd.bad, "; "))), "", flowObj)
		return
	}
	direct := strings.EqualFold(p.ConsumerMode, rules.AEMConsumerDirect)
	objs := []Object{{ObjectChannel, p.ChannelLabel()}}
	if queue != "" && !direct {
		objs = append(objs, Object{ObjectAEMQueue, queue})
		j.flowReads[rt.ID] = append(j.flowReads[rt.ID], queue)
	}
	objs = append(objs, flowObj)
	var unconfirmed []string
	for _, u := range st.Unconfirmed() {
		unconfirmed = append(unconfirmed, u.Reason)
	}
	p.AEMAdapter, p.Unconfirmed = ch.Adapter, unconfirmed
	j.add(rules.AEMSenderUnconfirmed(p.ChannelLabel(), ch.Adapter, unconfirmed), "", objs...)

	q := j.aemQueues[queue]
	switch {
	case direct:
		p.QueueKnown, p.QueueExists = true, true // A direct consumer reads topics, not a queue.
	case j.in.AEM && st.QueueName.Resolved:
		p.QueueKnown, p.QueueExists = true, q != nil
		j.add(rules.CheckAEMConsumedQueueExists(fmt.Sprintf("%q of integration flow %q", p.Channel, rt.ID), queue, q != nil), "", objs...)
	}
	if q != nil && !direct {
		s.Queue = j.aemRuleQueues[queue]
		r := int64(0)
		if q.MaxRedeliveryCount != nil {
			r = *q.MaxRedeliveryCount
		}
		p.RedeliveryCount = &r
		if dmq := aemDMQ(q); dmq != "" {
			p.DeadMessageQueue = dmq
			p.DeadMessageQueueTTL = aemTTL(j.aemQueues[dmq])
		}
	}
	j.add(rules.CheckAEMSender(s), fmt.Sprintf("AEM sender %s reading %q", p.ChannelLabel(), queue), objs...)
	j.aemWorstCase(&p, s, st.QueueName.Resolved, direct)
	j.paths = append(j.paths, p)
}

// aemWorstCase sets the path's N_max, time to end and end from rules.AEMSenderPath, or why there is none.
func (j *joined) aemWorstCase(p *Path, s rules.AEMSender, queueResolved, direct bool) {
	settles := !direct && !strings.EqualFold(p.AcknowledgementMode, rules.AEMAckImmediate)
	switch {
	case settles && !queueResolved:
		p.WorstCaseNote = "the channel's queue name is an externalized parameter without a value"
		return
	case settles && !p.QueueKnown:
		p.WorstCaseNote = "the queue's redelivery count is unknown without an advanced_event_mesh connection"
		if strings.EqualFold(p.SettlementOutcome, rules.AEMOutcomeFailed) || p.SettlementOutcome == "" {
			return
		}
	case settles && !p.QueueExists:
		p.WorstCaseNote = "the queue does not exist"
		return
	}
	path, ok := rules.AEMSenderPath(s)
	if !ok {
		if p.WorstCaseNote == "" {
			p.WorstCaseNote = "a setting of the channel or its queue is empty, not resolved or out of range (see the findings)"
		}
		return
	}
	p.WorstCaseNote = rules.AEMSenderRetryPlan(s)
	if path.Unlimited {
		p.Unbounded = true
		return
	}
	runs, end := path.Runs, path.TimeToEnd
	p.WorstCase, p.TimeToEnd, p.End = &runs, &end, path.End
	if path.End != rules.AEMEndDeadMessageQueue && path.End != rules.AEMEndDeletedUnlessEligible {
		p.DeadMessageQueue, p.DeadMessageQueueTTL = "", nil
	}
}

// aemQueueFindings applies the AEM queue rules to every AEM queue, and the join's: unconsumed queues and
// exclusive queues with competing consumers.
func (j *joined) aemQueueFindings(unread []string) {
	consumers := map[string][]string{}
	unbounded := map[string]bool{}
	for _, p := range j.paths {
		if p.Adapter == AdapterAEM && p.QueueExists && p.Queue != "" && !strings.EqualFold(p.ConsumerMode, rules.AEMConsumerDirect) {
			consumers[p.Queue] = append(consumers[p.Queue], p.ConsumerLabel())
			unbounded[p.Queue] = unbounded[p.Queue] || p.Unbounded
		}
	}
	links := j.aemLinks()
	for _, q := range j.in.AEMQueues {
		obj := Object{ObjectAEMQueue, q.Name}
		rq := j.aemRuleQueues[q.Name]
		if j.in.CloudIntegration {
			rq.Consumed = rules.Known(len(consumers[q.Name]) > 0)
		}
		// A cycle is reported once, with the queues it joins, by the dead message queue graph below.
		fs := slices.DeleteFunc(rules.CheckAEMQueue(rq), func(f rules.Finding) bool { return f.Rule == "aem.dmq_cycle" })
		if rq.IsDeadMessageQueue && aemChained(q.Name, links) {
			// A dead message queue that moves what it removes to a dead message queue of its own (a cycle, a
			// chain) is also an ordinary queue: what fails on it is redelivered, so its redelivery count matters
			// as on any queue (as for Event Mesh, audit.go). The dead message queue rules above skip it.
			rq.IsDeadMessageQueue = false
			for _, f := range rules.CheckAEMQueue(rq) {
				if f.Rule == "aem.redelivery_unlimited" {
					fs = append(fs, f)
				}
			}
		}
		if unbounded[q.Name] {
			// The consumer's aem_sender.failed_unlimited_redelivery names the path.
			fs = slices.DeleteFunc(fs, func(f rules.Finding) bool { return f.Rule == "aem.redelivery_unlimited" })
		}
		j.add(fs, fmt.Sprintf("AEM queue %q", q.Name), obj)
		if dmq := links[q.Name]; dmq != "" {
			if cycle := cycleOf(q.Name, links); cycle == nil || slices.Min(cycle) == q.Name {
				// A cycle is reported once, at its first queue by name.
				fs := rules.CheckAEMDeadMessageQueueLinks(q.Name, dmq, rules.LinkSet{Current: links})
				if !aemChained(dmq, links) {
					fs = slices.DeleteFunc(fs, func(f rules.Finding) bool { return f.Rule == "aem.dmq_chain" })
				}
				j.add(fs, fmt.Sprintf("AEM queue %q", q.Name), obj, Object{ObjectAEMQueue, dmq})
			}
		}
		access := rules.AEMAccessExclusive // [SPEC] MsgVpnQueue accessType x-default
		if q.AccessType != nil {
			access = *q.AccessType
		}
		j.add(rules.CheckAEMExclusiveConsumers(q.Name, access, consumers[q.Name]), "", obj)
		if j.in.CloudIntegration && len(consumers[q.Name]) == 0 && !j.aemIsDMQ[q.Name] {
			j.add(rules.CheckUnconsumedAEMQueue(q.Name, unread), "", obj)
		}
	}
}

// aemLinks returns, for each AEM queue, the queue the broker moves what it removes to: its dead message queue
// when that exists and is another queue; none for `deadMsgQueue = ""` (removed messages are deleted) or a dead
// message queue the broker does not hold (reported by aem.dmq_missing).
func (j *joined) aemLinks() map[string]string {
	links := map[string]string{}
	for i := range j.in.AEMQueues {
		q := &j.in.AEMQueues[i]
		if d := aemDMQ(q); d != "" && d != q.Name && j.aemQueues[d] != nil {
			links[q.Name] = d
		}
	}
	return links
}

// aemChained reports whether the dead message queue dmq moves what it removes on to a dead message queue of its
// own that the rules report (aem.dmq_chain on the queue that names dmq, aem.redelivery_unlimited on dmq): one it
// names other than the broker's catch-all #DEAD_MSG_QUEUE, or any one on a cycle. The broker's default deadMsgQueue
// names #DEAD_MSG_QUEUE, and every sapmessaging_aem_dead_message_queue keeps that default without an attribute to
// change it: where #DEAD_MSG_QUEUE exists, reporting that link would report every dead message queue of the Message
// VPN with a fix the configuration cannot make.
func aemChained(dmq string, links map[string]string) bool {
	next := links[dmq]
	return next != "" && (next != rules.AEMDefaultDeadMsgQueue || cycleOf(dmq, links) != nil)
}

// indexAEMQueues indexes the AEM queues by name with their rule view; a queue is a dead message queue
// when another queue's dead message queue (named, or the broker's default) is it.
func (j *joined) indexAEMQueues() {
	j.aemQueues, j.aemRuleQueues, j.aemIsDMQ = map[string]*aem.Queue{}, map[string]rules.AEMQueue{}, map[string]bool{}
	for i := range j.in.AEMQueues {
		j.aemQueues[j.in.AEMQueues[i].Name] = &j.in.AEMQueues[i]
	}
	for i := range j.in.AEMQueues {
		q := &j.in.AEMQueues[i]
		if d := aemDMQ(q); d != "" && d != q.Name && j.aemQueues[d] != nil {
			j.aemIsDMQ[d] = true
		}
	}
	links := j.aemLinks()
	for i := range j.in.AEMQueues {
		q := &j.in.AEMQueues[i]
		rq := ruleAEMQueue(q, j.aemIsDMQ[q.Name], j.aemQueues[aemDMQ(q)])
		// A dead message queue whose own dead message queues lead back here: what dies here comes back.
		rq.DeadMessageQueueCycle = rules.AEMDeadMessageQueueCycle(q.Name, links[q.Name], rules.LinkSet{Current: links})
		j.aemRuleQueues[q.Name] = rq
	}
}

// connectionFindings says which broker was not read while flows have channels that read it.
func (j *joined) connectionFindings() {
	var amqp, aemChans []string
	for _, p := range j.paths {
		switch p.Adapter {
		case AdapterAMQP:
			amqp = append(amqp, p.ChannelLabel())
		case AdapterAEM:
			if !strings.EqualFold(p.ConsumerMode, rules.AEMConsumerDirect) {
				aemChans = append(aemChans, p.ChannelLabel())
			}
		}
	}
	switch {
	case !j.in.CloudIntegration:
		var read []string
		if j.in.EventMesh {
			read = append(read, "Event Mesh")
		}
		if j.in.AEM {
			read = append(read, "AEM")
		}
		j.add(rules.QueuesOnlyOf("the "+strings.Join(read, " and ")+" queues"), "")
		return
	case !j.in.EventMesh && !j.in.AEM:
		j.add(rules.FlowsOnly(), "")
	case !j.in.EventMesh:
		j.add(rules.EventMeshNotConfigured(amqp), "")
	}
	if !j.in.AEM {
		j.add(rules.AEMNotConfigured(aemChans), "")
	}
}

// formatTimeToEnd writes a path's time to end as the rules write durations.
func formatTimeToEnd(d time.Duration) string { return rules.FormatAEMDuration(d) }

// exceptionSubprocesses returns the exception subprocesses of a flow read without an AMQP or JMS sender:
// no JMS retry guard applies to an AEM sender's flow.
func exceptionSubprocesses(f *cpi.Flow) []cpi.ExceptionSubprocess {
	var out []cpi.ExceptionSubprocess
	for _, sp := range f.Artifact.ExceptionSubprocesses() {
		out = append(out, cpi.ExceptionSubprocess{ID: sp.ID, Name: sp.Name, EndEvents: slices.Clone(sp.EndEvents)})
	}
	return out
}

package framework

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// AEMQueueSettingsModel holds the settings of an AEM queue that the resources manage.
type AEMQueueSettingsModel struct {
	MaxRedeliveryCount                 types.Int64  `tfsdk:"max_redelivery_count"`
	DeadMessageQueue                   types.String `tfsdk:"dead_message_queue"`
	RespectTTL                         types.Bool   `tfsdk:"respect_ttl"`
	MaxTTL                             types.Int64  `tfsdk:"max_ttl"`
	RedeliveryEnabled                  types.Bool   `tfsdk:"redelivery_enabled"`
	RedeliveryDelayEnabled             types.Bool   `tfsdk:"redelivery_delay_enabled"`
	RedeliveryDelayInitialInterval     types.Int64  `tfsdk:"redelivery_delay_initial_interval"`
	RedeliveryDelayMaxInterval         types.Int64  `tfsdk:"redelivery_delay_max_interval"`
	RedeliveryDelayMultiplier          types.Int64  `tfsdk:"redelivery_delay_multiplier"`
	AccessType                         types.String `tfsdk:"access_type"`
	IngressEnabled                     types.Bool   `tfsdk:"ingress_enabled"`
	EgressEnabled                      types.Bool   `tfsdk:"egress_enabled"`
	RespectDMQEligibleEnabled          types.Bool   `tfsdk:"respect_dmq_eligible_enabled"`
	RejectMsgToSenderOnDiscardBehavior types.String `tfsdk:"reject_msg_to_sender_on_discard_behavior"`
	DeliveryCountEnabled               types.Bool   `tfsdk:"delivery_count_enabled"`
	MaxMsgSpoolUsage                   types.Int64  `tfsdk:"max_msg_spool_usage"`
}

// AEMQueueSettingsFromAPI reads what the broker holds. An attribute the broker leaves out reads as its
// default ([SPEC] MsgVpnQueue x-default), so that state never holds an unknown or a null for it.
func AEMQueueSettingsFromAPI(s aem.QueueSettings) AEMQueueSettingsModel {
	b := func(p *bool, def bool) types.Bool {
		if p == nil {
			return types.BoolValue(def)
		}
		return types.BoolValue(*p)
	}
	i := func(p *int64, def int64) types.Int64 {
		if p == nil {
			return types.Int64Value(def)
		}
		return types.Int64Value(*p)
	}
	str := func(p *string, def string) types.String {
		if p == nil {
			return types.StringValue(def)
		}
		return types.StringValue(*p)
	}
	return AEMQueueSettingsModel{
		MaxRedeliveryCount:                 i(s.MaxRedeliveryCount, 0),
		DeadMessageQueue:                   str(s.DeadMsgQueue, AEMDefaultDMQ),
		RespectTTL:                         b(s.RespectTTLEnabled, false),
		MaxTTL:                             i(s.MaxTTL, 0),
		RedeliveryEnabled:                  b(s.RedeliveryEnabled, true),
		RedeliveryDelayEnabled:             b(s.RedeliveryDelayEnabled, false),
		RedeliveryDelayInitialInterval:     i(s.RedeliveryDelayInitialInterval, rules.AEMDefaultRedeliveryInitialMs),
		RedeliveryDelayMaxInterval:         i(s.RedeliveryDelayMaxInterval, rules.AEMDefaultRedeliveryMaxMs),
		RedeliveryDelayMultiplier:          i(s.RedeliveryDelayMultiplier, rules.AEMDefaultRedeliveryMultiplier),
		AccessType:                         str(s.AccessType, "exclusive"),
		IngressEnabled:                     b(s.IngressEnabled, false),
		EgressEnabled:                      b(s.EgressEnabled, false),
		RespectDMQEligibleEnabled:          b(s.RespectDmqEligibleEnabled, false),
		RejectMsgToSenderOnDiscardBehavior: str(s.RejectMsgToSenderOnDiscardBehavior, "when-queue-enabled"),
		DeliveryCountEnabled:               b(s.DeliveryCountEnabled, false),
		MaxMsgSpoolUsage:                   i(s.MaxMsgSpoolUsage, 5000),
	}
}

// ToAPI returns the settings to write: only those m sets (null and unknown ones are left out). Called on
// the configuration, so that a PATCH carries the attributes the configuration owns and nothing else.
func (m *AEMQueueSettingsModel) ToAPI() aem.QueueSettings {
	return aem.QueueSettings{
		MaxRedeliveryCount:                 Int64Ptr(m.MaxRedeliveryCount),
		DeadMsgQueue:                       StringPtr(m.DeadMessageQueue),
		RespectTTLEnabled:                  BoolPtr(m.RespectTTL),
		MaxTTL:                             Int64Ptr(m.MaxTTL),
		RedeliveryEnabled:                  BoolPtr(m.RedeliveryEnabled),
		RedeliveryDelayEnabled:             BoolPtr(m.RedeliveryDelayEnabled),
		RedeliveryDelayInitialInterval:     Int64Ptr(m.RedeliveryDelayInitialInterval),
		RedeliveryDelayMaxInterval:         Int64Ptr(m.RedeliveryDelayMaxInterval),
		RedeliveryDelayMultiplier:          Int64Ptr(m.RedeliveryDelayMultiplier),
		AccessType:                         StringPtr(m.AccessType),
		IngressEnabled:                     BoolPtr(m.IngressEnabled),
		EgressEnabled:                      BoolPtr(m.EgressEnabled),
		RespectDmqEligibleEnabled:          BoolPtr(m.RespectDMQEligibleEnabled),
		RejectMsgToSenderOnDiscardBehavior: StringPtr(m.RejectMsgToSenderOnDiscardBehavior),
		DeliveryCountEnabled:               BoolPtr(m.DeliveryCountEnabled),
		MaxMsgSpoolUsage:                   Int64Ptr(m.MaxMsgSpoolUsage),
	}
}

// ToRules returns the queue named name as the rules check it. Called on the configuration, a null
// setting is the broker's default.
func (m *AEMQueueSettingsModel) ToRules(name types.String) rules.AEMQueue {
	return rules.AEMQueue{
		Name:                           StringValue(name),
		DeadMessageQueue:               StringValue(m.DeadMessageQueue),
		MaxRedeliveryCount:             Int64Value(m.MaxRedeliveryCount),
		MaxTTL:                         Int64Value(m.MaxTTL),
		RedeliveryEnabled:              BoolValue(m.RedeliveryEnabled),
		RedeliveryDelayEnabled:         BoolValue(m.RedeliveryDelayEnabled),
		RespectTTL:                     BoolValue(m.RespectTTL),
		RedeliveryDelayInitialInterval: Int64Value(m.RedeliveryDelayInitialInterval),
		RedeliveryDelayMaxInterval:     Int64Value(m.RedeliveryDelayMaxInterval),
		RedeliveryDelayMultiplier:      Int64Value(m.RedeliveryDelayMultiplier),
		IngressEnabled:                 BoolValue(m.IngressEnabled),
		EgressEnabled:                  BoolValue(m.EgressEnabled),
		RespectDMQEligible:             BoolValue(m.RespectDMQEligibleEnabled),
		MaxMsgSpoolUsage:               Int64Value(m.MaxMsgSpoolUsage),
		DeadMessageQueueExists:         rules.Unknown[bool](),
	}
}

// aemQueueList is the run's list of the broker's queues (one paged GET per provider configuration and run)
// and what the run knows beyond it: the dead message queues its aem dead message queue resources plan,
// and the queues its own writes created, changed or deleted since the list.
type aemQueueList struct {
	Mu     sync.Mutex
	loaded bool
	queues map[string]*aem.Queue
	// planned holds the names a sapmessaging_aem_dead_message_queue resource of this run plans, with the
	// ingress it plans.
	planned map[string]rules.Value[bool]
	// links holds the dead message queue each sapmessaging_aem_queue resource of this run plans for its queue.
	links map[string]string
	// deleted holds the queues this run's plans delete: destroyed, or renamed away (AEMPlanQueueDeletion).
	deleted map[string]bool
	unnamed int // links of queues whose name is unknown at plan
}

// AEMPlanLink records that a sapmessaging_aem_queue resource of this run plans dmq as the dead message queue of
// queue name. It refuses a link to a queue that a plan of this run deletes (AEMPlanQueueDeletion).
func (d *ProviderData) AEMPlanLink(name, dmq string, diags *diag.Diagnostics) {
	l := &d.AEMQueueList
	l.Mu.Lock()
	defer l.Mu.Unlock()
	if l.links == nil {
		l.links = map[string]string{}
	}
	if name == "" {
		// A name unknown at plan: recorded under a key no queue name takes ('<' is refused), so that a delete
		// planned later finds the link; the cycle checks follow queue names and never reach it.
		l.unnamed++
		name = fmt.Sprintf("<name known only at apply #%d>", l.unnamed)
	}
	l.links[name] = dmq
	if l.deleted[dmq] {
		AppendFindings(diags, rules.CheckDestroyedDeadMessageQueue(name, dmq, true))
	}
}

// AEMPlanQueueDeletion records at plan that this run deletes queue (a destroy, or a new name of its
// resource), and refuses the delete when a queue planned earlier in this run names it as its dead
// message queue (rules.CheckDestroyedDeadMessageQueue); a queue planned later is refused by AEMPlanLink.
// The plan fails in whichever order Terraform plans the two, which nothing orders when the queue names the
// dead message queue by its text: the delete's own check at apply may run before the other queue's write.
func (d *ProviderData) AEMPlanQueueDeletion(queue string, diags *diag.Diagnostics) {
	if d == nil || queue == "" {
		return
	}
	l := &d.AEMQueueList
	l.Mu.Lock()
	defer l.Mu.Unlock()
	if l.deleted == nil {
		l.deleted = map[string]bool{}
	}
	l.deleted[queue] = true
	if created := d.createdInRun(ServiceAEM, AEMQueueClaimKey(queue)); created != "" {
		addDestroyedAndCreated(diags, queue, created)
	}
	refuseNamedDeletion(queue, l.links, l.deleted, diags) // queue_links.go
}

// AEMPlanReadError reports a read at plan that failed: refused credentials name the user, anything else
// says what could not be read. The plan fails either way.
func (d *ProviderData) AEMPlanReadError(diags *diag.Diagnostics, doing string, err error) {
	if d.AEMCredential.AddRefused(diags, path.Empty(), err) {
		return
	}
	diags.AddError("Cannot Read Advanced Event Mesh Queues", fmt.Sprintf("The SEMP API failed listing the queues of the broker while %s: %s. "+
		"The plan cannot tell whether the queues it depends on exist, so it stops here. Check the provider's `advanced_event_mesh` "+
		"connection and the broker service's status, then run terraform plan again; TF_LOG=debug shows each request.", doing, Clause(err)))
}

// AEMPlanDeadMessageQueue sets, for the rules, whether q's dead message queue exists on the broker (from the
// run's queue list) or is created by a dead message queue resource of this run, whether it takes
// messages (the ingress a dead message queue resource of this run plans, else the broker's), and whether its
// own dead message queues lead back to q (aemPlanCycle: a cycle, in which a poison message comes back). It returns
// false after adding an error (the list could not be read).
func (d *ProviderData) AEMPlanDeadMessageQueue(ctx context.Context, q *rules.AEMQueue, diags *diag.Diagnostics) bool {
	dmq, known := q.DeadMessageQueue.V, q.DeadMessageQueue.Known && !q.DeadMessageQueue.Null
	if q.DeadMessageQueue.Null {
		dmq, known = AEMDefaultDMQ, true
	}
	if !known || dmq == "" {
		return true
	}
	qs, err := d.AEMQueues(ctx)
	if err != nil {
		d.AEMPlanReadError(diags, fmt.Sprintf("checking that the dead message queue %q exists", dmq), err)
		return false
	}
	d.AEMQueueList.Mu.Lock()
	held, exists := qs[dmq]
	var own *aem.Queue
	if q.Name.Known && !q.Name.Null {
		own = qs[q.Name.V]
	}
	d.AEMQueueList.Mu.Unlock()
	if !exists {
		held = nil
	}
	// What the broker holds, read as the data sources and the audit read it (maxMsgSize is left to the
	// broker: a queue keeps the one it holds, one this run creates gets the broker's default).
	rules.AEMHeldDeadMessageQueue(q, AEMHeld(own), AEMHeld(held))
	if in, planned := d.aemDMQPlanned(dmq); planned {
		q.DeadMessageQueueCreatedHere, q.DeadMessageQueueIngress = true, in
		if !exists {
			q.DeadMessageQueueMaxMsgSize = rules.Known[int64](rules.AEMDefaultMaxMsgSize)
		}
	}
	if !q.Name.Known || q.Name.Null {
		q.MaxMsgSize = rules.Unknown[int64]()
	}
	if q.Name.Known && !q.Name.Null && q.Name.V != "" {
		d.AEMQueueList.Mu.Lock()
		q.DeadMessageQueueCycle = d.AEMQueueList.aemPlanCycle(q.Name.V, dmq, qs)
		d.AEMQueueList.Mu.Unlock()
	}
	return true
}

// AEMQueueExistsOrPlanned reports whether queue name is planned in this run (claimed under aemQueueClaimKey)
// or is on the broker, from the run's queue list (aemQueues); a failed list is tried again by the next caller.
func (d *ProviderData) AEMQueueExistsOrPlanned(ctx context.Context, name string) (bool, error) {
	if d.AEMBroker != "" {
		d.Owners.mu.Lock()
		_, planned := d.Owners.Planned[d.AEMBroker+"\x00"+AEMQueueClaimKey(name)]
		d.Owners.mu.Unlock()
		if planned {
			return true, nil
		}
	}
	qs, err := d.AEMQueues(ctx) // aem_queue_shared.go: the run's one queue list, shared with the queue resources
	if err != nil {
		return false, err
	}
	return qs[name] != nil, nil
}

// AEMDefaultDMQ is the broker's dead message queue of every queue that names none ([SPEC] deadMsgQueue).
const AEMDefaultDMQ = rules.AEMDefaultDeadMsgQueue

// aemPlanCycle returns the path queue → dmq → … → queue when the dead message queue dmq, following each
// queue's own dead message queue, leads back to queue, or nil: from the run's queue list qs, the dead message
// queues the sapmessaging_aem_dead_message_queue resources of this run plan (which leave their own to the
// broker's default) and the dead message queues the sapmessaging_aem_queue resources of this run plan. A link
// counts when its queue takes messages (a queue with ingress off deletes them) or is queue itself. Call it with
// the list's lock held.
//
// The links of a queue are worked out when the search reaches it, not for every queue of the broker and of the
// run before each search: the plan checks every queue, and a link set of all queues per queue made the check
// of 1,000 queues cost a million links (about a tenth of the provider's CPU in the plan of the AEM benchmark).
func (l *aemQueueList) aemPlanCycle(queue, dmq string, qs map[string]*aem.Queue) []string {
	takes := l.cycleLinkTakes(queue, qs)
	if !takes(dmq) {
		return nil
	}
	// links is rules.LinkSet.Links of the set of every queue's links: the broker's link (Current) of a queue
	// that the list holds, and the planned one (Planned): the link a queue resource of this run plans, else the
	// broker's default that a dead message queue resource of this run writes.
	links := func(name string) []string {
		var current string
		held := qs[name]
		if held != nil {
			if to := AEMLinkOf(held); to != "" && to != name && takes(to) {
				current = to
			}
		}
		planned, isPlanned := "", false
		if to, ok := l.links[name]; ok && to != "" && to != name && takes(to) {
			planned, isPlanned = to, true
		} else if _, ok := l.planned[name]; ok && (held == nil || AEMLinkOf(held) != "") && takes(AEMDefaultDMQ) {
			planned, isPlanned = AEMDefaultDMQ, true
		}
		var out []string
		if current != "" {
			out = append(out, current)
		}
		if isPlanned && planned != "" && (len(out) == 0 || out[0] != planned) {
			out = append(out, planned)
		}
		return out
	}
	return rules.AEMDeadMessageQueueCycleOf(queue, dmq, links)
}

// cycleLinkTakes reports whether a queue named in a dead message queue chain of queue counts as a link (see
// aemPlanCycle): queue itself, a queue this run plans with ingress on, unset or not yet known, or a queue of qs that
// takes messages.
func (l *aemQueueList) cycleLinkTakes(queue string, qs map[string]*aem.Queue) func(name string) bool {
	return func(name string) bool {
		if name == queue {
			return true
		}
		if in, ok := l.planned[name]; ok {
			return !in.Known || in.Null || in.V
		}
		q := qs[name]
		return q != nil && AEMTakes(q)
	}
}

// AEMQueueClaimKey is the owners key (owners.go, service serviceAEM) under which the AEM queue resources
// claim a queue name (sapmessaging_aem_queue and sapmessaging_aem_dead_message_queue share the names): a
// queue claimed so is planned in this run, and aemQueueExistsOrPlanned counts it.
func AEMQueueClaimKey(name string) string { return "aem-queue|" + name }

// AEMLinkOf is the dead message queue the broker moves what q removes to: the one it names, or the broker's
// default.
func AEMLinkOf(q *aem.Queue) string {
	if q.DeadMsgQueue == nil {
		return AEMDefaultDMQ
	}
	return *q.DeadMsgQueue
}

// AEMTakes reports whether q takes messages ([SPEC] ingressEnabled, default false).
func AEMTakes(q *aem.Queue) bool { return q.IngressEnabled != nil && *q.IngressEnabled }

// AEMQueues returns the run's queue list, read at its first use.
func (d *ProviderData) AEMQueues(ctx context.Context) (map[string]*aem.Queue, error) {
	l := &d.AEMQueueList
	l.Mu.Lock()
	defer l.Mu.Unlock()
	if l.loaded {
		return l.queues, nil
	}
	qs, err := d.AEM.ListQueues(ctx)
	if err != nil {
		return nil, err
	}
	l.queues = make(map[string]*aem.Queue, len(qs))
	for i := range qs {
		l.queues[qs[i].Name] = &qs[i]
	}
	l.loaded = true
	return l.queues, nil
}

// AEMCachedQueue returns the queue from the run's list when the list is loaded and holds it.
func (d *ProviderData) AEMCachedQueue(name string) *aem.Queue {
	l := &d.AEMQueueList
	l.Mu.Lock()
	defer l.Mu.Unlock()
	if !l.loaded {
		return nil
	}
	return l.queues[name]
}

// AEMRecordQueue records q (nil: deleted) as the run's latest knowledge of queue name.
func (d *ProviderData) AEMRecordQueue(name string, q *aem.Queue) {
	l := &d.AEMQueueList
	l.Mu.Lock()
	defer l.Mu.Unlock()
	if !l.loaded {
		return
	}
	if q == nil {
		delete(l.queues, name)
		return
	}
	l.queues[name] = q
}

// AEMPlanDMQ records that an AEM queue or dead message queue resource of this run plans queue name, with ingress.
func (d *ProviderData) AEMPlanDMQ(name string, ingress rules.Value[bool]) {
	l := &d.AEMQueueList
	l.Mu.Lock()
	defer l.Mu.Unlock()
	if l.planned == nil {
		l.planned = map[string]rules.Value[bool]{}
	}
	l.planned[name] = ingress
}

// aemDMQPlanned reports whether an AEM queue or dead message queue resource of this run plans queue name, and the
// ingress it plans.
func (d *ProviderData) aemDMQPlanned(name string) (rules.Value[bool], bool) {
	l := &d.AEMQueueList
	l.Mu.Lock()
	defer l.Mu.Unlock()
	in, ok := l.planned[name]
	return in, ok
}

// AEMQueueUsers returns the queues of the run's list that name name as their dead message queue.
func (d *ProviderData) AEMQueueUsers(ctx context.Context, name string) ([]string, error) {
	qs, err := d.AEMQueues(ctx)
	if err != nil {
		return nil, err
	}
	d.AEMQueueList.Mu.Lock()
	defer d.AEMQueueList.Mu.Unlock()
	var users []string
	for n, q := range qs {
		if n != name && q.DeadMsgQueue != nil && *q.DeadMsgQueue == name {
			users = append(users, n)
		}
	}
	return users, nil
}

// AEMHeld is what the rules read of a queue the broker holds (nil for nil).
func AEMHeld(q *aem.Queue) *rules.AEMHeldQueue {
	if q == nil {
		return nil
	}
	return &rules.AEMHeldQueue{IngressEnabled: q.IngressEnabled, MaxMsgSize: q.MaxMsgSize, MaxMsgSpoolUsage: q.MaxMsgSpoolUsage}
}

// AEMRefuseDeletedCreate refuses, at the plan of a create of the AEM queue name, a queue that a plan of this
// run deletes with another resource (AEMPlanQueueDeletion): nothing orders the two.
func (d *ProviderData) AEMRefuseDeletedCreate(name, typeName string, diags *diag.Diagnostics) {
	if d == nil {
		return
	}
	l := &d.AEMQueueList
	l.Mu.Lock()
	deleted := l.deleted[name]
	l.Mu.Unlock()
	if deleted {
		addDestroyedAndCreated(diags, name, typeName)
	}
}

package aem

import (
	"context"
	"errors"
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The sapmessaging_aem_queue data source: one Advanced Event Mesh queue with its settings (the attribute
// names of the sapmessaging_aem_queue resource), its live counters from the SEMP monitor API, the findings of
// the AEM queue rules and what the broker does with a poison message. It costs one paged list of the
// queues' configuration (the queue itself, whether its dead message queue exists, whether another queue names
// it as its dead message queue) and one read of the queue's counters.

// NewAEMQueueDataSource returns the sapmessaging_aem_queue data source: the shared skeleton
// (framework.QueueDataSource) given the SEMP client's queue list, counters and message and flow lists.
func NewAEMQueueDataSource() datasource.DataSource {
	return &framework.QueueDataSource[AEMQueueInfoModel]{
		TypeSuffix: "_aem_queue",
		Description: "One SAP Integration Suite, advanced event mesh (AEM) queue with its settings, its live counters, the " +
			"findings of the provider's AEM queue rules and what the broker does with a poison message, read when Terraform plans. " +
			"Use it in a `check` block to warn when a dead message queue holds messages or a queue retries forever. " +
			"It costs one paged list of the queues' configuration, one read of the queue's counters and one paged list each of its " +
			"messages and consumer flows (SEMP monitor API).",
		InfoAttributes:  aemQueueInfoAttributes,
		NameDescription: "The queue name.",
		NameValidator:   AEMQueueNameValidator{},
		Need:            framework.NeedAEM,
		Find:            findAEMQueue,
		NotFound: func(d *framework.ProviderData, name string, diags *diag.Diagnostics) {
			diags.AddAttributeError(path.Root("name"), "AEM Queue Not Found",
				fmt.Sprintf("The broker has no queue %q in Message VPN %q. Check the name as the cloud console shows it, or create the queue first.", name, d.AEM.MsgVpnName()))
		},
	}
}

type AEMQueueInfoModel struct {
	Name types.String `tfsdk:"name"`
	// The settings as the broker holds them: null where it leaves one out.
	framework.AEMQueueSettingsModel

	MessageCount    types.Int64 `tfsdk:"message_count"`
	SpooledMsgCount types.Int64 `tfsdk:"spooled_msg_count"`
	MsgSpoolUsage   types.Int64 `tfsdk:"msg_spool_usage"`
	BindCount       types.Int64 `tfsdk:"bind_count"`

	IsDeadMessageQueue      types.Bool   `tfsdk:"is_dead_message_queue"`
	DeadMessageQueueExists  types.Bool   `tfsdk:"dead_message_queue_exists"`
	PoisonMessageDeliveries types.Int64  `tfsdk:"poison_message_deliveries"`
	TimeToDeadLetter        types.String `tfsdk:"time_to_dead_letter"`
	RetryPlan               types.String `tfsdk:"retry_plan"`
	Findings                types.List   `tfsdk:"findings"`
}

// aemFindingType is the object type of one finding.
var aemFindingType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"rule": types.StringType, "severity": types.StringType, "attribute": types.StringType, "summary": types.StringType, "detail": types.StringType,
}}

// aemQueueView is what the broker holds of a queue, its counters (nil when the monitor list does not hold
// it), and what the rest of the queue list says about it.
type aemQueueView struct {
	queue *aem.Queue
	stats *aem.QueueStats
	// counts are the messages the queue holds and its bound consumer flows (nil when they could not be
	// counted because the queue went away between the list and the count).
	counts *aemQueueCounts
	// usedAsDMQ: another queue names it as dead message queue; dmqExists: its dead message queue exists.
	usedAsDMQ, dmqExists bool
	// dmq is the queue's dead message queue as the broker holds it; nil when it does not.
	dmq *aem.Queue
	// cycle is the path queue → dead message queue → … → queue when its dead message queues lead back to it.
	cycle []string
}

// aemQueueLinks answers, for a queue list, which names are queues (and what the broker holds of each) and which
// are another queue's dead message queue (a queue that names itself is not: aem.dmq_self is reported on it; #DEAD_MSG_QUEUE, which names itself by default, is).
func aemQueueLinks(all []aem.Queue) (names map[string]*aem.Queue, used map[string]bool) {
	names, used = make(map[string]*aem.Queue, len(all)), map[string]bool{}
	for i := range all {
		names[all[i].Name] = &all[i]
		if d := aemDataSourceDMQName(all[i]); d != all[i].Name || all[i].DeadMsgQueue == nil {
			used[d] = true
		}
	}
	return names, used
}

// aemDataSourceDMQName is the dead message queue the broker moves q's removed messages to: the one it names, or
// the broker's default.
func aemDataSourceDMQName(q aem.Queue) string {
	if q.DeadMsgQueue == nil {
		return rules.AEMDefaultDeadMsgQueue
	}
	return *q.DeadMsgQueue
}

func aemView(q *aem.Queue, stats *aem.QueueStats, counts *aemQueueCounts, names map[string]*aem.Queue, used map[string]bool, cycles map[string][]string) aemQueueView {
	dmq := names[aemDataSourceDMQName(*q)]
	return aemQueueView{queue: q, stats: stats, counts: counts, usedAsDMQ: used[q.Name], dmqExists: dmq != nil, dmq: dmq, cycle: cycles[q.Name]}
}

// aemQueueCycles returns, for each queue of the list whose dead message queues lead back to it, that cycle.
func aemQueueCycles(all []aem.Queue) map[string][]string {
	byName := make(map[string]*aem.Queue, len(all))
	for i := range all {
		byName[all[i].Name] = &all[i]
	}
	lookup := func(name string) (*aem.Queue, bool) { return byName[name], true }
	cycles := map[string][]string{}
	for i := range all {
		if c := aemBrokerDMQCycle(&all[i], lookup); c != nil {
			cycles[all[i].Name] = c
		}
	}
	return cycles
}

// aemQueueCounts are what the monitor API's collections of a queue count: its messages (msgs) and its bound
// consumer flows (txFlows). SEMP's monitor MsgVpnQueue has no counter of either: spooledMsgCount is a running
// total of the messages ever spooled, and there is no bindCount.
type aemQueueCounts struct {
	messages, flows int64
}

// countAEMQueue counts queue name's messages and consumer flows; a queue deleted meanwhile gives nil.
func countAEMQueue(ctx context.Context, c *aem.Client, name string) (*aemQueueCounts, error) {
	msgs, err := c.CountMessages(ctx, name)
	if errors.Is(err, aem.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	flows, err := c.CountTxFlows(ctx, name)
	if errors.Is(err, aem.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &aemQueueCounts{messages: msgs, flows: flows}, nil
}

func knownOrNull[T comparable](p *T) rules.Value[T] {
	if p == nil {
		return rules.Value[T]{Null: true}
	}
	return rules.Known(*p)
}

// aemQueueInfo converts one queue.
func aemQueueInfo(v aemQueueView) (AEMQueueInfoModel, error) {
	q := v.queue
	m := AEMQueueInfoModel{
		Name: types.StringValue(q.Name),
		AEMQueueSettingsModel: framework.AEMQueueSettingsModel{
			MaxRedeliveryCount:                 types.Int64PointerValue(q.MaxRedeliveryCount),
			DeadMessageQueue:                   types.StringPointerValue(q.DeadMsgQueue),
			RespectTTL:                         types.BoolPointerValue(q.RespectTTLEnabled),
			MaxTTL:                             types.Int64PointerValue(q.MaxTTL),
			RedeliveryEnabled:                  types.BoolPointerValue(q.RedeliveryEnabled),
			RedeliveryDelayEnabled:             types.BoolPointerValue(q.RedeliveryDelayEnabled),
			RedeliveryDelayInitialInterval:     types.Int64PointerValue(q.RedeliveryDelayInitialInterval),
			RedeliveryDelayMaxInterval:         types.Int64PointerValue(q.RedeliveryDelayMaxInterval),
			RedeliveryDelayMultiplier:          types.Int64PointerValue(q.RedeliveryDelayMultiplier),
			AccessType:                         types.StringPointerValue(q.AccessType),
			IngressEnabled:                     types.BoolPointerValue(q.IngressEnabled),
			EgressEnabled:                      types.BoolPointerValue(q.EgressEnabled),
			RespectDMQEligibleEnabled:          types.BoolPointerValue(q.RespectDmqEligibleEnabled),
			RejectMsgToSenderOnDiscardBehavior: types.StringPointerValue(q.RejectMsgToSenderOnDiscardBehavior),
			DeliveryCountEnabled:               types.BoolPointerValue(q.DeliveryCountEnabled),
			MaxMsgSpoolUsage:                   types.Int64PointerValue(q.MaxMsgSpoolUsage),
		},
		MessageCount:            types.Int64Null(),
		SpooledMsgCount:         types.Int64Null(),
		MsgSpoolUsage:           types.Int64Null(),
		BindCount:               types.Int64Null(),
		IsDeadMessageQueue:      types.BoolValue(v.usedAsDMQ),
		DeadMessageQueueExists:  types.BoolValue(v.dmqExists),
		PoisonMessageDeliveries: types.Int64Null(),
		TimeToDeadLetter:        types.StringNull(),
	}
	if v.stats != nil {
		m.SpooledMsgCount, m.MsgSpoolUsage = types.Int64Value(v.stats.SpooledMsgCount), types.Int64Value(v.stats.MsgSpoolUsage)
	}
	if v.counts != nil {
		m.MessageCount, m.BindCount = types.Int64Value(v.counts.messages), types.Int64Value(v.counts.flows)
	}
	rq := rules.AEMQueue{
		Name:                           rules.Known(q.Name),
		DeadMessageQueue:               knownOrNull(q.DeadMsgQueue),
		MaxRedeliveryCount:             knownOrNull(q.MaxRedeliveryCount),
		MaxTTL:                         knownOrNull(q.MaxTTL),
		RedeliveryEnabled:              knownOrNull(q.RedeliveryEnabled),
		RedeliveryDelayEnabled:         knownOrNull(q.RedeliveryDelayEnabled),
		RespectTTL:                     knownOrNull(q.RespectTTLEnabled),
		RedeliveryDelayInitialInterval: knownOrNull(q.RedeliveryDelayInitialInterval),
		RedeliveryDelayMaxInterval:     knownOrNull(q.RedeliveryDelayMaxInterval),
		RedeliveryDelayMultiplier:      knownOrNull(q.RedeliveryDelayMultiplier),
		IngressEnabled:                 knownOrNull(q.IngressEnabled),
		EgressEnabled:                  knownOrNull(q.EgressEnabled),
		RespectDMQEligible:             knownOrNull(q.RespectDmqEligibleEnabled),
		IsDeadMessageQueue:             v.usedAsDMQ,
	}
	rules.AEMHeldDeadMessageQueue(&rq, framework.AEMHeld(q), framework.AEMHeld(v.dmq))
	rq.DeadMessageQueueCycle = v.cycle
	if deliveries, wait, ok := rules.AEMOutcome(rq); ok {
		m.PoisonMessageDeliveries = types.Int64Value(deliveries)
		m.TimeToDeadLetter = types.StringValue(rules.FormatAEMDuration(wait))
	}
	m.RetryPlan = types.StringValue(rules.AEMRetryPlan(rq))
	findings := rules.CheckAEMQueue(rq)
	elems := make([]attr.Value, 0, len(findings))
	for _, f := range findings {
		o, d := types.ObjectValue(aemFindingType.AttrTypes, map[string]attr.Value{
			"rule": types.StringValue(f.Rule), "severity": types.StringValue(f.Severity.String()),
			"attribute": types.StringValue(f.Attribute), "summary": types.StringValue(f.Summary), "detail": types.StringValue(f.Detail),
		})
		if d.HasError() {
			return m, fmt.Errorf("finding %s: %v", f.Rule, d)
		}
		elems = append(elems, o)
	}
	list, d := types.ListValue(aemFindingType, elems)
	if d.HasError() {
		return m, fmt.Errorf("findings: %v", d)
	}
	m.Findings = list
	return m, nil
}

// aemQueueInfoAttributes are the computed attributes of one queue, shared by both AEM queue data sources.
func aemQueueInfoAttributes() map[string]schema.Attribute {
	s := func(d string) schema.Attribute { return schema.StringAttribute{MarkdownDescription: d, Computed: true} }
	b := func(d string) schema.Attribute { return schema.BoolAttribute{MarkdownDescription: d, Computed: true} }
	i := func(d string) schema.Attribute { return schema.Int64Attribute{MarkdownDescription: d, Computed: true} }
	return map[string]schema.Attribute{
		"name":                              s("The queue name."),
		"max_redelivery_count":              i("How many times the broker redelivers a message before it removes it (`maxRedeliveryCount`); 0 means retry forever."),
		"dead_message_queue":                s("The queue removed messages go to (`deadMsgQueue`); the broker's default is `#DEAD_MSG_QUEUE`."),
		"respect_ttl":                       b("Whether the queue discards or dead-letters expired messages (`respectTtlEnabled`)."),
		"max_ttl":                           i("The time to live of a message on the queue in seconds (`maxTtl`), effective only with `respect_ttl`; 0 is none."),
		"redelivery_enabled":                b("Whether a failed message is redelivered at all (`redeliveryEnabled`)."),
		"redelivery_delay_enabled":          b("Whether the broker waits before a redelivery (`redeliveryDelayEnabled`); without it a poison message comes back at once."),
		"redelivery_delay_initial_interval": i("The wait before the first redelivery in milliseconds (`redeliveryDelayInitialInterval`)."),
		"redelivery_delay_max_interval":     i("The longest wait between redeliveries in milliseconds (`redeliveryDelayMaxInterval`)."),
		"redelivery_delay_multiplier":       i("The factor the wait grows by per redelivery, in hundredths (`redeliveryDelayMultiplier`: 200 = × 2.00)."),
		"access_type":                       s("`exclusive` or `non-exclusive` (`accessType`)."),
		"ingress_enabled":                   b("Whether the queue accepts messages (`ingressEnabled`)."),
		"egress_enabled":                    b("Whether the queue delivers messages (`egressEnabled`)."),
		"respect_dmq_eligible_enabled":      b("Whether only messages their publisher flagged DMQ-eligible go to the dead message queue (`respectDmqEligibleEnabled`)."),
		"reject_msg_to_sender_on_discard_behavior": s("When a publisher learns that the queue discarded its message: `never`, `when-queue-enabled` or `always` " +
			"(`rejectMsgToSenderOnDiscardBehavior`)."),
		"delivery_count_enabled": b("Whether consumers can read a message's delivery count (`deliveryCountEnabled`)."),
		"max_msg_spool_usage":    i("The most message spool the queue may use, in megabytes (`maxMsgSpoolUsage`)."),
		"message_count": i("How many messages the queue holds now: the messages of its `msgs` collection in the SEMP monitor API, counted " +
			"in pages of 100. Use it for a queue's backlog, for example to warn when a dead message queue holds messages."),
		"spooled_msg_count": i("How many messages were spooled on the queue since its statistics were last cleared (monitor API " +
			"`spooledMsgCount`, \"the number of guaranteed messages that were spooled\"): a running total that consuming a message does not " +
			"lower, not the queue's backlog (`message_count`)."),
		"msg_spool_usage":           i("The message spool the queue uses now, in bytes (monitor API `msgSpoolUsage`); 0 when it holds no message."),
		"bind_count":                i("How many consumer flows are bound to the queue now: the queue's `txFlows` collection in the SEMP monitor API."),
		"is_dead_message_queue":     b("True when another queue names this queue as its dead message queue (or this is `#DEAD_MSG_QUEUE`, which queues name by default)."),
		"dead_message_queue_exists": b("Whether the queue's dead message queue exists on the broker; when it does not, removed messages are deleted."),
		"poison_message_deliveries": i("How many times the broker delivers a message that every consumer fails before it removes it " +
			"(`max_redelivery_count` + 1, or 1 with redelivery disabled); null when it redelivers forever, or when its dead message queues lead back to it in a cycle, " +
			"or it names itself as its dead message queue (the message comes back)."),
		"time_to_dead_letter": s("The broker's redelivery delays of a poison message until it is removed, as a duration such as `31 s` " +
			"(the consumer's own processing comes on top); null when it redelivers forever or its dead message queues form a cycle " +
			"(the queue naming itself included). A removed message is not always kept: when the dead message queue does not exist, " +
			"takes no messages or takes smaller messages than this queue, `retry_plan` says which are deleted and `findings` holds the rule " +
			"(`aem.dmq_missing`, `aem.dmq_takes_nothing`, `aem.dmq_max_msg_size_smaller`)."),
		"retry_plan": s("In words: what the broker does with a poison message on this queue."),
		"findings": schema.ListNestedAttribute{
			MarkdownDescription: "What the provider's AEM queue rules find in these settings, as the `sapmessaging_aem_queue` resource would " +
				"report it: `rule` (the rule ID, for example `aem.redelivery_unlimited`), `severity` (`error` or `warning`), `attribute`, " +
				"`summary` and `detail`.",
			Computed: true,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"rule": s("The rule ID."), "severity": s("`error` or `warning`."), "attribute": s("The attribute the finding is about."),
				"summary": s("The finding in a few words."), "detail": s("What the setting does and what to set instead."),
			}},
		},
	}
}

// findAEMQueue reads queue name: its configuration from the queue list (which also gives the queues that name
// it), its counters, and its messages and consumer flows counted.
func findAEMQueue(ctx context.Context, d *framework.ProviderData, name string, diags *diag.Diagnostics) (AEMQueueInfoModel, bool, bool) {
	all, err := d.AEM.ListQueues(ctx)
	if err != nil {
		diags.AddError("Cannot Read AEM Queue", aemListErrorDetail(fmt.Sprintf("reading the queue %q and the queues that name it as dead message queue", name), err))
		return AEMQueueInfoModel{}, false, false
	}
	names, used := aemQueueLinks(all)
	for i := range all {
		if all[i].Name != name {
			continue
		}
		stats, err := d.AEM.GetQueueStats(ctx, name)
		if errors.Is(err, aem.ErrNotFound) {
			break // deleted since the list
		}
		if err != nil {
			diags.AddError("Cannot Read AEM Queue", aemListErrorDetail(fmt.Sprintf("reading the counters of queue %q", name), err))
			return AEMQueueInfoModel{}, false, false
		}
		counts, err := countAEMQueue(ctx, d.AEM, name)
		if err != nil {
			diags.AddError("Cannot Read AEM Queue", aemListErrorDetail(fmt.Sprintf("counting the messages and consumers of queue %q", name), err))
			return AEMQueueInfoModel{}, false, false
		}
		if counts == nil {
			break // deleted since the list
		}
		info, err := aemQueueInfo(aemView(&all[i], stats, counts, names, used, aemQueueCycles(all)))
		if err != nil {
			diags.AddError("Cannot Read AEM Queue", fmt.Sprintf("The findings of queue %q could not be written: %s. Report this as a bug of the provider.", name, framework.Clause(err)))
			return AEMQueueInfoModel{}, false, false
		}
		return info, true, true
	}
	return AEMQueueInfoModel{}, false, true
}

// aemListErrorDetail explains a failed read of a data source.
func aemListErrorDetail(what string, err error) string {
	return fmt.Sprintf("The Advanced Event Mesh SEMP API failed %s: %s. "+
		"Check the `advanced_event_mesh` connection and the broker's status, then run the command again; TF_LOG=debug shows each request.", what, framework.Clause(err))
}

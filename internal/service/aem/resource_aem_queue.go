package aem

import (
	"context"
	"reflect"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// NewAEMQueueResource returns the sapmessaging_aem_queue resource: an Advanced Event Mesh queue
// (aem_queue_shared.go) with its own schema, checks and plan.
func NewAEMQueueResource() resource.Resource {
	return &aemQueueResourceBase[AEMQueueModel, *AEMQueueModel]{typeName: "sapmessaging_aem_queue", schema: aemQueueSchema}
}

type AEMQueueModel struct {
	aemQueueResourceModel
	AllowUnlimitedRedelivery     types.Bool   `tfsdk:"allow_unlimited_redelivery"`
	AllowMissingDeadMessageQueue types.Bool   `tfsdk:"allow_missing_dead_message_queue"`
	AllowIneffectiveTTL          types.Bool   `tfsdk:"allow_ineffective_ttl"`
	PoisonMessageDeliveries      types.Int64  `tfsdk:"poison_message_deliveries"`
	TimeToDeadLetter             types.String `tfsdk:"time_to_dead_letter"`
}

// fromBroker copies what the broker holds. After an import (the attributes still null),
// allow_unlimited_redelivery records whether the queue retries for ever (redelivery on, max_redelivery_count 0) and allow_missing_dead_message_queue
// whether its dead message queue keeps nothing (named "", missing, or with ingress off) or leads back to it
// (a cycle; both from lookup), so that a configuration adopting it as it is (as terraform query writes it)
// plans no change. Without lookup (an apply, which writes what the plan checked) a cycle is the plan's: the
// plan computed no deliveries for a queue that removes its poison messages.
func (m *AEMQueueModel) FromBroker(q *aem.Queue, vpn string, lookup aemQueueLookup) {
	plannedCycle := lookup == nil && !m.PoisonMessageDeliveries.IsUnknown() && m.PoisonMessageDeliveries.IsNull()
	m.fromAPI(q, vpn)
	if m.AllowUnlimitedRedelivery.IsNull() || m.AllowUnlimitedRedelivery.IsUnknown() {
		// Only a queue that redelivers can retry for ever: with redelivery off, 0 adopts nothing.
		m.AllowUnlimitedRedelivery = types.BoolValue(m.MaxRedeliveryCount.ValueInt64() == 0 && (m.RedeliveryEnabled.IsNull() || m.RedeliveryEnabled.ValueBool()))
	}
	if m.AllowMissingDeadMessageQueue.IsNull() || m.AllowMissingDeadMessageQueue.IsUnknown() {
		m.AllowMissingDeadMessageQueue = types.BoolValue(aemBrokerDMQAdopted(q, lookup))
	}
	if m.AllowIneffectiveTTL.IsNull() || m.AllowIneffectiveTTL.IsUnknown() {
		// A max_ttl the broker ignores: respect_ttl is off ([SPEC] maxTtl, "when respectTtlEnabled is true").
		m.AllowIneffectiveTTL = types.BoolValue(m.MaxTTL.ValueInt64() > 0 && !m.RespectTTL.ValueBool())
	}
	m.PoisonMessageDeliveries, m.TimeToDeadLetter = aemOutcome(&m.AEMQueueSettingsModel, plannedCycle || aemBrokerDMQCycle(q, lookup) != nil || framework.AEMLinkOf(q) == q.Name)
}

// leaveToRefresh clears, after a move from solacebroker, what only the broker's queue list can decide:
// allow_missing_dead_message_queue (whether the dead message queue exists, takes messages, or leads back to the
// queue). The move reads no broker; the refresh that follows it does, and sets the attribute while it is null as
// an import does, so the moved queue plans as the configuration that import and terraform query write.
func (m *AEMQueueModel) leaveToRefresh() {
	m.AllowMissingDeadMessageQueue = types.BoolNull()
}

// outcomeAtApply: the plan leaves poison_message_deliveries and time_to_dead_letter unknown when it adopts a
// dead message queue that may form a cycle and the apply writes the queue (ModifyPlan).
func (m *AEMQueueModel) outcomeAtApply() bool {
	return m.PoisonMessageDeliveries.IsUnknown() || m.TimeToDeadLetter.IsUnknown()
}

// writable returns the settings the configuration sets (with the provider's defaults) that differ from the
// state: the PATCH carries the attributes the configuration owns, and among them only those that change
// (some, such as the redelivery delay, briefly disable the queue when written).
func (m *AEMQueueModel) writable(cfg, state *AEMQueueModel) aem.QueueSettings {
	c := withDefaults(cfg.AEMQueueSettingsModel, false)
	s := c.ToAPI()
	if state != nil {
		s = ChangedSettings(s, state.ToAPI())
	}
	return s
}

// ChangedSettings returns want without the fields that have holds already.
func ChangedSettings(want, have aem.QueueSettings) aem.QueueSettings {
	w, h := reflect.ValueOf(&want).Elem(), reflect.ValueOf(have)
	for i := range w.NumField() {
		f := w.Field(i)
		if f.IsNil() || h.Field(i).IsNil() {
			continue
		}
		if reflect.DeepEqual(f.Elem().Interface(), h.Field(i).Elem().Interface()) {
			f.SetZero()
		}
	}
	return want
}

func aemQueueSchema(ctx context.Context) schema.Schema {
	attrs := aemQueueAttributes(ctx, false)
	attrs["allow_unlimited_redelivery"] = framework.FalseByDefault("Accept a `max_redelivery_count` of 0 or none, which the broker reads as *retry forever*: the plan then warns " +
		"instead of refusing. Only for adopting a queue that already works this way as it is: an import sets it to `true` for a queue at 0, " +
		"and `terraform query -generate-config-out` writes it. Set `max_redelivery_count` and remove this attribute as soon as you can. " +
		"Defaults to `false`; changing it writes nothing to the broker.")
	attrs["allow_missing_dead_message_queue"] = framework.FalseByDefault("Accept a `dead_message_queue` that does not keep what the broker removes: one that does not exist (the " +
		"broker's `#DEAD_MSG_QUEUE` included), one whose `ingress_enabled` is false, or `\"\"`, where the broker deletes every message " +
		"it removes from this queue; or one whose own dead message queue leads back to this queue (a cycle, checked through the " +
		"dead message queues the broker holds and this run plans), where a poison message comes back and is delivered again, for " +
		"ever, or the queue itself (a cycle of one queue, which the broker takes). The plan warns, saying so, instead of refusing. Only for adopting a queue that already works this way as it is: an " +
		"import sets it to `true` for such a queue, and `terraform query -generate-config-out` writes it. Point `dead_message_queue` " +
		"at a `sapmessaging_aem_dead_message_queue` (which leaves its own dead message queue to the broker) and remove this attribute " +
		"as soon as you can. Defaults to `false`; changing it writes nothing to the broker.")
	attrs["allow_ineffective_ttl"] = framework.FalseByDefault("Accept a `max_ttl` above 0 while `respect_ttl` is false, where the broker ignores every time to live (messages " +
		"never expire and never move to the dead message queue on age): the plan then warns instead of refusing. Only for adopting a " +
		"queue that already works this way as it is: an import sets it to `true` for such a queue, and `terraform query " +
		"-generate-config-out` writes it. Set `respect_ttl = true` (or remove `max_ttl`) and remove this attribute as soon as you can. " +
		"Defaults to `false`; changing it writes nothing to the broker.")
	attrs["poison_message_deliveries"] = schema.Int64Attribute{
		MarkdownDescription: "How many times the broker delivers a message that every consumer fails before it removes it: " +
			"`max_redelivery_count + 1`, or 1 with `redelivery_enabled = false`. Where it goes then is `dead_message_queue`, which the plan " +
			"checks on every plan: one that does not exist or takes no messages means the message is deleted, and one whose own dead message " +
			"queue leads back to this queue (a cycle) means it comes back and is delivered again, for ever; the plan refuses both (or, " +
			"with `allow_missing_dead_message_queue`, warns about them). Null when the queue retries for ever (`max_redelivery_count` 0) " +
			"or its dead message queues form a cycle. Computed at plan; known after apply when `allow_missing_dead_message_queue` is set and " +
			"the apply writes the queue (a cycle closed after the plan changes it, so the apply reads the dead message queues again).",
		Computed: true,
	}
	attrs["time_to_dead_letter"] = schema.StringAttribute{
		MarkdownDescription: "The broker's redelivery delays between the `poison_message_deliveries` deliveries of a poison message, for example " +
			"`31 s` (the consumer's own processing time comes on top); `0 ms` without a redelivery delay. Null when the queue retries for ever " +
			"or its dead message queues form a cycle. Computed at plan.",
		Computed: true,
	}
	return schema.Schema{
		MarkdownDescription: "A queue of an SAP Integration Suite, advanced event mesh (AEM) broker service, with its redelivery and " +
			"dead-letter settings, managed through SEMP v2. The broker's defaults retry a poison message for ever and as fast as the consumer " +
			"fails it, and the queue takes and delivers nothing; this provider turns ingress and egress on unless the configuration says " +
			"otherwise, and keeps the broker's defaults of the other settings that decide where a failing message goes " +
			"(`redelivery_enabled`, `respect_dmq_eligible_enabled`, `reject_msg_to_sender_on_discard_behavior`, `respect_ttl`, `max_ttl`) " +
			"when the configuration leaves them out, so that a value set by hand on the broker shows as a change in the plan. On every plan, it refuses a `max_redelivery_count` of 0 or none (unless `allow_unlimited_redelivery` adopts such a " +
			"queue as it is), a dead message queue that does not exist and is not created in the same configuration (the broker's " +
			"`#DEAD_MSG_QUEUE` included), that takes no messages or whose own dead message queue leads back to this queue (a cycle; unless " +
			"`allow_missing_dead_message_queue` adopts such a queue as it is), " +
			"and a `max_ttl` without `respect_ttl` (unless `allow_ineffective_ttl` adopts such a queue as it is), all in one plan; it warns about redelivery without delay, a queue that accepts or " +
			"delivers nothing, `respect_dmq_eligible_enabled` and a dead message queue whose `maxMsgSize` (left to the broker) is below " +
			"the queue's, which deletes the larger poison messages, and shows `poison_message_deliveries` and `time_to_dead_letter`. The plan " +
			"refuses the create of a queue the broker holds already (import it instead); an update changes only the attributes the " +
			"configuration sets.",
		Attributes: attrs,
	}
}

// planRules is the queue as the rules see it at plan: the configuration with the provider's defaults, and the
// dead message queue the queue will name (the configured one, else the one it holds); eff is the former.
func (m *AEMQueueModel) planRules(_ context.Context, cfg, state *AEMQueueModel, _, inState bool, _ *resource.ModifyPlanResponse) (q rules.AEMQueue, eff framework.AEMQueueSettingsModel) {
	eff = withDefaults(cfg.AEMQueueSettingsModel, false)
	q = eff.ToRules(cfg.Name)
	if inState {
		q.DeadMessageQueue = framework.StringValue(aemEffectiveDMQ(cfg.DeadMessageQueue, state.DeadMessageQueue))
	}
	q.AllowUnlimitedRedelivery = cfg.AllowUnlimitedRedelivery.ValueBool()
	q.AllowMissingDeadMessageQueue = cfg.AllowMissingDeadMessageQueue.ValueBool()
	q.AllowIneffectiveTTL = cfg.AllowIneffectiveTTL.ValueBool()
	return q, eff
}

// planLinks checks the dead message queue the queue names (as the broker holds it or a
// sapmessaging_aem_dead_message_queue of this run plans it) and records the link for the cycle checks.
func (m *AEMQueueModel) planLinks(ctx context.Context, d *framework.ProviderData, name string, q *rules.AEMQueue, diags *diag.Diagnostics) bool {
	if !d.AEMPlanDeadMessageQueue(ctx, q, diags) {
		return false
	}
	if dmq, ok := aemDMQOf(*q); ok {
		d.AEMPlanLink(name, dmq, diags)
	}
	return true
}

// planOutcome computes the outcome attributes from the settings the queue will hold: configured, else as in
// state, else the broker's default.
func (m *AEMQueueModel) planOutcome(ctx context.Context, cfg, state *AEMQueueModel, hasState, inState bool, q rules.AEMQueue, eff framework.AEMQueueSettingsModel,
	resp *resource.ModifyPlanResponse) {
	if hasState {
		eff = aemMergeSettings(eff, state.AEMQueueSettingsModel)
	}
	m.PoisonMessageDeliveries, m.TimeToDeadLetter = aemOutcome(&eff, len(q.DeadMessageQueueCycle) > 0 || rules.AEMDeadMessageQueueSelf(q))
	if cfg.AllowMissingDeadMessageQueue.ValueBool() && (!inState || m.writable(cfg, state) != (aem.QueueSettings{})) {
		// The outcome depends on the dead message queues of other queues, which allow_missing_dead_message_queue
		// lets form a cycle: one closed between this plan and the apply would change it, and Terraform's final
		// plan at the apply would fail as inconsistent. The apply reads the links when it writes the queue.
		m.PoisonMessageDeliveries, m.TimeToDeadLetter = types.Int64Unknown(), types.StringUnknown()
	}
	resp.Diagnostics.Append(framework.SetPlan(ctx, &resp.Plan, m)...)
}

// aemEffectiveDMQ is the dead message queue after the apply: the configured one, else the one in state.
func aemEffectiveDMQ(cfg, state types.String) types.String {
	if cfg.IsNull() {
		return state
	}
	return cfg
}

// aemMergeSettings returns cfg with each null setting taken from state.
func aemMergeSettings(cfg, state framework.AEMQueueSettingsModel) framework.AEMQueueSettingsModel {
	c, s := reflect.ValueOf(&cfg).Elem(), reflect.ValueOf(state)
	for i := range c.NumField() {
		if v, ok := c.Field(i).Interface().(interface{ IsNull() bool }); ok && v.IsNull() {
			c.Field(i).Set(s.Field(i))
		}
	}
	return cfg
}

// aemDMQOf returns the dead message queue q names, or the broker's default when it names none.
func aemDMQOf(q rules.AEMQueue) (string, bool) {
	if q.DeadMessageQueue.Null {
		return framework.AEMDefaultDMQ, true
	}
	return q.DeadMessageQueue.V, q.DeadMessageQueue.Known
}

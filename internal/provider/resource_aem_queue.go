package provider

import (
	"context"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ resource.Resource                   = (*aemQueueResource)(nil)
	_ resource.ResourceWithConfigure      = (*aemQueueResource)(nil)
	_ resource.ResourceWithImportState    = (*aemQueueResource)(nil)
	_ resource.ResourceWithValidateConfig = (*aemQueueResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*aemQueueResource)(nil)
)

// NewAEMQueueResource returns the sapmessaging_aem_queue resource.
func NewAEMQueueResource() resource.Resource {
	return &aemQueueResource{aemQueueResourceBase[aemQueueModel, *aemQueueModel]{typeName: "sapmessaging_aem_queue"}}
}

// aemQueueResource is an Advanced Event Mesh queue (Configure, Create, Read, Update, Delete and
// ImportState are those of both AEM queue resources) with its own schema, checks and plan.
type aemQueueResource struct {
	aemQueueResourceBase[aemQueueModel, *aemQueueModel]
}

type aemQueueModel struct {
	aemQueueResourceModel
	AllowUnlimitedRedelivery types.Bool   `tfsdk:"allow_unlimited_redelivery"`
	PoisonMessageDeliveries  types.Int64  `tfsdk:"poison_message_deliveries"`
	TimeToDeadLetter         types.String `tfsdk:"time_to_dead_letter"`
}

// fromBroker copies what the broker holds. After an import (the attribute still null),
// allow_unlimited_redelivery records whether the queue retries for ever, so that a configuration adopting
// it as it is (as terraform query writes it) plans no change.
func (m *aemQueueModel) fromBroker(q *aem.Queue, vpn string) {
	m.fromAPI(q, vpn)
	if m.AllowUnlimitedRedelivery.IsNull() || m.AllowUnlimitedRedelivery.IsUnknown() {
		m.AllowUnlimitedRedelivery = types.BoolValue(m.MaxRedeliveryCount.ValueInt64() == 0)
	}
	m.PoisonMessageDeliveries, m.TimeToDeadLetter = aemOutcome(&m.aemQueueSettingsModel)
}

// writable returns the settings the configuration sets that differ from the state: the PATCH carries the
// attributes the configuration owns, and among them only those that change (some, such as the redelivery
// delay, briefly disable the queue when written).
func (m *aemQueueModel) writable(cfg, state *aemQueueModel) aem.QueueSettings {
	s := cfg.toAPI()
	if state != nil {
		s = changedSettings(s, state.toAPI())
	}
	return s
}

// changedSettings returns want without the fields that have holds already.
func changedSettings(want, have aem.QueueSettings) aem.QueueSettings {
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

func (r *aemQueueResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_aem_queue"
}

func (r *aemQueueResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := aemQueueAttributes(ctx, false)
	attrs["allow_unlimited_redelivery"] = schema.BoolAttribute{
		MarkdownDescription: "Accept a `max_redelivery_count` of 0 or none, which the broker reads as *retry forever*: the plan then warns " +
			"instead of refusing. Only for adopting a queue that already works this way as it is: an import sets it to `true` for a queue at 0, " +
			"and `terraform query -generate-config-out` writes it. Set `max_redelivery_count` and remove this attribute as soon as you can. " +
			"Defaults to `false`; changing it writes nothing to the broker.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(false),
	}
	attrs["poison_message_deliveries"] = schema.Int64Attribute{
		MarkdownDescription: "How many times the broker delivers a message that every consumer fails before it removes it (to " +
			"`dead_message_queue`, or deleted when that queue does not exist): `max_redelivery_count + 1`, or 1 with `redelivery_enabled = false`. " +
			"Null when the queue retries for ever (`max_redelivery_count` 0). Computed at plan.",
		Computed: true,
	}
	attrs["time_to_dead_letter"] = schema.StringAttribute{
		MarkdownDescription: "The broker's redelivery delays between the `poison_message_deliveries` deliveries of a poison message, for example " +
			"`31 s` (the consumer's own processing time comes on top); `0 ms` without a redelivery delay. Null when the queue retries for ever. Computed at plan.",
		Computed: true,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A queue of an SAP Integration Suite, advanced event mesh (AEM) broker service, with its redelivery and " +
			"dead-letter settings, managed through SEMP v2. The broker's defaults retry a poison message for ever and as fast as the consumer " +
			"fails it, and the queue takes and delivers nothing; the plan refuses a `max_redelivery_count` of 0 or none (unless " +
			"`allow_unlimited_redelivery` adopts such a queue as it is), a dead message queue that does not exist and is not created in the same " +
			"configuration (the broker's `#DEAD_MSG_QUEUE` included) and a `max_ttl` without `respect_ttl`, warns about redelivery without " +
			"delay, a queue that accepts or delivers nothing and `respect_dmq_eligible_enabled`, and shows `poison_message_deliveries` and " +
			"`time_to_dead_letter`. The create fails on an existing queue (import it instead); an update changes only the attributes the " +
			"configuration sets.",
		Attributes: attrs,
	}
}

func (r *aemQueueResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m aemQueueModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q := m.toRules(m.Name)
	q.AllowUnlimitedRedelivery = m.AllowUnlimitedRedelivery.ValueBool()
	appendFindings(&resp.Diagnostics, rules.CheckAEMQueue(q))
}

// ModifyPlan claims the queue name for this resource, refuses a dead message queue that the broker does not
// hold and no sapmessaging_aem_dead_message_queue of this run creates, and computes the outcome attributes.
func (r *aemQueueResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.requireAtPlan(ctx, &resp.Diagnostics, needAEM) || req.Plan.Raw.IsNull() || r.data == nil || r.data.aem == nil {
		return
	}
	var plan, cfg, state aemQueueModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &cfg)...)
	hasState := !req.State.Raw.IsNull()
	if hasState {
		resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
	}
	if resp.Diagnostics.HasError() || plan.Name.IsUnknown() {
		return
	}
	inState := hasState && state.Name.Equal(plan.Name)
	if !r.data.claimAEMQueueName(ctx, r.typeName, plan.Name.ValueString(), inState, req, resp) {
		return
	}
	// The dead message queue is checked when the plan sets it: a create, or a change of the link.
	if !inState || !aemEffectiveDMQ(cfg.DeadMessageQueue, state.DeadMessageQueue).Equal(state.DeadMessageQueue) {
		q := cfg.toRules(cfg.Name)
		q.AllowUnlimitedRedelivery = cfg.AllowUnlimitedRedelivery.ValueBool()
		if !r.data.aemPlanDeadMessageQueue(ctx, &q, &resp.Diagnostics) {
			return
		}
		var missing []rules.Finding
		for _, f := range rules.CheckAEMQueue(q) {
			if f.Rule == "aem.dmq_missing" {
				missing = append(missing, f)
			}
		}
		appendFindings(&resp.Diagnostics, missing)
	}
	// The outcome, from the settings the queue will hold: configured, else as in state, else the broker's default.
	eff := cfg.aemQueueSettingsModel
	if hasState {
		eff = aemMergeSettings(cfg.aemQueueSettingsModel, state.aemQueueSettingsModel)
	}
	plan.PoisonMessageDeliveries, plan.TimeToDeadLetter = aemOutcome(&eff)
	resp.Diagnostics.Append(setPlan(ctx, &resp.Plan, &plan)...)
}

// aemEffectiveDMQ is the dead message queue after the apply: the configured one, else the one in state.
func aemEffectiveDMQ(cfg, state types.String) types.String {
	if cfg.IsNull() {
		return state
	}
	return cfg
}

// aemMergeSettings returns cfg with each null setting taken from state.
func aemMergeSettings(cfg, state aemQueueSettingsModel) aemQueueSettingsModel {
	c, s := reflect.ValueOf(&cfg).Elem(), reflect.ValueOf(state)
	for i := range c.NumField() {
		if v, ok := c.Field(i).Interface().(interface{ IsNull() bool }); ok && v.IsNull() {
			c.Field(i).Set(s.Field(i))
		}
	}
	return cfg
}

package integration

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// sapmessaging_aem_sender: the retry settings of the AdvancedEventMesh sender channel of a Cloud
// Integration flow (../shared/reference/aem.md §4), written through the handling every sender resource
// shares (sender_shared.go), and checked at plan against the AEM queue the channel reads (aem.md §5).

var (
	_ resource.Resource                   = (*aemSenderResource)(nil)
	_ resource.ResourceWithConfigure      = (*aemSenderResource)(nil)
	_ resource.ResourceWithImportState    = (*aemSenderResource)(nil)
	_ resource.ResourceWithValidateConfig = (*aemSenderResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*aemSenderResource)(nil)
	_ resource.ResourceWithIdentity       = (*aemSenderResource)(nil)
)

// NewAEMSenderResource returns the sapmessaging_aem_sender resource.
func NewAEMSenderResource() resource.Resource { return newAEMSenderResource(nil) }

// newAEMSenderResource returns the resource configured with data (nil: by Configure).
func newAEMSenderResource(data *framework.ProviderData) *aemSenderResource {
	r := &aemSenderResource{data: data}
	r.senderMethods = senderMethods[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges]{glue: r.glue, typeName: "sapmessaging_aem_sender", refresh: func(ctx context.Context, m *AEMSenderModel) { r.refreshQueue(ctx, m) }}
	return r
}

type aemSenderResource struct {
	data *framework.ProviderData
	senderMethods[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges]
}

type AEMSenderModel struct {
	senderCommon
	MaxAttempts              types.Int64   `tfsdk:"max_message_processing_attempts"`
	RetryInterval            types.Int64   `tfsdk:"retry_interval"`
	MaxRetryInterval         types.Int64   `tfsdk:"max_retry_interval"`
	RetryMultiplier          types.Float64 `tfsdk:"retry_multiplier"`
	SettlementOutcome        types.String  `tfsdk:"settlement_outcome"`
	AcknowledgementMode      types.String  `tfsdk:"acknowledgement_mode"`
	ConsumerMode             types.String  `tfsdk:"consumer_mode"`
	ParallelConsumers        types.Int64   `tfsdk:"parallel_consumers"`
	AcceptMessageLoss        types.Bool    `tfsdk:"accept_message_loss"`
	AllowUnlimitedRedelivery types.Bool    `tfsdk:"allow_unlimited_redelivery"`
	AllowMissingDMQ          types.Bool    `tfsdk:"allow_missing_dead_message_queue"`
	AllowUndocumented        types.Bool    `tfsdk:"allow_undocumented_values"`
	MaxTotalAttempts         types.Int64   `tfsdk:"max_total_attempts"`
	QueueName                types.String  `tfsdk:"queue_name"`
	Adapter                  types.String  `tfsdk:"adapter"`
	AdapterVersion           types.String  `tfsdk:"adapter_version"`
	Unconfirmed              types.List    `tfsdk:"unconfirmed"`
	WorstCaseRuns            types.Int64   `tfsdk:"worst_case_runs"`
	PoisonMessageEnd         types.String  `tfsdk:"poison_message_end"`
	TimeToEnd                types.String  `tfsdk:"time_to_end"`
	EffectiveRedeliveryCount types.Int64   `tfsdk:"effective_queue_max_redelivery_count"`
}

// Values of poison_message_end.
const (
	aemEndDMQ     = "DMQ"
	aemEndDeleted = "deleted"
	// aemEndDeletedUnlessEligible: the queue respects the DMQ-eligible flag (rules.AEMEndDeletedUnlessEligible).
	aemEndDeletedUnlessEligible = "deleted unless DMQ-eligible"
	aemEndLost                  = "lost"
	aemEndNever                 = "never"
)

func (r *aemSenderResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_aem_sender"
}

func (r *aemSenderResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	fromFlow := " Defaults to the flow's value."
	int64FromFlow := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	stringFromFlow := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	enum := func(description string, values ...string) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: description + " One of " + strings.Join(quoteAllMarkdown(values), ", ") + "." + fromFlow,
			Optional:            true, Computed: true, PlanModifiers: stringFromFlow,
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The retry settings of the Advanced Event Mesh sender channel (AdvancedEventMesh adapter, or Solace's own " +
			"SolacePubSubPlus adapter, which reads the same keys: see `adapter`) of one SAP Cloud Integration integration flow (iFlow), and its deployment. A setting that is an externalized parameter (`{{Name}}`) is set " +
			"through the flow's configuration; a literal one is patched in the flow content, leaving everything else byte for byte. Only the " +
			"settings the configuration sets are written. The flow is then deployed so the settings take effect.\n\n" +
			"The adapter runs a message up to `max_message_processing_attempts` times on each delivery, then settles it with " +
			"`settlement_outcome`: `FAILED` hands it back to the broker, which redelivers it up to the queue's `max_redelivery_count` R " +
			"times, so a poison message runs up to m × (R + 1) times (`worst_case_runs`) before the dead message queue; `REJECTED` moves " +
			"it to the dead message queue at once. The plan reads the queue from the broker through the provider's `advanced_event_mesh` " +
			"connection (the run's one queue list) and refuses `FAILED` on a queue with R = 0 (retry forever), `REJECTED` on a queue " +
			"without a dead message queue, and `AUTOMATIC_IMMEDIATE` on a guaranteed consumer (failed messages are lost) unless " +
			"`accept_message_loss = true`.\n\n" +
			"~> **Destroy leaves the flow as it is.** Removing this resource only forgets it: the iFlow, its settings and its deployment stay.",
		Attributes: senderAttributes(ctx, "AEM",
			"Only an Error End fails the message, which the adapter then runs again; the others end it, and it is acknowledged.",
			map[string]schema.Attribute{
				"max_message_processing_attempts": schema.Int64Attribute{
					CustomType: framework.WholeNumber(0, math.MaxInt32),
					MarkdownDescription: "Maximum Message Processing Attempts: the runs of the flow on each delivery, the first one included, " +
						"before the adapter settles the message. 5 in every tenant-written channel. **Must not be empty**: SAP documents no " +
						"behaviour for an empty value." + fromFlow,
					Optional: true, Computed: true, PlanModifiers: int64FromFlow,
				},
				"retry_interval": schema.Int64Attribute{
					CustomType:          framework.WholeNumber(0, math.MaxInt32),
					MarkdownDescription: "Retry Interval (milliseconds): the wait before the adapter's second attempt." + fromFlow,
					Optional:            true, Computed: true, PlanModifiers: int64FromFlow,
				},
				"max_retry_interval": schema.Int64Attribute{
					CustomType:          framework.WholeNumber(0, math.MaxInt32),
					MarkdownDescription: "Maximum Retry Interval (milliseconds): the longest wait between the adapter's attempts." + fromFlow,
					Optional:            true, Computed: true, PlanModifiers: int64FromFlow,
				},
				"retry_multiplier": schema.Float64Attribute{
					MarkdownDescription: "Exponential Backoff Multiplier: each wait is the one before times this, up to `max_retry_interval`. " +
						"Written with a decimal point (`3.0`), as the adapter writes it." + fromFlow,
					Optional: true, Computed: true,
					PlanModifiers: []planmodifier.Float64{float64planmodifier.UseStateForUnknown()},
				},
				"settlement_outcome": enum("Settlement Outcome After Maximum Attempts (a guaranteed consumer acknowledging on exchange "+
					"completion only): `FAILED` hands the message back for redelivery, `REJECTED` moves it to the queue's dead message queue "+
					"(the stored value `REJECTED` is assumed: no tenant-written flow with it was found).", rules.AEMOutcomeFailed, rules.AEMOutcomeRejected),
				"acknowledgement_mode": enum("Acknowledgement Mode. `AUTOMATIC_IMMEDIATE` acknowledges a message on receipt, so a failed "+
					"message is lost; it is refused unless `accept_message_loss = true`.", rules.AEMAckOnExchangeComplete, rules.AEMAckImmediate),
				"consumer_mode": enum("Consumer Mode, read from the flow and never written: set it only to assert the flow's value (the plan "+
					"fails when the flow has another). Change it in Cloud Integration.", rules.AEMConsumerGuaranteed, rules.AEMConsumerDirect),
				"parallel_consumers": schema.Int64Attribute{
					CustomType:          framework.WholeNumber(1, math.MaxInt32),
					MarkdownDescription: "Parallel Consumers: how many consumers of the queue the adapter opens." + fromFlow,
					Optional:            true, Computed: true, PlanModifiers: int64FromFlow,
				},
				"accept_message_loss": schema.BoolAttribute{
					MarkdownDescription: "Accept `acknowledgement_mode = \"AUTOMATIC_IMMEDIATE\"` on a guaranteed consumer, which loses every " +
						"message the flow fails: the plan then warns instead of refusing. Only for adopting a channel that already works this way " +
						"as it is: an import sets it to `true` for such a channel, and `terraform query -generate-config-out` writes it. Set " +
						"`acknowledgement_mode = \"AUTOMATIC_ON_EXCHANGE_COMPLETE\"` and remove this attribute as soon as you can. Defaults to " +
						"`false`; it is not a setting of the channel.",
					Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				},
				"allow_unlimited_redelivery": schema.BoolAttribute{
					MarkdownDescription: "Accept `settlement_outcome = \"FAILED\"` on a queue whose `max_redelivery_count` is 0 (retry for ever), so " +
						"that a poison message runs for ever: the plan then warns instead of refusing. Only for adopting a channel that already " +
						"works this way as it is: an import sets it to `true` for such a channel, and `terraform query -generate-config-out` writes " +
						"it. Bound the queue's `max_redelivery_count` and remove this attribute as soon as you can. Defaults to `false`; it is not " +
						"a setting of the channel.",
					Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				},
				"allow_missing_dead_message_queue": schema.BoolAttribute{
					MarkdownDescription: "Accept `settlement_outcome = \"REJECTED\"` on a queue whose dead message queue keeps nothing (missing, " +
						"`\"\"`, or with ingress off), so that the broker deletes every rejected message: the plan then warns instead of " +
						"refusing. Only for adopting a channel that already works this way as it is: an import sets it to `true` for such a " +
						"channel, and `terraform query -generate-config-out` writes it. Give the queue a dead message queue that takes messages " +
						"and remove this attribute as soon as you can. Defaults to `false`; it is not a setting of the channel.",
					Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				},
				"allow_undocumented_values": schema.BoolAttribute{
					MarkdownDescription: "Accept values of the channel that SAP documents no behaviour for and the adapter's editor does not " +
						"write: a `consumer_mode`, `acknowledgement_mode` or `settlement_outcome` other than the documented ones, no or 0 `max_message_processing_attempts`, a " +
						"`retry_interval` or `max_retry_interval` below 1, a `retry_multiplier` of 0 or less. An .iflw can hold them (it can be " +
						"written by hand or by a generator and uploaded), and the plan then cannot say what the adapter does with a poison " +
						"message: it warns for each instead of refusing. Only for adopting a channel that already holds them as it is: an " +
						"import sets it to `true` for such a channel, and `terraform query -generate-config-out` writes it. Set documented " +
						"values and remove this attribute as soon as you can. Defaults to `false`; it is not a setting of the channel.",
					Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				},
				"max_total_attempts": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, math.MaxInt64),
					MarkdownDescription: "A budget: the plan fails when `worst_case_runs` exceeds it and names the cheapest setting that fits, " +
						"and when it cannot be checked (no `advanced_event_mesh` connection to read the queue: `worst_case_runs` unknown).",
					Optional: true,
				},
				"queue_name": schema.StringAttribute{
					MarkdownDescription: "The AEM queue the channel consumes (`queueName`).",
					Computed:            true,
					PlanModifiers:       stringFromFlow,
				},
				"adapter": schema.StringAttribute{
					MarkdownDescription: "The channel's adapter (its `ComponentType`): `AdvancedEventMesh`, SAP's Advanced Event Mesh sender " +
						"adapter, or `SolacePubSubPlus`, Solace's own adapter, which reads the same keys and is managed the same way. SAP " +
						"documents only the first: for `SolacePubSubPlus` the settlement outcome and how the attempts count are assumed to be " +
						"the same, and `unconfirmed` says so.",
					Computed:      true,
					PlanModifiers: stringFromFlow,
				},
				"adapter_version": schema.StringAttribute{
					MarkdownDescription: "The adapter version the channel was written with, for example `1.3.0`. The keys and values are " +
						"confirmed for 1.3.x only; another version is listed in `unconfirmed`.",
					Computed:      true,
					PlanModifiers: stringFromFlow,
				},
				"unconfirmed": schema.ListAttribute{
					MarkdownDescription: "The values of the channel that no source confirms, as `KEY = VALUE: REASON`: Solace's own adapter " +
						"(`ComponentType = SolacePubSubPlus`, whose settlement outcome and attempts are assumed to work as SAP's adapter's), the " +
						"`REJECTED` outcome (`failedMessageSettlementOutcome`), an adapter version other than 1.3.x, and an enumeration value the " +
						"adapter is not known to write. They are read as they are and written only when the configuration sets them.",
					ElementType:   types.StringType,
					Computed:      true,
					PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()},
				},
				"worst_case_runs": schema.Int64Attribute{
					MarkdownDescription: "The most runs of the flow one poison message costs: m × (R + 1) with `FAILED`, m with `REJECTED` or " +
						"a direct consumer, 1 with `AUTOMATIC_IMMEDIATE`. Null when it is unlimited (R = 0, or a cycle of dead message queues that brings the message back) or the queue was not read.",
					Computed: true,
				},
				"poison_message_end": schema.StringAttribute{
					MarkdownDescription: "Where a poison message ends: `DMQ` (the queue's dead message queue), `deleted` (the broker removes it: " +
						"no dead message queue, or one that takes nothing because its `ingressEnabled` is false), `deleted unless DMQ-eligible` (the " +
						"queue has `respectDmqEligibleEnabled` on: the broker deletes the message unless its publisher flagged it DMQ-eligible, and " +
						"only then moves it to the dead message queue), `lost` (acknowledged on receipt, or a direct message) or `never` " +
						"(redelivered for ever: the queue's `max_redelivery_count` is 0, or its dead message queues lead back to it in a cycle, so " +
						"the message comes back). Null when the queue was not read.",
					Computed: true,
				},
				"time_to_end": schema.StringAttribute{
					MarkdownDescription: "How long a poison message takes to reach `poison_message_end`: the adapter's waits on each delivery " +
						"and the broker's redelivery delays, for example `3 min 24 s` (the flow's own processing time comes on top). Null when " +
						"it never ends or the queue was not read.",
					Computed: true,
				},
				"effective_queue_max_redelivery_count": schema.Int64Attribute{
					MarkdownDescription: "The `max_redelivery_count` R of the queue `queue_name` as the broker holds it (0 = retry forever). " +
						"Null without an `advanced_event_mesh` connection or when the broker has no such queue.",
					Computed: true,
				},
			}),
	}
}

// quoteAllMarkdown writes each value as Markdown code.
func quoteAllMarkdown(values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = "`" + v + "`"
	}
	return out
}

func (r *aemSenderResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func float64Value(v types.Float64) rules.Value[float64] {
	switch {
	case v.IsUnknown():
		return rules.Unknown[float64]()
	case v.IsNull():
		return rules.Null[float64]()
	default:
		return rules.Known(v.ValueFloat64())
	}
}

// aemConsumedQueue is the queue a channel reads as the rules check it, with whether its dead message queue
// exists and takes messages (aemPlanDeadMessageQueue).
type aemConsumedQueue struct {
	queue rules.AEMQueue
}

// ruleInput returns the model and the queue q as the rules check them.
func (m *AEMSenderModel) ruleInput(cq aemConsumedQueue) rules.AEMSender {
	return rules.AEMSender{
		MaxMessageProcessingAttempts: framework.Int64Value(m.MaxAttempts),
		RetryInterval:                framework.Int64Value(m.RetryInterval),
		MaxRetryInterval:             framework.Int64Value(m.MaxRetryInterval),
		RetryMultiplier:              float64Value(m.RetryMultiplier),
		SettlementOutcome:            framework.StringValue(m.SettlementOutcome),
		AcknowledgementMode:          framework.StringValue(m.AcknowledgementMode),
		ConsumerMode:                 framework.StringValue(m.ConsumerMode),
		AcceptMessageLoss:            m.AcceptMessageLoss.ValueBool(),
		AllowUnlimitedRedelivery:     m.AllowUnlimitedRedelivery.ValueBool(),
		AllowMissingDeadMessageQueue: m.AllowMissingDMQ.ValueBool(),
		AllowUndocumentedValues:      m.AllowUndocumented.ValueBool(),
		MaxTotalAttempts:             framework.Int64Value(m.MaxTotalAttempts),
		Queue:                        cq.queue,
	}
}

// AEMConfigRuleInput returns the configuration as the rules check it before the flow is read: a setting the
// configuration leaves out keeps the flow's value, which is not known yet.
func AEMConfigRuleInput(m *AEMSenderModel) rules.AEMSender {
	in := m.ruleInput(aemConsumedQueue{})
	for _, v := range []*rules.Value[int64]{&in.MaxMessageProcessingAttempts, &in.RetryInterval, &in.MaxRetryInterval} {
		if v.Null {
			*v = rules.Unknown[int64]()
		}
	}
	if in.RetryMultiplier.Null {
		in.RetryMultiplier = rules.Unknown[float64]()
	}
	for _, v := range []*rules.Value[string]{&in.SettlementOutcome, &in.AcknowledgementMode, &in.ConsumerMode} {
		if v.Null {
			*v = rules.Unknown[string]()
		}
	}
	return in
}

// ValidateConfig applies the rules that need neither the flow nor the queue.
func (r *aemSenderResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m AEMSenderModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.AppendFindings(&resp.Diagnostics, rules.CheckAEMSender(AEMConfigRuleInput(&m)))
	for _, e := range []struct {
		attr    string
		v       types.String
		allowed []string
	}{
		{"settlement_outcome", m.SettlementOutcome, []string{rules.AEMOutcomeFailed, rules.AEMOutcomeRejected}},
		{"acknowledgement_mode", m.AcknowledgementMode, []string{rules.AEMAckOnExchangeComplete, rules.AEMAckImmediate}},
		{"consumer_mode", m.ConsumerMode, []string{rules.AEMConsumerGuaranteed, rules.AEMConsumerDirect}},
	} {
		checkUpperCase(&resp.Diagnostics, e.attr, e.v, e.allowed)
	}
}

// checkUpperCase refuses a known value written in another case: the flow stores it upper case, so the
// configuration would differ from every read.
func checkUpperCase(diags *diag.Diagnostics, attr string, v types.String, allowed []string) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	for _, a := range allowed {
		if v.ValueString() != a && strings.EqualFold(v.ValueString(), a) {
			diags.AddAttributeError(path.Root(attr), "Value Not In Upper Case",
				fmt.Sprintf("`%s = %q` is written upper case in the flow, so every read would differ from the configuration and the plan "+
					"would never settle. Set `%s = %q`.", attr, v.ValueString(), attr, a))
		}
	}
}

// planFindings returns the findings of the planned settings and the queue that the configuration alone does
// not give (ValidateConfig reported those).
func planFindings(config, plan rules.AEMSender) []rules.Finding {
	seen := map[string]bool{}
	for _, f := range rules.CheckAEMSender(config) {
		seen[f.Rule+"|"+f.Attribute] = true
	}
	var out []rules.Finding
	for _, f := range rules.CheckAEMSender(plan) {
		if !seen[f.Rule+"|"+f.Attribute] {
			out = append(out, f)
		}
	}
	return out
}

// ModifyPlan reads the flow and the queue it consumes, applies the AEM sender rules to the planned values
// with the queue, and fills what is known before apply.
func (r *aemSenderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var plan, config AEMSenderModel
	if !startPlan(ctx, r.data, req, resp, "sapmessaging_aem_sender", "AEM", &plan) {
		return
	}
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s, ok := planChannel(ctx, r.data, &plan.senderCommon, (*cpi.Flow).AEMSender, addAEMSenderError, aemSubprocesses, &resp.Diagnostics)
	if !ok {
		return
	}
	channel := ""
	if s != nil {
		channel = s.FlowID
		plan.setFacts(s, &resp.Diagnostics)
		if o := plan.SettlementOutcome; !o.IsNull() && (o.IsUnknown() || !strings.EqualFold(o.ValueString(), framework.Deref(s.SettlementOutcome))) {
			// The write changes the outcome, and with it what no source confirms (the Rejected outcome's stored
			// value): the flow says after the apply.
			plan.Unconfirmed = types.ListUnknown(types.StringType)
		}
		if req.State.Raw.IsNull() {
			// A setting the configuration leaves out keeps the flow's value (as the JMS sender; also the
			// create half of a replacement, so that a resource moved to another flow takes that flow's values).
			plan.fillFromFlow(s)
		}
		checkConsumerMode(&resp.Diagnostics, &plan, s)
	}
	q, read := r.planQueue(ctx, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.AppendFindings(&resp.Diagnostics, planFindings(AEMConfigRuleInput(&config), plan.ruleInput(q)))
	plan.Derive(q, read)
	r.glue().modifyPlan(ctx, req, resp, &plan, channel)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(framework.SetPlan(ctx, &resp.Plan, &plan)...)
}

// fillFromFlow sets each setting the plan leaves unknown to the flow's value.
func (m *AEMSenderModel) fillFromFlow(s *cpi.AEMSender) {
	for _, p := range []struct {
		v  *types.Int64
		at *int64
	}{{&m.MaxAttempts, s.MaxAttempts}, {&m.RetryInterval, s.RetryInterval}, {&m.MaxRetryInterval, s.MaxRetryInterval}, {&m.ParallelConsumers, s.ParallelConsumers}} {
		if p.v.IsUnknown() {
			*p.v = framework.Int64OrNull(p.at)
		}
	}
	if m.RetryMultiplier.IsUnknown() {
		m.RetryMultiplier = float64OrNull(s.RetryMultiplier)
	}
	for _, p := range []struct {
		v  *types.String
		at *string
	}{{&m.SettlementOutcome, s.SettlementOutcome}, {&m.AcknowledgementMode, s.AckMode}, {&m.ConsumerMode, s.ConsumerMode}} {
		if p.v.IsUnknown() {
			*p.v = framework.NonEmptyStringOrNull(p.at)
		}
	}
}

func float64OrNull(p *float64) types.Float64 {
	if p == nil {
		return types.Float64Null()
	}
	return types.Float64Value(*p)
}

// setFacts sets what the flow says beyond the settings: the queue, the adapter version and the unconfirmed
// values.
func (m *AEMSenderModel) setFacts(s *cpi.AEMSender, diags *diag.Diagnostics) {
	m.QueueName = types.StringValue(s.QueueName)
	m.Adapter = types.StringValue(s.Adapter)
	m.AdapterVersion = types.StringValue(s.AdapterVersion)
	items := []string{}
	for _, u := range s.Unconfirmed {
		key := u.Key
		if key == "" {
			key = "adapter version"
		}
		items = append(items, fmt.Sprintf("%s = %s: %s", key, u.Value, u.Reason))
	}
	list, d := types.ListValueFrom(context.Background(), types.StringType, items)
	diags.Append(d...)
	m.Unconfirmed = list
}

// checkConsumerMode refuses a configured consumer_mode the flow does not have: the resource never writes it.
func checkConsumerMode(diags *diag.Diagnostics, plan *AEMSenderModel, s *cpi.AEMSender) {
	if plan.ConsumerMode.IsNull() || plan.ConsumerMode.IsUnknown() || strings.EqualFold(plan.ConsumerMode.ValueString(), framework.Deref(s.ConsumerMode)) {
		return
	}
	diags.AddAttributeError(path.Root("consumer_mode"), "Consumer Mode Not Written",
		fmt.Sprintf("`consumer_mode = %q` differs from the channel's consumer mode %q, and this resource never changes the consumer mode: "+
			"the apply would leave it as it is and the plan would never settle. Set `consumer_mode = %q` or remove it, and change the "+
			"consumer mode in Cloud Integration if that is what you want.", plan.ConsumerMode.ValueString(), framework.Deref(s.ConsumerMode), framework.Deref(s.ConsumerMode)))
}

// planQueue reads, at plan, the queue queue_name from the run's one AEM queue list and returns it as the
// rules check it, with whether it was read. A plan that cannot read fails; without an advanced_event_mesh
// connection the queue is not checked, and the plan says so.
func (r *aemSenderResource) planQueue(ctx context.Context, m *AEMSenderModel, diags *diag.Diagnostics) (aemConsumedQueue, bool) {
	if m.QueueName.IsUnknown() || m.QueueName.IsNull() || m.QueueName.ValueString() == "" || r.data == nil {
		return aemConsumedQueue{}, false
	}
	if r.data.AEM == nil && !r.data.AEMUnknown {
		if r.data.AEMKeyError.HasError() {
			diags.Append(r.data.AEMKeyError...)
			return aemConsumedQueue{}, false
		}
		diags.AddAttributeWarning(path.Root("queue_name"), "AEM Queue Not Checked",
			fmt.Sprintf("The provider has no `advanced_event_mesh` connection, so the plan cannot read the queue %q that the channel consumes: "+
				"its `max_redelivery_count` and dead message queue decide how often a poison message runs and where it ends, and "+
				"`worst_case_runs`, `poison_message_end` and `time_to_end` stay null. Configure the provider's `advanced_event_mesh` block "+
				"for the broker that holds the queue.", m.QueueName.ValueString()))
		if !m.MaxTotalAttempts.IsNull() && !m.MaxTotalAttempts.IsUnknown() {
			// A budget the plan cannot check would pass unchecked: a plan that cannot read fails.
			diags.AddAttributeError(path.Root("max_total_attempts"), "Attempt Budget Not Checked",
				fmt.Sprintf("`max_total_attempts = %d` cannot be checked: without an `advanced_event_mesh` connection the plan cannot read the queue %q, "+
					"whose `max_redelivery_count` multiplies the channel's attempts, so `worst_case_runs` is unknown and a plan that passed would promise a budget nobody checked. "+
					"Configure the provider's `advanced_event_mesh` block for the broker that holds the queue, or remove `max_total_attempts`.",
					m.MaxTotalAttempts.ValueInt64(), m.QueueName.ValueString()))
		}
		return aemConsumedQueue{}, false
	}
	if !r.data.RequireAtPlan(ctx, diags, framework.NeedAEM) || r.data.AEM == nil {
		return aemConsumedQueue{}, false
	}
	return r.readQueue(ctx, m, diags)
}

// readQueue reads the queue queue_name from the run's AEM queue list; diags set reports a failure (a plan),
// nil only logs it (a refresh keeps the queue unread).
func (r *aemSenderResource) readQueue(ctx context.Context, m *AEMSenderModel, diags *diag.Diagnostics) (aemConsumedQueue, bool) {
	name := m.QueueName.ValueString()
	qs, err := r.data.AEMQueues(ctx) // aem_queue_shared.go: the run's one queue list
	if err != nil {
		if diags != nil {
			r.data.AEMPlanReadError(diags, fmt.Sprintf("reading the queue %q that the AEM sender consumes", name), err)
		} else {
			tflog.Debug(ctx, "AEM queue list not read; the poison message path stays null", map[string]any{"error": err.Error()})
		}
		return aemConsumedQueue{}, false
	}
	r.data.AEMQueueList.Mu.Lock()
	q := qs[name]
	r.data.AEMQueueList.Mu.Unlock()
	if q == nil {
		// A queue a sapmessaging_aem_queue of this run creates is checked by that resource.
		if planned, _ := r.data.AEMQueueExistsOrPlanned(ctx, name); diags != nil && !planned {
			diags.AddAttributeWarning(path.Root("queue_name"), "AEM Queue Not Found",
				fmt.Sprintf("The broker has no queue %q, which the channel consumes, so the plan cannot check its redelivery count and dead "+
					"message queue, and the flow cannot start. Create the queue with `sapmessaging_aem_queue`, or set the channel's queue "+
					"in Cloud Integration.", name))
		}
		return aemConsumedQueue{}, false
	}
	settings := framework.AEMQueueSettingsFromAPI(q.QueueSettings)
	rq := settings.ToRules(types.StringValue(name))
	var d diag.Diagnostics
	if !r.data.AEMPlanDeadMessageQueue(ctx, &rq, &d) {
		if diags != nil {
			diags.Append(d...)
		}
		return aemConsumedQueue{}, false
	}
	return aemConsumedQueue{queue: rq}, true
}

// Derive sets the computed path of a poison message from the settings and the queue q (read: whether it
// was read).
func (m *AEMSenderModel) Derive(q aemConsumedQueue, read bool) {
	m.EffectiveRedeliveryCount = types.Int64Null()
	if read {
		m.EffectiveRedeliveryCount = types.Int64Value(q.queue.MaxRedeliveryCount.V)
	}
	m.WorstCaseRuns, m.PoisonMessageEnd, m.TimeToEnd = types.Int64Null(), types.StringNull(), types.StringNull()
	if m.MaxAttempts.IsUnknown() || m.RetryInterval.IsUnknown() || m.MaxRetryInterval.IsUnknown() || m.RetryMultiplier.IsUnknown() ||
		m.SettlementOutcome.IsUnknown() || m.AcknowledgementMode.IsUnknown() || m.ConsumerMode.IsUnknown() || m.QueueName.IsUnknown() {
		m.WorstCaseRuns, m.PoisonMessageEnd, m.TimeToEnd = types.Int64Unknown(), types.StringUnknown(), types.StringUnknown()
		return
	}
	if !read {
		return
	}
	p, known := rules.AEMSenderPath(m.ruleInput(q))
	if !known {
		return
	}
	if p.Unlimited {
		m.PoisonMessageEnd = types.StringValue(aemEndNever)
		return
	}
	m.WorstCaseRuns = types.Int64Value(p.Runs)
	m.TimeToEnd = types.StringValue(rules.FormatAEMDuration(p.TimeToEnd))
	switch p.End {
	case rules.AEMEndDeadMessageQueue:
		m.PoisonMessageEnd = types.StringValue(aemEndDMQ)
	case rules.AEMEndDeleted:
		m.PoisonMessageEnd = types.StringValue(aemEndDeleted)
	case rules.AEMEndDeletedUnlessEligible:
		m.PoisonMessageEnd = types.StringValue(aemEndDeletedUnlessEligible)
	default:
		m.PoisonMessageEnd = types.StringValue(aemEndLost)
	}
}

func aemSubprocesses(s *cpi.AEMSender) []cpi.ExceptionSubprocess { return s.ExceptionSubprocesses }

func addAEMSenderError(diags *diag.Diagnostics, iflowID string, err error) {
	addChannelError(diags, "AEM", iflowID, err, func() bool {
		return addChannelMissing(diags, "AEM", iflowID, err, cpi.ErrNoAEMSender, "AEM queue", "Advanced Event Mesh sender adapter")
	})
}

// read fills the model from the tenant; found is false when the flow no longer exists. The poison
// message's path is kept as planned when it is known (an apply), and computed from the queue otherwise.
func (r *aemSenderResource) read(ctx context.Context, m *AEMSenderModel, diags *diag.Diagnostics) (channel string, found bool) {
	s, found := readModelChannel(ctx, r.data, &m.senderCommon, (*cpi.Flow).AEMSender, addAEMSenderError, aemSubprocesses, diags)
	if s == nil {
		return "", found
	}
	m.MaxAttempts = framework.Int64OrNull(s.MaxAttempts)
	m.RetryInterval = framework.Int64OrNull(s.RetryInterval)
	m.MaxRetryInterval = framework.Int64OrNull(s.MaxRetryInterval)
	m.RetryMultiplier = float64OrNull(s.RetryMultiplier)
	m.ParallelConsumers = framework.Int64OrNull(s.ParallelConsumers)
	m.SettlementOutcome = framework.NonEmptyStringOrNull(s.SettlementOutcome)
	m.AcknowledgementMode = framework.NonEmptyStringOrNull(s.AckMode)
	m.ConsumerMode = framework.NonEmptyStringOrNull(s.ConsumerMode)
	if m.AcceptMessageLoss.IsNull() || m.AcceptMessageLoss.IsUnknown() {
		// After an import: whether the channel loses failed messages, so that a configuration adopting it as it
		// is (as terraform query writes it) plans no change.
		m.AcceptMessageLoss = types.BoolValue(framework.Deref(s.AckMode) == rules.AEMAckImmediate && framework.Deref(s.ConsumerMode) != rules.AEMConsumerDirect)
	}
	m.setFacts(s, diags)
	if m.AllowUndocumented.IsNull() || m.AllowUndocumented.IsUnknown() {
		// After an import: whether the channel holds a value SAP documents no behaviour for (it does not depend
		// on the queue), so that a configuration adopting it as it is plans no change.
		m.AllowUndocumented = types.BoolValue(rules.AEMSenderUndocumented(m.ruleInput(aemConsumedQueue{})))
	}
	adopting := m.AllowUnlimitedRedelivery.IsNull() || m.AllowUnlimitedRedelivery.IsUnknown() || m.AllowMissingDMQ.IsNull() || m.AllowMissingDMQ.IsUnknown()
	if adopting || m.WorstCaseRuns.IsUnknown() || m.PoisonMessageEnd.IsUnknown() || m.TimeToEnd.IsUnknown() || m.EffectiveRedeliveryCount.IsUnknown() {
		q := r.refreshQueue(ctx, m)
		if adopting {
			// After an import: whether the channel retries for ever or loses rejected messages on its queue, so that a
			// configuration adopting it as it is (as terraform query writes it) plans no change.
			unlimited, missing := rules.AEMSenderAdoption(m.ruleInput(q))
			if m.AllowUnlimitedRedelivery.IsNull() || m.AllowUnlimitedRedelivery.IsUnknown() {
				m.AllowUnlimitedRedelivery = types.BoolValue(unlimited)
			}
			if m.AllowMissingDMQ.IsNull() || m.AllowMissingDMQ.IsUnknown() {
				m.AllowMissingDMQ = types.BoolValue(missing)
			}
		}
	}
	return s.FlowID, true
}

// refreshQueue computes the poison message's path from the queue as the run's list holds it; without a
// connection or a list it stays null.
func (r *aemSenderResource) refreshQueue(ctx context.Context, m *AEMSenderModel) aemConsumedQueue {
	var q aemConsumedQueue
	read := false
	if r.data != nil && r.data.AEM != nil && m.QueueName.ValueString() != "" {
		q, read = r.readQueue(ctx, m, nil)
	}
	m.Derive(q, read)
	return q
}

// changes returns the settings of the model an edit writes; null ones are nil (left as they are).
func (m *AEMSenderModel) changes() iflow.AEMSenderChanges {
	var mult *float64
	if !m.RetryMultiplier.IsNull() && !m.RetryMultiplier.IsUnknown() {
		v := m.RetryMultiplier.ValueFloat64()
		mult = &v
	}
	return iflow.AEMSenderChanges{
		MaxAttempts:       framework.Int64Ptr(m.MaxAttempts),
		RetryInterval:     framework.Int64Ptr(m.RetryInterval),
		MaxRetryInterval:  framework.Int64Ptr(m.MaxRetryInterval),
		RetryMultiplier:   mult,
		SettlementOutcome: framework.StringPtr(m.SettlementOutcome),
		AckMode:           framework.StringPtr(m.AcknowledgementMode),
		ParallelConsumers: framework.Int64Ptr(m.ParallelConsumers),
	}
}

// glue is the handling this resource shares with the other sender resources.
func (r *aemSenderResource) glue() senderGlue[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges] {
	return senderGlue[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges]{
		data:     r.data,
		kind:     "AEM",
		read:     r.read,
		settings: (*AEMSenderModel).changes,
		edit:     (*cpi.Flow).EditAEMSender,
		addError: addAEMSenderError,
	}
}

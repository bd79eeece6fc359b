package integration

import (
	"context"
	"fmt"
	"math"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ resource.Resource                   = (*amqpSenderResource)(nil)
	_ resource.ResourceWithConfigure      = (*amqpSenderResource)(nil)
	_ resource.ResourceWithImportState    = (*amqpSenderResource)(nil)
	_ resource.ResourceWithValidateConfig = (*amqpSenderResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*amqpSenderResource)(nil)
)

// NewAMQPSenderResource returns the sapmessaging_amqp_sender resource.
func NewAMQPSenderResource() resource.Resource {
	r := &amqpSenderResource{}
	r.senderMethods = senderMethods[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings]{glue: r.glue, typeName: "sapmessaging_amqp_sender", refresh: r.refreshRedeliveryCount}
	return r
}

type amqpSenderResource struct {
	data *framework.ProviderData
	senderMethods[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings]
}

type amqpSenderModel struct {
	senderCommon
	MaxNumberOfRetries            types.Int64  `tfsdk:"max_number_of_retries"`
	DeliveryStatusAfterMaxRetries types.String `tfsdk:"delivery_status_after_max_retries"`
	MaxPrefetchedMessages         types.Int64  `tfsdk:"max_prefetched_messages"`
	ConcurrentProcesses           types.Int64  `tfsdk:"concurrent_processes"`
	QueueMaxRedeliveryCount       types.Int64  `tfsdk:"queue_max_redelivery_count"`
	MaxTotalAttempts              types.Int64  `tfsdk:"max_total_attempts"`
	ExpectedProcessingSeconds     types.Int64  `tfsdk:"expected_processing_seconds"`
	QueueName                     types.String `tfsdk:"queue_name"`
	WorstCaseAttempts             types.Int64  `tfsdk:"worst_case_attempts"`
	EffectiveRedeliveryCount      types.Int64  `tfsdk:"effective_queue_max_redelivery_count"`
	RedeliveryCountSource         types.String `tfsdk:"queue_max_redelivery_count_source"`
	AllowCancelledRedelivery      types.Bool   `tfsdk:"allow_cancelled_redelivery"`
	AllowUnsafeRetries            types.Bool   `tfsdk:"allow_unsafe_retries"`
}

// Where the R of worst_case_attempts comes from (queue_max_redelivery_count_source).
const (
	redeliverySourceConfiguration = "configuration"
	redeliverySourceEventMesh     = "event_mesh"
)

func (r *amqpSenderResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_amqp_sender"
}

func (r *amqpSenderResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The retry settings of the AMQP sender channel of one SAP Cloud Integration integration flow (iFlow), " +
			"and its deployment. A setting that is an externalized parameter (`{{Name}}`) is set through the flow's configuration; " +
			"a literal one is patched in the flow content, leaving everything else byte for byte. The flow is then deployed so the " +
			"settings take effect.\n\n" +
			"The plan shows `worst_case_attempts = (R + 1) × n + 1`, the executions one always-failing message can cost, and refuses it " +
			"above `max_total_attempts` (warns, when R comes from the queue). R is `queue_max_redelivery_count` when set; without it, and with the provider's `event_mesh` " +
			"configured, R is the `max_redelivery_count` of the queue the channel reads, from the run's one queue list (no call per " +
			"resource). `queue_max_redelivery_count_source` says which; a queue found this way with R = 0 is a warning naming the " +
			"queue, not an error, so that an apply that fixes the queue at the same time is not blocked.\n\n" +
			"~> **Destroy leaves the flow as it is.** Removing this resource only forgets it: the iFlow, its settings and its deployment stay.",
		Attributes: senderAttributes(ctx, "AMQP",
			"Only an Error End hands the failure back to Event Mesh; the others acknowledge the message, which is then gone.",
			map[string]schema.Attribute{
				"max_number_of_retries": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, rules.MaxRetriesLimit),
					MarkdownDescription: "Max. Number of Retries: in-memory retries of the adapter on each delivery, 1 to 99. **Must be set**: " +
						"empty retries endlessly and 0 hands every redelivered message its outcome unprocessed. 1 is recommended; " +
						"spend further attempts on the queue's redeliveries.",
					Optional: true,
				},
				"delivery_status_after_max_retries": schema.StringAttribute{
					MarkdownDescription: "Delivery Status After Max. Retries. Defaults to `REJECTED`, which Event Mesh needs to redeliver the " +
						"message and finally move it to the dead message queue. `MODIFIED_FAILED_UNDELIVERABLE` is refused: it cancels the redelivery.",
					Optional: true,
					Computed: true,
					Default:  stringdefault.StaticString("REJECTED"),
				},
				"max_prefetched_messages": schema.Int64Attribute{
					CustomType:          framework.WholeNumber(1, rules.MaxPrefetchLimit),
					MarkdownDescription: "Max. Number of Prefetched Messages, 1 to 100. Keep it at 1 for flows slower than a minute. Defaults to the flow's value.",
					Optional:            true,
					Computed:            true,
					PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
				},
				"concurrent_processes": schema.Int64Attribute{
					CustomType:          framework.WholeNumber(1, rules.MaxConcurrentLimit),
					MarkdownDescription: "Number of Concurrent Processes, 1 to 99. Use 1 while testing. Defaults to the flow's value.",
					Optional:            true,
					Computed:            true,
					PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
				},
				"queue_max_redelivery_count": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, rules.MaxRedeliveryCountLimit),
					MarkdownDescription: "The `max_redelivery_count` of the Event Mesh queue the flow consumes, usually " +
						"`sapmessaging_queue.<name>.max_redelivery_count`. Used only for `worst_case_attempts` and the budget check. " +
						"Without it, R is taken from the queue the channel reads when the provider has an `event_mesh` connection.",
					Optional: true,
				},
				"max_total_attempts": schema.Int64Attribute{
					CustomType:          framework.WholeNumber(3, math.MaxInt64),
					MarkdownDescription: "A budget: the plan fails when `worst_case_attempts` exceeds it and names the cheapest setting that fits.",
					Optional:            true,
				},
				"expected_processing_seconds": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, math.MaxInt64),
					MarkdownDescription: "How long one execution of the flow takes. Above 60 with more than one prefetched message the plan warns " +
						"that redelivery locks expire inside the prefetched batch.",
					Optional: true,
				},
				"allow_cancelled_redelivery": schema.BoolAttribute{
					MarkdownDescription: "Accept `delivery_status_after_max_retries = \"MODIFIED_FAILED_UNDELIVERABLE\"`, which cancels the queue's " +
						"redelivery: the plan then warns instead of refusing. Only for adopting a channel that already works this way as it is: an " +
						"import sets it to `true` for such a channel, and `terraform query -generate-config-out` writes it. Set " +
						"`delivery_status_after_max_retries = \"REJECTED\"` and remove this attribute as soon as you can. Defaults to `false`; " +
						"it is not a setting of the channel.",
					Optional: true,
					Computed: true,
					Default:  booldefault.StaticBool(false),
				},
				"allow_unsafe_retries": schema.BoolAttribute{
					MarkdownDescription: "Accept a `max_number_of_retries` that is empty (endless retries in memory) or 0 (a redelivered message gets " +
						"its outcome unprocessed): the plan then warns instead of refusing. Only for adopting a channel that already works this way " +
						"as it is: an import sets it to `true` for such a channel, and `terraform query -generate-config-out` writes it. Set " +
						"`max_number_of_retries = 1` and remove this attribute as soon as you can. Defaults to `false`; it is not a setting of the channel.",
					Optional: true,
					Computed: true,
					Default:  booldefault.StaticBool(false),
				},
				"queue_name": schema.StringAttribute{
					MarkdownDescription: "The queue the sender consumes, from its `destinationName` without the `queue:` prefix.",
					Computed:            true,
					PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				},
				"worst_case_attempts": schema.Int64Attribute{
					MarkdownDescription: "`(effective_queue_max_redelivery_count + 1) × max_number_of_retries + 1`: the most executions one always-failing " +
						"message can cost. Known at plan whenever both inputs are; null when R is not known (no `queue_max_redelivery_count` and " +
						"no queue found) or is 0 (unlimited).",
					Computed: true,
				},
				"effective_queue_max_redelivery_count": schema.Int64Attribute{
					MarkdownDescription: "The R `worst_case_attempts` uses: `queue_max_redelivery_count` when set, else the `max_redelivery_count` " +
						"of the Event Mesh queue `queue_name` (0, unlimited, also when the queue leaves it unset); null when neither is known.",
					Computed: true,
				},
				"queue_max_redelivery_count_source": schema.StringAttribute{
					MarkdownDescription: "Where `effective_queue_max_redelivery_count` comes from: `configuration` (`queue_max_redelivery_count`), " +
						"`event_mesh` (the queue `queue_name` as the run's queue list shows it), or null when R is not known.",
					Computed: true,
				},
			}),
	}
}

func (r *amqpSenderResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (m *amqpSenderModel) ruleInput() rules.AMQPSender {
	return rules.AMQPSender{
		MaxNumberOfRetries:        framework.Int64Value(m.MaxNumberOfRetries),
		MaxPrefetchedMessages:     framework.Int64Value(m.MaxPrefetchedMessages),
		ConcurrentProcesses:       framework.Int64Value(m.ConcurrentProcesses),
		DeliveryStatus:            framework.StringValue(m.DeliveryStatusAfterMaxRetries),
		QueueMaxRedeliveryCount:   framework.Int64Value(m.QueueMaxRedeliveryCount),
		MaxTotalAttempts:          framework.Int64Value(m.MaxTotalAttempts),
		ExpectedProcessingSeconds: framework.Int64Value(m.ExpectedProcessingSeconds),
		AllowCancelledRedelivery:  m.AllowCancelledRedelivery.ValueBool(),
		AllowUnsafeRetries:        m.AllowUnsafeRetries.ValueBool(),
	}
}

func (r *amqpSenderResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m amqpSenderModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := m.ruleInput()
	if in.DeliveryStatus.Null {
		in.DeliveryStatus = rules.Known("REJECTED")
	}
	framework.AppendFindings(&resp.Diagnostics, rules.CheckAMQPSender(in))
}

// worstCase returns (R + 1) × n + 1 when both inputs are known, null without R, unknown otherwise;
// R is the effective one (configured, or taken from the queue).
func (m *amqpSenderModel) worstCase() types.Int64 {
	r := m.EffectiveRedeliveryCount
	if r.IsNull() || m.MaxNumberOfRetries.IsNull() {
		return types.Int64Null()
	}
	if r.IsUnknown() || m.MaxNumberOfRetries.IsUnknown() {
		return types.Int64Unknown()
	}
	n, err := rules.MaxAttempts(r.ValueInt64(), m.MaxNumberOfRetries.ValueInt64())
	if err != nil {
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

// ModifyPlan fills what is known before apply: the arithmetic, and what the flow's content says.
func (r *amqpSenderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var plan amqpSenderModel
	if !startPlan(ctx, r.data, req, resp, "sapmessaging_amqp_sender", "AMQP", &plan) {
		return
	}
	s, ok := planChannel(ctx, r.data, &plan.senderCommon, (*cpi.Flow).Sender, addSenderError, amqpSubprocesses, &resp.Diagnostics)
	if !ok {
		return
	}
	channel := ""
	if s != nil {
		channel = s.FlowID
		plan.QueueName = types.StringValue(s.QueueName)
		if plan.MaxPrefetchedMessages.IsUnknown() && s.Prefetch != nil && req.State.Raw.IsNull() {
			plan.MaxPrefetchedMessages = types.Int64Value(*s.Prefetch)
		}
		if plan.ConcurrentProcesses.IsUnknown() && s.Concurrency != nil && req.State.Raw.IsNull() {
			plan.ConcurrentProcesses = types.Int64Value(*s.Concurrency)
		}
	}
	var prior *amqpSenderModel
	if !req.State.Raw.IsNull() {
		prior = &amqpSenderModel{}
		resp.Diagnostics.Append(framework.GetState(ctx, req.State, prior)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	r.resolveRedeliveryCount(ctx, &plan, prior, &resp.Diagnostics)
	plan.WorstCaseAttempts = plan.worstCase()
	r.glue().modifyPlan(ctx, req, resp, &plan, channel)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(framework.SetPlan(ctx, &resp.Plan, &plan)...)
}

// resolveRedeliveryCount sets the effective R and its source: the configured
// queue_max_redelivery_count, else the max_redelivery_count of the queue queue_name from the
// run's first queue list (one list per run, none per resource; the list taken before the run's
// writes, so that the apply sees the R the plan showed). At plan (diags set) it warns about what
// that R does, and keeps the R of the prior state when that came from the same queue: the refresh
// (Read, diags nil) reads R again, so a plan without refresh does not change it. A refresh only
// reads R.
func (r *amqpSenderResource) resolveRedeliveryCount(ctx context.Context, m, prior *amqpSenderModel, diags *diag.Diagnostics) {
	if !m.QueueMaxRedeliveryCount.IsNull() {
		m.EffectiveRedeliveryCount = m.QueueMaxRedeliveryCount
		m.RedeliveryCountSource = types.StringValue(redeliverySourceConfiguration)
		return
	}
	m.EffectiveRedeliveryCount, m.RedeliveryCountSource = types.Int64Null(), types.StringNull()
	if r.data == nil || r.data.EventMesh == nil || m.QueueName.IsUnknown() || m.QueueName.ValueString() == "" {
		return
	}
	queue := m.QueueName.ValueString()
	var rc int64
	if prior != nil && prior.RedeliveryCountSource.ValueString() == redeliverySourceEventMesh && prior.QueueName.Equal(m.QueueName) &&
		!prior.EffectiveRedeliveryCount.IsNull() && !prior.EffectiveRedeliveryCount.IsUnknown() {
		rc = prior.EffectiveRedeliveryCount.ValueInt64()
	} else {
		if diags != nil && !r.data.RequireAtPlan(ctx, diags, framework.NeedEventMesh) {
			return
		}
		s, err := r.data.EventMesh.FirstSnapshot(ctx)
		if err != nil {
			if diags != nil {
				// A plan that cannot read fails: the redelivery count of the queue decides the worst case.
				if !r.data.EventMeshCredential.AddRefused(diags, path.Root("queue_max_redelivery_count"), err) {
					diags.AddAttributeError(path.Root("queue_max_redelivery_count"), "Cannot Read Redelivery Count",
						framework.ListErrorDetail(fmt.Sprintf("reading the redelivery count of the queue %q that the sender consumes", queue), err))
				}
				return
			}
			tflog.Debug(ctx, "queue list not read; `worst_case_attempts` stays unknown without `queue_max_redelivery_count`", map[string]any{"error": err.Error()})
			return
		}
		q, ok := s.Queue(queue)
		if !ok {
			return
		}
		if q.MaxRedeliveryCount != nil {
			rc = *q.MaxRedeliveryCount
		} // else Event Mesh's default, 0: unlimited
	}
	m.EffectiveRedeliveryCount = types.Int64Value(rc)
	m.RedeliveryCountSource = types.StringValue(redeliverySourceEventMesh)
	if diags != nil {
		in := m.ruleInput()
		in.QueueMaxRedeliveryCount = rules.Known(rc)
		framework.AppendFindings(diags, rules.CheckDiscoveredRedelivery(in, queue))
	}
}

func endEventList(sps []cpi.ExceptionSubprocess) (types.List, diag.Diagnostics) {
	items := []string{}
	for _, sp := range sps {
		name := sp.Name
		if name == "" {
			name = sp.ID
		}
		for _, k := range sp.EndEvents {
			items = append(items, name+": "+k)
		}
	}
	return types.ListValueFrom(context.Background(), types.StringType, items)
}

func amqpSubprocesses(s *cpi.Sender) []cpi.ExceptionSubprocess { return s.ExceptionSubprocesses }

func addSenderError(diags *diag.Diagnostics, iflowID string, err error) {
	addChannelError(diags, "AMQP", iflowID, err, nil)
}

// read fills the model from the tenant. found is false when the flow no longer exists.
func (r *amqpSenderResource) read(ctx context.Context, m *amqpSenderModel, diags *diag.Diagnostics) (channel string, found bool) {
	s, found := readModelChannel(ctx, r.data, &m.senderCommon, (*cpi.Flow).Sender, addSenderError, amqpSubprocesses, diags)
	if s == nil {
		return "", found
	}
	m.MaxNumberOfRetries = framework.Int64OrNull(s.MaxRetries)
	m.DeliveryStatusAfterMaxRetries = framework.NonEmptyStringOrNull(s.DeliveryState)
	if m.AllowCancelledRedelivery.IsNull() || m.AllowCancelledRedelivery.IsUnknown() {
		// After an import: whether the channel cancels redelivery, so that a configuration adopting it
		// as it is (as terraform query writes it) plans no change.
		m.AllowCancelledRedelivery = types.BoolValue(framework.Deref(s.DeliveryState) == "MODIFIED_FAILED_UNDELIVERABLE")
	}
	if m.AllowUnsafeRetries.IsNull() || m.AllowUnsafeRetries.IsUnknown() {
		// After an import: whether the channel's retries are empty or 0, so that a configuration
		// adopting it as it is plans no change.
		m.AllowUnsafeRetries = types.BoolValue(s.MaxRetries == nil || *s.MaxRetries == 0)
	}
	m.MaxPrefetchedMessages = framework.Int64OrNull(s.Prefetch)
	m.ConcurrentProcesses = framework.Int64OrNull(s.Concurrency)
	m.QueueName = types.StringValue(s.QueueName)
	if !m.QueueMaxRedeliveryCount.IsNull() {
		m.EffectiveRedeliveryCount = m.QueueMaxRedeliveryCount
		m.RedeliveryCountSource = types.StringValue(redeliverySourceConfiguration)
	}
	m.WorstCaseAttempts = m.worstCase()
	return s.FlowID, true
}

// senderSettings returns the retry settings of the model; null ones are nil.
func (m *amqpSenderModel) senderSettings() cpi.SenderSettings {
	return cpi.SenderSettings{
		MaxRetries:    framework.Int64Ptr(m.MaxNumberOfRetries),
		Prefetch:      framework.Int64Ptr(m.MaxPrefetchedMessages),
		Concurrency:   framework.Int64Ptr(m.ConcurrentProcesses),
		DeliveryState: framework.StringPtr(m.DeliveryStatusAfterMaxRetries),
	}
}

// glue is the handling this resource shares with the other sender resources.
func (r *amqpSenderResource) glue() senderGlue[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings] {
	return senderGlue[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings]{
		data:     r.data,
		kind:     "AMQP",
		read:     r.read,
		settings: (*amqpSenderModel).senderSettings,
		edit:     (*cpi.Flow).EditSender,
		addError: addSenderError,
		runs:     amqpRuns,
	}
}

// amqpRuns says what the AMQP sender settings of m do when a failing message is retried without
// end: an empty Max. Number of Retries (the sender retries it in memory for ever).
func amqpRuns(m *amqpSenderModel) string {
	if !m.MaxNumberOfRetries.IsNull() || m.MaxNumberOfRetries.IsUnknown() {
		return ""
	}
	return "Max. Number of Retries is empty (for example an externalized parameter without a value), so the sender retries a failing message in memory without end"
}

// refreshRedeliveryCount reads R again from the queue at a refresh; an apply keeps the R its plan showed.
func (r *amqpSenderResource) refreshRedeliveryCount(ctx context.Context, m *amqpSenderModel) {
	r.resolveRedeliveryCount(ctx, m, nil, nil)
	m.WorstCaseAttempts = m.worstCase()
}

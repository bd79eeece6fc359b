package integration

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ resource.Resource                = (*jmsSenderResource)(nil)
	_ resource.ResourceWithConfigure   = (*jmsSenderResource)(nil)
	_ resource.ResourceWithImportState = (*jmsSenderResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*jmsSenderResource)(nil)
)

// NewJMSSenderResource returns the sapmessaging_jms_sender resource.
func NewJMSSenderResource() resource.Resource {
	r := &jmsSenderResource{}
	r.senderMethods = senderMethods[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings]{glue: r.glue, typeName: "sapmessaging_jms_sender"}
	return r
}

type jmsSenderResource struct {
	data *framework.ProviderData
	senderMethods[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings]
}

type JMSSenderModel struct {
	senderCommon
	RetryInterval       types.Int64 `tfsdk:"retry_interval"`
	ExponentialBackoff  types.Bool  `tfsdk:"exponential_backoff"`
	MaxRetryInterval    types.Int64 `tfsdk:"max_retry_interval"`
	ConcurrentProcesses types.Int64 `tfsdk:"concurrent_processes"`
	DeadLetterQueue     types.Bool  `tfsdk:"dead_letter_queue"`
	// AllowNonExclusiveSettings: the configuration's acceptance of concurrent processes other than 1 or the
	// dead-letter queue on a channel of an exclusive queue, adopted as the flow holds them.
	AllowNonExclusiveSettings types.Bool `tfsdk:"allow_non_exclusive_settings"`
	// AllowGiveUpAfterExpiry: the configuration's acceptance of a retry limit that ends a message only after the
	// queue's expiration period, on a channel adopted as its flow is.
	AllowGiveUpAfterExpiry types.Bool   `tfsdk:"allow_give_up_after_expiry"`
	MaxRetries             types.Int64  `tfsdk:"max_retries"`
	QueueExpirationDays    types.Int64  `tfsdk:"queue_expiration_days"`
	QueueName              types.String `tfsdk:"queue_name"`
	AccessType             types.String `tfsdk:"access_type"`
	RetryGuard             types.Object `tfsdk:"retry_guard"`
	GiveUpAfterMinutes     types.Int64  `tfsdk:"give_up_after_minutes"`
	AttemptsBeforeExpiry   types.Int64  `tfsdk:"attempts_before_expiry"`
}

// retryGuardTypes are the attributes of retry_guard.
var retryGuardTypes = map[string]attr.Type{
	"present":    types.BoolType,
	"kind":       types.StringType,
	"places":     types.ListType{ElemType: types.StringType},
	"condition":  types.StringType,
	"operator":   types.StringType,
	"limit_kind": types.StringType,
	"limit":      types.Int64Type,
}

func (r *jmsSenderResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_jms_sender"
}

func (r *jmsSenderResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	int64FromFlow := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	boolFromFlow := []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The retry settings of the JMS sender channel of one SAP Cloud Integration integration flow (iFlow), " +
			"and its deployment. A setting that is an externalized parameter (`{{Name}}`) is set through the flow's configuration; " +
			"a literal one is patched in the flow content, leaving everything else byte for byte. The flow is then deployed so the " +
			"settings take effect.\n\n" +
			"The JMS sender has **no maximum number of retries**: a message that always fails is retried until the queue's " +
			"expiration period deletes it, unless the flow itself ends it by comparing the `SAPJMSRetries` header. The plan reads " +
			"the flow, shows that guard in `retry_guard`, and computes `give_up_after_minutes` or `attempts_before_expiry`.\n\n" +
			"~> **Destroy leaves the flow as it is.** Removing this resource only forgets it: the iFlow, its settings and its deployment stay.",
		Attributes: senderAttributes(ctx, "JMS",
			"Only an Error End hands the failure back to the JMS queue for a retry; the others end the message, which is then gone.",
			map[string]schema.Attribute{
				"retry_interval": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, 10080),
					MarkdownDescription: "Retry Interval (minutes): the wait before the first retry. SAP accepts 1 to 60 for an exclusive queue " +
						"and 1 to 10080 for a non-exclusive one. Defaults to the flow's value.",
					Optional:      true,
					Computed:      true,
					PlanModifiers: int64FromFlow,
				},
				"exponential_backoff": schema.BoolAttribute{
					MarkdownDescription: "Exponential Backoff: double the wait after each failed retry, up to `max_retry_interval`. Off with a retry " +
						"interval under 10 minutes gets a warning: the receiver is then called every few minutes for as long as it fails. " +
						"Defaults to the flow's value.",
					Optional:      true,
					Computed:      true,
					PlanModifiers: boolFromFlow,
				},
				"max_retry_interval": schema.Int64Attribute{
					CustomType: framework.WholeNumber(10, 43200),
					MarkdownDescription: "Maximum Retry Interval (minutes): the longest wait with exponential backoff. SAP accepts 10 to 180 for an " +
						"exclusive queue and 10 to 43200 for a non-exclusive one. Defaults to the flow's value.",
					Optional:      true,
					Computed:      true,
					PlanModifiers: int64FromFlow,
				},
				"concurrent_processes": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, math.MaxInt64),
					MarkdownDescription: "Number of Concurrent Processes per worker node, non-exclusive queues only (an exclusive queue has " +
						"exactly one consumer). SAP recommends 1 to 5. Defaults to the flow's value.",
					Optional:      true,
					Computed:      true,
					PlanModifiers: int64FromFlow,
				},
				"dead_letter_queue": schema.BoolAttribute{
					MarkdownDescription: "Dead-Letter Queue. " + rules.JMSDeadLetterQueueDescription + " Defaults to the flow's value.",
					Optional:            true,
					Computed:            true,
					PlanModifiers:       boolFromFlow,
				},
				"allow_non_exclusive_settings": schema.BoolAttribute{
					MarkdownDescription: "Accept `concurrent_processes` other than 1 or `dead_letter_queue = true` on a channel whose queue is " +
						"exclusive, where neither has an effect: the plan then warns instead of refusing. Only for adopting a channel whose flow " +
						"already holds them as it is: an import sets it to `true` for such a channel, and `terraform query -generate-config-out` " +
						"writes it. Set `concurrent_processes = 1` and `dead_letter_queue = false` and remove this attribute as soon as you can. " +
						"Defaults to `false`; the provider's check only: nothing is written to the flow.",
					Optional: true,
					Computed: true,
					Default:  booldefault.StaticBool(false),
				},
				"allow_give_up_after_expiry": schema.BoolAttribute{
					MarkdownDescription: "Accept a retry limit (the flow's guard, or `max_retries`) that ends a failing message only after " +
						"`queue_expiration_days`, when the queue has deleted it without a trace: the plan then warns instead of refusing. Only " +
						"for adopting a channel whose flow already works this way as it is: an import sets it to `true` for such a channel, and " +
						"`terraform query -generate-config-out` writes it. Lower the limit or the waits (or set `queue_expiration_days` to the " +
						"receiver's longer Expiration Period) and remove this attribute as soon as you can. " +
						"Defaults to `false`; the provider's check only: nothing is written to the flow.",
					Optional: true,
					Computed: true,
					Default:  booldefault.StaticBool(false),
				},
				"max_retries": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, math.MaxInt64),
					MarkdownDescription: "The retry limit the flow should enforce. The JMS sender has no such setting: the flow enforces it with a " +
						"guard on `SAPJMSRetries`. The plan fails when the flow has no guard or the queue is exclusive, warns when the guard " +
						"shows another limit, and computes `give_up_after_minutes` from it when the guard's limit is not visible.",
					Optional: true,
				},
				"queue_expiration_days": schema.Int64Attribute{
					CustomType: framework.WholeNumber(1, rules.JMSMaxExpirationDays),
					MarkdownDescription: "The Expiration Period (days, 1 to 180) of the JMS receiver of the flow that fills the queue: a message " +
						"still in the queue after that many days is deleted. Defaults to `30`, SAP's default. The plan fails when " +
						"`give_up_after_minutes` is longer.",
					Optional: true,
					Computed: true,
					Default:  int64default.StaticInt64(rules.DefaultJMSExpirationDays),
				},
				"queue_name": schema.StringAttribute{
					MarkdownDescription: "The JMS queue the sender consumes (`QueueName_inbound`).",
					Computed:            true,
					PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				},
				"access_type": schema.StringAttribute{
					MarkdownDescription: "The queue's access type: `Non-Exclusive` or `Exclusive`; null when the flow sets it through a parameter " +
						"without a value. A sender without the setting counts as non-exclusive.",
					Computed: true,
				},
				"retry_guard": schema.SingleNestedAttribute{
					MarkdownDescription: "Where the flow compares `SAPJMSRetries`, the header that counts the retries of a message on a " +
						"non-exclusive queue, and the limit the plan can see.",
					Computed: true,
					Attributes: map[string]schema.Attribute{
						"present": schema.BoolAttribute{
							MarkdownDescription: "Whether the flow reads `SAPJMSRetries` anywhere: a route condition, a route in an exception subprocess, or a script.",
							Computed:            true,
						},
						"kind": schema.StringAttribute{
							MarkdownDescription: "The kind of the guard whose limit is reported: `router`, `exception_subprocess` or `script`; null without a guard.",
							Computed:            true,
						},
						"places": schema.ListAttribute{
							MarkdownDescription: "The kinds of every place that reads `SAPJMSRetries`, in document order.",
							ElementType:         types.StringType,
							Computed:            true,
						},
						"condition": schema.StringAttribute{
							MarkdownDescription: "The route's condition, or the script file name.",
							Computed:            true,
						},
						"operator": schema.StringAttribute{
							MarkdownDescription: "The comparison with `SAPJMSRetries` on the left (`>`, `>=`, `=`, …); null when none was found.",
							Computed:            true,
						},
						"limit_kind": schema.StringAttribute{
							MarkdownDescription: "What the header is compared with: `literal` (a number in the condition), `parameter` (an externalized " +
								"parameter) or `not_visible` (a header or property set at run time, or a script).",
							Computed: true,
						},
						"limit": schema.Int64Attribute{
							MarkdownDescription: "The limit when it is visible: the literal, or the externalized parameter's value; null otherwise.",
							Computed:            true,
						},
					},
				},
				"give_up_after_minutes": schema.Int64Attribute{
					MarkdownDescription: "The minutes from the first failure until the retry on which the flow's guard ends the message, with the " +
						"configured waits (doubling up to `max_retry_interval` with backoff). It uses the guard's visible limit, else " +
						"`max_retries`; `SAPJMSRetries` counts the retries already made, so `> 5` ends the message on retry 6. Null when " +
						"no limit applies or none is visible. Processing time and the up to one minute a due message waits for the queue's " +
						"scheduler come on top.",
					Computed: true,
				},
				"attempts_before_expiry": schema.Int64Attribute{
					MarkdownDescription: "When no limit applies (no guard, or an exclusive queue): the executions an always-failing message gets " +
						"(first attempt and retries) before `queue_expiration_days` ends and the message is deleted. Null when a limit applies.",
					Computed: true,
				},
			}),
	}
}

func (r *jmsSenderResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// FlowFacts is what the flow tells beyond the settings: the access type and the retry guard.
type FlowFacts struct {
	accessType rules.Value[string]
	guard      rules.JMSRetryGuard
	summary    iflow.GuardSummary
	read       bool
}

func UnknownFlowFacts() FlowFacts {
	return FlowFacts{accessType: rules.Unknown[string](), guard: rules.JMSRetryGuard{Present: rules.Unknown[bool](), Limit: rules.Unknown[int64]()}}
}

func FactsOf(s *cpi.JMSSender) FlowFacts {
	f := FlowFacts{accessType: rules.Null[string](), read: true, summary: iflow.SummarizeGuards(s.Guards)}
	if s.AccessType != "" {
		f.accessType = rules.Known(s.AccessType)
	}
	f.guard.Present = rules.Known(f.summary.Present)
	f.guard.Limit = rules.Null[int64]()
	if f.summary.Present {
		f.guard.Operator = f.summary.Guard.Operator
		if f.summary.Guard.Limit.Known {
			f.guard.Limit = rules.Known(f.summary.Guard.Limit.Value)
		}
	}
	return f
}

func (m *JMSSenderModel) ruleInput(f FlowFacts) rules.JMSSender {
	return rules.JMSSender{
		AccessType:                f.accessType,
		RetryInterval:             framework.Int64Value(m.RetryInterval),
		MaxRetryInterval:          framework.Int64Value(m.MaxRetryInterval),
		ConcurrentProcesses:       framework.Int64Value(m.ConcurrentProcesses),
		ExponentialBackoff:        framework.BoolValue(m.ExponentialBackoff),
		DeadLetterQueue:           framework.BoolValue(m.DeadLetterQueue),
		MaxRetries:                framework.Int64Value(m.MaxRetries),
		ExpirationDays:            framework.Int64Value(m.QueueExpirationDays),
		Guard:                     f.guard,
		AllowNonExclusiveSettings: m.AllowNonExclusiveSettings.ValueBool(),
		AllowGiveUpAfterExpiry:    m.AllowGiveUpAfterExpiry.ValueBool(),
	}
}

// guardObject renders the flow's guard summary as retry_guard.
func guardObject(f FlowFacts) (types.Object, diag.Diagnostics) {
	if !f.read {
		return types.ObjectUnknown(retryGuardTypes), nil
	}
	places, d := types.ListValueFrom(context.Background(), types.StringType, append([]string{}, f.summary.Places...))
	if d.HasError() {
		return types.ObjectNull(retryGuardTypes), d
	}
	g := f.summary.Guard
	str := func(s string) types.String {
		if !f.summary.Present || s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	limit := types.Int64Null()
	if f.summary.Present && g.Limit.Known {
		limit = types.Int64Value(g.Limit.Value)
	}
	return types.ObjectValue(retryGuardTypes, map[string]attr.Value{
		"present":    types.BoolValue(f.summary.Present),
		"kind":       str(g.Kind),
		"places":     places,
		"condition":  str(g.Condition),
		"operator":   str(g.Operator),
		"limit_kind": str(g.Limit.Kind),
		"limit":      limit,
	})
}

// Derive sets give_up_after_minutes and attempts_before_expiry from the settings and the flow's facts.
func (m *JMSSenderModel) Derive(f FlowFacts) {
	m.GiveUpAfterMinutes, m.AttemptsBeforeExpiry = types.Int64Null(), types.Int64Null()
	in := m.ruleInput(f)
	if m.RetryInterval.IsUnknown() || m.ExponentialBackoff.IsUnknown() || m.MaxRetryInterval.IsUnknown() ||
		m.QueueExpirationDays.IsUnknown() || in.AccessType.IsUnknown() || in.Guard.Present.IsUnknown() {
		m.GiveUpAfterMinutes, m.AttemptsBeforeExpiry = types.Int64Unknown(), types.Int64Unknown()
		return
	}
	sch := rules.JMSSchedule{RetryInterval: rules.DefaultJMSRetryInterval, MaxRetryInterval: rules.DefaultJMSMaxRetryInterval, ExponentialBackoff: true}
	if p := framework.Int64Ptr(m.RetryInterval); p != nil {
		sch.RetryInterval = *p
	}
	if p := framework.Int64Ptr(m.MaxRetryInterval); p != nil {
		sch.MaxRetryInterval = *p
	}
	if p := framework.BoolPtr(m.ExponentialBackoff); p != nil {
		sch.ExponentialBackoff = *p
	}
	days := int64(rules.DefaultJMSExpirationDays)
	if p := framework.Int64Ptr(m.QueueExpirationDays); p != nil {
		days = *p
	}
	if sch.Validate() != nil || days < 1 || days > rules.JMSMaxExpirationDays {
		return
	}
	exclusive := !in.AccessType.Null && strings.EqualFold(in.AccessType.V, rules.JMSAccessExclusive)
	if exclusive || !in.Guard.Present.V {
		if n, err := sch.RetriesWithin(days * 24 * 60); err == nil {
			m.AttemptsBeforeExpiry = types.Int64Value(n + 1)
		}
		return
	}
	limit := in.Guard.Limit
	if limit.Null {
		if m.MaxRetries.IsUnknown() {
			m.GiveUpAfterMinutes = types.Int64Unknown()
			return
		}
		limit = framework.Int64Value(m.MaxRetries)
	}
	if limit.Null || limit.V < 0 {
		return
	}
	if t, err := sch.GiveUpMinutes(rules.JMSGuardStopRetry(limit.V, in.Guard.Operator)); err == nil {
		m.GiveUpAfterMinutes = types.Int64Value(t)
	}
}

// ModifyPlan reads the flow to know its access type and retry guard, applies the JMS sender
// rules to the planned values and fills what is known before apply.
func (r *jmsSenderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var plan JMSSenderModel
	if !startPlan(ctx, r.data, req, resp, "sapmessaging_jms_sender", "JMS", &plan) {
		return
	}
	s, ok := planChannel(ctx, r.data, &plan.senderCommon, (*cpi.Flow).JMSSender, addJMSSenderError, jmsSubprocesses, &resp.Diagnostics)
	if !ok {
		return
	}
	facts := UnknownFlowFacts()
	channel := ""
	if s != nil {
		facts = FactsOf(s)
		channel = s.FlowID
		checkAbsentJMSSettings(&resp.Diagnostics, &plan, s)
		plan.QueueName = types.StringValue(s.QueueName)
		plan.AccessType = framework.NonEmptyStringOrNull(&s.AccessType)
		if req.State.Raw.IsNull() {
			// A setting the configuration leaves out keeps the flow's value. Terraform plans the create
			// half of a replacement with a null prior state too, so a resource moved to another flow
			// takes that flow's values, not the old flow's.
			if plan.RetryInterval.IsUnknown() {
				plan.RetryInterval = framework.Int64OrNull(s.RetryInterval)
			}
			if plan.MaxRetryInterval.IsUnknown() {
				plan.MaxRetryInterval = framework.Int64OrNull(s.MaxRetryInterval)
			}
			if plan.ConcurrentProcesses.IsUnknown() {
				plan.ConcurrentProcesses = framework.Int64OrNull(s.Concurrency)
			}
			if plan.ExponentialBackoff.IsUnknown() {
				plan.ExponentialBackoff = boolOrNull(s.ExponentialBackoff)
			}
			if plan.DeadLetterQueue.IsUnknown() {
				plan.DeadLetterQueue = boolOrNull(s.DeadLetterQueue)
			}
		}
	}
	guard, d := guardObject(facts)
	resp.Diagnostics.Append(d...)
	plan.RetryGuard = guard
	if !facts.read {
		plan.AccessType = types.StringUnknown()
	}
	plan.Derive(facts)
	framework.AppendFindings(&resp.Diagnostics, rules.CheckJMSSender(plan.ruleInput(facts)))
	r.glue().modifyPlan(ctx, req, resp, &plan, channel)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(framework.SetPlan(ctx, &resp.Plan, &plan)...)
}

// checkAbsentJMSSettings reports, at plan, a setting the configuration changes that the channel has no
// property for: the apply could not patch it in place.
func checkAbsentJMSSettings(diags *diag.Diagnostics, plan *JMSSenderModel, s *cpi.JMSSender) {
	for _, a := range []struct {
		attr    string
		setting cpi.Setting
		value   attr.Value
	}{
		{"retry_interval", cpi.SettingJMSRetryInterval, plan.RetryInterval},
		{"exponential_backoff", cpi.SettingJMSBackoff, plan.ExponentialBackoff},
		{"max_retry_interval", cpi.SettingJMSMaxRetryInterval, plan.MaxRetryInterval},
		{"concurrent_processes", cpi.SettingJMSConcurrency, plan.ConcurrentProcesses},
		{"dead_letter_queue", cpi.SettingJMSDeadLetterQueue, plan.DeadLetterQueue},
	} {
		if !s.Absent[a.setting] || a.value.IsNull() || a.value.IsUnknown() {
			continue
		}
		diags.AddAttributeError(path.Root(a.attr), "Setting Not In The Channel",
			fmt.Sprintf("`%s = %s` cannot be applied: the JMS sender channel %q has no %s property, so there is nothing to change in place "+
				"(an exclusive queue, for example, has no concurrent processes and no dead-letter option). "+
				"Remove %s from the configuration, or open the channel's Processing tab in Cloud Integration and save the flow once so that it gets the setting.",
				a.attr, a.value, channelName(s), a.setting, a.attr))
	}
}

func channelName(s *cpi.JMSSender) string {
	if s.Name != "" {
		return s.Name
	}
	return s.FlowID
}

func boolOrNull(p *bool) types.Bool {
	if p == nil {
		return types.BoolNull()
	}
	return types.BoolValue(*p)
}

func jmsSubprocesses(s *cpi.JMSSender) []cpi.ExceptionSubprocess { return s.ExceptionSubprocesses }

func addJMSSenderError(diags *diag.Diagnostics, iflowID string, err error) {
	addChannelError(diags, "JMS", iflowID, err, func() bool {
		return addChannelMissing(diags, "JMS", iflowID, err, cpi.ErrNoJMSSender, "JMS queue", "JMS sender adapter")
	})
}

// read fills the model from the tenant. found is false when the flow no longer exists.
func (r *jmsSenderResource) read(ctx context.Context, m *JMSSenderModel, diags *diag.Diagnostics) (channel string, found bool) {
	s, found := readModelChannel(ctx, r.data, &m.senderCommon, (*cpi.Flow).JMSSender, addJMSSenderError, jmsSubprocesses, diags)
	if s == nil {
		return "", found
	}
	m.RetryInterval = framework.Int64OrNull(s.RetryInterval)
	m.ExponentialBackoff = boolOrNull(s.ExponentialBackoff)
	m.MaxRetryInterval = framework.Int64OrNull(s.MaxRetryInterval)
	m.ConcurrentProcesses = framework.Int64OrNull(s.Concurrency)
	m.DeadLetterQueue = boolOrNull(s.DeadLetterQueue)
	m.QueueName = types.StringValue(s.QueueName)
	m.AccessType = framework.NonEmptyStringOrNull(&s.AccessType)
	facts := FactsOf(s)
	guard, d := guardObject(facts)
	diags.Append(d...)
	m.RetryGuard = guard
	if m.QueueExpirationDays.IsNull() || m.QueueExpirationDays.IsUnknown() {
		m.QueueExpirationDays = types.Int64Value(rules.DefaultJMSExpirationDays)
	}
	if m.AllowNonExclusiveSettings.IsNull() || m.AllowNonExclusiveSettings.IsUnknown() {
		// Imported: a channel of an exclusive queue that holds settings of a non-exclusive one is adopted as it is.
		exclusive := strings.EqualFold(s.AccessType, rules.JMSAccessExclusive)
		m.AllowNonExclusiveSettings = types.BoolValue(exclusive &&
			((s.Concurrency != nil && *s.Concurrency != 1) || (s.DeadLetterQueue != nil && *s.DeadLetterQueue)))
	}
	m.Derive(facts)
	if m.AllowGiveUpAfterExpiry.IsNull() || m.AllowGiveUpAfterExpiry.IsUnknown() {
		// Imported: a channel whose retry limit ends a message only after the queue's expiration period is
		// adopted as it is.
		m.AllowGiveUpAfterExpiry = types.BoolValue(slices.ContainsFunc(rules.CheckJMSSender(m.ruleInput(facts)),
			func(f rules.Finding) bool { return f.Rule == "jms_sender.give_up_after_expiry" }))
	}
	return s.FlowID, true
}

// settings returns the retry settings of the model; null ones are nil.
func (m *JMSSenderModel) settings() cpi.JMSSenderSettings {
	return cpi.JMSSenderSettings{
		RetryInterval:      framework.Int64Ptr(m.RetryInterval),
		ExponentialBackoff: framework.BoolPtr(m.ExponentialBackoff),
		MaxRetryInterval:   framework.Int64Ptr(m.MaxRetryInterval),
		Concurrency:        framework.Int64Ptr(m.ConcurrentProcesses),
		DeadLetterQueue:    framework.BoolPtr(m.DeadLetterQueue),
	}
}

// glue is the handling this resource shares with the other sender resources.
func (r *jmsSenderResource) glue() senderGlue[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings] {
	return senderGlue[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings]{
		data:            r.data,
		kind:            "JMS",
		read:            r.read,
		settings:        (*JMSSenderModel).settings,
		edit:            (*cpi.Flow).EditJMSSender,
		addError:        addJMSSenderError,
		importIDProblem: ": a part is empty",
		importDefaults: func(ctx context.Context, state *tfsdk.State) diag.Diagnostics {
			return state.SetAttribute(ctx, path.Root("queue_expiration_days"), int64(rules.DefaultJMSExpirationDays))
		},
	}
}

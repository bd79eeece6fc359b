package landscape

import (
	"context"
	"fmt"
	"math"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ datasource.DataSource                   = (*retryPolicyDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*retryPolicyDataSource)(nil)
)

// NewRetryPolicyDataSource returns the sapmessaging_retry_policy data source.
func NewRetryPolicyDataSource() datasource.DataSource {
	return &retryPolicyDataSource{}
}

type retryPolicyDataSource struct{}

type retryPolicyModel struct {
	TotalAttempts                 types.Int64       `tfsdk:"total_attempts"`
	AttemptSeconds                types.Float64     `tfsdk:"attempt_seconds"`
	MaxRedeliveryCount            types.Int64       `tfsdk:"max_redelivery_count"`
	MaxNumberOfRetries            types.Int64       `tfsdk:"max_number_of_retries"`
	DeliveryStatusAfterMaxRetries types.String      `tfsdk:"delivery_status_after_max_retries"`
	WorstCaseAttempts             types.Int64       `tfsdk:"worst_case_attempts"`
	SecondsToDeadMessageQueue     types.Float64     `tfsdk:"seconds_to_dead_message_queue"`
	JMS                           *jmsScheduleModel `tfsdk:"jms"`
}

// jmsScheduleModel is the optional JMS sender schedule of sapmessaging_retry_policy.
type jmsScheduleModel struct {
	RetryInterval       types.Int64 `tfsdk:"retry_interval"`
	MaxRetryInterval    types.Int64 `tfsdk:"max_retry_interval"`
	ExponentialBackoff  types.Bool  `tfsdk:"exponential_backoff"`
	Retries             types.Int64 `tfsdk:"retries"`
	BudgetMinutes       types.Int64 `tfsdk:"budget_minutes"`
	WaitsMinutes        types.List  `tfsdk:"waits_minutes"`
	GiveUpAfterMinutes  types.Int64 `tfsdk:"give_up_after_minutes"`
	RetriesWithinBudget types.Int64 `tfsdk:"retries_within_budget"`
}

// maxJMSWaitsListed bounds retries in the data source, whose waits_minutes lists every wait;
// the jms_give_up_minutes function takes any count.
const maxJMSWaitsListed = 10000

func (d *retryPolicyDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_retry_policy"
}

func (d *retryPolicyDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Computes the recommended retry settings for a budget of executions per message, without calling any API: " +
			"keep the AMQP sender at one retry, reject after it, and spend the rest of the budget on Event Mesh redeliveries, which " +
			"persist across restarts and end in the dead message queue. The optional `jms` attribute computes the retry schedule " +
			"of a Cloud Integration JMS sender: the wait before each retry, the time until the last one, and the retries that fit " +
			"a time budget such as the queue's expiration period.",
		Attributes: map[string]schema.Attribute{
			"total_attempts": schema.Int64Attribute{
				CustomType:          framework.WholeNumber(3, 257),
				MarkdownDescription: "How many executions one always-failing message may cost at most, 3 to 257.",
				Required:            true,
			},
			"attempt_seconds": schema.Float64Attribute{
				MarkdownDescription: "How long one execution takes, in seconds, to estimate the time until a poison message reaches the dead message queue.",
				Optional:            true,
			},
			"max_redelivery_count": schema.Int64Attribute{
				MarkdownDescription: "The queue's `max_redelivery_count`: `total_attempts − 2`.",
				Computed:            true,
			},
			"max_number_of_retries": schema.Int64Attribute{
				MarkdownDescription: "The AMQP sender's `max_number_of_retries`: always 1.",
				Computed:            true,
			},
			"delivery_status_after_max_retries": schema.StringAttribute{
				MarkdownDescription: "The AMQP sender's delivery status after the retries: always `REJECTED`, so Event Mesh redelivers.",
				Computed:            true,
			},
			"worst_case_attempts": schema.Int64Attribute{
				MarkdownDescription: "`(max_redelivery_count + 1) × max_number_of_retries + 1`, equal to `total_attempts`.",
				Computed:            true,
			},
			"seconds_to_dead_message_queue": schema.Float64Attribute{
				MarkdownDescription: "`worst_case_attempts × attempt_seconds` (retries and redeliveries do not back off); null without `attempt_seconds`.",
				Computed:            true,
			},
			"jms": jmsScheduleSchema(),
		},
	}
}

func jmsScheduleSchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		MarkdownDescription: "The retry schedule of a Cloud Integration JMS sender channel, which has no retry limit of its own: " +
			"the wait before retry *n* is `min(retry_interval × 2^(n−1), max_retry_interval)` with exponential backoff and " +
			"`retry_interval` without. Set `retries` for the waits and the time until the last retry, `budget_minutes` for the " +
			"retries that fit a time budget, such as the queue's expiration period (30 days = 43200 minutes by default). " +
			"All times are in minutes from the first failure; processing time and the up to one minute a retry may start late " +
			"come on top.",
		Optional: true,
		Attributes: map[string]schema.Attribute{
			"retry_interval": schema.Int64Attribute{
				CustomType:          framework.WholeNumber(1, 10080),
				MarkdownDescription: "Retry Interval in minutes, 1 or more; SAP's default 1 when not set. SAP accepts 1 to 60 for exclusive and 1 to 10080 for non-exclusive queues.",
				Optional:            true,
				Computed:            true,
			},
			"max_retry_interval": schema.Int64Attribute{
				CustomType:          framework.WholeNumber(10, 43200),
				MarkdownDescription: "Maximum Retry Interval in minutes; SAP's default 60 when not set. SAP accepts 10 to 180 for exclusive and 10 to 43200 for non-exclusive queues. Used only with `exponential_backoff`.",
				Optional:            true,
				Computed:            true,
			},
			"exponential_backoff": schema.BoolAttribute{
				MarkdownDescription: "Whether the wait doubles after each failed retry; SAP's default `true` when not set.",
				Optional:            true,
				Computed:            true,
			},
			"retries": schema.Int64Attribute{
				CustomType:          framework.WholeNumber(0, maxJMSWaitsListed),
				MarkdownDescription: fmt.Sprintf("The number of retries until the message ends, 0 to %d. A guard `${header.SAPJMSRetries} > N` ends it on retry N + 1, so use N + 1 for such a guard.", maxJMSWaitsListed),
				Optional:            true,
			},
			"budget_minutes": schema.Int64Attribute{
				CustomType:          framework.WholeNumber(0, math.MaxInt64),
				MarkdownDescription: "A time budget in minutes, for example the queue's expiration period in minutes (`30 * 24 * 60`).",
				Optional:            true,
			},
			"waits_minutes": schema.ListAttribute{
				MarkdownDescription: "The wait before each of the `retries` retries; null without `retries`.",
				ElementType:         types.Int64Type,
				Computed:            true,
			},
			"give_up_after_minutes": schema.Int64Attribute{
				MarkdownDescription: "Minutes from the first failure until retry `retries` starts (the sum of `waits_minutes`); null without `retries`.",
				Computed:            true,
			},
			"retries_within_budget": schema.Int64Attribute{
				MarkdownDescription: "The most retries that start within `budget_minutes` of the first failure; with no retry limit, the retries a message gets before the expiration period deletes it. Null without `budget_minutes`.",
				Computed:            true,
			},
		},
	}
}

// schedule returns the JMS schedule with SAP's defaults for unset values.
func (m *jmsScheduleModel) schedule() rules.JMSSchedule {
	s := rules.JMSSchedule{RetryInterval: rules.DefaultJMSRetryInterval, MaxRetryInterval: rules.DefaultJMSMaxRetryInterval, ExponentialBackoff: true}
	if !m.RetryInterval.IsNull() {
		s.RetryInterval = m.RetryInterval.ValueInt64()
	}
	if !m.MaxRetryInterval.IsNull() {
		s.MaxRetryInterval = m.MaxRetryInterval.ValueInt64()
	}
	if !m.ExponentialBackoff.IsNull() {
		s.ExponentialBackoff = m.ExponentialBackoff.ValueBool()
	}
	return s
}

// validateJMS reports the JMS schedule inputs the arithmetic cannot use.
func validateJMS(m *jmsScheduleModel, resp *datasource.ValidateConfigResponse) {
	if m == nil || m.RetryInterval.IsUnknown() || m.MaxRetryInterval.IsUnknown() || m.ExponentialBackoff.IsUnknown() {
		return
	}
	if err := m.schedule().Validate(); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("jms"), "Invalid JMS Retry Schedule",
			err.Error()+". Set `retry_interval` and `max_retry_interval` to SAP's ranges, for example 1 and 60.")
	}
	if !m.Retries.IsNull() && !m.Retries.IsUnknown() {
		if n := m.Retries.ValueInt64(); n < 0 || n > maxJMSWaitsListed {
			resp.Diagnostics.AddAttributeError(path.Root("jms").AtName("retries"), "Invalid JMS Retries",
				fmt.Sprintf("`retries = %d` is outside 0 to %d, the counts for which this data source lists every wait. "+
					"Set `retries` to a value from 0 to %d, or use `provider::sapmessaging::jms_give_up_minutes` for larger counts.", n, maxJMSWaitsListed, maxJMSWaitsListed))
		}
	}
	if !m.BudgetMinutes.IsNull() && !m.BudgetMinutes.IsUnknown() && m.BudgetMinutes.ValueInt64() < 0 {
		resp.Diagnostics.AddAttributeError(path.Root("jms").AtName("budget_minutes"), "Invalid Time Budget",
			fmt.Sprintf("`budget_minutes = %d` is a negative time. Set `budget_minutes` to 0 or more, for example %d for the default expiration period of 30 days.",
				m.BudgetMinutes.ValueInt64(), rules.DefaultJMSExpirationDays*24*60))
	}
}

// readJMS fills the computed JMS schedule attributes.
func readJMS(m *jmsScheduleModel, resp *datasource.ReadResponse) {
	if m == nil {
		return
	}
	s := m.schedule()
	m.RetryInterval = types.Int64Value(s.RetryInterval)
	m.MaxRetryInterval = types.Int64Value(s.MaxRetryInterval)
	m.ExponentialBackoff = types.BoolValue(s.ExponentialBackoff)
	m.WaitsMinutes = types.ListNull(types.Int64Type)
	m.GiveUpAfterMinutes = types.Int64Null()
	m.RetriesWithinBudget = types.Int64Null()
	if !m.Retries.IsNull() {
		n := m.Retries.ValueInt64()
		if n > maxJMSWaitsListed {
			resp.Diagnostics.AddAttributeError(path.Root("jms").AtName("retries"), "Invalid JMS Retries",
				fmt.Sprintf("`retries = %d` is more than %d. Set `retries` to a value from 0 to %d.", n, maxJMSWaitsListed, maxJMSWaitsListed))
			return
		}
		waits, err := s.Waits(n)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("jms"), "Invalid JMS Retry Schedule", jmsScheduleDetail(err))
			return
		}
		total, err := s.GiveUpMinutes(n)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("jms"), "Invalid JMS Retry Schedule", jmsScheduleDetail(err))
			return
		}
		elems := make([]attr.Value, len(waits))
		for i, w := range waits {
			elems[i] = types.Int64Value(w)
		}
		m.WaitsMinutes = types.ListValueMust(types.Int64Type, elems)
		m.GiveUpAfterMinutes = types.Int64Value(total)
	}
	if !m.BudgetMinutes.IsNull() {
		n, err := s.RetriesWithin(m.BudgetMinutes.ValueInt64())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("jms"), "Invalid JMS Retry Schedule", jmsScheduleDetail(err))
			return
		}
		m.RetriesWithinBudget = types.Int64Value(n)
	}
}

func (d *retryPolicyDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m retryPolicyModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() || m.TotalAttempts.IsNull() || m.TotalAttempts.IsUnknown() {
		return
	}
	if _, err := rules.RedeliveriesFor(m.TotalAttempts.ValueInt64()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("total_attempts"), "Unreachable Attempt Budget", attemptBudgetDetail(err))
	}
	if !m.AttemptSeconds.IsNull() && !m.AttemptSeconds.IsUnknown() && m.AttemptSeconds.ValueFloat64() <= 0 {
		resp.Diagnostics.AddAttributeError(path.Root("attempt_seconds"), "Invalid Attempt Duration",
			"`attempt_seconds` must be a positive number of seconds. Set the typical duration of one execution of the flow, for example 2.5.")
	}
	validateJMS(m.JMS, resp)
}

func (d *retryPolicyDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m retryPolicyModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	const retries = 1
	r, err := rules.RedeliveriesFor(m.TotalAttempts.ValueInt64())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("total_attempts"), "Unreachable Attempt Budget", attemptBudgetDetail(err))
		return
	}
	worst, err := rules.MaxAttempts(r, retries)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("total_attempts"), "Unreachable Attempt Budget", attemptBudgetDetail(err))
		return
	}
	m.MaxRedeliveryCount = types.Int64Value(r)
	m.MaxNumberOfRetries = types.Int64Value(retries)
	m.DeliveryStatusAfterMaxRetries = types.StringValue("REJECTED")
	m.WorstCaseAttempts = types.Int64Value(worst)
	m.SecondsToDeadMessageQueue = types.Float64Null()
	if !m.AttemptSeconds.IsNull() {
		m.SecondsToDeadMessageQueue = types.Float64Value(float64(worst) * m.AttemptSeconds.ValueFloat64())
	}
	readJMS(m.JMS, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &m)...)
}

// jmsScheduleDetail explains a JMS schedule the arithmetic cannot use.
func jmsScheduleDetail(err error) string {
	return fmt.Sprintf("The JMS retry schedule cannot be computed: %s. Set the jms block to the values of the JMS sender, within SAP's ranges.", framework.Clause(err))
}

// attemptBudgetDetail explains a total_attempts that no queue setting gives.
func attemptBudgetDetail(err error) string {
	return fmt.Sprintf("%s. Set `total_attempts` to a whole number from 3 to 257.", framework.Clause(err))
}

package provider

import (
	"context"

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
	TotalAttempts                 types.Int64   `tfsdk:"total_attempts"`
	AttemptSeconds                types.Float64 `tfsdk:"attempt_seconds"`
	MaxRedeliveryCount            types.Int64   `tfsdk:"max_redelivery_count"`
	MaxNumberOfRetries            types.Int64   `tfsdk:"max_number_of_retries"`
	DeliveryStatusAfterMaxRetries types.String  `tfsdk:"delivery_status_after_max_retries"`
	WorstCaseAttempts             types.Int64   `tfsdk:"worst_case_attempts"`
	SecondsToDeadMessageQueue     types.Float64 `tfsdk:"seconds_to_dead_message_queue"`
}

func (d *retryPolicyDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_retry_policy"
}

func (d *retryPolicyDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Computes the recommended retry settings for a budget of executions per message, without calling any API: " +
			"keep the AMQP sender at one retry, reject after it, and spend the rest of the budget on Event Mesh redeliveries, which " +
			"persist across restarts and end in the dead message queue.",
		Attributes: map[string]schema.Attribute{
			"total_attempts": schema.Int64Attribute{
				CustomType:          wholeNumber(3, 257),
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
		},
	}
}

func (d *retryPolicyDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m retryPolicyModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.TotalAttempts.IsNull() || m.TotalAttempts.IsUnknown() {
		return
	}
	if _, err := rules.RedeliveriesFor(m.TotalAttempts.ValueInt64()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("total_attempts"), "Unreachable Attempt Budget", err.Error())
	}
	if !m.AttemptSeconds.IsNull() && !m.AttemptSeconds.IsUnknown() && m.AttemptSeconds.ValueFloat64() <= 0 {
		resp.Diagnostics.AddAttributeError(path.Root("attempt_seconds"), "Invalid Attempt Duration",
			"attempt_seconds must be a positive number of seconds. Set the typical duration of one execution of the flow, for example 2.5.")
	}
}

func (d *retryPolicyDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m retryPolicyModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	const retries = 1
	r, err := rules.RedeliveriesFor(m.TotalAttempts.ValueInt64())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("total_attempts"), "Unreachable Attempt Budget", err.Error())
		return
	}
	worst, err := rules.MaxAttempts(r, retries)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("total_attempts"), "Unreachable Attempt Budget", err.Error())
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
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

package netweaver

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/jms"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ datasource.DataSource                     = (*jmsResourcesDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*jmsResourcesDataSource)(nil)
)

// NewJMSResourcesDataSource returns the sapmessaging_jms_resources data source.
func NewJMSResourcesDataSource() datasource.DataSource {
	return &jmsResourcesDataSource{}
}

type jmsResourcesDataSource struct{}

type jmsResourcesModel struct {
	ApplicationName     types.String           `tfsdk:"application_name"`
	ConnectionFactories []jmsConnectionFactory `tfsdk:"connection_factories"`
	Destinations        []jmsDestinationModel  `tfsdk:"destinations"`
	SourceXML           types.String           `tfsdk:"source_xml"`
	XML                 types.String           `tfsdk:"xml"`
	Findings            []jmsFindingModel      `tfsdk:"findings"`
	TimeToDeadMs        map[string]types.Int64 `tfsdk:"time_to_dead_ms"`
}

type jmsConnectionFactory struct {
	Name            types.String `tfsdk:"name"`
	Type            types.String `tfsdk:"type"`
	ClientID        types.String `tfsdk:"client_id"`
	VirtualProvider types.String `tfsdk:"virtual_provider"`
}

type jmsDestinationModel struct {
	Name                    types.String `tfsdk:"name"`
	Type                    types.String `tfsdk:"type"`
	VirtualProvider         types.String `tfsdk:"virtual_provider"`
	DeliveryAttemptsLimited types.Bool   `tfsdk:"delivery_attempts_limited"`
	MaxDeliveryAttempts     types.Int64  `tfsdk:"max_delivery_attempts"`
	DeliveryDelayIntervalMs types.Int64  `tfsdk:"delivery_delay_interval_ms"`
	ErrorDestination        types.String `tfsdk:"error_destination"`
}

type jmsFindingModel struct {
	Severity types.String `tfsdk:"severity"`
	Rule     types.String `tfsdk:"rule"`
	Summary  types.String `tfsdk:"summary"`
	Detail   types.String `tfsdk:"detail"`
}

func (d *jmsResourcesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_jms_resources"
}

func (d *jmsResourcesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Renders the `jms-resources.xml` descriptor of an SAP NetWeaver AS Java application from typed settings, " +
			"or reads an existing one from `source_xml`, and checks its dead message settings with the same rules as Event Mesh: " +
			"unlimited delivery attempts, error destinations that loop, are missing, are topics or drop dead messages. " +
			"Errors fail the plan; warnings show in it; everything found is also in `findings`.",
		Attributes: map[string]schema.Attribute{
			"application_name": schema.StringAttribute{
				MarkdownDescription: "The `application-name` of the descriptor.",
				Optional:            true,
			},
			"connection_factories": schema.ListNestedAttribute{
				MarkdownDescription: "Connection factories of type `sap-local-factory-type`.",
				Optional:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{MarkdownDescription: "The factory's JNDI name.", Required: true},
					"type": schema.StringAttribute{
						MarkdownDescription: "`javax.jms.QueueConnectionFactory` (default), `javax.jms.TopicConnectionFactory` or `javax.jms.ConnectionFactory`.",
						Optional:            true,
						Validators:          []validator.String{stringvalidator.OneOf(jms.FactoryQueue, jms.FactoryTopic, jms.FactoryGeneric)},
					},
					"client_id":        schema.StringAttribute{MarkdownDescription: "The `clientID` property.", Optional: true},
					"virtual_provider": schema.StringAttribute{MarkdownDescription: "The virtual provider. Defaults to `default`.", Optional: true},
				}},
			},
			"destinations": schema.ListNestedAttribute{
				MarkdownDescription: "Queues and topics with their dead message settings.",
				Optional:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{MarkdownDescription: "The destination's name.", Required: true},
					"type": schema.StringAttribute{
						MarkdownDescription: "`queue` or `topic`.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.OneOf(jms.TypeQueue, jms.TypeTopic)},
					},
					"virtual_provider": schema.StringAttribute{MarkdownDescription: "The virtual provider. Defaults to `default`.", Optional: true},
					"delivery_attempts_limited": schema.BoolAttribute{
						MarkdownDescription: "`deliveryAttemptsLimited`. Defaults to `true`; `false` is refused, as it redelivers a poison message for ever.",
						Optional:            true,
					},
					"max_delivery_attempts": schema.Int64Attribute{
						CustomType:          framework.WholeNumber(1, math.MaxInt64),
						MarkdownDescription: "`maxDeliveryAttempts` before a message becomes dead. Defaults to 5; at least 1.",
						Optional:            true,
					},
					"delivery_delay_interval_ms": schema.Int64Attribute{
						CustomType:          framework.WholeNumber(0, math.MaxInt64),
						MarkdownDescription: "`deliveryDelayInterval`, the delay between two attempts in milliseconds. Defaults to 2000.",
						Optional:            true,
					},
					"error_destination": schema.StringAttribute{
						MarkdownDescription: "`errorDestination`, where dead messages go. Defaults to `sapDefaultErrorQueue`; it must be declared " +
							"here or be `sapDefaultErrorQueue`. A single space drops dead messages (a warning).",
						Optional: true,
					},
				}},
			},
			"source_xml": schema.StringAttribute{
				MarkdownDescription: "An existing `jms-resources.xml` to check instead of the typed settings, for example `file(\"jms-resources.xml\")`.",
				Optional:            true,
			},
			"xml": schema.StringAttribute{
				MarkdownDescription: "The rendered descriptor: deterministic, well-formed, with the documented property names.",
				Computed:            true,
			},
			"findings": schema.ListNestedAttribute{
				MarkdownDescription: "Everything the checks found, errors and warnings alike, plus one `info` entry per destination with its worst-case time to dead.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"severity": schema.StringAttribute{MarkdownDescription: "`error`, `warning` or `info`.", Computed: true},
					"rule":     schema.StringAttribute{MarkdownDescription: "The rule's stable identifier.", Computed: true},
					"summary":  schema.StringAttribute{MarkdownDescription: "A short title.", Computed: true},
					"detail":   schema.StringAttribute{MarkdownDescription: "What the setting does and what to set instead.", Computed: true},
				}},
			},
			"time_to_dead_ms": schema.MapAttribute{
				MarkdownDescription: "Per destination, `max_delivery_attempts × delivery_delay_interval_ms`: how long a message that always fails is retried before it becomes dead.",
				ElementType:         types.Int64Type,
				Computed:            true,
			},
		},
	}
}

func (d *jmsResourcesDataSource) ConfigValidators(_ context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.Conflicting(path.MatchRoot("source_xml"), path.MatchRoot("destinations")),
		datasourcevalidator.Conflicting(path.MatchRoot("source_xml"), path.MatchRoot("connection_factories")),
		datasourcevalidator.Conflicting(path.MatchRoot("source_xml"), path.MatchRoot("application_name")),
		datasourcevalidator.AtLeastOneOf(path.MatchRoot("source_xml"), path.MatchRoot("destinations")),
	}
}

// model converts the typed settings, applying the JMS Provider's defaults.
func (m *jmsResourcesModel) model() jms.Resources {
	r := jms.Resources{ApplicationName: m.ApplicationName.ValueString()}
	for _, f := range m.ConnectionFactories {
		cf := jms.NewConnectionFactory(f.Name.ValueString(), jms.FactoryQueue)
		if !f.Type.IsNull() {
			cf.Type = f.Type.ValueString()
		}
		cf.ClientID = f.ClientID.ValueString()
		if !f.VirtualProvider.IsNull() {
			cf.VirtualProvider = f.VirtualProvider.ValueString()
		}
		r.ConnectionFactories = append(r.ConnectionFactories, cf)
	}
	for _, x := range m.Destinations {
		dst := jms.NewDestination(x.Name.ValueString(), x.Type.ValueString())
		if !x.VirtualProvider.IsNull() {
			dst.VirtualProvider = x.VirtualProvider.ValueString()
		}
		if !x.DeliveryAttemptsLimited.IsNull() {
			dst.DeliveryAttemptsLimited = x.DeliveryAttemptsLimited.ValueBool()
		}
		if !x.MaxDeliveryAttempts.IsNull() {
			dst.MaxDeliveryAttempts = x.MaxDeliveryAttempts.ValueInt64()
		}
		if !x.DeliveryDelayIntervalMs.IsNull() {
			dst.DeliveryDelayIntervalMs = x.DeliveryDelayIntervalMs.ValueInt64()
		}
		if !x.ErrorDestination.IsNull() {
			dst.ErrorDestination = x.ErrorDestination.ValueString()
		}
		r.Destinations = append(r.Destinations, dst)
	}
	return r
}

func (d *jmsResourcesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m jmsResourcesModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	res := m.model()
	if !m.SourceXML.IsNull() {
		parsed, err := jms.Parse([]byte(m.SourceXML.ValueString()))
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source_xml"), "Invalid jms-resources.xml",
				fmt.Sprintf("The descriptor cannot be read: %s. Set `source_xml` to a jms-resources.xml as SAP NetWeaver AS Java expects it.", framework.Clause(err)))
			return
		}
		res = parsed
	}
	out, err := jms.Render(res)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Render jms-resources.xml",
			fmt.Sprintf("The descriptor cannot be written: %s. Check the connection factories and destinations of the data source.", framework.Clause(err)))
		return
	}
	findings := jms.Lint(res)
	framework.AppendFindings(&resp.Diagnostics, findings)

	m.XML = types.StringValue(string(out))
	m.Findings = []jmsFindingModel{}
	for _, f := range findings {
		sev := "error"
		if f.Severity == rules.SeverityWarning {
			sev = "warning"
		}
		m.Findings = append(m.Findings, jmsFindingModel{
			Severity: types.StringValue(sev), Rule: types.StringValue(f.Rule),
			Summary: types.StringValue(f.Summary), Detail: types.StringValue(f.Detail),
		})
	}
	ttd := jms.TimeToDead(res)
	names := make([]string, 0, len(ttd))
	m.TimeToDeadMs = map[string]types.Int64{}
	for name, ms := range ttd {
		names = append(names, name)
		m.TimeToDeadMs[name] = types.Int64Value(ms)
	}
	sort.Strings(names)
	for _, name := range names {
		m.Findings = append(m.Findings, jmsFindingModel{
			Severity: types.StringValue("info"), Rule: types.StringValue("jms.time_to_dead"),
			Summary: types.StringValue("Time To Dead"),
			Detail: types.StringValue(fmt.Sprintf("A message to %s that always fails becomes dead after at most %d ms (attempts × delay).",
				name, ttd[name])),
		})
	}
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &m)...)
}

package integration

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

var (
	_ datasource.DataSource              = (*jmsQueuesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*jmsQueuesDataSource)(nil)
)

// NewJMSQueuesDataSource returns the sapmessaging_jms_queues data source.
func NewJMSQueuesDataSource() datasource.DataSource {
	return &jmsQueuesDataSource{}
}

type jmsQueuesDataSource struct {
	data *framework.ProviderData
}

type JMSQueuesModel struct {
	NamePrefix             types.String       `tfsdk:"name_prefix"`
	Names                  []string           `tfsdk:"names"`
	Queues                 []jmsQueueInfo     `tfsdk:"queues"`
	QueueCount             types.Int64        `tfsdk:"queue_count"`
	QueueLimit             types.Int64        `tfsdk:"queue_limit"`
	QueueCountState        types.String       `tfsdk:"queue_count_state"`
	CapacityBytes          types.Int64        `tfsdk:"capacity_bytes"`
	MaxCapacityBytes       types.Int64        `tfsdk:"max_capacity_bytes"`
	CapacityUsedPercent    types.Float64      `tfsdk:"capacity_used_percent"`
	CapacityState          types.String       `tfsdk:"capacity_state"`
	MessageCountsAvailable types.Bool         `tfsdk:"message_counts_available"`
	TotalMessages          types.Int64        `tfsdk:"total_messages"`
	UnhealthyQueues        []string           `tfsdk:"unhealthy_queues"`
	HighUsage              *jmsHighUsageModel `tfsdk:"high_usage"`
}

type jmsHighUsageModel struct {
	TransactedSessions types.Bool `tfsdk:"transacted_sessions"`
	Consumers          types.Bool `tfsdk:"consumers"`
	Producers          types.Bool `tfsdk:"producers"`
	Queues             types.Bool `tfsdk:"queues"`
	MessageSpool       types.Bool `tfsdk:"message_spool"`
}

type jmsQueueInfo struct {
	Name         types.String `tfsdk:"name"`
	State        types.String `tfsdk:"state"`
	Active       types.Bool   `tfsdk:"active"`
	AccessType   types.String `tfsdk:"access_type"`
	MessageCount types.Int64  `tfsdk:"message_count"`
	SizeBytes    types.Int64  `tfsdk:"size_bytes"`
	FillPercent  types.Int64  `tfsdk:"fill_percent"`
}

// Capacity and queue-count states as SAP's JMS monitor names them: the
// capacity is Critical when less than 20% is free and Exhausted at 95%; the
// queue count is Critical when at most one more queue fits [SAP "Checking
// JMS Resources", 6a9c030].
const (
	jmsOK        = "ok"
	jmsWarning   = "warning"
	jmsCritical  = "critical"
	jmsExhausted = "exhausted"
	jmsUnknown   = "unknown"
)

func (d *jmsQueuesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_jms_queues"
}

func (d *jmsQueuesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.Attribute {
		return schema.Int64Attribute{MarkdownDescription: desc, Computed: true}
	}
	flag := func(desc string) schema.Attribute {
		return schema.BoolAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The JMS queues of the SAP Cloud Integration tenant with their states, message counts and the broker's " +
			"capacity against the tenant's limits (by default 30 queues and 9.3 GB). A failing message on a JMS queue is retried " +
			"until it expires and is then deleted, so use this data source in `check` blocks to see messages piling up, stopped " +
			"queues and a broker running out of room before messages are lost.\n\n" +
			"Queue states come from `GET /api/v1/JmsBrokers('Broker1')?$expand=QueueStates,InactiveQueues`. Message counts, sizes " +
			"and access types come from `GET /api/v1/Queues`, which SAP does not document; when a tenant does not offer it, " +
			"`message_counts_available` is false and those attributes are null.",
		Attributes: map[string]schema.Attribute{
			"name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only queues whose name starts with this prefix, for example `ORDERS_`. The broker's totals always cover the whole tenant.",
				Optional:            true,
			},
			"names": schema.ListAttribute{
				MarkdownDescription: "The names of the queues, sorted.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"queues": schema.ListNestedAttribute{
				MarkdownDescription: "The queues, sorted by name.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{MarkdownDescription: "The queue name.", Computed: true},
					"state": schema.StringAttribute{
						MarkdownDescription: "The queue's state in the JMS monitor: `ok`, `warning` or `critical`.",
						Computed:            true,
					},
					"active": flag("False when the queue is stopped (listed among the broker's inactive queues): it keeps its messages but nothing consumes them."),
					"access_type": schema.StringAttribute{
						MarkdownDescription: "The queue type the tenant reports (for example `Non-Exclusive`); null when message counts are not available.",
						Computed:            true,
					},
					"message_count": computed("The number of messages on the queue, including failed ones waiting for a retry; null when message counts are not available."),
					"size_bytes":    computed("The bytes the queue's messages use; null when message counts are not available."),
					"fill_percent":  computed("How full the queue is, in percent of its own limit (300 MB); null when message counts are not available."),
				}},
			},
			"queue_count":        computed("The number of JMS queues of the tenant."),
			"queue_limit":        computed("The tenant's queue limit (30 by default, up to 100)."),
			"queue_count_state":  schema.StringAttribute{MarkdownDescription: "`critical` when at most one more queue fits under `queue_limit`, else `ok` (`unknown` when the tenant reports no limit).", Computed: true},
			"capacity_bytes":     computed("The storage the JMS messages use."),
			"max_capacity_bytes": computed("The tenant's JMS capacity (9.3 GB by default, up to 30 GB)."),
			"capacity_used_percent": schema.Float64Attribute{
				MarkdownDescription: "`capacity_bytes` in percent of `max_capacity_bytes`; null when the tenant reports no capacity.",
				Computed:            true,
			},
			"capacity_state": schema.StringAttribute{
				MarkdownDescription: "`ok`, `critical` (less than 20% free) or `exhausted` (95% or more used), as the JMS monitor grades the capacity; `unknown` when the tenant reports no capacity.",
				Computed:            true,
			},
			"message_counts_available": flag("Whether the tenant offers the queue list with message counts (`GET /api/v1/Queues`)."),
			"total_messages":           computed("The messages on the listed queues; null when message counts are not available."),
			"unhealthy_queues": schema.ListAttribute{
				MarkdownDescription: "The listed queues that are stopped or not in state `ok`, sorted.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"high_usage": schema.SingleNestedAttribute{
				MarkdownDescription: "The broker's high-usage flags.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"transacted_sessions": flag("Transacted sessions are high."),
					"consumers":           flag("Consumers are high."),
					"producers":           flag("Producers are high."),
					"queues":              flag("The number of queues is high."),
					"message_spool":       flag("The message spool (capacity) is high."),
				},
			},
		},
	}
}

func (d *jmsQueuesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func jmsErrorDetail(what string, err error) string {
	return fmt.Sprintf("The Cloud Integration API failed while reading %s: %s. Check the provider's `cloud_integration` connection "+
		"and that its credentials may read the JMS monitor, then run the command again; TF_LOG=debug shows each request.", what, framework.Clause(err))
}

func (d *jmsQueuesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg JMSQueuesModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || !d.data.Connected(ctx, &resp.Diagnostics, framework.NeedCloudIntegration) {
		return
	}
	c := d.data.CloudIntegration
	broker, err := c.JMSBroker(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read JMS Broker", jmsErrorDetail("the JMS broker", err))
		return
	}
	queues, err := c.JMSQueues(ctx)
	available := err == nil
	if err != nil && !errors.Is(err, cpi.ErrNotFound) {
		resp.Diagnostics.AddError("Cannot List JMS Queues", jmsErrorDetail("the JMS queues", err))
		return
	}
	FillJMSQueues(&cfg, broker, queues, available)
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &cfg)...)
}

// FillJMSQueues sets the computed attributes from the broker and, when
// available, the queue list.
func FillJMSQueues(m *JMSQueuesModel, b *cpi.JMSBroker, list []cpi.JMSQueue, available bool) {
	prefix := m.NamePrefix.ValueString()
	inactive := map[string]bool{}
	for _, n := range b.InactiveQueues {
		inactive[n] = true
	}
	byName := map[string]*jmsQueueInfo{}
	get := func(name string) *jmsQueueInfo {
		q := byName[name]
		if q == nil {
			q = &jmsQueueInfo{Name: types.StringValue(name), State: types.StringValue(jmsOK), Active: types.BoolValue(!inactive[name]),
				AccessType: types.StringNull(), MessageCount: types.Int64Null(), SizeBytes: types.Int64Null(), FillPercent: types.Int64Null()}
			if available {
				q.MessageCount, q.SizeBytes, q.FillPercent = types.Int64Value(0), types.Int64Value(0), types.Int64Value(0)
			}
			byName[name] = q
		}
		return q
	}
	for _, s := range b.QueueStates {
		get(s.Name).State = types.StringValue(jmsStateName(s.State))
	}
	for _, n := range b.InactiveQueues {
		get(n)
	}
	for _, l := range list {
		q := get(l.Name)
		q.AccessType = types.StringValue(l.Type)
		q.MessageCount, q.SizeBytes, q.FillPercent = types.Int64Value(l.Messages), types.Int64Value(l.Size), types.Int64Value(l.FillGrade)
		if !l.Active {
			q.Active = types.BoolValue(false)
		}
		if l.State > q.stateCode() {
			q.State = types.StringValue(jmsStateName(l.State))
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		if strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	m.Names, m.Queues, m.UnhealthyQueues = names, make([]jmsQueueInfo, 0, len(names)), []string{}
	var total int64
	for _, n := range names {
		q := byName[n]
		m.Queues = append(m.Queues, *q)
		total += q.MessageCount.ValueInt64()
		if !q.Active.ValueBool() || q.State.ValueString() != jmsOK {
			m.UnhealthyQueues = append(m.UnhealthyQueues, n)
		}
	}
	m.MessageCountsAvailable = types.BoolValue(available)
	m.TotalMessages = types.Int64Null()
	if available {
		m.TotalMessages = types.Int64Value(total)
	}
	m.QueueCount, m.QueueLimit = types.Int64Value(b.QueueNumber), types.Int64Value(b.MaxQueueNumber)
	m.QueueCountState = types.StringValue(jmsUnknown)
	if b.MaxQueueNumber > 0 {
		m.QueueCountState = types.StringValue(jmsOK)
		if b.QueueNumber >= b.MaxQueueNumber-1 {
			m.QueueCountState = types.StringValue(jmsCritical)
		}
	}
	m.CapacityBytes, m.MaxCapacityBytes = types.Int64Value(b.Capacity), types.Int64Value(b.MaxCapacity)
	m.CapacityUsedPercent, m.CapacityState = types.Float64Null(), types.StringValue(jmsUnknown)
	if b.MaxCapacity > 0 {
		m.CapacityUsedPercent = types.Float64Value(float64(b.Capacity) * 100 / float64(b.MaxCapacity))
		m.CapacityState = types.StringValue(CapacityState(b.Capacity, b.MaxCapacity))
	}
	m.HighUsage = &jmsHighUsageModel{
		TransactedSessions: types.BoolValue(b.IsTransactedSessionsHigh), Consumers: types.BoolValue(b.IsConsumersHigh),
		Producers: types.BoolValue(b.IsProducersHigh), Queues: types.BoolValue(b.IsQueuesHigh), MessageSpool: types.BoolValue(b.IsMessageSpoolHigh),
	}
}

func (q *jmsQueueInfo) stateCode() int64 {
	switch q.State.ValueString() {
	case jmsWarning:
		return cpi.JMSStateWarning
	case jmsCritical:
		return cpi.JMSStateCritical
	}
	return cpi.JMSStateOK
}

// jmsStateName names a queue state code [SAP c6c00d5]; codes above 2 count as critical.
func jmsStateName(code int64) string {
	switch {
	case code <= cpi.JMSStateOK:
		return jmsOK
	case code == cpi.JMSStateWarning:
		return jmsWarning
	}
	return jmsCritical
}

// CapacityState grades the used capacity [SAP 6a9c030].
func CapacityState(used, capacity int64) string {
	switch {
	case float64(used) >= 0.95*float64(capacity):
		return jmsExhausted
	case float64(used) > 0.80*float64(capacity):
		return jmsCritical
	}
	return jmsOK
}

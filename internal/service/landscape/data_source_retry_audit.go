package landscape

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/audit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ datasource.DataSource              = (*retryAuditDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*retryAuditDataSource)(nil)
)

// NewRetryAuditDataSource returns the sapmessaging_retry_audit data source.
func NewRetryAuditDataSource() datasource.DataSource {
	return &retryAuditDataSource{}
}

type retryAuditDataSource struct {
	data *framework.ProviderData
}

type retryAuditModel struct {
	QueueNamePrefix types.String        `tfsdk:"queue_name_prefix"`
	FlowPackage     types.String        `tfsdk:"flow_package"`
	MinSeverity     types.String        `tfsdk:"min_severity"`
	AcceptLoss      types.Set           `tfsdk:"accept_message_loss"`
	Paths           []auditPathModel    `tfsdk:"paths"`
	Findings        []auditFindingModel `tfsdk:"findings"`
	Summary         *auditSummaryModel  `tfsdk:"summary"`
	Diagram         types.String        `tfsdk:"diagram"`
}

type auditPathModel struct {
	Adapter             types.String  `tfsdk:"adapter"`
	Queue               types.String  `tfsdk:"queue"`
	QueueExists         types.Bool    `tfsdk:"queue_exists"`
	Flow                types.String  `tfsdk:"flow"`
	Channel             types.String  `tfsdk:"channel"`
	Package             types.String  `tfsdk:"package"`
	FlowStatus          types.String  `tfsdk:"flow_status"`
	DeployedVersion     types.String  `tfsdk:"deployed_version"`
	RedeliveryCount     types.Int64   `tfsdk:"max_redelivery_count"`
	Retries             types.Int64   `tfsdk:"max_number_of_retries"`
	DeliveryStatus      types.String  `tfsdk:"delivery_status"`
	WorstCase           types.Int64   `tfsdk:"worst_case_attempts"`
	Unbounded           types.Bool    `tfsdk:"unbounded"`
	WorstCaseNote       types.String  `tfsdk:"worst_case_reason"`
	DeadMessageQueue    types.String  `tfsdk:"dead_message_queue"`
	DeadMessageQueueTTL types.Int64   `tfsdk:"dead_message_queue_ttl"`
	EndEvents           []string      `tfsdk:"exception_end_events"`
	RetryGuardLimit     types.Int64   `tfsdk:"retry_guard_limit"`
	GiveUpMinutes       types.Int64   `tfsdk:"give_up_after_minutes"`
	DeletedAfterDays    types.Int64   `tfsdk:"deleted_after_days"`
	Webhook             types.String  `tfsdk:"webhook"`
	QoS                 types.Int64   `tfsdk:"qos"`
	EndpointHost        types.String  `tfsdk:"endpoint_host"`
	Paused              types.Bool    `tfsdk:"paused"`
	Broker              types.String  `tfsdk:"broker"`
	MaxAttempts         types.Int64   `tfsdk:"max_message_processing_attempts"`
	RetryInterval       types.Int64   `tfsdk:"retry_interval"`
	MaxRetryInterval    types.Int64   `tfsdk:"max_retry_interval"`
	RetryMultiplier     types.Float64 `tfsdk:"retry_multiplier"`
	ConsumerMode        types.String  `tfsdk:"consumer_mode"`
	AcknowledgementMode types.String  `tfsdk:"acknowledgement_mode"`
	SettlementOutcome   types.String  `tfsdk:"settlement_outcome"`
	End                 types.String  `tfsdk:"end"`
	TimeToEnd           types.String  `tfsdk:"time_to_end"`
	TimeToEndSeconds    types.Int64   `tfsdk:"time_to_end_seconds"`
	AEMAdapter          types.String  `tfsdk:"aem_adapter"`
	Unconfirmed         []string      `tfsdk:"unconfirmed"`
}

type auditFindingModel struct {
	RuleID   types.String `tfsdk:"rule_id"`
	Severity types.String `tfsdk:"severity"`
	Summary  types.String `tfsdk:"summary"`
	Message  types.String `tfsdk:"message"`
	Objects  []string     `tfsdk:"objects"`
}

type auditSummaryModel struct {
	Errors               types.Int64  `tfsdk:"errors"`
	Warnings             types.Int64  `tfsdk:"warnings"`
	Infos                types.Int64  `tfsdk:"infos"`
	Paths                types.Int64  `tfsdk:"paths"`
	UnboundedPaths       types.Int64  `tfsdk:"unbounded_paths"`
	Queues               types.Int64  `tfsdk:"queues"`
	Flows                types.Int64  `tfsdk:"flows"`
	Webhooks             types.Int64  `tfsdk:"webhooks"`
	FlowsNotAnalysable   types.Int64  `tfsdk:"flows_not_analysable"`
	LargestWorstCase     types.Int64  `tfsdk:"largest_worst_case_attempts"`
	LargestWorstCasePath types.String `tfsdk:"largest_worst_case_path"`
	EventMesh            types.Bool   `tfsdk:"event_mesh"`
	CloudIntegration     types.Bool   `tfsdk:"cloud_integration"`
	AEM                  types.Bool   `tfsdk:"advanced_event_mesh"`
	AEMQueues            types.Int64  `tfsdk:"aem_queues"`
	AEMPaths             types.Int64  `tfsdk:"aem_paths"`
}

func (d *retryAuditDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_retry_audit"
}

func (d *retryAuditDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	num := func(desc string) schema.Attribute {
		return schema.Int64Attribute{MarkdownDescription: desc, Computed: true}
	}
	flag := func(desc string) schema.Attribute {
		return schema.BoolAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Audits the retry paths of a whole landscape: every SAP Event Mesh queue (one list call) joined with " +
			"every deployed SAP Cloud Integration flow (the runtime list) and, per flow, its AMQP and JMS sender channels and " +
			"the end events of its exception subprocesses (one content download per flow, at most " +
			fmt.Sprint(audit.DefaultConcurrency) + " at once, shared with the resources of the same run), and every Event Mesh " +
			"webhook subscription (one messaging REST call), and with an `advanced_event_mesh` connection every queue of the AEM " +
			"broker's Message VPN (one paged SEMP list, shared with the `sapmessaging_aem_*` resources of the same run) joined with the " +
			"AdvancedEventMesh sender channels of the same flows. Event Mesh and AEM appear in one report, each path naming its `broker`. Each sender channel becomes a path with its worst case " +
			"`N_max = (R + 1) × n + 1` (AMQP) or `N_max = m × (R + 1)` (AEM) or why it has none, each webhook a path with its tries until the queue's redelivery count " +
			"or time to live ends them (one try for QoS 0), and the same rules the resources apply produce the findings, each " +
			"with its rule ID, the objects it concerns and its fix.\n\n" +
			"A flow whose content cannot be read or parsed is a finding (`audit.flow_not_analysable`), never a failed read. " +
			"Without a `cloud_integration` connection the audit checks the queues alone and says so (`audit.queues_only`); " +
			"without `event_mesh` it checks the flows alone (`audit.flows_only`). Without messaging REST credentials in the " +
			"`event_mesh` service key the webhooks are left out and the audit says so (`audit.webhooks_not_configured`); a " +
			"webhook list that fails is a finding (`audit.webhooks_not_read`), never a failed read. An AEM queue list that fails fails the " +
			"read: a plan never passes on a landscape it could not see.",
		Attributes: map[string]schema.Attribute{
			"queue_name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only paths whose queue name starts with this prefix, for example `acme/crm/prod/`, and the findings about such " +
					"queues and the flows that read them. The join still covers the whole landscape.",
				Optional: true,
			},
			"flow_package": schema.StringAttribute{
				MarkdownDescription: "Only the paths and findings of the flows of this integration package (its ID), and the findings about the " +
					"queues they read. Costs one more call: the design time list, which names each flow's package.",
				Optional: true,
			},
			"min_severity": schema.StringAttribute{
				MarkdownDescription: "The least severe findings to list: `error`, `warning` or `info` (the default, all findings).",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf("error", "warning", "info")},
			},
			"accept_message_loss": schema.SetAttribute{
				MarkdownDescription: "Names of webhook subscriptions whose QoS 0 message loss the team has accepted, as `accept_message_loss = true` " +
					"on a `sapmessaging_webhook_subscription` records it (the landscape does not show that setting): their " +
					"`webhook.qos0_loses_messages` error is not reported, so that a `check` on `summary.errors` stays quiet about a loss that " +
					"was decided; they keep the warning `webhook.qos0_loses_messages_accepted`, as the resource's plan does, and their paths still show QoS 0 and one try. For example `[for k, w in sapmessaging_webhook_subscription.all : w.name if w.accept_message_loss]`. " +
					"A name that is not a QoS 0 webhook subscription of the instance is a warning.",
				ElementType: types.StringType,
				Optional:    true,
				Validators:  []validator.Set{setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"paths": schema.ListNestedAttribute{
				MarkdownDescription: "One entry per sender channel of a deployed flow with the queue it reads, sorted by flow, JMS channels first, then AMQP, then AEM, " +
					"then one per webhook subscription with the queue it pushes, sorted by name.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"adapter": str("`AMQP` (an Event Mesh queue), `JMS` (a Cloud Integration JMS queue), `AEM` (an AdvancedEventMesh sender " +
						"channel reading an Advanced Event Mesh queue), or `WEBHOOK` (an Event Mesh webhook subscription)."),
					"broker": str("Where the queue lives, named as the provider's connection block: `event_mesh` (AMQP, webhooks), " +
						"`advanced_event_mesh` (AEM) or `cloud_integration` (the tenant's JMS queues)."),
					"queue":            str("The queue the channel reads, or the webhook pushes."),
					"queue_exists":     schema.BoolAttribute{MarkdownDescription: "Whether the broker holds the queue; null without the broker's connection. Always true for JMS queues, which Cloud Integration creates on use, and for a direct AEM consumer, which reads no queue.", Computed: true},
					"flow":             str("The integration flow ID; null for a webhook."),
					"channel":          str("The sender channel: its message flow name, or its ID where it has none; null for a webhook."),
					"package":          str("The flow's package ID; null unless `flow_package` is set."),
					"flow_status":      str("The runtime status of the flow, for example `STARTED` or `ERROR`; null for a webhook."),
					"deployed_version": str("The version the runtime runs; null for a webhook."),
					"max_redelivery_count": num("R, the queue's `max_redelivery_count` (0, unlimited, also when the queue leaves it unset), of the " +
						"Event Mesh or AEM queue; null for JMS and when the queue is missing or unknown."),
					"max_number_of_retries": num("n, the AMQP sender's Max. Number of Retries; null when empty (endless retries) and for JMS."),
					"delivery_status":       str("The AMQP sender's Delivery Status After Max. Retries; null when unset and for JMS."),
					"worst_case_attempts": num("The most executions one always-failing message can cost: `(R + 1) × n + 1` for AMQP, `m × (R + 1)` for " +
						"an AEM sender settling failures as `FAILED` (`m` with `REJECTED`, 1 with `AUTOMATIC_IMMEDIATE`), the guard's stop " +
						"for a guarded JMS flow, the retries until the queue's expiration for an unguarded one, or a webhook's tries (1 for QoS 0, whose " +
						"message is lost after that try). Null when unbounded or unknown."),
					"unbounded": flag("True when nothing bounds the executions (R = 0 with AMQP or an AEM sender's `FAILED`, or an empty retry count). " +
						"Null when the runtime runs another version than the design time holds (`audit.version_differs`): the API serves the design time's " +
						"content only, so what runs is unknown, and `worst_case_note` says what the design time would do."),
					"worst_case_reason": str("How `worst_case_attempts` was found, or why there is none."),
					"dead_message_queue": str("The queue's dead message queue; null for none and for JMS. For AEM, the one the queue names or the " +
						"broker's default `#DEAD_MSG_QUEUE`, null when a poison message does not end there (`end`)."),
					"dead_message_queue_ttl": num("The time to live of the dead message queue in seconds; null when it keeps messages for ever or does not exist."),
					"exception_end_events": schema.ListAttribute{
						MarkdownDescription: "The end events of the flow's exception subprocesses, `<subprocess>: <kind>` (`error`, `escalation`, `message`, `none`).",
						ElementType:         types.StringType,
						Computed:            true,
					},
					"retry_guard_limit": num("The limit the JMS flow's guard compares `SAPJMSRetries` with; null without a guard or when it is not visible."),
					"give_up_after_minutes": num("Minutes from the first failure until a guarded JMS flow ends the message, or until a QoS 1 webhook's " +
						"last try (15 minutes, doubling up to once a day, until the queue's redelivery count or time to live ends the retries)."),
					"deleted_after_days": num("Days after which the JMS queue's expiration period deletes a message the flow never ends: the Expiration " +
						"Period of the JMS receiver of a deployed flow that fills the queue (the longest, where several do), else SAP's default of 30 days."),
					"webhook":                         str("The webhook subscription's name; null for a sender channel."),
					"qos":                             num("The webhook's quality of service: 0 (one try, then the message is deleted) or 1 (retried); null for a sender channel."),
					"endpoint_host":                   str("The host the webhook pushes to; null for a sender channel."),
					"paused":                          flag("Whether the webhook is paused (nothing is pushed until it is resumed); null for a sender channel or when the service does not say."),
					"max_message_processing_attempts": num("The AEM sender's Maximum Message Processing Attempts, `m` (the first attempt included); null when empty and for other adapters."),
					"retry_interval":                  num("The AEM sender's Retry Interval in milliseconds; null when empty and for other adapters."),
					"max_retry_interval":              num("The AEM sender's Maximum Retry Interval in milliseconds; null when empty and for other adapters."),
					"retry_multiplier": schema.Float64Attribute{MarkdownDescription: "The AEM sender's Exponential Backoff Multiplier; null when empty and for other adapters.",
						Computed: true},
					"consumer_mode":        str("The AEM sender's Consumer Mode, `GUARANTEED` or `DIRECT` (as read when another value); null when empty and for other adapters."),
					"acknowledgement_mode": str("The AEM sender's Acknowledgment Mode, `AUTOMATIC_ON_EXCHANGE_COMPLETE` or `AUTOMATIC_IMMEDIATE`; null when empty and for other adapters."),
					"settlement_outcome": str("The AEM sender's Settlement Outcome After Maximum Attempts, `FAILED` or `REJECTED` (its stored value is " +
						"unconfirmed: `audit.aem_value_unconfirmed`); null when empty and for other adapters."),
					"end": str("Where a poison message of an AEM path ends: `dead message queue`, `deleted` (the queue has no dead message queue, or " +
						"one that takes nothing: `ingressEnabled` false), `deleted unless DMQ-eligible` (the queue has `respectDmqEligibleEnabled` " +
						"on: the broker deletes the message unless its publisher flagged it DMQ-eligible) or " +
						"`lost` (acknowledged on receipt, or a direct consumer); null when unbounded (the queue's redelivery count is 0, or its dead " +
						"message queues lead back to it in a cycle) or unknown, and for other adapters."),
					"time_to_end": str("How long a poison message of an AEM path runs until it ends: the adapter's waits between its attempts on every " +
						"delivery and the broker's redelivery delays, for example `2 min 47 s` (the flow's own processing time comes on top); null when " +
						"unbounded or unknown, and for other adapters."),
					"time_to_end_seconds": num("`time_to_end` in whole seconds, rounded up."),
					"aem_adapter": str("The adapter of an AEM path's channel: `AdvancedEventMesh` (SAP's) or `SolacePubSubPlus` (Solace's own, " +
						"which reads the same keys; its path is computed assuming it settles and counts attempts as SAP's does); null for other adapters."),
					"unconfirmed": schema.ListAttribute{
						MarkdownDescription: "What no source confirms about an AEM path's channel, on which its path is computed (Solace's adapter, " +
							"the stored `REJECTED`, an adapter version other than 1.3.x), one sentence each, as `audit.aem_value_unconfirmed` reports it; " +
							"empty for other paths.",
						ElementType: types.StringType,
						Computed:    true,
					},
				}},
			},
			"findings": schema.ListNestedAttribute{
				MarkdownDescription: "The findings, errors first. Each names its rule in `rule_id`; the rules are listed in the documentation of `sapmessaging_retry_audit`.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"rule_id":  str("The rule's stable ID, for example `amqp.queue_redelivery_unlimited`."),
					"severity": str("`error`, `warning` or `info`."),
					"summary":  str("A short Title Case summary."),
					"message":  str("What the setting does, naming the object, ending with the fix."),
					"objects": schema.ListAttribute{
						MarkdownDescription: "The objects the finding concerns: `queue:<name>`, `jms_queue:<name>`, `flow:<id>`, `channel:<flow>/<channel>`, `webhook:<name>`.",
						ElementType:         types.StringType,
						Computed:            true,
					},
				}},
			},
			"summary": schema.SingleNestedAttribute{
				MarkdownDescription: "Counts over the listed paths and findings.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"errors":          num("Findings with severity `error`."),
					"warnings":        num("Findings with severity `warning`."),
					"infos":           num("Findings with severity `info`."),
					"paths":           num("Paths listed."),
					"unbounded_paths": num("Paths whose executions nothing bounds."),
					"queues":          num("Event Mesh queues read (under `queue_name_prefix`)."),
					"flows":           num("Deployed integration flows audited."),
					"aem_queues":      num("Advanced Event Mesh queues read (under `queue_name_prefix`)."),
					"aem_paths":       num("AEM sender channel paths listed."),
					"advanced_event_mesh": flag("Whether the report covers Advanced Event Mesh: its queues were read (`aem_queues`), or " +
						"deployed flows read AEM queues through AdvancedEventMesh sender channels (`aem_paths`), whose queue settings are unknown " +
						"without the provider's `advanced_event_mesh` connection (the finding `audit.aem_not_configured` says so)."),
					"webhooks":                    num("Webhook subscription paths listed."),
					"flows_not_analysable":        num("Deployed flows whose content could not be read or parsed."),
					"largest_worst_case_attempts": num("The largest finite `worst_case_attempts`; null without one."),
					"largest_worst_case_path":     str("Where it is: `<queue> → <flow>/<channel>` or `<queue> → webhook <name>`."),
					"event_mesh":                  flag("Whether the Event Mesh queues were read."),
					"cloud_integration":           flag("Whether the Cloud Integration flows were read."),
				},
			},
			"diagram": str("The paths as a Mermaid flowchart: queue → flow/channel or webhook → dead message queue, `N_max` or a webhook's " +
				"tries on the edges, unbounded paths and QoS 0 webhooks (`lost after one try`) as thick edges, objects with errors and warnings coloured. GitHub renders it in Markdown between ```` ```mermaid ```` fences, " +
				"for example in a workflow's job summary."),
		},
	}
}

func (d *retryAuditDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *retryAuditDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m retryAuditModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data != nil && d.data.AEM == nil && d.data.AEMKeyError.HasError() {
		resp.Diagnostics.Append(d.data.AEMKeyError...)
		return
	}
	if d.data == nil || (d.data.EventMesh == nil && d.data.CloudIntegration == nil && d.data.AEM == nil) {
		resp.Diagnostics.AddError("Nothing To Audit",
			"The audit reads SAP Event Mesh queues, Advanced Event Mesh queues and SAP Cloud Integration flows, but the provider has none of these connections. "+
				"Set the `event_mesh`, `advanced_event_mesh` or `cloud_integration` block of the provider, or several.")
		return
	}
	if !proveAll(ctx, &resp.Diagnostics, auditCredentials(d.data)...) {
		return
	}
	minSeverity := rules.SeverityInfo
	if s, ok := rules.ParseSeverity(m.MinSeverity.ValueString()); ok {
		minSeverity = s
	}
	src := audit.Sources{EventMesh: d.data.EventMesh, Messaging: d.data.Messaging, Packages: m.FlowPackage.ValueString() != ""}
	if d.data.CloudIntegration != nil {
		src.Flows = d.data.Flows
	}
	if d.data.AEM != nil {
		src.AEM = runAEMQueues{d.data}
	}
	in, err := audit.Read(ctx, src)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Landscape",
			fmt.Sprintf("The audit failed %s. Check the provider's `event_mesh`, `advanced_event_mesh` and `cloud_integration` connections and that their "+
				"credentials may list queues and integration artifacts, then run the command again; TF_LOG=debug shows each request.", framework.Clause(err)))
		return
	}
	var accepted []string
	resp.Diagnostics.Append(m.AcceptLoss.ElementsAs(ctx, &accepted, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	CheckAcceptedLoss(in, accepted, &resp.Diagnostics)
	r := audit.Run(in, audit.Filter{QueuePrefix: m.QueueNamePrefix.ValueString(), Package: m.FlowPackage.ValueString(), MinSeverity: minSeverity,
		AcceptMessageLoss: accepted})
	fillRetryAudit(&m, r)
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &m)...)
}

// CheckAcceptedLoss warns about each name of accept_message_loss that is not a QoS 0 webhook
// subscription of the landscape read, when its webhooks were read.
func CheckAcceptedLoss(in audit.Input, accepted []string, diags *diag.Diagnostics) {
	if !in.WebhooksRead {
		return
	}
	qos := map[string]int{}
	for _, w := range in.Webhooks {
		qos[w.Name] = w.QoS
	}
	for _, name := range accepted {
		q, ok := qos[name]
		switch {
		case !ok:
			diags.AddAttributeWarning(path.Root("accept_message_loss"), "Accepted Webhook Not Found",
				fmt.Sprintf("`accept_message_loss` names %q, but the Event Mesh instance has no webhook subscription of that name, so it accepts nothing. "+
					"Remove it from `accept_message_loss`, or correct the name.", name))
		case q != 0:
			diags.AddAttributeWarning(path.Root("accept_message_loss"), "Accepted Webhook Loses No Messages",
				fmt.Sprintf("`accept_message_loss` names %q, whose QoS is %d: it does not lose messages, so there is nothing to accept. "+
					"Remove it from `accept_message_loss`.", name, q))
		}
	}
}

// fillRetryAudit sets the computed attributes from the report.
func fillRetryAudit(m *retryAuditModel, r audit.Report) {
	m.Paths = make([]auditPathModel, 0, len(r.Paths))
	for _, p := range r.Paths {
		pm := auditPathModel{
			Adapter: types.StringValue(p.Adapter), Queue: types.StringValue(p.Queue), QueueExists: types.BoolNull(),
			Flow: types.StringValue(p.Flow), Channel: types.StringValue(p.Channel), Package: optionalString(p.Package),
			FlowStatus: types.StringValue(p.FlowStatus), DeployedVersion: types.StringValue(p.DeployedVersion),
			RedeliveryCount: framework.Int64OrNull(p.RedeliveryCount), Retries: framework.Int64OrNull(p.Retries),
			DeliveryStatus: optionalString(p.DeliveryStatus), WorstCase: framework.Int64OrNull(p.WorstCase),
			Unbounded: unboundedValue(&p), WorstCaseNote: types.StringValue(p.WorstCaseNote),
			DeadMessageQueue: optionalString(p.DeadMessageQueue), DeadMessageQueueTTL: framework.Int64OrNull(p.DeadMessageQueueTTL),
			EndEvents: append([]string{}, p.EndEvents...), RetryGuardLimit: framework.Int64OrNull(p.RetryGuardLimit),
			GiveUpMinutes: framework.Int64OrNull(p.GiveUpMinutes), DeletedAfterDays: framework.Int64OrNull(p.DeletedAfterDays),
			Webhook: optionalString(p.Webhook), QoS: framework.Int64OrNull(p.QoS), EndpointHost: optionalString(p.EndpointHost), Paused: types.BoolPointerValue(p.Paused),
			Broker: types.StringValue(p.Broker()), MaxAttempts: framework.Int64OrNull(p.MaxAttempts), RetryInterval: framework.Int64OrNull(p.RetryIntervalMs),
			MaxRetryInterval: framework.Int64OrNull(p.MaxRetryIntervalMs), RetryMultiplier: types.Float64PointerValue(p.RetryMultiplier),
			ConsumerMode: optionalString(p.ConsumerMode), AcknowledgementMode: optionalString(p.AcknowledgementMode),
			SettlementOutcome: optionalString(p.SettlementOutcome), End: optionalString(p.End),
			TimeToEnd: types.StringNull(), TimeToEndSeconds: types.Int64Null(),
			AEMAdapter: optionalString(p.AEMAdapter), Unconfirmed: append([]string{}, p.Unconfirmed...),
		}
		if p.TimeToEnd != nil {
			pm.TimeToEnd = types.StringValue(rules.FormatAEMDuration(*p.TimeToEnd))
			pm.TimeToEndSeconds = types.Int64Value(int64((*p.TimeToEnd + time.Second - 1) / time.Second))
		}
		if p.QueueKnown {
			pm.QueueExists = types.BoolValue(p.QueueExists)
		}
		if p.Adapter == audit.AdapterWebhook {
			pm.Flow, pm.Channel, pm.FlowStatus, pm.DeployedVersion = types.StringNull(), types.StringNull(), types.StringNull(), types.StringNull()
		}
		m.Paths = append(m.Paths, pm)
	}
	m.Findings = make([]auditFindingModel, 0, len(r.Findings))
	for _, f := range r.Findings {
		objs := make([]string, 0, len(f.Objects))
		for _, o := range f.Objects {
			objs = append(objs, o.String())
		}
		m.Findings = append(m.Findings, auditFindingModel{RuleID: types.StringValue(f.Rule), Severity: types.StringValue(f.Severity.String()),
			Summary: types.StringValue(f.Summary), Message: types.StringValue(f.Message), Objects: objs})
	}
	s := r.Summary
	m.Summary = &auditSummaryModel{
		Errors: types.Int64Value(int64(s.Errors)), Warnings: types.Int64Value(int64(s.Warnings)), Infos: types.Int64Value(int64(s.Infos)),
		Paths: types.Int64Value(int64(s.Paths)), UnboundedPaths: types.Int64Value(int64(s.UnboundedPaths)),
		Queues: types.Int64Value(int64(s.Queues)), Flows: types.Int64Value(int64(s.Flows)), Webhooks: types.Int64Value(int64(s.Webhooks)),
		FlowsNotAnalysable: types.Int64Value(int64(s.NotAnalysable)), LargestWorstCase: framework.Int64OrNull(s.LargestWorstCase),
		LargestWorstCasePath: optionalString(s.LargestWorstCasePath),
		EventMesh:            types.BoolValue(s.EventMesh), CloudIntegration: types.BoolValue(s.CloudIntegration),
		AEM: types.BoolValue(s.AEM), AEMQueues: types.Int64Value(int64(s.AEMQueues)), AEMPaths: types.Int64Value(int64(s.AEMPaths)),
	}
	m.Diagram = types.StringValue(r.Diagram)
}

// optionalString is s, or null when empty.
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// runAEMQueues lists the AEM queues for the audit through the run's queue list (aem_queue_shared.go): one
// paged SEMP list per provider configuration and run, shared with the sapmessaging_aem_* resources.
type runAEMQueues struct{ d *framework.ProviderData }

// ListQueues returns a copy of the run's queues, sorted by name.
func (r runAEMQueues) ListQueues(ctx context.Context) ([]aem.Queue, error) {
	qs, err := r.d.AEMQueues(ctx)
	if err != nil {
		return nil, err
	}
	l := &r.d.AEMQueueList
	l.Mu.Lock()
	out := make([]aem.Queue, 0, len(qs))
	for _, q := range qs {
		out = append(out, *q)
	}
	l.Mu.Unlock()
	slices.SortFunc(out, func(a, b aem.Queue) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// auditCredentials are the credentials of the connections the audit reads.
func auditCredentials(d *framework.ProviderData) []*framework.Credential {
	var out []*framework.Credential
	if d.EventMesh != nil {
		out = append(out, &d.EventMeshCredential)
	}
	if d.CloudIntegration != nil {
		out = append(out, &d.CloudIntegrationCredential)
	}
	if d.AEM != nil {
		out = append(out, &d.AEMCredential)
	}
	return out
}

// proveAll proves the credentials at once, so that the read waits for one round trip rather than one per
// service, and adds the error of each that fails, in order.
func proveAll(ctx context.Context, diags *diag.Diagnostics, creds ...*framework.Credential) bool {
	each := make([]diag.Diagnostics, len(creds))
	var wg sync.WaitGroup
	for i, c := range creds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Prove(ctx, &each[i])
		}()
	}
	wg.Wait()
	for _, d := range each {
		diags.Append(d...)
	}
	return !diags.HasError()
}

// unboundedValue is a path's `unbounded`: null when what runs is unknown.
func unboundedValue(p *audit.Path) types.Bool {
	if p.RuntimeUnknown {
		return types.BoolNull()
	}
	return types.BoolValue(p.Unbounded)
}

package eventmesh

import (
	"math"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The settings of an Event Mesh queue, in one place for the provider: the model embedded in the
// models of sapmessaging_queue, sapmessaging_dead_message_queue and the queue data sources, its
// conversion to and from eventmesh.QueueSettings and to rules.Queue, and the schema attributes of
// each. A new queue setting is a field of eventmesh.QueueSettings, a field of queueSettingsModel
// with its entry in each function of this file, and the rule in internal/rules that checks it.

// queueSettingsModel holds the writable settings of a queue.
type queueSettingsModel struct {
	AccessType                     types.String `tfsdk:"access_type"`
	MaxRedeliveryCount             types.Int64  `tfsdk:"max_redelivery_count"`
	DeadMessageQueue               types.String `tfsdk:"dead_message_queue"`
	RespectTTL                     types.Bool   `tfsdk:"respect_ttl"`
	MaxTTL                         types.Int64  `tfsdk:"max_ttl"`
	MaxQueueSizeInBytes            types.Int64  `tfsdk:"max_queue_size_in_bytes"`
	MaxMessageSizeInBytes          types.Int64  `tfsdk:"max_message_size_in_bytes"`
	MaxQueueMessageCount           types.Int64  `tfsdk:"max_queue_message_count"`
	MaxDeliveredUnackedMsgsPerFlow types.Int64  `tfsdk:"max_delivered_unacked_msgs_per_flow"`
}

// queueSettingsFromAPI reads what the service holds; null and absent fields read alike.
func queueSettingsFromAPI(s eventmesh.QueueSettings) queueSettingsModel {
	return queueSettingsModel{
		AccessType:                     framework.StringOr(s.AccessType, "NON_EXCLUSIVE"),
		MaxRedeliveryCount:             framework.Int64OrNull(s.MaxRedeliveryCount),
		DeadMessageQueue:               framework.NonEmptyStringOrNull(s.DeadMsgQueue),
		RespectTTL:                     types.BoolValue(s.RespectTTL != nil && *s.RespectTTL),
		MaxTTL:                         framework.Int64OrNull(s.MaxTTL),
		MaxQueueSizeInBytes:            framework.Int64OrNull(s.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          framework.Int64OrNull(s.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           framework.Int64OrNull(s.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: framework.Int64OrNull(s.MaxDeliveredUnackedMsgsPerFlow),
	}
}

// ToAPI returns the settings to write; a null or unknown setting is left out.
func (m *queueSettingsModel) ToAPI() eventmesh.QueueSettings {
	return eventmesh.QueueSettings{
		AccessType:                     framework.StringPtr(m.AccessType),
		MaxQueueSizeInBytes:            framework.Int64Ptr(m.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          framework.Int64Ptr(m.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           framework.Int64Ptr(m.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: framework.Int64Ptr(m.MaxDeliveredUnackedMsgsPerFlow),
		MaxRedeliveryCount:             framework.Int64Ptr(m.MaxRedeliveryCount),
		DeadMsgQueue:                   framework.StringPtr(m.DeadMessageQueue),
		RespectTTL:                     framework.BoolPtr(m.RespectTTL),
		MaxTTL:                         framework.Int64Ptr(m.MaxTTL),
	}
}

// ToRules returns the queue named name with these settings, as the rules check it at plan time.
func (m *queueSettingsModel) ToRules(name types.String) rules.Queue {
	return rules.Queue{
		Name:                           framework.StringValue(name),
		AccessType:                     framework.StringValue(m.AccessType),
		DeadMessageQueue:               framework.StringValue(m.DeadMessageQueue),
		MaxRedeliveryCount:             framework.Int64Value(m.MaxRedeliveryCount),
		MaxTTL:                         framework.Int64Value(m.MaxTTL),
		RespectTTL:                     framework.BoolValue(m.RespectTTL),
		MaxQueueSizeInBytes:            framework.Int64Value(m.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          framework.Int64Value(m.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           framework.Int64Value(m.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: framework.Int64Value(m.MaxDeliveredUnackedMsgsPerFlow),
	}
}

// queueSettingAttribute is one setting's attribute in each schema that holds it. A nil
// deadMessageQueue means the sapmessaging_dead_message_queue attribute is the queue's.
type queueSettingAttribute struct {
	queue, deadMessageQueue schema.Attribute
	dataSource              dsschema.Attribute
}

// queueSettingAttributes returns the attributes of the queue settings, by attribute name.
func queueSettingAttributes() map[string]queueSettingAttribute {
	size := func(description string, hi int64, dataSource string) queueSettingAttribute {
		return queueSettingAttribute{
			queue: schema.Int64Attribute{
				CustomType:          framework.WholeNumber(1, hi),
				MarkdownDescription: description,
				Optional:            true,
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			dataSource: computedInt64(dataSource),
		}
	}
	return map[string]queueSettingAttribute{
		"access_type": {
			queue: schema.StringAttribute{
				MarkdownDescription: "`NON_EXCLUSIVE` (default: consumers share the messages) or `EXCLUSIVE` (one consumer at a time).",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("NON_EXCLUSIVE"),
			},
			dataSource: dsschema.StringAttribute{MarkdownDescription: "`NON_EXCLUSIVE` or `EXCLUSIVE`.", Computed: true},
		},
		"max_redelivery_count": {
			queue: schema.Int64Attribute{
				CustomType: framework.WholeNumber(1, rules.MaxRedeliveryCountLimit),
				MarkdownDescription: "How often Event Mesh redelivers a message that was not acknowledged before it moves it to " +
					"`dead_message_queue`: 1 to 255. **Must be set**: in Event Mesh 0 and an empty value both mean *unlimited* " +
					"redelivery, so the plan refuses them. With an AMQP sender the worst case per message is " +
					"`(max_redelivery_count + 1) × retries + 1` executions.",
				Optional: true,
			},
			deadMessageQueue: schema.Int64Attribute{
				MarkdownDescription: "Read-only, always `0` after an apply: a dead message queue is inspected, not consumed, so the apply leaves " +
					"the redelivery count at the Event Mesh default. A queue imported with another value shows the change to `0` in the plan.",
				Computed: true,
			},
			dataSource: computedInt64("The redelivery limit; 0 or null means unlimited."),
		},
		"dead_message_queue": {
			queue: schema.StringAttribute{
				MarkdownDescription: "The full name of the queue that receives messages whose redeliveries are used up or whose " +
					"time to live expired, usually `sapmessaging_dead_message_queue.<name>.name`. It must be in the same namespace " +
					"(first three segments) and must not be the queue itself. It must exist, or be created by a queue resource " +
					"that Terraform plans first: a name that Event Mesh does not hold and no resource planned before this one creates " +
					"is an error at plan, so refer to the creating resource's `name` rather than writing its text. Every plan that refreshes checks it, " +
					"from the refresh's queue list: one deleted later outside this configuration is an error too (its queue would drop " +
					"failed messages), unless `allow_missing_dead_message_queue` adopts the queue as it is.",
				Optional: true,
			},
			deadMessageQueue: schema.StringAttribute{
				MarkdownDescription: "Read-only, always empty after an apply: a dead message queue names no dead message queue of its own. " +
					"A queue imported with one shows its removal in the plan.",
				Computed: true,
			},
			dataSource: dsschema.StringAttribute{MarkdownDescription: "The dead message queue, null when none is set.", Computed: true},
		},
		"respect_ttl": {
			queue: framework.FalseByDefault("Whether messages whose time to live expired move to the dead message queue. Needs `max_ttl`. Defaults to `false`."),
			deadMessageQueue: schema.BoolAttribute{
				MarkdownDescription: "Always `true` (`false` only with `allow_no_ttl` and no `max_ttl`): dead messages expire after `max_ttl`. " +
					"A change made outside Terraform shows as drift.",
				Computed: true,
			},
			dataSource: dsschema.BoolAttribute{MarkdownDescription: "Whether expired messages move to the dead message queue.", Computed: true},
		},
		"max_ttl": {
			queue: schema.Int64Attribute{
				CustomType:          framework.WholeNumber(1, rules.MaxTTLLimit),
				MarkdownDescription: "The maximum time to live of a message in seconds, 1 to 604800 (7 days). Needs `respect_ttl = true`.",
				Optional:            true,
			},
			deadMessageQueue: schema.Int64Attribute{
				CustomType: framework.WholeNumber(1, rules.MaxTTLLimit),
				MarkdownDescription: "How long a dead message is kept, in seconds, 1 to 604800. Defaults to 604800 (7 days), or to none " +
					"with `allow_no_ttl = true`. Someone must inspect the DMQ within this time, or the messages are gone.",
				Optional: true,
				Computed: true,
			},
			dataSource: computedInt64("The maximum time to live in seconds, null when none is set."),
		},
		"max_queue_size_in_bytes": size("The maximum size of the queue in bytes, up to 1572864000 (1.5 GB). Defaults to the service's value.",
			rules.MaxQueueSizeInBytes, "The maximum size of the queue in bytes."),
		"max_message_size_in_bytes": size("The maximum size of one message in bytes, up to 1000000 (1 MB, the default and maximum SAP documents; "+
			"`allow_message_size_above_documented_max` adopts a queue that holds more). Defaults to the service's value.",
			rules.MaxMessageSizeInBytes, "The maximum size of one message in bytes."),
		"max_queue_message_count": size("The maximum number of messages in the queue. Defaults to the service's value.",
			math.MaxInt64, "The maximum number of messages in the queue."),
		"max_delivered_unacked_msgs_per_flow": size("The maximum number of delivered but unacknowledged messages per consumer flow. Defaults to the service's value.",
			math.MaxInt64, "The maximum number of delivered but unacknowledged messages per flow."),
	}
}

// queueResourceModel is the model of sapmessaging_queue and sapmessaging_dead_message_queue.
type queueResourceModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
	queueSettingsModel
	ForceDestroy                       types.Bool `tfsdk:"force_destroy"`
	AllowNoQueueLimits                 types.Bool `tfsdk:"allow_no_queue_limits"`
	AllowMessageSizeAboveDocumentedMax types.Bool `tfsdk:"allow_message_size_above_documented_max"`
}

func (m *queueResourceModel) queueName() string  { return m.Name.ValueString() }
func (m *queueResourceModel) forceDestroy() bool { return m.ForceDestroy.ValueBool() }

// settingsModel is the part of the model that Event Mesh holds.
func (m *queueResourceModel) settingsModel() queueSettingsModel { return m.queueSettingsModel }

// fromAPI copies what the service holds into the model.
func (m *queueResourceModel) fromAPI(q *eventmesh.Queue) {
	m.ID = types.StringValue(q.Name)
	m.Name = types.StringValue(q.Name)
	m.queueSettingsModel = queueSettingsFromAPI(q.QueueSettings)
	if m.ForceDestroy.IsNull() || m.ForceDestroy.IsUnknown() {
		m.ForceDestroy = types.BoolValue(false)
	}
	if m.AllowNoQueueLimits.IsNull() || m.AllowNoQueueLimits.IsUnknown() {
		// After an import: whether the queue holds a size or message count of 0 (no limit of its own),
		// so that a configuration adopting it as it is (as terraform query writes it) plans no change.
		zero := func(p *int64) bool { return p != nil && *p == 0 }
		m.AllowNoQueueLimits = types.BoolValue(zero(q.MaxQueueSizeInBytes) || zero(q.MaxQueueMessageCount))
	}
	if m.AllowMessageSizeAboveDocumentedMax.IsNull() || m.AllowMessageSizeAboveDocumentedMax.IsUnknown() {
		// After an import: whether the queue holds a message size above the 1 MB SAP documents, as a queue of
		// the default plan can, so that a configuration adopting it as it is plans no change.
		n := q.MaxMessageSizeInBytes
		m.AllowMessageSizeAboveDocumentedMax = types.BoolValue(n != nil && *n > rules.MaxMessageSizeInBytes)
	}
}

// ToRules returns the queue with its settings, allow_no_queue_limits and allow_message_size_above_documented_max,
// as the rules check it at plan time.
func (m *queueResourceModel) ToRules() rules.Queue {
	q := m.queueSettingsModel.ToRules(m.Name)
	q.AllowNoQueueLimits = m.AllowNoQueueLimits.ValueBool()
	q.AllowMessageSizeAboveDocumentedMax = m.AllowMessageSizeAboveDocumentedMax.ValueBool()
	return q
}

// queueResourceAttributes returns the attributes of sapmessaging_queue, or of
// sapmessaging_dead_message_queue when dmq is set, whose name attribute says nameDescription.
func queueResourceAttributes(dmq bool, nameDescription string) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id": framework.ComputedKept("The queue name."),
		"name": schema.StringAttribute{
			MarkdownDescription: nameDescription,
			Required:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"force_destroy": framework.FalseByDefault("Whether `terraform destroy` (or a replacement) may delete the queue while it holds messages. " +
			"Defaults to `false`: the plan of a destroy or replacement of a queue with messages then fails, before anything that depends on " +
			"the queue is deleted, the delete checks again, and the messages stay. Apply `true` before destroying to discard them. " +
			"A replacement under the same name (`terraform apply -replace`, a tainted queue) is refused as well unless both the state " +
			"and the configuration hold `true`. " +
			"With `true` the delete skips the fresh read of the message count, one management call less per queue."),
		"allow_no_queue_limits": framework.FalseByDefault("Accept `max_queue_size_in_bytes = 0` or `max_queue_message_count = 0`, which Event Mesh shows on a queue " +
			"created without these limits: such a queue has no limit of its own and takes messages, so a consumer that stops lets it grow, " +
			"taking room the instance's other queues may need. The plan then warns instead of refusing. Only for adopting a " +
			"queue that already holds 0 as it is: an import sets it to `true` for such a queue, and `terraform query -generate-config-out` " +
			"writes it. Set both limits (the queue size from 1 to 1572864000 bytes, the message count to at least 1) and remove this " +
			"attribute as soon as you can. It does not adopt a `max_message_size_in_bytes`, `max_ttl` or " +
			"`max_delivered_unacked_msgs_per_flow` of 0: SAP documents no meaning of 0 for them. Defaults to `false`; changing it writes nothing to Event Mesh."),
		"allow_message_size_above_documented_max": framework.FalseByDefault("Accept a `max_message_size_in_bytes` above 1000000 (1 MB), the default and maximum SAP documents for Event Mesh " +
			"in SAP Integration Suite, which refuses a larger value. A queue of the default plan of SAP Event Mesh can hold one (10000000 has " +
			"been seen): it lets messages of up to that size into the queue, so its consumers have to take messages larger than SAP documents, " +
			"and the same configuration fails on the Integration Suite capability. The plan then warns instead of refusing. Only for adopting " +
			"a queue that already holds such a size as it is: an import sets it to `true` for such a queue, and `terraform query " +
			"-generate-config-out` writes it. Set `max_message_size_in_bytes` to at most 1000000 and remove this attribute as soon as no " +
			"sender needs larger messages. Defaults to `false`; changing it writes nothing to Event Mesh."),
	}
	for name, a := range queueSettingAttributes() {
		attrs[name] = a.queue
		if dmq && a.deadMessageQueue != nil {
			attrs[name] = a.deadMessageQueue
		}
	}
	return attrs
}

// queueDataSourceAttributes returns the settings' attributes of the queue data sources.
func queueDataSourceAttributes() map[string]dsschema.Attribute {
	attrs := map[string]dsschema.Attribute{}
	for name, a := range queueSettingAttributes() {
		attrs[name] = a.dataSource
	}
	return attrs
}

func computedInt64(description string) dsschema.Attribute {
	return dsschema.Int64Attribute{MarkdownDescription: description, Computed: true}
}

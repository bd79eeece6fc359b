package eventmesh

import (
	"context"
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// NewQueueResource returns the sapmessaging_queue resource: a queue resource (queue_shared.go) with its own
// schema, checks and plan.
func NewQueueResource() resource.Resource {
	return &queueResourceBase[QueueModel, *QueueModel]{typeName: "sapmessaging_queue", schema: queueSchema}
}

type QueueModel struct {
	queueResourceModel
	AllowUnlimitedRedelivery types.Bool `tfsdk:"allow_unlimited_redelivery"`
	AllowIneffectiveTTL      types.Bool `tfsdk:"allow_ineffective_ttl"`
	AllowDMQOutsideNamespace types.Bool `tfsdk:"allow_dead_message_queue_outside_namespace"`
	AllowSelfAsDMQ           types.Bool `tfsdk:"allow_self_as_dead_message_queue"`
	AllowMissingDMQ          types.Bool `tfsdk:"allow_missing_dead_message_queue"`
}

// fromAPI copies what the service holds into the model. After an import (the attributes still
// null), allow_unlimited_redelivery records whether the queue redelivers without limit, and
// allow_ineffective_ttl whether its time to live takes no effect (respectTtl without maxTtl, or
// maxTtl without respectTtl), allow_dead_message_queue_outside_namespace whether its dead message
// queue lies in another namespace, and allow_self_as_dead_message_queue whether it names itself as
// its dead message queue, so that a configuration adopting such a queue as it is (as terraform
// query writes it) plans no change.
func (m *QueueModel) fromAPI(q *eventmesh.Queue) {
	m.queueResourceModel.fromAPI(q)
	if m.AllowUnlimitedRedelivery.IsNull() || m.AllowUnlimitedRedelivery.IsUnknown() {
		n := q.MaxRedeliveryCount
		m.AllowUnlimitedRedelivery = types.BoolValue(n == nil || *n == 0)
	}
	if m.AllowIneffectiveTTL.IsNull() || m.AllowIneffectiveTTL.IsUnknown() {
		respect := q.RespectTTL != nil && *q.RespectTTL
		m.AllowIneffectiveTTL = types.BoolValue(respect != (q.MaxTTL != nil))
	}
	if m.AllowDMQOutsideNamespace.IsNull() || m.AllowDMQOutsideNamespace.IsUnknown() {
		dmq := framework.Deref(q.DeadMsgQueue)
		m.AllowDMQOutsideNamespace = types.BoolValue(dmq != "" && rules.Namespace(dmq) != rules.Namespace(m.Name.ValueString()))
	}
	if m.AllowSelfAsDMQ.IsNull() || m.AllowSelfAsDMQ.IsUnknown() {
		m.AllowSelfAsDMQ = types.BoolValue(framework.Deref(q.DeadMsgQueue) == m.Name.ValueString())
	}
	if m.AllowMissingDMQ.IsNull() || m.AllowMissingDMQ.IsUnknown() {
		m.AllowMissingDMQ = types.BoolValue(false) // readMissingDMQ sets it after an import
	}
}

// missingDMQReader is a model whose read, after an import, records whether the dead message queue its queue
// names is missing (allow_missing_dead_message_queue).
type missingDMQReader interface {
	readMissingDMQ(q *eventmesh.Queue, exists func(name string) bool)
}

// readMissingDMQ sets, before fromAPI and only after an import (allow_missing_dead_message_queue still null),
// whether the dead message queue q names is missing, so that a configuration adopting the queue as it is (as
// terraform query writes it) plans no change. exists answers from the run's queue list.
func (m *QueueModel) readMissingDMQ(q *eventmesh.Queue, exists func(name string) bool) {
	if !m.AllowMissingDMQ.IsNull() && !m.AllowMissingDMQ.IsUnknown() {
		return
	}
	dmq := framework.Deref(q.DeadMsgQueue)
	m.AllowMissingDMQ = types.BoolValue(dmq != "" && dmq != q.Name && !exists(dmq))
}

func queueSchema() schema.Schema {
	attrs := queueResourceAttributes(false,
		"The full queue name including the namespace, for example `acme/crm/prod/orders`. "+
			"Up to 20 segments of letters, digits, `-`, `_` and `.`. Changing it replaces the queue.")
	attrs["allow_unlimited_redelivery"] = framework.FalseByDefault("Accept a `max_redelivery_count` of 0 or none, which Event Mesh reads as *unlimited*: the plan then warns " +
		"instead of refusing. Only for adopting a queue that already works this way as it is: an import sets it to `true` for such " +
		"a queue, and `terraform query -generate-config-out` writes it. Set `max_redelivery_count` and remove this attribute as soon as you can. " +
		"Defaults to `false`; changing it writes nothing to Event Mesh.")
	attrs["allow_ineffective_ttl"] = framework.FalseByDefault("Accept a time to live that takes no effect: `respect_ttl = true` without `max_ttl`, or `max_ttl` without " +
		"`respect_ttl = true` (Event Mesh then never expires a message): the plan then warns instead of refusing. Only for adopting a queue " +
		"that already works this way as it is: an import sets it to `true` for such a queue, and `terraform query -generate-config-out` " +
		"writes it. Set `respect_ttl` and `max_ttl` together (or neither) and remove this attribute as soon as you can. " +
		"Defaults to `false`; changing it writes nothing to Event Mesh.")
	attrs["allow_dead_message_queue_outside_namespace"] = framework.FalseByDefault("Accept a `dead_message_queue` in another namespace (the first three segments of the name), which belongs to " +
		"another Event Mesh client whose owners may never look at this queue's dead messages: the plan then warns instead of refusing. " +
		"Only for adopting a queue that already works this way as it is: an import sets it to `true` for such a queue, and " +
		"`terraform query -generate-config-out` writes it. Set a dead message queue in the queue's own namespace and remove this " +
		"attribute as soon as you can. Defaults to `false`; changing it writes nothing to Event Mesh.")
	attrs["allow_missing_dead_message_queue"] = framework.FalseByDefault("Accept a `dead_message_queue` that the Event Mesh instance no longer holds (deleted outside this configuration), " +
		"while the plan writes nothing to the queue: the plan then warns instead of refusing. Such a queue drops a message that uses up " +
		"its redeliveries, and Event Mesh refuses any write of it, so a plan that changes the queue is refused all the same. Only for " +
		"adopting a queue that already works this way as it is: an import sets it to `true` for such a queue, and `terraform query " +
		"-generate-config-out` writes it. Create the dead message queue again and remove this attribute as soon as you can. " +
		"Defaults to `false`.")
	attrs["allow_self_as_dead_message_queue"] = framework.FalseByDefault("Accept a `dead_message_queue` that names the queue itself, which moves a dead message back into the queue " +
		"it failed on: the plan then warns instead of refusing. Only for adopting a queue that already works this way as it is: an " +
		"import sets it to `true` for such a queue, and `terraform query -generate-config-out` writes it. Set a separate dead message " +
		"queue and remove this attribute as soon as you can. Defaults to `false`; changing it writes nothing to Event Mesh.")
	return schema.Schema{
		MarkdownDescription: "An SAP Event Mesh queue with its redelivery and dead-letter settings. " +
			"The plan refuses the settings that make a poison message loop for ever: a `max_redelivery_count` of 0 or none " +
			"(Event Mesh reads both as *unlimited*; `allow_unlimited_redelivery` turns this into a warning for a queue adopted as it is), " +
			"a dead message queue that is the queue itself or lies outside its namespace (`allow_self_as_dead_message_queue` and " +
			"`allow_dead_message_queue_outside_namespace` adopt such a queue as it is), " +
			"a dead message queue that no longer exists, on every plan that refreshes, from the refresh's queue list (`allow_missing_dead_message_queue` " +
			"adopts such a queue as it is, while the plan writes nothing to it), " +
			"a time to live without `respect_ttl` (or `respect_ttl` without a time to live; `allow_ineffective_ttl` adopts such a queue as it is), " +
			"a queue size or message count of 0, which Event Mesh shows on a queue without a limit of its own (`allow_no_queue_limits` adopts such a queue as it is), " +
			"and a message size above 1 MB, the maximum SAP documents (`allow_message_size_above_documented_max` adopts a queue of the default plan that holds one). " +
			"A queue without a dead message queue gets a warning.",
		Attributes: attrs,
	}
}

// configRules is the configured queue as the rules read it at validation.
func (m *QueueModel) configRules() rules.Queue {
	q := m.ToRules()
	q.AllowUnlimitedRedelivery = m.AllowUnlimitedRedelivery.ValueBool()
	q.AllowIneffectiveTTL = m.AllowIneffectiveTTL.ValueBool()
	q.AllowDMQOutsideNamespace = m.AllowDMQOutsideNamespace.ValueBool()
	q.AllowSelfAsDMQ = m.AllowSelfAsDMQ.ValueBool()
	return q
}

// planQueue refuses a queue name that another resource of this run plans too (see queueNames),
// and a dead message queue that leads back to the queue, across the queues the service holds and
// the other queues of the plan, and warns about a dead message queue that has one of its own.
func (plan *QueueModel) planQueue(ctx context.Context, d *framework.ProviderData, typeName string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if plan.Name.IsUnknown() {
		return
	}
	state, ok := priorState[QueueModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	inState := !req.State.Raw.IsNull() && state.Name.Equal(plan.Name)
	if !d.ClaimQueueName(ctx, typeName, plan.Name.ValueString(), inState, !state.ForceDestroy.ValueBool(), req, resp) || plan.DeadMessageQueue.IsUnknown() {
		return
	}
	name, dmq, allowMissing := plan.Name.ValueString(), plan.DeadMessageQueue.ValueString(), plan.AllowMissingDMQ.ValueBool()
	if !req.State.Raw.IsNull() && state.Name.Equal(plan.Name) && state.DeadMessageQueue.Equal(plan.DeadMessageQueue) {
		// The link is unchanged, so it closes no new cycle, but the dead message queue may have been deleted
		// outside this configuration: checked from the refresh's queue list, on every plan.
		d.RecordDMQLink(name, dmq, &resp.Diagnostics)
		// Whether the plan writes the queue: whether it changes a setting Event Mesh holds. A change of
		// only what the provider keeps (force_destroy, the allow_* attributes) writes nothing (updateQueueResource).
		d.CheckHeldDMQ(ctx, name, dmq, plan.settingsModel() != state.settingsModel(), allowMissing, &resp.Diagnostics)
		return
	}
	if d.CheckDMQLinks(ctx, name, dmq, true, &resp.Diagnostics) && allowMissing {
		// A new link names a queue that exists (or the plan was refused): the attribute changes nothing.
		d.CheckHeldDMQ(ctx, name, "", true, true, &resp.Diagnostics)
	}
}

func (m *QueueModel) settings() eventmesh.QueueSettings { return m.ToAPI() }

func importQueueByName(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if err := rules.ValidQueueName(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("The import ID must be the full queue name: %s. Use the full queue name including the namespace as the import ID, for example acme/crm/prod/orders.", framework.Clause(err)))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("force_destroy"), false)...)
}

package eventmesh

import (
	"context"
	"fmt"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// NewDeadMessageQueueResource returns the sapmessaging_dead_message_queue resource: a queue resource
// (queue_shared.go) with the dead message queue rules built in.
func NewDeadMessageQueueResource() resource.Resource {
	return &queueResourceBase[DeadMessageQueueModel, *DeadMessageQueueModel]{typeName: "sapmessaging_dead_message_queue", schema: deadMessageQueueSchema}
}

type DeadMessageQueueModel struct {
	queueResourceModel
	AllowNoTTL types.Bool `tfsdk:"allow_no_ttl"`
}

// noTTL reports whether the queue is planned without a time to live: allowed, and no max_ttl.
func (m *DeadMessageQueueModel) noTTL() bool {
	return m.AllowNoTTL.ValueBool() && m.MaxTTL.IsNull()
}

func deadMessageQueueSchema() schema.Schema {
	attrs := queueResourceAttributes(true,
		"The full queue name, in the same namespace as the queues that use it, for example "+
			"`acme/crm/prod/orders/dmq`. Changing it replaces the queue.")
	attrs["allow_no_ttl"] = framework.FalseByDefault("Accept a dead message queue without a time to live (no `max_ttl`, `respect_ttl` off), which keeps every dead " +
		"message until someone deletes it and grows until it is full: the plan then warns instead of refusing, and without `max_ttl` " +
		"the apply leaves the time to live off instead of setting 7 days. Only for adopting a dead message queue that already works this " +
		"way as it is: an import sets it to `true` for such a queue, and `terraform query -generate-config-out` writes it. Set `max_ttl` " +
		"and remove this attribute as soon as you can. Defaults to `false`; it is not a setting of the queue.")
	return schema.Schema{
		MarkdownDescription: "An SAP Event Mesh queue used as dead message queue (DMQ) of other queues. It is an ordinary queue " +
			"with the DMQ rules built in: time to live is always respected, so the DMQ cannot grow for ever (`max_ttl` defaults " +
			"to 7 days; `allow_no_ttl` adopts a DMQ without one as it is, with a warning; `allow_no_queue_limits` adopts one whose queue size " +
			"or message count is 0, no limit of its own; `allow_message_size_above_documented_max` one whose message size is above the 1 MB " +
			"SAP documents), and it has no redelivery count, because a DMQ is " +
			"inspected, not consumed. Destroying it is refused " +
			"while it holds messages (unless `force_destroy`) or while another queue still names it as `dead_message_queue`.",
		Attributes: attrs,
	}
}

// planQueue plans the two settings that the apply always writes although the configuration
// cannot set them: max_redelivery_count 0 and no dead message queue. An ordinary queue imported
// as a dead message queue (with a redelivery count or a dead message queue of its own) then
// shows both changes in the plan, with a warning, instead of losing them silently. A queue name
// that another resource of this run plans too is refused (see queueNames).
func (plan *DeadMessageQueueModel) planQueue(ctx context.Context, d *framework.ProviderData, typeName string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var cfg DeadMessageQueueModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.MaxRedeliveryCount = types.Int64Value(0)
	plan.DeadMessageQueue = types.StringNull()
	// The time to live: max_ttl as configured, else 7 days, or none when allow_no_ttl adopts a
	// queue without one; respect_ttl follows (a dead message queue respects the TTL it has).
	if cfg.MaxTTL.IsNull() {
		plan.MaxTTL = types.Int64Value(rules.DefaultDMQTTL)
		if plan.AllowNoTTL.ValueBool() {
			plan.MaxTTL = types.Int64Null()
		}
	}
	plan.RespectTTL = types.BoolValue(!plan.noTTL())
	resp.Diagnostics.Append(framework.SetPlan(ctx, &resp.Plan, plan)...)
	state, ok := priorState[DeadMessageQueueModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	if !req.State.Raw.IsNull() {
		warnOrdinaryQueue(&resp.Diagnostics, state)
	}
	if !plan.Name.IsUnknown() {
		inState := !req.State.Raw.IsNull() && state.Name.Equal(plan.Name)
		if !d.ClaimQueueName(ctx, typeName, plan.Name.ValueString(), inState, !state.ForceDestroy.ValueBool(), req, resp) {
			return
		}
		d.CheckDMQLinks(ctx, plan.Name.ValueString(), "", true, &resp.Diagnostics)
	}
}

// warnOrdinaryQueue warns when the queue in state has settings of an ordinary queue that the
// apply of a sapmessaging_dead_message_queue resets.
func warnOrdinaryQueue(diags *diag.Diagnostics, state DeadMessageQueueModel) {
	var held []string
	if n := state.MaxRedeliveryCount; !n.IsNull() && !n.IsUnknown() && n.ValueInt64() != 0 {
		held = append(held, fmt.Sprintf("`max_redelivery_count = %d`, which the apply sets to 0 (the Event Mesh default: unlimited redelivery)", n.ValueInt64()))
	}
	if q := state.DeadMessageQueue; !q.IsNull() && !q.IsUnknown() && q.ValueString() != "" {
		held = append(held, fmt.Sprintf("`dead_message_queue = %q`, which the apply removes", q.ValueString()))
	}
	if len(held) == 0 {
		return
	}
	diags.AddWarning("Ordinary Queue Settings Will Be Reset",
		fmt.Sprintf("The queue %q holds settings of an ordinary queue: %s. As a `sapmessaging_dead_message_queue` it keeps neither, so a consumer of this queue "+
			"would get every failing message redelivered without limit and never dead-lettered. The plan shows both changes. "+
			"If consumers read from this queue, manage it as `sapmessaging_queue` instead: terraform state rm this resource, then import the queue "+
			"into a `sapmessaging_queue`; if it is only a dead message queue, apply the plan.",
			state.Name.ValueString(), strings.Join(held, " and ")))
}

// configRules is the configured dead message queue as the rules read it at validation.
func (m *DeadMessageQueueModel) configRules() rules.Queue {
	q := m.ToRules()
	// The dead message queue rules: a time to live always, no redelivery count and no dead
	// message queue of its own (the configuration cannot set them).
	q.AllowNoTTL = m.AllowNoTTL.ValueBool()
	if q.MaxTTL.Null && !q.AllowNoTTL {
		q.MaxTTL = rules.Known[int64](rules.DefaultDMQTTL)
	}
	q.RespectTTL = rules.Known(!q.MaxTTL.Null)
	q.MaxRedeliveryCount, q.DeadMessageQueue = rules.Value[int64]{}, rules.Value[string]{}
	q.IsDeadMessageQueue = true
	return q
}

// settings returns the settings to write: time to live always respected, and neither a
// redelivery count nor a dead message queue, whatever the model holds.
func (m *DeadMessageQueueModel) settings() eventmesh.QueueSettings {
	s := m.ToAPI()
	respect := !m.noTTL()
	s.RespectTTL = &respect
	s.MaxRedeliveryCount, s.DeadMsgQueue = nil, nil
	return s
}

// fromAPI copies what the service holds into the model. Event Mesh stores no redelivery count as
// 0; null and absent read as 0 too.
func (m *DeadMessageQueueModel) fromAPI(q *eventmesh.Queue) {
	m.queueResourceModel.fromAPI(q)
	m.MaxRedeliveryCount = types.Int64Value(framework.Deref(q.MaxRedeliveryCount))
	if m.AllowNoTTL.IsNull() || m.AllowNoTTL.IsUnknown() {
		// After an import: whether the queue lacks a time to live, so that a configuration
		// adopting it as it is (as terraform query writes it) plans no change.
		m.AllowNoTTL = types.BoolValue(q.RespectTTL == nil || !*q.RespectTTL || q.MaxTTL == nil)
	}
}

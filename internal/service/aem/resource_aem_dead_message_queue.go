package aem

import (
	"context"
	"fmt"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// NewAEMDeadMessageQueueResource returns the sapmessaging_aem_dead_message_queue resource: an Advanced Event Mesh
// queue (aem_queue_shared.go) kept as the dead message queue of other queues: the dead message queue rules, and
// neither a redelivery count nor a dead message queue of its own.
func NewAEMDeadMessageQueueResource() resource.Resource {
	return &aemQueueResourceBase[aemDeadMessageQueueModel, *aemDeadMessageQueueModel]{typeName: "sapmessaging_aem_dead_message_queue", schema: aemDeadMessageQueueSchema}
}

type aemDeadMessageQueueModel struct {
	aemQueueResourceModel
	AllowNoTTL           types.Bool `tfsdk:"allow_no_ttl"`
	AllowIngressDisabled types.Bool `tfsdk:"allow_ingress_disabled"`
}

// fromBroker copies what the broker holds. After an import (the attributes still null), allow_no_ttl
// records whether the queue lacks a time to live and allow_ingress_disabled whether it takes no messages,
// so that a configuration adopting it as it is (as terraform query writes it) plans no change.
func (m *aemDeadMessageQueueModel) FromBroker(q *aem.Queue, vpn string, _ aemQueueLookup) {
	m.fromAPI(q, vpn)
	if m.AllowNoTTL.IsNull() || m.AllowNoTTL.IsUnknown() {
		m.AllowNoTTL = types.BoolValue(!m.RespectTTL.ValueBool() || m.MaxTTL.ValueInt64() == 0)
	}
	if m.AllowIngressDisabled.IsNull() || m.AllowIngressDisabled.IsUnknown() {
		m.AllowIngressDisabled = types.BoolValue(!m.IngressEnabled.ValueBool())
	}
}

// aemNoOwnDMQ reports whether deadMsgQueue names no dead message queue of a dead message queue's own: the
// broker's default #DEAD_MSG_QUEUE, or "" (none: what the queue removes is deleted, as rules.AEMDeadMessageQueueDeletes reads it).
func aemNoOwnDMQ(deadMsgQueue string) bool {
	return deadMsgQueue == framework.AEMDefaultDMQ || deadMsgQueue == ""
}

// writable returns the settings the configuration sets (with the provider's defaults) that differ from the
// state, and the broker's defaults of the redelivery count and the dead message queue where the queue in
// state holds others (a dead message queue has neither of its own; a new queue gets the defaults without
// writing them, and one that names "" keeps it).
// outcomeAtApply is false: the dead message queue has no attribute that depends on other queues.
func (m *aemDeadMessageQueueModel) outcomeAtApply() bool { return false }

func (m *aemDeadMessageQueueModel) writable(cfg, state *aemDeadMessageQueueModel) aem.QueueSettings {
	c := withDefaults(cfg.AEMQueueSettingsModel, true)
	s := c.ToAPI()
	s.MaxRedeliveryCount, s.DeadMsgQueue = nil, nil
	if state == nil {
		return s
	}
	s.MaxRedeliveryCount = aem.Ptr[int64](0)
	if !aemNoOwnDMQ(state.DeadMessageQueue.ValueString()) {
		s.DeadMsgQueue = aem.Ptr(framework.AEMDefaultDMQ)
	}
	return ChangedSettings(s, state.ToAPI())
}

func aemDeadMessageQueueSchema(ctx context.Context) schema.Schema {
	attrs := aemQueueAttributes(ctx, true)
	attrs["allow_no_ttl"] = framework.FalseByDefault("Accept a dead message queue without a time to live (`respect_ttl` off, or no `max_ttl`), which keeps every dead " +
		"message until someone deletes it and grows until its spool quota is full: the plan then warns instead of refusing. Only for " +
		"adopting a dead message queue that already works this way as it is: an import sets it to `true` for such a queue, and " +
		"`terraform query -generate-config-out` writes it. Set `respect_ttl = true` and `max_ttl`, and remove this attribute as soon as " +
		"you can. Defaults to `false`; it is not a setting of the queue.")
	attrs["allow_ingress_disabled"] = framework.FalseByDefault("Accept `ingress_enabled = false`, with which the dead message queue takes no message and the broker deletes " +
		"what the queues naming it remove: the plan then warns instead of refusing (and the queues naming it are refused unless they " +
		"set `allow_missing_dead_message_queue`). Only for adopting a dead message queue made by hand with the broker's default as it " +
		"is: an import sets it to `true` for such a queue, and `terraform query -generate-config-out` writes it. Set " +
		"`ingress_enabled = true` (or leave it out) and remove this attribute as soon as you can. Defaults to `false`; it is not a " +
		"setting of the queue.")
	return schema.Schema{
		MarkdownDescription: "A queue of an SAP Integration Suite, advanced event mesh (AEM) broker service kept as the dead message queue " +
			"(DMQ) of other queues. With only `name` it works: ingress and egress on, `respect_ttl = true` and `max_ttl` 604800 (7 days), " +
			"where the broker's defaults would take nothing and keep it for ever; `redelivery_enabled`, `respect_dmq_eligible_enabled` " +
			"and `reject_msg_to_sender_on_discard_behavior` keep the broker's defaults when left out, so that a value set by hand on the " +
			"broker shows as a change in the plan. The plan refuses a dead message queue that keeps dead " +
			"messages for ever (it needs `respect_ttl = true` and a `max_ttl`; `allow_no_ttl` adopts one without as it is, with a warning) or " +
			"takes none (`ingress_enabled = false`; `allow_ingress_disabled` adopts one as it is, with a warning), and the create of a queue " +
			"the broker holds already (import it instead). It has " +
			"no redelivery count and no dead message queue of its own, because a DMQ is inspected, not consumed: the apply keeps both at the " +
			"broker's defaults. Queues of the same configuration may name it in `dead_message_queue` before it exists on the broker. " +
			"Destroying it is refused while it holds messages (unless `force_destroy`) or while another queue names it.",
		Attributes: attrs,
	}
}

// planRules plans the redelivery count and dead message queue the apply keeps at the broker's defaults (an
// ordinary queue imported as a dead message queue shows both changes, with a warning) and returns the queue as
// the dead message queue rules see it (with the spool quota the broker holds when the configuration leaves it
// out); eff is the configuration with the provider's defaults.
func (m *aemDeadMessageQueueModel) planRules(ctx context.Context, cfg, state *aemDeadMessageQueueModel, hasState, inState bool,
	resp *resource.ModifyPlanResponse) (q rules.AEMQueue, eff framework.AEMQueueSettingsModel) {
	m.MaxRedeliveryCount, m.DeadMessageQueue = types.Int64Value(0), types.StringValue(framework.AEMDefaultDMQ)
	if inState && aemNoOwnDMQ(state.DeadMessageQueue.ValueString()) {
		m.DeadMessageQueue = state.DeadMessageQueue
	}
	resp.Diagnostics.Append(framework.SetPlan(ctx, &resp.Plan, m)...)
	if hasState {
		warnAEMOrdinaryQueue(&resp.Diagnostics, *state)
	}
	eff = withDefaults(cfg.AEMQueueSettingsModel, true)
	q = eff.ToRules(cfg.Name)
	q.IsDeadMessageQueue, q.AllowNoTTL, q.AllowIngressDisabled = true, cfg.AllowNoTTL.ValueBool(), cfg.AllowIngressDisabled.ValueBool()
	q.MaxRedeliveryCount, q.DeadMessageQueue = rules.Null[int64](), rules.Null[string]()
	if inState && cfg.MaxMsgSpoolUsage.IsNull() {
		// Left out, the spool quota is the broker's: a 0 set by hand (only the last dead message kept) warns
		// from the refreshed value, as the queues naming this one do.
		q.MaxMsgSpoolUsage = framework.Int64Value(state.MaxMsgSpoolUsage)
	}
	return q, eff
}

// planLinks has nothing to check: a dead message queue names no dead message queue of its own.
func (m *aemDeadMessageQueueModel) planLinks(context.Context, *framework.ProviderData, string, *rules.AEMQueue, *diag.Diagnostics) bool {
	return true
}

// planOutcome has nothing to compute: the dead message queue has no outcome attributes.
func (m *aemDeadMessageQueueModel) planOutcome(context.Context, *aemDeadMessageQueueModel, *aemDeadMessageQueueModel, bool, bool, rules.AEMQueue,
	framework.AEMQueueSettingsModel, *resource.ModifyPlanResponse) {
}

// warnAEMOrdinaryQueue warns when the queue in state holds settings of an ordinary queue that the apply of
// a sapmessaging_aem_dead_message_queue resets.
func warnAEMOrdinaryQueue(diags *diag.Diagnostics, state aemDeadMessageQueueModel) {
	var held []string
	if n := state.MaxRedeliveryCount; !n.IsNull() && !n.IsUnknown() && n.ValueInt64() != 0 {
		held = append(held, fmt.Sprintf("`max_redelivery_count = %d`, which the apply sets to 0 (the broker's default: retry forever)", n.ValueInt64()))
	}
	if q := state.DeadMessageQueue; !q.IsNull() && !q.IsUnknown() && !aemNoOwnDMQ(q.ValueString()) {
		held = append(held, fmt.Sprintf("`dead_message_queue = %q`, which the apply sets to the broker's default %q", q.ValueString(), framework.AEMDefaultDMQ))
	}
	if len(held) == 0 {
		return
	}
	diags.AddWarning("Ordinary Queue Settings Will Be Reset",
		fmt.Sprintf("The queue %q holds settings of an ordinary queue: %s. As a `sapmessaging_aem_dead_message_queue` it keeps neither, so a consumer "+
			"of this queue would get every failing message redelivered for ever. The plan shows both changes. If consumers read from this queue, "+
			"manage it as `sapmessaging_aem_queue` instead: terraform state rm this resource, then import the queue into a `sapmessaging_aem_queue`; "+
			"if it is only a dead message queue, apply the plan.", state.Name.ValueString(), strings.Join(held, " and ")))
}

package aem

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// What sapmessaging_aem_queue and sapmessaging_aem_dead_message_queue share: the model of an Advanced
// Event Mesh queue's settings, its conversion to the SEMP client's settings and to the rules, the schema
// attributes, the run's queue list (one paged list per broker and run, shared by the refreshes and the
// plan-time dead message queue checks) and the create, read, update and delete of a queue.
//
// A setting the configuration leaves out is Optional and Computed with UseStateForUnknown: it is never
// written (a create leaves it at the broker's default, an update is a PATCH of the attributes the
// configuration sets) and shows what the broker holds. A setting the configuration sets is owned: a
// change on the broker shows as a plan change back to the configured value. The settings that decide
// where a failing message goes have a default instead (withDefaults): left out, they are owned at that
// default, so that a value set by hand on the broker shows as a plan change back.

// The provider's defaults where the broker's would build a queue that takes nothing ([SPEC] ingressEnabled,
// egressEnabled: false) or a dead message queue that keeps every dead message for ever (respectTtlEnabled
// false, maxTtl 0), and the broker's own defaults of the settings that decide where a failing message goes
// (redeliveryEnabled true, respectDmqEligibleEnabled false, rejectMsgToSenderOnDiscardBehavior
// when-queue-enabled, and on a queue respectTtlEnabled false and maxTtl 0): a create writes them, and a plan
// writes them back when the queue holds another value (one set by hand on the broker, where "No changes" would
// hide that messages are deleted or expire).
const aemDMQDefaultMaxTTL = 604800 // 7 days, as the Event Mesh dead message queues of the provider

// aemDefaultRejectOnDiscard is the broker's default rejectMsgToSenderOnDiscardBehavior ([SPEC] MsgVpnQueue x-default).
const aemDefaultRejectOnDiscard = "when-queue-enabled"

// withDefaults returns the configuration m with the provider's defaults where it leaves a setting out:
// ingress and egress on; the broker's defaults of the settings that decide where a removed or discarded
// message goes (redelivery on, respect_dmq_eligible_enabled off, the publisher told of a discard while the
// queue is enabled), so that a value set by hand on the broker shows as a change back; for a queue, the
// broker's respect_ttl off and max_ttl 0 (no expiry); and for a dead message queue (dmq) respect_ttl on with a
// max_ttl of 7 days.
func withDefaults(m framework.AEMQueueSettingsModel, dmq bool) framework.AEMQueueSettingsModel {
	on := func(v *types.Bool) {
		if v.IsNull() {
			*v = types.BoolValue(true)
		}
	}
	on(&m.IngressEnabled)
	on(&m.EgressEnabled)
	on(&m.RedeliveryEnabled)
	if m.RespectDMQEligibleEnabled.IsNull() {
		m.RespectDMQEligibleEnabled = types.BoolValue(false)
	}
	if m.RejectMsgToSenderOnDiscardBehavior.IsNull() {
		m.RejectMsgToSenderOnDiscardBehavior = types.StringValue(aemDefaultRejectOnDiscard)
	}
	if !dmq {
		if m.RespectTTL.IsNull() {
			m.RespectTTL = types.BoolValue(false)
		}
		if m.MaxTTL.IsNull() {
			m.MaxTTL = types.Int64Value(0)
		}
	}
	if dmq {
		if m.MaxTTL.IsNull() && (m.RespectTTL.IsNull() || m.RespectTTL.IsUnknown() || m.RespectTTL.ValueBool()) {
			m.MaxTTL = types.Int64Value(aemDMQDefaultMaxTTL)
		}
		on(&m.RespectTTL)
	}
	return m
}

// aemDMQMaxTTLDefault plans the provider's default max_ttl of a dead message queue that leaves it out,
// unless the configuration sets respect_ttl = false (with which a max_ttl does nothing: as any setting left
// out, the queue then keeps what it holds). withDefaults writes the same.
type aemDMQMaxTTLDefault struct{}

func (aemDMQMaxTTLDefault) Description(context.Context) string {
	return "604800 unless respect_ttl is false"
}

func (m aemDMQMaxTTLDefault) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (aemDMQMaxTTLDefault) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if !req.ConfigValue.IsNull() {
		return
	}
	var respect types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("respect_ttl"), &respect)...)
	switch {
	case resp.Diagnostics.HasError():
	case respect.IsUnknown():
		resp.PlanValue = types.Int64Unknown()
	case !respect.IsNull() && !respect.ValueBool():
		if !req.StateValue.IsNull() {
			resp.PlanValue = req.StateValue
		}
	default:
		resp.PlanValue = types.Int64Value(aemDMQDefaultMaxTTL)
	}
}

// aemQueueLookup returns a queue of the run's queue list (nil when the list does not hold it); known is
// false when the list could not be read.
type aemQueueLookup func(name string) (q *aem.Queue, known bool)

// aemRunQueueLookup looks queues up in the run's queue list, read at its first use.
func aemRunQueueLookup(d *framework.ProviderData, ctx context.Context) aemQueueLookup {
	return func(name string) (*aem.Queue, bool) {
		if d == nil || d.AEM == nil {
			return nil, false
		}
		qs, err := d.AEMQueues(ctx)
		if err != nil {
			return nil, false
		}
		d.AEMQueueList.Mu.Lock()
		defer d.AEMQueueList.Mu.Unlock()
		return qs[name], true
	}
}

// aemBrokerDMQDeletes reports whether the broker deletes what queue q removes because its dead message
// queue, as the broker holds them, keeps nothing (named "", missing, or with ingress off); false when that
// cannot be told.
func aemBrokerDMQDeletes(q *aem.Queue, lookup aemQueueLookup) bool {
	if lookup == nil {
		return false
	}
	rq := rules.AEMQueue{Name: rules.Known(q.Name), DeadMessageQueue: rules.Known(framework.AEMDefaultDMQ),
		DeadMessageQueueExists: rules.Unknown[bool](), DeadMessageQueueIngress: rules.Unknown[bool]()}
	if q.DeadMsgQueue != nil {
		rq.DeadMessageQueue = rules.Known(*q.DeadMsgQueue)
	}
	if dmq := rq.DeadMessageQueue.V; dmq != "" && dmq != q.Name {
		d, known := lookup(dmq)
		if !known {
			return false
		}
		rq.DeadMessageQueueExists = rules.Known(d != nil)
		if d != nil {
			rq.DeadMessageQueueIngress = rules.Known(d.IngressEnabled != nil && *d.IngressEnabled)
		}
	}
	return rules.AEMDeadMessageQueueDeletes(rq)
}

// aemBrokerDMQAdopted reports whether importing q as it is needs allow_missing_dead_message_queue: it names
// itself as its dead message queue, its dead message queue keeps nothing (aemBrokerDMQDeletes), or its dead
// message queues lead back to it (a cycle).
func aemBrokerDMQAdopted(q *aem.Queue, lookup aemQueueLookup) bool {
	return framework.AEMLinkOf(q) == q.Name || aemBrokerDMQDeletes(q, lookup) || aemBrokerDMQCycle(q, lookup) != nil
}

// aemQueueResourceModel is what both AEM queue resources hold besides their own attributes.
type aemQueueResourceModel struct {
	ID         types.String `tfsdk:"id"`
	Name       types.String `tfsdk:"name"`
	MsgVpnName types.String `tfsdk:"msg_vpn_name"`
	framework.AEMQueueSettingsModel
	ForceDestroy types.Bool     `tfsdk:"force_destroy"`
	Timeouts     timeouts.Value `tfsdk:"timeouts"`
}

func (m *aemQueueResourceModel) base() *aemQueueResourceModel { return m }

// fromAPI copies what the broker holds into the model.
func (m *aemQueueResourceModel) fromAPI(q *aem.Queue, vpn string) {
	m.ID = types.StringValue(q.Name)
	m.Name = types.StringValue(q.Name)
	m.MsgVpnName = types.StringValue(vpn)
	m.AEMQueueSettingsModel = framework.AEMQueueSettingsFromAPI(q.QueueSettings)
	if m.ForceDestroy.IsNull() || m.ForceDestroy.IsUnknown() {
		m.ForceDestroy = types.BoolValue(false)
	}
	if m.Timeouts.IsUnknown() || m.Timeouts.IsNull() {
		m.Timeouts = timeouts.Value{Object: types.ObjectNull(aemTimeoutsTypes)}
	}
}

// aemBool, aemInt64 and aemString are the schema attribute of a setting: Optional, Computed, its value kept
// from state while the configuration leaves it out.
func aemBool(description string) schema.BoolAttribute {
	return schema.BoolAttribute{MarkdownDescription: description, Optional: true, Computed: true,
		PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
}

func aemInt64(description string, lo, hi int64) schema.Int64Attribute {
	return schema.Int64Attribute{MarkdownDescription: description, Optional: true, Computed: true,
		Validators:    []validator.Int64{int64validator.Between(lo, hi)},
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
}

func aemString(description string, values ...string) schema.StringAttribute {
	a := schema.StringAttribute{MarkdownDescription: description, Optional: true, Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	if len(values) > 0 {
		a.Validators = []validator.String{stringvalidator.OneOf(values...)}
	}
	return a
}

// aemBoolDefault is the schema attribute of a setting with a provider default of true.
func aemBoolDefault(description string) schema.BoolAttribute {
	return aemBoolDefaultOf(description, true)
}

// aemBoolDefaultOf is the schema attribute of a setting with the provider default def.
func aemBoolDefaultOf(description string, def bool) schema.BoolAttribute {
	return schema.BoolAttribute{MarkdownDescription: description, Optional: true, Computed: true, Default: booldefault.StaticBool(def)}
}

// aemOmittedDefault is said of every setting with a provider default: what leaving it out does.
const aemOmittedDefault = " Left out, the provider's default applies: a create writes it, and a plan writes it back when the queue " +
	"holds another value. An import and `terraform query -generate-config-out` write the value the broker holds."

// aemOmitted is said of every setting: what leaving it out does.
const aemOmitted = " Left out, the provider writes nothing for it: a new queue gets the broker's default (shown), an existing one keeps its value."

// aemQueueAttributes returns the attributes of sapmessaging_aem_queue, or of
// sapmessaging_aem_dead_message_queue when dmq is set.
func aemQueueAttributes(ctx context.Context, dmq bool) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id": framework.ComputedKept("The queue name."),
		"name": schema.StringAttribute{
			MarkdownDescription: "The queue name, up to 200 characters, for example `acme/aem/prod/orders`. Changing it replaces the queue.",
			Required:            true,
			Validators:          []validator.String{stringvalidator.LengthBetween(1, 200)},
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"msg_vpn_name": framework.ComputedKept("The Message VPN of the broker service that holds the queue (the provider's `advanced_event_mesh.msg_vpn_name`)."),
		"respect_ttl": aemBoolDefaultOf("Whether the broker honours message expiry on this queue (`respectTtlEnabled`): expired messages move to the "+
			"dead message queue or are deleted, also while the consumer is only down for a while. Without it `max_ttl` does nothing. Broker "+
			"default `false`; this provider: `false`."+aemOmittedDefault, false),
		"max_ttl": schema.Int64Attribute{
			MarkdownDescription: "The time to live in seconds the queue gives every message (`maxTtl`), 0 to 4294967295; 0 means no expiry. " +
				"Effective only with `respect_ttl = true`. Broker default 0; this provider: 0." + aemOmittedDefault,
			Optional: true, Computed: true, Default: int64default.StaticInt64(0),
			Validators: []validator.Int64{int64validator.Between(0, rules.AEMMaxTTLLimit)},
		},
		"redelivery_enabled": aemBoolDefault("Whether the broker redelivers a message the consumer failed (`redeliveryEnabled`); with `false` it is " +
			"delivered once and then removed (to the dead message queue, or deleted). Broker default `true`; this provider: `true`." + aemOmittedDefault),
		"redelivery_delay_enabled": aemBool("Whether the broker waits before a redelivery (`redeliveryDelayEnabled`). Broker default `false`: " +
			"a poison message comes back as fast as the consumer fails it, and the plan warns." + aemOmitted),
		"redelivery_delay_initial_interval": aemInt64("The wait before the first redelivery in milliseconds (`redeliveryDelayInitialInterval`), "+
			"1 to 3600000. Broker default 1000."+aemOmitted, 1, rules.AEMMaxRedeliveryInitialMs),
		"redelivery_delay_max_interval": aemInt64("The longest wait between redeliveries in milliseconds (`redeliveryDelayMaxInterval`), "+
			"1 to 10800000. Broker default 64000."+aemOmitted, 1, rules.AEMMaxRedeliveryMaxMs),
		"redelivery_delay_multiplier": aemInt64("The factor each wait grows by, in hundredths (`redeliveryDelayMultiplier`, 200 = ×2.00), "+
			"100 to 500. Broker default 200."+aemOmitted, rules.AEMMinRedeliveryMultiplier, rules.AEMMaxRedeliveryMultiplier),
		"access_type": aemString("`exclusive` (one consumer at a time) or `non-exclusive` (`accessType`). Broker default `exclusive`."+aemOmitted,
			"exclusive", "non-exclusive"),
		"ingress_enabled": aemBoolDefault("Whether the queue accepts messages (`ingressEnabled`). Broker default `false` (the queue takes " +
			"nothing, and the plan warns about `false`); this provider: `true`." + aemOmittedDefault),
		"egress_enabled": aemBoolDefault("Whether the queue delivers messages to consumers (`egressEnabled`). Broker default `false` (the " +
			"queue delivers nothing, and the plan warns about `false`); this provider: `true`." + aemOmittedDefault),
		"respect_dmq_eligible_enabled": aemBoolDefaultOf("Whether the broker dead-letters only messages their publisher flagged DMQ-eligible and deletes "+
			"the others (`respectDmqEligibleEnabled`); the plan warns about `true`. Broker default `false`; this provider: `false`."+aemOmittedDefault, false),
		"reject_msg_to_sender_on_discard_behavior": schema.StringAttribute{
			MarkdownDescription: "When the broker tells the publisher that a message was discarded (`rejectMsgToSenderOnDiscardBehavior`): " +
				"`never` (a publisher whose message the queue discards, for example when its spool quota is full, is not told and does not " +
				"send it again), `when-queue-enabled` or `always`. Broker default `" + aemDefaultRejectOnDiscard + "`; this provider: `" +
				aemDefaultRejectOnDiscard + "`." + aemOmittedDefault,
			Optional: true, Computed: true, Default: stringdefault.StaticString(aemDefaultRejectOnDiscard),
			Validators: []validator.String{stringvalidator.OneOf("never", aemDefaultRejectOnDiscard, "always")},
		},
		"delivery_count_enabled": aemBool("Whether the broker counts deliveries per message (`deliveryCountEnabled`), which consumers " +
			"read as the delivery count header. Broker default `false`." + aemOmitted),
		"max_msg_spool_usage": aemInt64("The spool quota of the queue in megabytes (`maxMsgSpoolUsage`), 0 to 6000000. Broker default 5000. "+
			"0 keeps only the last message received (SEMP spec): on a dead message queue each dead message discards the one before, and the plan warns (`aem.dmq_keeps_last_only`)."+
			aemOmitted, 0, 6000000),
		"force_destroy": framework.FalseByDefault("Whether `terraform destroy` (or a replacement) may delete the queue while it holds messages. " +
			"Defaults to `false`: the plan of a destroy or replacement of a queue with messages then fails, before anything that depends " +
			"on the queue is deleted, the delete checks again, and the messages stay. Apply `true` before destroying to " +
			"discard them. A replacement under the same name (`terraform apply -replace`, a tainted queue) is refused as well " +
			"unless both the state and the configuration hold `true`. It is not a setting of the queue: changing it writes nothing to the broker."),
		"timeouts": aemTimeoutsAttribute(ctx),
	}
	if dmq {
		attrs["ingress_enabled"] = aemBoolDefault("Whether the dead message queue accepts messages (`ingressEnabled`). Broker default `false`, " +
			"with which it takes nothing and the broker deletes the messages the queues naming it remove; this provider: `true`. The plan " +
			"refuses `false` unless `allow_ingress_disabled` adopts such a queue as it is." + aemOmittedDefault)
		attrs["egress_enabled"] = aemBoolDefault("Whether the dead message queue delivers messages to consumers (`egressEnabled`), for " +
			"inspecting and redriving them. Broker default `false`; this provider: `true`." + aemOmittedDefault)
		attrs["respect_ttl"] = aemBoolDefault("Whether the broker honours message expiry on this dead message queue (`respectTtlEnabled`), " +
			"so that `max_ttl` applies. Broker default `false`; this provider: `true`." + aemOmittedDefault)
		attrs["max_ttl"] = schema.Int64Attribute{
			MarkdownDescription: "How long a dead message stays, in seconds (`maxTtl`), 0 to 4294967295; 0 means no expiry. Broker default 0 " +
				"(kept for ever, and the plan refuses it unless `allow_no_ttl`); this provider: 604800 (7 days, as the Event Mesh dead " +
				"message queues of the provider), except with `respect_ttl = false`, with which a `max_ttl` does nothing and none is " +
				"written." + aemOmittedDefault,
			Optional: true, Computed: true,
			Validators:    []validator.Int64{int64validator.Between(0, rules.AEMMaxTTLLimit)},
			PlanModifiers: []planmodifier.Int64{aemDMQMaxTTLDefault{}},
		}
		attrs["max_redelivery_count"] = schema.Int64Attribute{
			MarkdownDescription: "Read-only, always `0` after an apply (the broker's default): a dead message queue is inspected, not consumed, " +
				"so it has no redelivery limit of its own. A queue imported with another value shows the change to `0` in the plan.",
			Computed: true,
		}
		attrs["dead_message_queue"] = schema.StringAttribute{
			MarkdownDescription: "Read-only, `#DEAD_MSG_QUEUE` (the broker's default) after an apply: a dead message queue names no " +
				"dead message queue of its own. A queue imported with one shows the change in the plan; one imported with `\"\"` (no dead " +
				"message queue: what it removes is deleted) keeps `\"\"`.",
			Computed: true,
		}
		return attrs
	}
	attrs["max_redelivery_count"] = aemInt64("How often the broker redelivers a message the consumer failed before it moves it to "+
		"`dead_message_queue` (`maxRedeliveryCount`): 1 to 255. **Must be set**: the broker's default 0 means *retry forever*, so the "+
		"plan refuses 0 and an omitted value unless `allow_unlimited_redelivery = true`.", 0, rules.AEMMaxRedeliveryCountLimit)
	attrs["dead_message_queue"] = aemString("The queue that receives the messages this queue removes (`deadMsgQueue`), usually " +
		"`sapmessaging_aem_dead_message_queue.<name>.name`. It must exist on the broker or be created by a " +
		"`sapmessaging_aem_dead_message_queue` of this configuration that Terraform plans first, so refer to that resource's `name` " +
		"rather than writing its text. Broker default `#DEAD_MSG_QUEUE`, which the plan refuses when the broker does not hold it: the " +
		"broker deletes the messages a queue removes when its dead message queue does not exist." + aemOmitted)
	return attrs
}

// aemTimeoutsTypes are the attributes of the `timeouts` block.
var aemTimeoutsTypes = map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType}

// aemTimeoutsAttribute is the `timeouts` block of the AEM queue resources.
func aemTimeoutsAttribute(ctx context.Context) schema.Attribute {
	unit := "A duration such as `\"5m\"` (units `s`, `m`, `h`); no limit beyond the provider's request timeouts and retries when unset."
	return aemTimeouts(ctx, timeouts.Opts{Create: true, Update: true, Delete: true,
		CreateDescription: "How long a create may take. " + unit,
		UpdateDescription: "How long an update may take. " + unit,
		DeleteDescription: "How long a delete may take. " + unit,
	}, "Time limits of the create, update and delete of the queue, each including the provider's retries.")
}

// aemTimeouts is the `timeouts` block of the AEM resources with the operations of opts, described by desc.
func aemTimeouts(ctx context.Context, opts timeouts.Opts, desc string) schema.SingleNestedAttribute {
	a, ok := timeouts.Attributes(ctx, opts).(schema.SingleNestedAttribute)
	if !ok {
		panic("timeouts.Attributes returned no resource SingleNestedAttribute")
	}
	a.MarkdownDescription = desc
	return a
}

// aemBrokerDMQCycle returns, from lookup, the path q → its dead message queue → … → q when the dead message
// queues the broker holds lead back to q (each taking messages), or nil; nil also when lookup is nil or
// cannot tell.
func aemBrokerDMQCycle(q *aem.Queue, lookup aemQueueLookup) []string {
	if lookup == nil {
		return nil
	}
	links := map[string]string{}
	at := framework.AEMLinkOf(q)
	for at != "" && at != q.Name {
		if _, seen := links[at]; seen {
			return nil // a cycle that q is not on
		}
		d, known := lookup(at)
		if !known || d == nil || !framework.AEMTakes(d) {
			return nil
		}
		links[at] = framework.AEMLinkOf(d)
		at = links[at]
	}
	if at != q.Name {
		return nil
	}
	return rules.AEMDeadMessageQueueCycle(q.Name, framework.AEMLinkOf(q), rules.LinkSet{Current: links})
}

// claimAEMQueueName claims queue name on this broker for the AEM queue resource being planned; false,
// with the error on `name`, when another resource of this run (in this or an aliased configuration that
// points at the same broker and Message VPN) claimed it first.
func claimAEMQueueName(d *framework.ProviderData, ctx context.Context, typeName, name string, inState, guarded bool, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	return d.ClaimQueue(ctx, framework.OwnedObject{
		Service: framework.ServiceAEM, Key: framework.AEMQueueClaimKey(name), TypeName: typeName, InState: inState, Guarded: inState && guarded,
		Manage: fmt.Sprintf("name the Advanced Event Mesh queue %q", name),
		Why: "The broker holds one queue per name, so the two would overwrite each other's settings, both states would record the " +
			"one queue, the plan would never settle, and destroying either would delete the queue the other uses.",
		Match: fmt.Sprintf("name = %q", name),
	}, req, resp)
}

// aemWriteRefused reports whether err is the broker's refusal of a write (an answer below 500): nothing was
// written. Anything else (no answer, a 5xx) may have been carried out.
func aemWriteRefused(err error) bool {
	var se *aem.Error
	if errors.As(err, &se) {
		return se.HTTPStatus < http.StatusInternalServerError
	}
	var ae *httpx.APIError
	return errors.As(err, &ae) && ae.StatusCode < http.StatusInternalServerError
}

func aemQueueErrorDetail(name string, err error) string {
	return fmt.Sprintf("The SEMP API failed for the Advanced Event Mesh queue %q: %s. Check the provider's `advanced_event_mesh` connection "+
		"and the broker service's status, then run the command again; TF_LOG=debug shows each request.", name, framework.Clause(err))
}

// aemAlreadyExistsDetail explains the create of an existing queue: refused by the broker at apply, or by the
// plan (atPlan) from the run's queue list.
func aemAlreadyExistsDetail(typeName, name string, atPlan bool) string {
	refused := "the broker refused the create, so nothing was changed"
	if atPlan {
		refused = "the broker would refuse the create, so this resource cannot be planned"
	}
	return fmt.Sprintf("A queue named %q already exists on the Advanced Event Mesh broker - to be managed via Terraform this resource needs "+
		"to be imported into the State. It was created outside this configuration (in the cloud console, by another tool, or by another "+
		"Terraform state), and "+refused+". To adopt it, add an import block and run terraform "+
		"plan to review the settings the apply would change:\n\n", name) +
		framework.ImportBlock(typeName, name) +
		fmt.Sprintf("or run terraform import %s.<resource name> %q. If another state manages the queue, give this one another name instead.", typeName, name) +
		taintedAtPlan(atPlan)
}

// taintedAtPlan is what to do when the plan refusing an existing queue replaces this resource's tainted queue:
// only a refresh tells the plan that the queue is in this resource's state.
func taintedAtPlan(atPlan bool) string {
	if !atPlan {
		return ""
	}
	return " If this resource is marked tainted, the queue is its own: plan with refresh (without -refresh=false), which reads it " +
		"from the state, or run terraform untaint on the resource."
}

// aemQueueModelPtr is a pointer to the model of an AEM queue resource.
type aemQueueModelPtr[M any] interface {
	*M
	base() *aemQueueResourceModel
	// writable returns the settings to write, from the configuration (cfg) and the prior state (nil on create).
	writable(cfg *M, state *M) aem.QueueSettings
	// fromBroker copies what the broker holds into the model, with the resource's own computed attributes;
	// lookup (nil when not needed) gives the other queues of the broker, for the adoption attributes.
	FromBroker(q *aem.Queue, vpn string, lookup aemQueueLookup)
	// outcomeAtApply reports whether the plan left attributes that depend on other queues to the apply, which
	// then reads those queues (aemGetLookup).
	outcomeAtApply() bool
	// planRules, planLinks and planOutcome are the resource's own parts of the plan (ModifyPlan): the queue as
	// the rules see it (and the configured settings with the provider's defaults, eff), the checks of the dead
	// message queue it names, and the attributes computed from the planned settings.
	planRules(ctx context.Context, cfg, state *M, hasState, inState bool, resp *resource.ModifyPlanResponse) (q rules.AEMQueue, eff framework.AEMQueueSettingsModel)
	planLinks(ctx context.Context, d *framework.ProviderData, name string, q *rules.AEMQueue, diags *diag.Diagnostics) bool
	planOutcome(ctx context.Context, cfg, state *M, hasState, inState bool, q rules.AEMQueue, eff framework.AEMQueueSettingsModel, resp *resource.ModifyPlanResponse)
}

// aemGetLookup looks queues up with one GET each, as the broker holds them at the apply (not the run's
// list, which a provider process reads once).
func aemGetLookup(ctx context.Context, c *aem.Client) aemQueueLookup {
	return func(name string) (*aem.Queue, bool) {
		q, err := c.GetQueue(ctx, name)
		switch {
		case errors.Is(err, aem.ErrNotFound):
			return nil, true
		case err != nil:
			return nil, false
		}
		return q, true
	}
}

// applyLookup is aemGetLookup when the model's plan left attributes to the apply, else nil.
func applyLookup[M any, P aemQueueModelPtr[M]](ctx context.Context, c *aem.Client, p P) aemQueueLookup {
	if !p.outcomeAtApply() {
		return nil
	}
	return aemGetLookup(ctx, c)
}

var (
	_ resource.Resource                   = (*aemQueueResourceBase[AEMQueueModel, *AEMQueueModel])(nil)
	_ resource.ResourceWithConfigure      = (*aemQueueResourceBase[AEMQueueModel, *AEMQueueModel])(nil)
	_ resource.ResourceWithImportState    = (*aemQueueResourceBase[AEMQueueModel, *AEMQueueModel])(nil)
	_ resource.ResourceWithValidateConfig = (*aemQueueResourceBase[AEMQueueModel, *AEMQueueModel])(nil)
	_ resource.ResourceWithModifyPlan     = (*aemQueueResourceBase[AEMQueueModel, *AEMQueueModel])(nil)
)

// aemQueueResourceBase is sapmessaging_aem_queue and sapmessaging_aem_dead_message_queue: M is the resource's
// model, which holds what the two differ in (the computed attributes and their parts of the plan); schema is
// the resource's schema.
type aemQueueResourceBase[M any, P aemQueueModelPtr[M]] struct {
	typeName string
	schema   func(ctx context.Context) schema.Schema
	data     *framework.ProviderData
}

func (r *aemQueueResourceBase[M, P]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(r.typeName, "sapmessaging")
}

func (r *aemQueueResourceBase[M, P]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema(ctx)
}

func (r *aemQueueResourceBase[M, P]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig checks the queue name. The rules run at plan (ModifyPlan), where the broker's queues are
// known, so that one plan shows every refusal, each once.
func (r *aemQueueResourceBase[M, P]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m M
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	checkAEMQueueName(P(&m).base().Name, &resp.Diagnostics)
}

// ModifyPlan claims the queue name for this resource, refuses the create of a queue the broker holds
// already, applies the rules on every plan (with the dead message queue as the broker holds it or a
// sapmessaging_aem_dead_message_queue of this run plans it), records the queue, with the ingress it plans,
// for the queues of this run that name it (chained dead message queues), and computes the outcome attributes.
// The destroy or replacement of a queue that holds messages is refused (refuseAEMHeldAtPlan).
func (r *aemQueueResourceBase[M, P]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	deleted := framework.DeletedName(ctx, req, &resp.Diagnostics)
	if deleted != "" {
		r.data.AEMPlanQueueDeletion(deleted, &resp.Diagnostics) // a queue of this plan may name it as dead message queue
	}
	if req.Plan.Raw.IsNull() {
		refuseAEMHeldAtPlan(ctx, r.data, req, deleted, &resp.Diagnostics)
		return
	}
	if !r.data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedAEM) {
		return
	}
	if refuseAEMHeldAtPlan(ctx, r.data, req, deleted, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	var plan, cfg, state M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	hasState := !req.State.Raw.IsNull()
	if hasState {
		resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	p := P(&plan)
	planName := p.base().Name
	inState := hasState && !planName.IsUnknown() && P(&state).base().Name.Equal(planName)
	q, eff := p.planRules(ctx, &cfg, &state, hasState, inState, resp)
	if r.data != nil && r.data.AEM != nil {
		name := planName.ValueString() // "" while unknown: nothing is claimed, and the links are checked
		if name != "" {
			if !claimAEMQueueName(r.data, ctx, r.typeName, name, inState, !P(&state).base().ForceDestroy.ValueBool(), req, resp) {
				return
			}
			if !inState {
				r.data.AEMRefuseDeletedCreate(name, r.typeName, &resp.Diagnostics) // another resource of this plan deletes it
			}
			if !inState && !aemReplacedAtPlan(ctx, r.data, name, p.base().ForceDestroy, req, &resp.Diagnostics) &&
				!aemRefuseExisting(r.data, ctx, r.typeName, name, &resp.Diagnostics) {
				return
			}
		}
		if !p.planLinks(ctx, r.data, name, &q, &resp.Diagnostics) {
			return
		}
		if name != "" {
			r.data.AEMPlanDMQ(name, q.IngressEnabled)
		}
	}
	framework.AppendFindings(&resp.Diagnostics, rules.CheckAEMQueue(q))
	p.planOutcome(ctx, &cfg, &state, hasState, inState, q, eff, resp)
}

func (r *aemQueueResourceBase[M, P]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = AEMQueueIdentity.Schema()
}

func (r *aemQueueResourceBase[M, P]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer AEMQueueIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan, cfg M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || !r.data.AEMOrError(&resp.Diagnostics) {
		return
	}
	p := P(&plan)
	ctx, cancel := withTimeLimit(ctx, p.base().Timeouts.Create, &resp.Diagnostics)
	defer cancel()
	c := r.data.AEM
	name := p.base().Name.ValueString()
	settings := p.writable(&cfg, nil)
	res, err := c.CreateQueue(ctx, aem.Queue{Name: name, QueueSettings: settings})
	switch {
	case err == nil:
		if res.OwnEarlierAttempt {
			resp.Diagnostics.AddWarning("Queue Create Was Repeated", fmt.Sprintf("The request that creates the queue %q got no answer or a "+
				"server error and was repeated, and the repeat found the queue existing. The first request most likely created it, so the "+
				"queue is recorded with the settings the broker holds; a queue of this name made elsewhere at the same moment would be "+
				"recorded too, and the answer cannot tell the two apart. Check that %q is this configuration's queue; if it is not, run "+
				"terraform state rm on this resource and give it another name.", name, name))
		}
		r.data.AEMRecordQueue(name, res.Queue)
		p.FromBroker(res.Queue, c.MsgVpnName(), applyLookup[M](ctx, c, p))
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
		return
	case errors.Is(err, aem.ErrAlreadyExists):
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Queue Already Exists", aemAlreadyExistsDetail(r.typeName, name, false))
		return
	case aemWriteRefused(err):
		resp.Diagnostics.AddError("Cannot Create Queue", aemQueueErrorDetail(name, err))
		return
	}
	// No answer or a server error: the queue may exist. What the broker holds is recorded with the error,
	// so that Terraform taints it and the next apply replaces it instead of leaving it unknown to any state.
	got, gerr := error(nil), ctx.Err()
	var q *aem.Queue
	if gerr == nil {
		q, gerr = c.GetQueue(context.WithoutCancel(ctx), name)
	}
	switch {
	case gerr == nil:
		got = err
		r.data.AEMRecordQueue(name, q)
		p.FromBroker(q, c.MsgVpnName(), nil)
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
		resp.Diagnostics.AddError("Queue May Have Been Created With Errors", fmt.Sprintf("The create of the queue %q failed (%s), but the "+
			"broker holds the queue now: the request was most likely carried out. The state records it as the broker holds it, tainted, "+
			"so that the next apply replaces it. Run terraform untaint on this resource before the next apply to keep the queue as it is "+
			"and update it in place.", name, framework.Clause(got)))
	case errors.Is(gerr, aem.ErrNotFound):
		resp.Diagnostics.AddError("Cannot Create Queue", aemQueueErrorDetail(name, err))
	default:
		p.FromBroker(&aem.Queue{Name: name, QueueSettings: settings}, c.MsgVpnName(), nil)
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
		resp.Diagnostics.AddError("Queue May Exist", fmt.Sprintf("The request that creates the queue %q was sent, but the outcome is unknown "+
			"(%s), and the queue could not be read back (%s), so it may or may not exist now. So that no queue is left behind that no state "+
			"knows of, Terraform records it as tainted with the configured settings. Run terraform apply again once the broker is reachable: "+
			"the apply replaces it (or creates it when it does not exist); to keep the queue as it is instead, run terraform untaint on "+
			"the %s resource first.", name, framework.Clause(err), framework.Clause(gerr), r.typeName))
	}
}

func (r *aemQueueResourceBase[M, P]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	AEMQueueIdentity.Set(ctx, &req.State, resp.Identity, &resp.Diagnostics) // identity.go: first, also when the queue is gone
	var state M
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.data.AEMOrError(&resp.Diagnostics) {
		return
	}
	p := P(&state)
	name := p.base().Name.ValueString()
	if !aemSameVPN(p.base().MsgVpnName.ValueString(), r.data.AEM.MsgVpnName(), fmt.Sprintf("the queue %q", name), &resp.Diagnostics) { // aem_solace.go
		return
	}
	q, err := aemReadQueue(r.data, ctx, name)
	if errors.Is(err, aem.ErrNotFound) {
		tflog.Info(ctx, "AEM queue no longer exists; removing it from state", map[string]any{"queue": name})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		if !r.data.AEMCredential.AddRefused(&resp.Diagnostics, path.Empty(), err) {
			resp.Diagnostics.AddError("Cannot Read Queue", aemQueueErrorDetail(name, err))
		}
		return
	}
	// A tainted queue is planned as a create next, in this process (aemReplacedAtPlan).
	r.data.NoteStateRead(framework.ServiceAEM, framework.AEMQueueClaimKey(name), !p.base().ForceDestroy.ValueBool())
	p.FromBroker(q, r.data.AEM.MsgVpnName(), aemRunQueueLookup(r.data, ctx))
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
}

// aemReadQueue reads queue name: from the run's queue list (one paged list for every queue the run
// refreshes), or with a GET when the list does not hold it (created after the list, or gone).
func aemReadQueue(d *framework.ProviderData, ctx context.Context, name string) (*aem.Queue, error) {
	if _, err := d.AEMQueues(ctx); err == nil {
		if q := d.AEMCachedQueue(name); q != nil {
			return q, nil
		}
	}
	q, err := d.AEM.GetQueue(ctx, name)
	if err == nil {
		d.AEMRecordQueue(name, q)
	}
	return q, err
}

func (r *aemQueueResourceBase[M, P]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer AEMQueueIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan, state, cfg M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || !r.data.AEMOrError(&resp.Diagnostics) {
		return
	}
	if resp.Private != nil {
		// The plan's claim of the queue name means nothing beyond this run.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, framework.OwnerClaimKey, nil)...)
	}
	pp, sp := P(&plan), P(&state)
	ctx, cancel := withTimeLimit(ctx, pp.base().Timeouts.Update, &resp.Diagnostics)
	defer cancel()
	c := r.data.AEM
	name := pp.base().Name.ValueString()
	settings := pp.writable(&cfg, &state)
	var q *aem.Queue
	var err error
	if settings == (aem.QueueSettings{}) {
		// Only attributes that are no settings of the queue changed (force_destroy, an adoption attribute,
		// timeouts): nothing to write.
		q, err = c.GetQueue(ctx, name)
	} else {
		q, err = c.UpdateQueue(ctx, name, settings)
	}
	if err == nil {
		r.data.AEMRecordQueue(name, q)
		pp.FromBroker(q, c.MsgVpnName(), applyLookup[M](ctx, c, pp))
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
		return
	}
	resp.Diagnostics.AddError("Cannot Write Queue", aemQueueErrorDetail(name, err))
	// The state stays true: what the broker holds now, or the prior state when it cannot be read (the next
	// refresh reads which settings the queue holds).
	if cur, gerr := c.GetQueue(context.WithoutCancel(ctx), name); gerr == nil {
		sp.FromBroker(cur, c.MsgVpnName(), nil)
	}
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
}

func (r *aemQueueResourceBase[M, P]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.data.AEMOrError(&resp.Diagnostics) {
		return
	}
	b := P(&state).base()
	ctx, cancel := withTimeLimit(ctx, b.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()
	deleteAEMQueue(r.data, ctx, b.Name.ValueString(), b.ForceDestroy.ValueBool(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		// Nothing was deleted: the queue stays in the state.
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
		return
	}
	// A create of the name in this apply replaces the queue (ReplacedObject): its subscriptions follow.
	r.data.NoteDeleted(framework.ServiceAEM, framework.AEMQueueClaimKey(b.Name.ValueString()))
}

// deleteAEMQueue deletes queue name unless another queue of the broker names it as its dead message queue,
// or it holds messages and force is false (the messages are listed fresh through the monitoring API right
// before the DELETE: that read is the guard, and it cannot come from the run's list). A queue found gone is
// no error.
func deleteAEMQueue(d *framework.ProviderData, ctx context.Context, name string, force bool, diags *diag.Diagnostics) {
	c := d.AEM
	users, err := d.AEMQueueUsers(ctx, name)
	if err != nil {
		diags.AddError("Cannot List Queues Before Deleting", aemQueueErrorDetail(name, err))
		return
	}
	if len(users) > 0 {
		diags.AddError("Dead Message Queue Still In Use", fmt.Sprintf("The queue %q is still named as `dead_message_queue` by %s. Deleting it "+
			"would make the broker delete the messages those queues remove, so it was not deleted. Point those queues at another dead message "+
			"queue before destroying this one; declare dead message queues with `lifecycle { create_before_destroy = true }` so that one "+
			"apply does both in the safe order.", name, strings.Join(users, ", ")))
		return
	}
	if !force {
		msgs, err := c.ListMessages(ctx, name)
		if errors.Is(err, aem.ErrNotFound) {
			d.AEMRecordQueue(name, nil)
			return
		}
		if err != nil {
			diags.AddError("Cannot Read Queue Before Deleting", aemQueueErrorDetail(name, err))
			return
		}
		if len(msgs) > 0 {
			diags.AddError("Queue Holds Messages", fmt.Sprintf("The queue %q holds %s. Deleting it would discard them, so it was not "+
				"deleted. Consume or move the messages first, or set `force_destroy = true` and apply it before destroying the queue.", name,
				aem.Plural(len(msgs), "message", "messages")))
			return
		}
	}
	if err := c.DeleteQueue(ctx, name); err != nil && !errors.Is(err, aem.ErrNotFound) {
		diags.AddError("Cannot Delete Queue", aemQueueErrorDetail(name, err))
		return
	}
	d.AEMRecordQueue(name, nil)
}

func (r *aemQueueResourceBase[M, P]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	vpn := ""
	if r.data != nil && r.data.AEM != nil {
		vpn = r.data.AEM.MsgVpnName()
	}
	name := req.ID
	if name == "" {
		v, n, ok := aemQueueIdentityImport(req, &resp.Diagnostics)
		if !ok {
			return
		}
		if vpn != "" && v != vpn {
			resp.Diagnostics.AddError("Invalid Import Identity", fmt.Sprintf("The import identity names the Message VPN %q, but the provider "+
				"configuration connects to the Message VPN %q, so the queue cannot be imported through it. Set the import block's "+
				"`provider` to the configuration of Message VPN %q, or write `msg_vpn_name = %q`.", v, vpn, v, vpn))
			return
		}
		name = n
	} else if vpn != "" {
		var ok bool
		if name, ok = aemImportQueueName(r.data, ctx, req.ID, &resp.Diagnostics); !ok {
			return
		}
	}
	if err := rules.ValidAEMQueueName(name); err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("The import ID %q is no queue name: %s. Use %s.", name, framework.Clause(err), aemQueueImportForms(vpn)))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("force_destroy"), false)...)
	if vpn != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("msg_vpn_name"), vpn)...)
	}
}

// aemImportQueueName returns the queue an import ID names: the queue of that name, or the queue that Solace's
// form `<msg_vpn>/<url-encoded queue name>` names (aem_solace.go). A queue name may hold "/", so an ID that
// fits both forms names the queue the broker holds, the plain name first. An ID that names no queue of the
// broker fails here, with the forms that work, rather than as an import of nothing.
func aemImportQueueName(d *framework.ProviderData, ctx context.Context, id string, diags *diag.Diagnostics) (string, bool) {
	vpn := d.AEM.MsgVpnName()
	candidates := make([]string, 0, 2)
	if rules.ValidAEMQueueName(id) == nil {
		candidates = append(candidates, id)
	}
	if n, ok := SolaceQueueImportID(id, vpn); ok && n != id {
		candidates = append(candidates, n)
	}
	if len(candidates) == 0 {
		diags.AddError("Invalid Import ID", fmt.Sprintf("The import ID %q names no queue: it is neither a queue name the broker accepts "+
			"(1 to 200 characters, none of * ? ' < > & ;) nor Solace's form for the Message VPN %q. Use %s.", id, vpn, aemQueueImportForms(vpn)))
		return "", false
	}
	var found []string
	for _, n := range candidates {
		_, err := aemReadQueue(d, ctx, n)
		switch {
		case err == nil:
			found = append(found, n)
		case errors.Is(err, aem.ErrNotFound):
			continue
		case d.AEMCredential.AddRefused(diags, path.Empty(), err):
			return "", false
		default:
			diags.AddError("Cannot Read Queue", aemQueueErrorDetail(n, err))
			return "", false
		}
	}
	switch len(found) {
	case 1:
		return found[0], true
	case 2:
		diags.AddError("Ambiguous Import ID", fmt.Sprintf("The import ID %q names two queues of the Message VPN %q, both held by the broker: "+
			"the queue named %q itself, and, read in Solace's form `<msg_vpn>/<url-encoded queue name>`, the queue %q. Nothing was imported. "+
			"Use an import block's `identity = { msg_vpn_name = %q, name = %q }` for the first, or `name = %q` for the second.", id, vpn, found[0], found[1], vpn, found[0], found[1]))
		return "", false
	}
	if other, ok := solaceOtherVPN(id, vpn, 2); ok {
		addSolaceOtherVPN(diags, id, other, vpn, "<msg_vpn>/<url-encoded queue name>")
		return "", false
	}
	diags.AddError("Queue Not Found", fmt.Sprintf("The broker holds no queue that the import ID %q names in the Message VPN %q (read as %s), "+
		"so there is nothing to import. Check the name in the cloud console's queue list, and use %s.", id, vpn, framework.QuoteAll(candidates), aemQueueImportForms(vpn)))
	return "", false
}

// aemQueueIdentityImport reads the identity of an import block: its Message VPN and queue name.
func aemQueueIdentityImport(req resource.ImportStateRequest, diags *diag.Diagnostics) (vpn, name string, ok bool) {
	id, ok := AEMQueueIdentity.ImportID(req, diags)
	if !ok {
		return "", "", false
	}
	vpn, name, found := strings.Cut(id, ",")
	if !found {
		diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity names no queue. Write it in the form %s.", AEMQueueIdentity.Form()))
		return "", "", false
	}
	return vpn, name, true
}

// aemRefuseExisting refuses at plan the create of queue name when the run's queue list holds it already,
// with the import block the apply's error gives. It returns false after adding an error when the list
// cannot be read (the plan stops); the error on an existing queue leaves the other checks to run, so that
// the plan shows every refusal at once.
func aemRefuseExisting(d *framework.ProviderData, ctx context.Context, typeName, name string, diags *diag.Diagnostics) bool {
	qs, err := d.AEMQueues(ctx)
	if err != nil {
		d.AEMPlanReadError(diags, fmt.Sprintf("checking that the queue %q does not exist yet", name), err)
		return false
	}
	d.AEMQueueList.Mu.Lock()
	_, exists := qs[name]
	d.AEMQueueList.Mu.Unlock()
	if exists {
		diags.AddAttributeError(path.Root("name"), "Queue Already Exists", aemAlreadyExistsDetail(typeName, name, true))
	}
	return true
}

// checkAEMQueueName adds an error on `name` when the broker would refuse it.
func checkAEMQueueName(name types.String, diags *diag.Diagnostics) {
	if name.IsNull() || name.IsUnknown() {
		return
	}
	if err := rules.ValidAEMQueueName(name.ValueString()); err != nil {
		diags.AddAttributeError(path.Root("name"), "Invalid Queue Name", fmt.Sprintf("The broker would refuse the queue name %q: %s. "+
			"Set `name` to 1 to 200 characters without any of * ? ' < > & ;, for example acme/aem/prod/orders.", name.ValueString(), framework.Clause(err)))
	}
}

// aemOutcome returns the computed outcome of a queue with settings m (unknown ones from m are unknown in
// the outcome): the deliveries of a poison message until it is removed and the broker's redelivery delays
// until then; both null when the message is never removed for good: unlimited, or with cycle (its dead message
// queues lead back to the queue, so it comes back and is delivered again).
func aemOutcome(m *framework.AEMQueueSettingsModel, cycle bool) (deliveries types.Int64, toDeadLetter types.String) {
	if cycle {
		return types.Int64Null(), types.StringNull()
	}
	if m.RedeliveryEnabled.IsUnknown() || m.MaxRedeliveryCount.IsUnknown() || m.RedeliveryDelayEnabled.IsUnknown() ||
		m.RedeliveryDelayInitialInterval.IsUnknown() || m.RedeliveryDelayMaxInterval.IsUnknown() || m.RedeliveryDelayMultiplier.IsUnknown() {
		return types.Int64Unknown(), types.StringUnknown()
	}
	or := func(v types.Int64, def int64) int64 {
		if v.IsNull() {
			return def
		}
		return v.ValueInt64()
	}
	enabled := m.RedeliveryEnabled.IsNull() || m.RedeliveryEnabled.ValueBool()
	n, unlimited := rules.AEMDeliveries(enabled, or(m.MaxRedeliveryCount, 0))
	if unlimited {
		return types.Int64Null(), types.StringNull()
	}
	wait := rules.AEMTimeToDeadLetter(n-1, m.RedeliveryDelayEnabled.ValueBool(), or(m.RedeliveryDelayInitialInterval, rules.AEMDefaultRedeliveryInitialMs),
		or(m.RedeliveryDelayMaxInterval, rules.AEMDefaultRedeliveryMaxMs), or(m.RedeliveryDelayMultiplier, rules.AEMDefaultRedeliveryMultiplier))
	return types.Int64Value(n), types.StringValue(rules.FormatAEMDuration(wait))
}

// withTimeLimit bounds ctx by the time limit of an operation (the Create, Update or Delete of the `timeouts`
// block) when one is set.
func withTimeLimit(ctx context.Context, limit func(context.Context, time.Duration) (time.Duration, diag.Diagnostics), diags *diag.Diagnostics) (context.Context, context.CancelFunc) {
	d, problems := limit(ctx, 0)
	diags.Append(problems...)
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return ctx, func() {}
}

package aem

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The topic subscription of an Advanced Event Mesh queue (SEMP v2 MsgVpnQueueSubscription): POST to create,
// GET to read, DELETE; there is nothing to update, so both arguments replace it. Its ID and import ID join
// the queue name and the topic with ";", which no queue name holds ([SPEC] MsgVpnQueue.queueName excludes
// * ? ' < > & ;) while topics hold "/" and may hold ",": the first ";" ends the queue name.

var (
	_ resource.Resource                = (*aemQueueSubscriptionResource)(nil)
	_ resource.ResourceWithConfigure   = (*aemQueueSubscriptionResource)(nil)
	_ resource.ResourceWithImportState = (*aemQueueSubscriptionResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*aemQueueSubscriptionResource)(nil)
)

// aemSubscriptionIDSep joins the queue name and the topic in the ID and the import ID.
const aemSubscriptionIDSep = ";"

// defaultAEMSubscriptionTimeout bounds each operation of the subscription unless `timeouts` says otherwise.
const defaultAEMSubscriptionTimeout = 5 * time.Minute

// NewAEMQueueSubscriptionResource returns the sapmessaging_aem_queue_subscription resource: the shared skeleton
// (framework.SubscriptionResource) given the SEMP client, the schema with `msg_vpn_name` and `timeouts`, the
// check of the queue at plan, the Message VPN of the state and the import forms (with Solace's).
func NewAEMQueueSubscriptionResource() resource.Resource {
	return &aemQueueSubscriptionResource{framework.SubscriptionResource[AEMQueueSubscriptionModel]{
		TypeSuffix:     "_aem_queue_subscription",
		ResourceSchema: aemQueueSubscriptionSchema,
		Identity:       &AEMSubscriptionIdentity,
		TopicAttr:      "topic",
		Need:           framework.NeedAEM,
		Connected:      func(d *framework.ProviderData, diags *diag.Diagnostics) bool { return d.AEMOrError(diags) },
		Names: func(m *AEMQueueSubscriptionModel) (string, string) {
			return m.QueueName.ValueString(), m.Topic.ValueString()
		},
		SetID: func(m *AEMQueueSubscriptionModel, id string) { m.ID = types.StringValue(id) },
		Created: func(d *framework.ProviderData, m *AEMQueueSubscriptionModel) {
			m.MsgVpnName = types.StringValue(d.AEM.MsgVpnName())
		},
		Owned: func(q, t string) framework.OwnedObject {
			return framework.OwnedObject{
				Service: framework.ServiceAEM, Key: "aem-subscription|" + q + "|" + t,
				TypeName: "sapmessaging_aem_queue_subscription",
				Manage:   fmt.Sprintf("manage the subscription of the AEM queue %q to topic %q", q, t),
				Why: "The broker holds the subscription once, so both states would record it, and destroying either resource would " +
					"unsubscribe the queue that the other still manages.",
				Match: fmt.Sprintf("`queue_name = %q` and `topic = %q`", q, t),
			}
		},
		QueueKey:       framework.AEMQueueClaimKey,
		PlanQueue:      aemPlanSubscriptionQueue,
		Timeouts:       func(m *AEMQueueSubscriptionModel) timeouts.Value { return m.Timeouts },
		DefaultTimeout: defaultAEMSubscriptionTimeout,
		PrepareRead:    aemPrepareSubscriptionRead,
		Subscribe: func(ctx context.Context, d *framework.ProviderData, queue, topic string) error {
			return d.AEM.CreateSubscription(ctx, queue, topic)
		},
		Subscribed: func(ctx context.Context, d *framework.ProviderData, queue, topic string) (bool, error) {
			_, err := d.AEM.GetSubscription(ctx, queue, topic)
			return err == nil, err
		},
		Unsubscribe: func(ctx context.Context, d *framework.ProviderData, queue, topic string) error {
			return d.AEM.DeleteSubscription(ctx, queue, topic)
		},
		NotFound:    func(err error) bool { return errors.Is(err, aem.ErrNotFound) },
		Failed:      aemSubscriptionFailed,
		ImportNames: aemSubscriptionImportNames,
	}}
}

// aemQueueSubscriptionResource is the skeleton configured for AEM, with the move from the solacebroker provider
// and the upgrade of identities stored before msg_vpn_name (aem_solace.go).
type aemQueueSubscriptionResource struct {
	framework.SubscriptionResource[AEMQueueSubscriptionModel]
}

type AEMQueueSubscriptionModel struct {
	ID         types.String   `tfsdk:"id"`
	QueueName  types.String   `tfsdk:"queue_name"`
	Topic      types.String   `tfsdk:"topic"`
	MsgVpnName types.String   `tfsdk:"msg_vpn_name"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`
}

func aemSubscriptionID(queue, topic string) string { return queue + aemSubscriptionIDSep + topic }

func aemQueueSubscriptionSchema(ctx context.Context) schema.Schema {
	unit := fmt.Sprintf("A duration such as `\"2m\"` (units `s`, `m`, `h`); %d minutes when unset.", int(defaultAEMSubscriptionTimeout.Minutes()))
	to := aemTimeouts(ctx, timeouts.Opts{Create: true, Read: true, Delete: true,
		CreateDescription: "How long subscribing the queue may take, retries included. " + unit,
		ReadDescription:   "How long reading the subscription may take, retries included. " + unit,
		DeleteDescription: "How long removing the subscription may take, retries included. " + unit,
	}, "Time limits of the SEMP calls of a create, a read and a delete. Raise them when the broker answers slowly.")
	return schema.Schema{
		MarkdownDescription: "Subscribes an SAP Integration Suite, advanced event mesh (AEM) queue to a topic, so that the guaranteed " +
			"messages published to matching topics are spooled on the queue. Managed through SEMP v2 (`POST`, `GET` and `DELETE` " +
			"of the queue's `subscriptions`); there is nothing to update, so changing either argument replaces the subscription.",
		Attributes: map[string]schema.Attribute{
			"id": framework.ComputedKept("`QUEUE;TOPIC`, the queue name and the topic joined by `;`, the form `terraform import` takes. " +
				"No AEM queue name holds `;`, so the first `;` ends the queue name whatever the topic holds."),
			"queue_name": schema.StringAttribute{
				MarkdownDescription: "The name of the queue, usually `sapmessaging_aem_queue.<name>.name`: 1 to 200 characters, none of " +
					"`* ? ' < > & ;`. The plan fails when the broker has no such queue and this configuration does not create it. " +
					"Changing it replaces the subscription. " +
					"A replacement of the queue under the same name (`terraform apply -replace`, a tainted queue) planned before this " +
					"subscription, as it is when `queue_name` refers to the queue resource, updates it in place: the broker deletes a queue's " +
					"subscriptions with it, and the apply subscribes the new queue again.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{AEMQueueNameValidator{}},
			},
			"topic": schema.StringAttribute{
				MarkdownDescription: "The topic subscription in Solace syntax, for example `acme/orders/>` or `acme/*/created`: at most " +
					"250 bytes, levels separated by `/`, `*` a wildcard alone in a level or at its end after a prefix, `>` a wildcard " +
					"alone in the last level, a leading `!` for a subscription exception. Empty levels are refused (Solace clients " +
					"cannot use them), and so are a `*` inside a level and a `>` elsewhere, which Solace would take as literal " +
					"characters. Changing it replaces the subscription.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{AEMTopicValidator{}},
			},
			"msg_vpn_name": framework.ComputedKept("The Message VPN of the broker service that holds the queue (the provider's `advanced_event_mesh.msg_vpn_name`), " +
				"as in the identity of the subscription and of `sapmessaging_aem_queue`."),
			"timeouts": to,
		},
	}
}

// aemPlanSubscriptionQueue refuses, for a subscription to create, a queue that the broker does not hold and
// this run does not plan.
func aemPlanSubscriptionQueue(ctx context.Context, d *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, q string) {
	if framework.SubscriptionQueueKept(ctx, req, q, &resp.Diagnostics) {
		return // the subscription exists already; its queue was checked when it was planned
	}
	if d == nil || d.AEM == nil {
		return // the connection is known only at apply (requireAtPlan): the apply finds a missing queue
	}
	exists, err := d.AEMQueueExistsOrPlanned(ctx, q)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("queue_name"), "Cannot Read AEM Queues",
			fmt.Sprintf("The plan checks that the queue %q exists, and listing the broker's queues failed: %s. "+
				"Check the `advanced_event_mesh` connection and the broker's status, then run the plan again.", q, framework.Clause(err)))
	case !exists:
		resp.Diagnostics.AddAttributeError(path.Root("queue_name"), "AEM Queue Does Not Exist",
			fmt.Sprintf("The broker has no queue %q in Message VPN %q, and this configuration plans none, so the subscription "+
				"could not be created: the apply would fail. Terraform plans a resource after those it refers to, so a queue this "+
				"configuration creates counts only when `queue_name` refers to it. "+
				"Set `queue_name` to `sapmessaging_aem_queue.<name>.name`, or create the queue first.", q, d.AEM.MsgVpnName()))
	}
}

// aemSubscriptionFailed reports a failed SEMP call: at create, a subscription that exists already and a queue
// deleted since the plan have their own diagnostics.
func aemSubscriptionFailed(op framework.SubscriptionOp, queue, topic string, err error, diags *diag.Diagnostics) {
	create := op == framework.SubscriptionCreate
	switch {
	case create && errors.Is(err, aem.ErrAlreadyExists):
		diags.AddAttributeError(path.Root("topic"), "AEM Subscription Already Exists",
			fmt.Sprintf("The queue %q is subscribed to %q already, by someone outside this configuration; creating it here would "+
				"make this configuration own what it did not make, and its destroy would unsubscribe the queue. "+
				"Import it instead: an import block with `id = %q`.", queue, topic, aemSubscriptionID(queue, topic)))
	case create && errors.Is(err, aem.ErrNotFound):
		diags.AddAttributeError(path.Root("queue_name"), "AEM Queue Does Not Exist",
			fmt.Sprintf("The broker has no queue %q, so it cannot be subscribed to %q (%s); it was deleted after the plan. "+
				"Create the queue, or set `queue_name` to a queue that exists, then apply again.", queue, topic, framework.Clause(err)))
	case create:
		diags.AddError("Cannot Subscribe AEM Queue", aemSubscriptionErrorDetail(queue, topic, err))
	case op == framework.SubscriptionRead:
		diags.AddError("Cannot Read AEM Subscription", aemSubscriptionErrorDetail(queue, topic, err))
	default:
		diags.AddError("Cannot Unsubscribe AEM Queue", aemSubscriptionErrorDetail(queue, topic, err))
	}
}

// aemPrepareSubscriptionRead gives a state written before msg_vpn_name existed (or moved without it) the
// configuration's Message VPN, the one the subscription is read from, and sets the identity from it first,
// also when the subscription is gone; false, with an error, when the state names another Message VPN.
func aemPrepareSubscriptionRead(ctx context.Context, d *framework.ProviderData, state *AEMQueueSubscriptionModel, resp *resource.ReadResponse) bool {
	vpn := d.AEM.MsgVpnName()
	if state.MsgVpnName.IsNull() || state.MsgVpnName.IsUnknown() {
		state.MsgVpnName = types.StringValue(vpn)
	}
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, state)...)
	AEMSubscriptionIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	return aemSameVPN(state.MsgVpnName.ValueString(), vpn, fmt.Sprintf("the subscription of %q to %q", state.QueueName.ValueString(), state.Topic.ValueString()), &resp.Diagnostics)
}

// aemSubscriptionImportNames reads the import ID QUEUE;TOPIC, Solace's import ID or the import identity, and
// sets msg_vpn_name when the Message VPN is known.
func aemSubscriptionImportNames(ctx context.Context, d *framework.ProviderData, req resource.ImportStateRequest, resp *resource.ImportStateResponse) (string, string, bool) {
	vpn := ""
	if d != nil && d.AEM != nil {
		vpn = d.AEM.MsgVpnName()
	}
	var queue, topic string
	if req.ID == "" {
		v, q, t, ok := aemSubscriptionIdentityImport(req, vpn, &resp.Diagnostics)
		if !ok {
			return "", "", false
		}
		queue, topic, vpn = q, t, v
	} else {
		var ok bool
		queue, topic, ok = strings.Cut(req.ID, aemSubscriptionIDSep)
		if !ok {
			queue, topic, ok = SolaceSubscriptionImportID(req.ID, vpn) // aem_solace.go
		}
		if other, isOther := solaceOtherVPN(req.ID, vpn, 3); !ok && isOther {
			addSolaceOtherVPN(&resp.Diagnostics, req.ID, other, vpn, "<msg_vpn>/<url-encoded queue name>/<url-encoded topic>")
			return "", "", false
		}
		if !ok || queue == "" || topic == "" {
			resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("The import ID %q is not of the form QUEUE;TOPIC. No AEM queue name "+
				"holds a semicolon, so it separates the queue name from the topic, which may hold commas and slashes. Use %s.", req.ID, aemSubscriptionImportForms(vpn)))
			return "", "", false
		}
	}
	for _, problem := range []struct {
		attr string
		err  error
	}{{"queue_name", rules.ValidAEMQueueName(queue)}, {"topic", rules.ValidAEMTopicSubscription(topic)}} {
		if problem.err != nil {
			resp.Diagnostics.AddError("Invalid Import ID",
				fmt.Sprintf("The import ID %q names no subscription the broker can hold: its `%s` is invalid, %s. Use %s.",
					req.ID, problem.attr, framework.Clause(problem.err), aemSubscriptionImportForms(vpn)))
			return "", "", false
		}
	}
	if vpn != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("msg_vpn_name"), vpn)...)
	}
	return queue, topic, true
}

// aemSubscriptionIdentityImport reads the identity of an import block: its Message VPN, queue and topic. The
// Message VPN must be the provider configuration's (vpn, when known).
func aemSubscriptionIdentityImport(req resource.ImportStateRequest, vpn string, diags *diag.Diagnostics) (v, queue, topic string, ok bool) {
	id, ok := AEMSubscriptionIdentity.ImportID(req, diags) // identity.go: the parts joined with ";"
	if !ok {
		return "", "", "", false
	}
	// No Message VPN name and no queue name holds ";" ([SPEC] msgVpnName, queueName), so the first two end
	// there; the topic may hold one.
	v, rest, ok1 := strings.Cut(id, aemSubscriptionIDSep)
	queue, topic, ok2 := strings.Cut(rest, aemSubscriptionIDSep)
	if !ok1 || !ok2 {
		diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity names no subscription. Write it in the form %s.", AEMSubscriptionIdentity.Form()))
		return "", "", "", false
	}
	if vpn != "" && v != vpn {
		diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity names the Message VPN %q, but the provider "+
			"configuration connects to the Message VPN %q, so the subscription cannot be imported through it. Set the import block's "+
			"`provider` to the configuration of Message VPN %q, or write `msg_vpn_name = %q`.", v, vpn, v, vpn))
		return "", "", "", false
	}
	return v, queue, topic, true
}

// aemSubscriptionImportForms lists the import IDs that name a subscription ("Use %s.").
func aemSubscriptionImportForms(vpn string) string {
	vpn = aemVPNOrPlaceholder(vpn)
	return fmt.Sprintf("the queue name and the topic separated by a semicolon (for example acme/orders;acme/orders/>), or Solace's form "+
		"%s/<url-encoded queue name>/<url-encoded topic> (for example %s/acme%%2Forders/acme%%2Forders%%2F%%3E, as the solacebroker provider "+
		"imports it), or an import block's identity = { msg_vpn_name = %q, queue_name = \"acme/orders\", topic = \"acme/orders/>\" }", vpn, vpn, vpn)
}

func aemSubscriptionErrorDetail(queue, topic string, err error) string {
	return fmt.Sprintf("The Advanced Event Mesh SEMP API failed for the subscription of queue %q to %q: %s. "+
		"Check that the queue exists and the `advanced_event_mesh` connection works, then run the command again.", queue, topic, framework.Clause(err))
}

// AEMQueueNameValidator checks an AEM queue name at validation (rules.ValidAEMQueueName).
type AEMQueueNameValidator = framework.StringCheck[aemQueueNameCheck]

type aemQueueNameCheck struct{}

func (aemQueueNameCheck) Description() string {
	return "must be an Advanced Event Mesh queue name: 1 to 200 characters, none of * ? ' < > & ;"
}

func (aemQueueNameCheck) Check(p path.Path, value string, diags *diag.Diagnostics) {
	if err := rules.ValidAEMQueueName(value); err != nil {
		diags.AddAttributeError(p, "Invalid AEM Queue Name",
			fmt.Sprintf("The broker would refuse the queue name %q: %s. "+
				"Use the queue's name as the cloud console shows it, without the characters * ? ' < > & ;.", value, framework.Clause(err)))
	}
}

// AEMTopicValidator checks a topic subscription at validation (rules.ValidAEMTopicSubscription).
type AEMTopicValidator = framework.StringCheck[aemTopicCheck]

type aemTopicCheck struct{}

func (aemTopicCheck) Description() string {
	return "must be a Solace topic subscription: at most 250 bytes, levels separated by /, the wildcards * and >"
}

func (aemTopicCheck) Check(p path.Path, value string, diags *diag.Diagnostics) {
	if err := rules.ValidAEMTopicSubscription(value); err != nil {
		diags.AddAttributeError(p, "Invalid AEM Topic Subscription",
			fmt.Sprintf("The topic subscription %q would not work as written: %s. "+
				"Write the topic as levels separated by /, with * alone in a level or at its end and > alone in the last level, for example acme/orders/>.",
				value, framework.Clause(err)))
	}
}

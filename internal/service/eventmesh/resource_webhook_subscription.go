package eventmesh

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ resource.Resource                   = (*webhookSubscriptionResource)(nil)
	_ resource.ResourceWithConfigure      = (*webhookSubscriptionResource)(nil)
	_ resource.ResourceWithImportState    = (*webhookSubscriptionResource)(nil)
	_ resource.ResourceWithValidateConfig = (*webhookSubscriptionResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*webhookSubscriptionResource)(nil)
	_ resource.ResourceWithIdentity       = (*webhookSubscriptionResource)(nil)
)

// NewWebhookSubscriptionResource returns the sapmessaging_webhook_subscription resource.
func NewWebhookSubscriptionResource() resource.Resource {
	return &webhookSubscriptionResource{}
}

type webhookSubscriptionResource struct {
	data *framework.ProviderData
}

type webhookOAuth2Model struct {
	ClientID              types.String `tfsdk:"client_id"`
	TokenURL              types.String `tfsdk:"token_url"`
	ClientSecret          types.String `tfsdk:"client_secret"`
	ClientSecretWO        types.String `tfsdk:"client_secret_wo"`
	ClientSecretWOVersion types.Int64  `tfsdk:"client_secret_wo_version"`
}

type webhookSubscriptionModel struct {
	ID                types.String `tfsdk:"id"`
	Name              types.String `tfsdk:"name"`
	Queue             types.String `tfsdk:"queue"`
	QoS               types.Int64  `tfsdk:"qos"`
	AcceptMessageLoss types.Bool   `tfsdk:"accept_message_loss"`
	Endpoint          types.String `tfsdk:"endpoint"`
	ExemptHandshake   types.Bool   `tfsdk:"exempt_handshake"`
	// AllowExemptWithoutAuth: the configuration's acceptance of exempt_handshake = true without oauth2 on a
	// subscription adopted as it is.
	AllowExemptWithoutAuth types.Bool `tfsdk:"allow_exempt_handshake_without_auth"`
	// AllowHTTPEndpoint: the configuration's acceptance of an http:// endpoint on a subscription adopted as it is.
	AllowHTTPEndpoint  types.Bool          `tfsdk:"allow_http_endpoint"`
	DefaultContentType types.String        `tfsdk:"default_content_type"`
	OAuth2             *webhookOAuth2Model `tfsdk:"oauth2"`
	Paused             types.Bool          `tfsdk:"paused"`
	// AcceptPushBeforePause: the configuration's acceptance that a subscription created with
	// paused = true may push messages before the pause that follows its creation.
	AcceptPushBeforePause types.Bool   `tfsdk:"accept_push_before_pause"`
	State                 types.String `tfsdk:"state"`
	HandshakeStatus       types.String `tfsdk:"handshake_status"`
}

var WebhookIdentity = framework.ResourceIdentity{Parts: []framework.IdentityPart{
	{Attr: "name", Description: "The name of the webhook subscription.", Example: "acme/crm/prod/orders/webhook"},
}}

func (r *webhookSubscriptionResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook_subscription"
}

func (r *webhookSubscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = WebhookIdentity.Schema()
}

const webhookReplaceNote = " Event Mesh has no call that changes a webhook subscription: changing it deletes the subscription and " +
	"creates it again, and messages published meanwhile wait in the queue until the new subscription's handshake completes."

func (r *webhookSubscriptionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An SAP Event Mesh webhook subscription: Event Mesh pushes the messages of a queue to an HTTP endpoint. " +
			"With `qos = 1` a message stays in the queue until the endpoint answers 2xx and is retried from 15 minutes up to " +
			"once a day until the queue's time to live; with `qos = 0` it is pushed once and deleted whatever the answer, so the " +
			"provider refuses QoS 0 unless `accept_message_loss = true`." + webhookReplaceNote,
		Attributes: map[string]schema.Attribute{
			"id": framework.ComputedKept("The subscription's name, the form `terraform import` takes."),
			"name": schema.StringAttribute{
				MarkdownDescription: "The subscription's name, unique in the Event Mesh instance (SAP's own clients name it after the queue). " +
					"Changing it replaces the subscription.",
				Required:      true,
				PlanModifiers: replace,
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"queue": schema.StringAttribute{
				MarkdownDescription: "The full name of the queue whose messages are pushed, usually `sapmessaging_queue.<name>.name`. " +
					"Changing it replaces the subscription.",
				Required:      true,
				PlanModifiers: replace,
				Validators:    []validator.String{framework.QueueName()},
			},
			"qos": schema.Int64Attribute{
				MarkdownDescription: "`1` (default): at least once; a message stays in the queue until the endpoint answers 2xx. " +
					"`0`: at most once; each message is pushed once and deleted after that try, so any failure or timeout of " +
					"the endpoint loses it, and the provider refuses it unless `accept_message_loss = true`. Changing it replaces the subscription.",
				Optional:      true,
				Computed:      true,
				Default:       int64default.StaticInt64(1),
				PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			},
			"accept_message_loss": framework.FalseByDefault("Set to `true` to allow `qos = 0`, which loses every message the endpoint fails to take. " +
				"The provider's check only: nothing is sent to Event Mesh."),
			"endpoint": schema.StringAttribute{
				MarkdownDescription: "The `https://` URL Event Mesh pushes to (`http://` only for a loopback address, in tests, or with " +
					"`allow_http_endpoint = true`). The endpoint must " +
					"answer the handshake (`OPTIONS` with `WebHook-Request-Origin`, answered with `WebHook-Allowed-Origin`), be idempotent " +
					"(QoS 1 is at least once) and answer 2xx only once it has stored the message. Changing it replaces the subscription.",
				Required:      true,
				PlanModifiers: replace,
			},
			"allow_http_endpoint": framework.FalseByDefault("Accept an `http://` endpoint that is not a loopback address, to which Event Mesh pushes the queue's messages " +
				"and the endpoint's credentials in clear text: the plan then warns instead of refusing. Only for adopting a subscription that " +
				"already works this way as it is: an import sets it to `true` for such a subscription, and `terraform query -generate-config-out` " +
				"writes it. Set an `https://` endpoint and remove this attribute as soon as you can. " +
				"Defaults to `false`; the provider's check only: nothing is sent to Event Mesh."),
			"exempt_handshake": schema.BoolAttribute{
				MarkdownDescription: "Skip the handshake (default `false`); refused without `oauth2` unless `allow_exempt_handshake_without_auth = true`. " +
					"Changing it replaces the subscription.",
				Optional:      true,
				Computed:      true,
				Default:       booldefault.StaticBool(false),
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.RequiresReplace()},
			},
			"allow_exempt_handshake_without_auth": framework.FalseByDefault("Accept `exempt_handshake = true` without `oauth2`, which lets Event Mesh push the queue's messages to " +
				"whatever answers at the endpoint: the plan then warns instead of refusing. Only for adopting a subscription that already " +
				"works this way as it is: an import sets it to `true` for such a subscription, and `terraform query -generate-config-out` " +
				"writes it. Set `exempt_handshake = false` or configure `oauth2`, and remove this attribute, as soon as you can. " +
				"Defaults to `false`; the provider's check only: nothing is sent to Event Mesh."),
			"default_content_type": schema.StringAttribute{
				MarkdownDescription: "The content type sent for a message that has none (Event Mesh sends `application/json` without it). " +
					"Changing it replaces the subscription.",
				Optional:      true,
				PlanModifiers: replace,
			},
			"oauth2": schema.SingleNestedAttribute{
				MarkdownDescription: "The endpoint's OAuth2 client credentials: Event Mesh fetches a token from `token_url` and sends it " +
					"with the handshake and every message. Leave it out for an endpoint without authentication. Set the secret " +
					"with `client_secret_wo` (write-only, never stored in the state; Terraform 1.11 and later) or, with a CLI " +
					"without write-only attributes (OpenTofu before 1.11), with `client_secret` (sensitive, kept in the state). " +
					"The secret is needed when the plan creates the subscription or replaces it: Event Mesh never returns it, so an " +
					"imported subscription (and the configuration terraform query -generate-config-out writes) has neither, keeps the " +
					"service's secret and plans without one; a change that replaces it then fails at plan until one is set. " +
					"Changing the block replaces the subscription.",
				Optional: true,
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplaceIf(oauth2RequiresReplace,
					"Replaces the subscription when the credentials change.", "Replaces the subscription when the credentials change.")},
				Attributes: map[string]schema.Attribute{
					"client_id": schema.StringAttribute{
						MarkdownDescription: "The client ID.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
					},
					"token_url": schema.StringAttribute{
						MarkdownDescription: "The token endpoint, for example `https://<subdomain>.authentication.eu10.hana.ondemand.com/oauth/token`.",
						Required:            true,
						Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
					},
					"client_secret": schema.StringAttribute{
						MarkdownDescription: "The client secret, kept in the state (sensitive). Prefer `client_secret_wo`.",
						Optional:            true,
						Sensitive:           true,
						Validators: []validator.String{stringvalidator.ConflictsWith(
							path.MatchRelative().AtParent().AtName("client_secret_wo"))},
					},
					"client_secret_wo": schema.StringAttribute{
						MarkdownDescription: "The client secret, write-only: sent when the subscription is created and never stored. " +
							"Terraform cannot see a change of it: raise `client_secret_wo_version` to send a new one (which replaces the subscription).",
						Optional:  true,
						Sensitive: true,
						WriteOnly: true,
					},
					"client_secret_wo_version": schema.Int64Attribute{
						MarkdownDescription: "Any number; change it to send a new `client_secret_wo`.",
						Optional:            true,
					},
				},
			},
			"paused": framework.FalseByDefault("Pause the subscription (default `false`): nothing is pushed and messages wait in the queue. " +
				"Pausing or resuming it in the cockpit shows as a change in the next plan, which sets it back."),
			"accept_push_before_pause": schema.BoolAttribute{
				MarkdownDescription: "Set to `true` to create (or replace) the subscription with `paused = true` although Event Mesh may push " +
					"messages before it is paused. The messaging REST API cannot create a paused subscription: it is created active and paused " +
					"by a second request, and in between Event Mesh may push messages from the queue (with `qos = 0`, one the endpoint fails " +
					"to take is lost). Without it a plan that creates a paused subscription fails. The provider's check only: nothing is sent to Event Mesh.",
				Optional: true,
			},
			"state": schema.StringAttribute{
				MarkdownDescription: "The subscription's state as Event Mesh reports it (`ACTIVE`, `PAUSED`), upper case; null when the answer has none.",
				Computed:            true,
			},
			"handshake_status": schema.StringAttribute{
				MarkdownDescription: "The handshake status as Event Mesh reports it (`NOT_INITIATED`, `REQUESTED`, `COMPLETED`, `FAILED`, " +
					"`EXEMPTED`), upper case with underscores; null when the answer has none. Nothing is pushed before `COMPLETED` or `EXEMPTED`.",
				Computed: true,
			},
		},
	}
}

func (r *webhookSubscriptionResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

const messagingMissing = "Webhook subscriptions need the SAP Event Mesh messaging REST API, but the provider has no messaging connection. " +
	"Set the `event_mesh` block's `service_key` (or the environment variable " + framework.EnvEventMeshServiceKey + ") to a service key with a " +
	"messaging entry of protocol httprest."

func (r *webhookSubscriptionResource) messagingOrError(diags interface{ AddError(string, string) }) bool {
	if r.data == nil || r.data.Messaging == nil {
		diags.AddError("Event Mesh Messaging Not Configured", messagingMissing)
		return false
	}
	return true
}

// webhookConfig is what ValidateConfig reads of the configuration, attribute by attribute, so
// that an unknown oauth2 object (from another resource's output) is no decoding error.
type webhookConfig struct {
	QoS               types.Int64
	AcceptMessageLoss types.Bool
	Endpoint          types.String
	ExemptHandshake   types.Bool
	AllowExempt       types.Bool
	AllowHTTP         types.Bool
	Queue             types.String
	OAuth2            types.Object
}

// findingsInput turns the configuration into the rules' input; the queue's facts are unknown.
func (c *webhookConfig) findingsInput() rules.Webhook {
	w := rules.Webhook{
		QoS: framework.Int64Value(c.QoS), AcceptMessageLoss: framework.BoolValue(c.AcceptMessageLoss), Endpoint: framework.StringValue(c.Endpoint),
		ExemptHandshake: framework.BoolValue(c.ExemptHandshake), Queue: framework.StringValue(c.Queue), AllowExemptWithoutAuth: c.AllowExempt.ValueBool(),
		AllowHTTPEndpoint:     c.AllowHTTP.ValueBool(),
		QueueDeadMessageQueue: rules.Unknown[string](), QueueMaxRedeliveryCount: rules.Unknown[int64](), QueueTTLSeconds: rules.Unknown[int64](),
	}
	if !c.OAuth2.IsUnknown() {
		w.HasAuthentication = rules.Known(!c.OAuth2.IsNull())
	}
	// A null default in the configuration is the default's value.
	if c.QoS.IsNull() {
		w.QoS = rules.Known[int64](1)
	}
	if c.AcceptMessageLoss.IsNull() {
		w.AcceptMessageLoss = rules.Known(false)
	}
	if c.ExemptHandshake.IsNull() {
		w.ExemptHandshake = rules.Known(false)
	}
	return w
}

func (r *webhookSubscriptionResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var c webhookConfig
	for name, target := range map[string]any{
		"qos": &c.QoS, "accept_message_loss": &c.AcceptMessageLoss, "endpoint": &c.Endpoint,
		"exempt_handshake": &c.ExemptHandshake, "queue": &c.Queue, "oauth2": &c.OAuth2,
		"allow_exempt_handshake_without_auth": &c.AllowExempt, "allow_http_endpoint": &c.AllowHTTP,
	} {
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), target)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	framework.AppendFindings(&resp.Diagnostics, rules.CheckWebhook(c.findingsInput()))
}

// ModifyPlan refuses a webhook subscription name that another resource of this run manages too
// (see owners), adds the warnings that need the queue and the other webhooks (the service's and
// this plan's), and says what a replacement means for the queue's messages.
func (r *webhookSubscriptionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedMessaging) || req.Plan.Raw.IsNull() {
		return
	}
	if req.State.Raw.IsNull() {
		checkCreatedPaused(ctx, req, resp)
	}
	if r.data == nil {
		return
	}
	var name, queue types.String
	var qos types.Int64
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("queue"), &queue)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("qos"), &qos)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var replacing []string // the changes that replace the subscription
	if !req.State.Raw.IsNull() {
		// The whole models, when they decode: an oauth2 object unknown until apply does not.
		var state, plan webhookSubscriptionModel
		if !framework.GetState(ctx, req.State, &state).HasError() && !framework.GetPlan(ctx, req.Plan, &plan).HasError() {
			if changed := replacingChanges(&state, &plan); len(changed) > 0 {
				replacing = changed
				resp.Diagnostics.AddWarning("Webhook Subscription Replaced",
					fmt.Sprintf("Webhook subscription %q is deleted and created again (%s changed), because Event Mesh cannot change a "+
						"subscription in place. Nothing is pushed from queue %q in between: messages wait in the queue, and messages held "+
						"for a retry go back to it, until the new subscription's handshake completes. Apply when a pause in delivery is acceptable.",
						state.Name.ValueString(), strings.Join(changed, ", "), state.Queue.ValueString()))
			}
		}
	}
	if req.State.Raw.IsNull() || len(replacing) > 0 {
		checkOAuth2Secret(ctx, req, resp, replacing)
	}
	if !name.IsUnknown() {
		conflict := r.data.ClaimObject(ctx, framework.OwnedObject{
			Service: framework.ServiceEventMesh, Key: "webhook|" + name.ValueString(),
			TypeName: "sapmessaging_webhook_subscription", InState: !req.State.Raw.IsNull(),
			Manage: fmt.Sprintf("manage the webhook subscription %q", name.ValueString()),
			Why: "Event Mesh holds one webhook subscription per name, so the two would delete and create it in turn on every apply, " +
				"the plan would never settle, and destroying either would stop the pushes the other still manages.",
			Match: fmt.Sprintf("name = %q", name.ValueString()),
		}, req, resp)
		if conflict != "" {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Webhook Subscription Managed Twice", conflict+
				" Give each webhook subscription its own name, or remove one of the two resources. When both come from generated "+
				"configuration (terraform query -generate-config-out) or import blocks, import the webhook subscription only once: "+
				"delete the second resource block with its import block.")
			return
		}
	}
	if queue.IsUnknown() || name.IsUnknown() || qos.IsUnknown() {
		return
	}
	w := rules.Webhook{QoS: framework.Int64Value(qos), Queue: framework.StringValue(queue),
		QueueDeadMessageQueue: rules.Unknown[string](), QueueMaxRedeliveryCount: rules.Unknown[int64](), QueueTTLSeconds: rules.Unknown[int64]()}
	if r.data.EventMesh != nil {
		if snap, err := r.data.EventMesh.Snapshot(ctx); err == nil {
			if q, ok := snap.Queue(queue.ValueString()); ok {
				w.QueueDeadMessageQueue = rules.Known(framework.Deref(q.DeadMsgQueue))
				w.QueueMaxRedeliveryCount = rules.Known(framework.Deref(q.MaxRedeliveryCount))
				w.QueueTTLSeconds = rules.Known(rules.WebhookTTLSeconds(framework.Deref(q.RespectTTL), framework.Deref(q.MaxTTL)))
			}
		} else {
			// A plan that cannot read fails.
			if !r.data.EventMeshCredential.AddRefused(&resp.Diagnostics, path.Root("queue"), err) {
				resp.Diagnostics.AddAttributeError(path.Root("queue"), "Cannot Read Queue",
					framework.ListErrorDetail(fmt.Sprintf("reading the queue %q for the checks of the webhook subscription", queue.ValueString()), err))
			}
			return
		}
	}
	w.OtherWebhooks = r.data.WebhookPlans.Others(queue.ValueString(), name.ValueString())
	if r.data.Messaging != nil {
		if list, err := r.data.Messaging.ListWebhooks(ctx); err == nil {
			for _, o := range list {
				if o.Queue == queue.ValueString() && o.Name != name.ValueString() && !slices.Contains(w.OtherWebhooks, o.Name) {
					w.OtherWebhooks = append(w.OtherWebhooks, o.Name)
				}
			}
		} else {
			// A plan that cannot read fails.
			if !r.data.MessagingCredential.AddRefused(&resp.Diagnostics, path.Empty(), err) {
				resp.Diagnostics.AddError("Cannot List Webhook Subscriptions",
					fmt.Sprintf("The Event Mesh messaging API failed listing the webhook subscriptions, to find the other webhooks of queue %q: %s. "+
						"Check the provider's connection and the service's status, then run the command again; TF_LOG=debug shows each request.",
						queue.ValueString(), framework.Clause(err)))
			}
			return
		}
	}
	slices.Sort(w.OtherWebhooks)
	r.data.WebhookPlans.Record(queue.ValueString(), name.ValueString())
	findings := rules.CheckWebhook(w)
	findings = slices.DeleteFunc(findings, func(f rules.Finding) bool { return f.Severity != rules.SeverityWarning })
	framework.AppendFindings(&resp.Diagnostics, findings)
}

// checkCreatedPaused refuses a create (or the create of a replacement) with paused = true
// unless accept_push_before_pause = true: the messaging REST API creates every subscription
// active (its create body has no state, reference note event-mesh-webhooks.md section 1), so the
// pause comes in a second request, and Event Mesh may push messages in between.
func checkCreatedPaused(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var paused, accept types.Bool
	var queue types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("paused"), &paused)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("accept_push_before_pause"), &accept)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("queue"), &queue)...)
	if resp.Diagnostics.HasError() || paused.IsUnknown() || !paused.ValueBool() || accept.IsUnknown() {
		return
	}
	q := "its queue"
	if !queue.IsUnknown() && !queue.IsNull() {
		q = fmt.Sprintf("queue %q", queue.ValueString())
	}
	if accept.ValueBool() {
		resp.Diagnostics.AddAttributeWarning(path.Root("paused"), "Webhook Subscription Created Active, Then Paused",
			fmt.Sprintf("Event Mesh cannot create a paused subscription: this one is created active and paused right after, and in between "+
				"Event Mesh may push messages from %s (`accept_push_before_pause = true` accepts that). Leave messages out of the queue "+
				"until the subscription is paused if the endpoint must not receive any.", q))
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root("paused"), "Webhook Subscription Cannot Be Created Paused",
		fmt.Sprintf("The Event Mesh messaging REST API creates every webhook subscription active; paused = true would pause it with a "+
			"second request, and in between Event Mesh may push messages from %s to the endpoint (with qos = 0, a message the endpoint "+
			"fails to take is lost). Create the subscription with paused = false when the endpoint may receive messages, "+
			"or set `accept_push_before_pause = true` to accept pushes before the pause.", q))
}

func (m *webhookSubscriptionModel) spec(cfgSecretWO types.String) eventmesh.WebhookSpec {
	s := eventmesh.WebhookSpec{
		Name: m.Name.ValueString(), Queue: m.Queue.ValueString(), QoS: int(m.QoS.ValueInt64()), Endpoint: m.Endpoint.ValueString(),
		ExemptHandshake: m.ExemptHandshake.ValueBool(), DefaultContentType: m.DefaultContentType.ValueString(),
	}
	if a := m.OAuth2; a != nil {
		secret := a.ClientSecret.ValueString()
		if !cfgSecretWO.IsNull() && !cfgSecretWO.IsUnknown() {
			secret = cfgSecretWO.ValueString()
		}
		s.OAuth2 = &eventmesh.WebhookOAuth2{ClientID: a.ClientID.ValueString(), ClientSecret: secret, TokenURL: a.TokenURL.ValueString()}
	}
	return s
}

// apply copies what the service answered into m; a setting the answer left out keeps its value.
func (m *webhookSubscriptionModel) apply(w *eventmesh.Webhook) {
	m.ID = types.StringValue(m.Name.ValueString())
	if w.Present.Address && w.Queue != "" {
		m.Queue = types.StringValue(w.Queue)
	}
	if w.Present.QoS {
		m.QoS = types.Int64Value(int64(w.QoS))
	}
	if w.Present.Endpoint && w.Endpoint != "" {
		m.Endpoint = types.StringValue(w.Endpoint)
	}
	if w.Present.ExemptHandshake {
		m.ExemptHandshake = types.BoolValue(w.ExemptHandshake)
	}
	if w.Present.DefaultContentType {
		if w.DefaultContentType == "" {
			m.DefaultContentType = types.StringNull()
		} else {
			m.DefaultContentType = types.StringValue(w.DefaultContentType)
		}
	}
	if w.Present.SecuritySchema && w.OAuth2 != nil {
		if m.OAuth2 == nil {
			m.OAuth2 = &webhookOAuth2Model{ClientSecret: types.StringNull(), ClientSecretWO: types.StringNull(), ClientSecretWOVersion: types.Int64Null()}
		}
		if w.OAuth2.ClientID != "" {
			m.OAuth2.ClientID = types.StringValue(w.OAuth2.ClientID)
		}
		if w.OAuth2.TokenURL != "" {
			m.OAuth2.TokenURL = types.StringValue(w.OAuth2.TokenURL)
		}
	}
	if m.OAuth2 != nil {
		m.OAuth2.ClientSecretWO = types.StringNull() // write-only: never in the state
	}
	if paused, known := w.Paused(); known {
		m.Paused = types.BoolValue(paused)
	}
	if m.Paused.IsNull() || m.Paused.IsUnknown() {
		m.Paused = types.BoolValue(false)
	}
	m.State = nullIfEmpty(w.State)
	m.HandshakeStatus = nullIfEmpty(w.HandshakeStatus)
	if m.AcceptMessageLoss.IsNull() || m.AcceptMessageLoss.IsUnknown() {
		// Imported: a QoS 0 subscription runs with its losses accepted.
		m.AcceptMessageLoss = types.BoolValue(m.QoS.ValueInt64() == 0)
	}
	if m.AllowExemptWithoutAuth.IsNull() || m.AllowExemptWithoutAuth.IsUnknown() {
		// Imported: a subscription exempted from the handshake without authentication is adopted as it is.
		m.AllowExemptWithoutAuth = types.BoolValue(m.ExemptHandshake.ValueBool() && m.OAuth2 == nil)
	}
	if m.AllowHTTPEndpoint.IsNull() || m.AllowHTTPEndpoint.IsUnknown() {
		// Imported: a subscription that pushes in clear text is adopted as it is.
		m.AllowHTTPEndpoint = types.BoolValue(rules.WebhookEndpointInClear(m.Endpoint.ValueString()))
	}
}

// checkOAuth2Secret refuses a plan that creates the subscription (replacing: nil) or replaces it (replacing: the
// changes that do) with an oauth2 block but no client secret: the create body carries the secret, and Event Mesh
// never returns it, so the provider has none to send (reference note event-mesh-webhooks.md section 1). An existing
// subscription keeps the service's secret: its updates (pausing, resuming) send none.
func checkOAuth2Secret(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, replacing []string) {
	var oauth2 types.Object
	var secret, secretWO types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("oauth2"), &oauth2)...)
	if resp.Diagnostics.HasError() || oauth2.IsNull() || oauth2.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("oauth2").AtName("client_secret"), &secret)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("oauth2").AtName("client_secret_wo"), &secretWO)...)
	if resp.Diagnostics.HasError() || !secret.IsNull() || !secretWO.IsNull() {
		return
	}
	at := path.Root("oauth2").AtName("client_secret_wo")
	if len(replacing) == 0 {
		resp.Diagnostics.AddAttributeError(at, "OAuth2 Client Secret Required",
			"The plan creates the webhook subscription, and Event Mesh needs the OAuth2 client secret to create it: without one it could not fetch a token for the endpoint. "+
				"Set `oauth2.client_secret_wo` (Terraform 1.11 and later) or `oauth2.client_secret` to the client's secret.")
		return
	}
	resp.Diagnostics.AddAttributeError(at, "OAuth2 Client Secret Required",
		fmt.Sprintf("The plan replaces the webhook subscription (%s changed), because Event Mesh cannot change a subscription in place, "+
			"and the new subscription needs the OAuth2 client secret. Event Mesh never returns the secret of the existing one (an imported "+
			"subscription keeps it only on the service), so the provider has none to send. "+
			"Set `oauth2.client_secret_wo` (Terraform 1.11 and later) or `oauth2.client_secret` to the client's secret, or leave out the change that replaces the subscription to keep it as it is.",
			strings.Join(replacing, ", ")))
}

// oauth2RequiresReplace replaces the subscription when its credentials change. A secret or
// secret version the state does not hold (after an import: the API never shows the secret) is
// no change: the apply only stores it.
func oauth2RequiresReplace(ctx context.Context, req planmodifier.ObjectRequest, resp *objectplanmodifier.RequiresReplaceIfFuncResponse) {
	if req.StateValue.IsNull() || req.PlanValue.IsNull() || req.PlanValue.IsUnknown() {
		resp.RequiresReplace = req.StateValue.IsNull() != req.PlanValue.IsNull()
		return
	}
	var st, pl webhookOAuth2Model
	resp.Diagnostics.Append(req.StateValue.As(ctx, &st, framework.ObjectAsOptions)...)
	resp.Diagnostics.Append(req.PlanValue.As(ctx, &pl, framework.ObjectAsOptions)...)
	if resp.Diagnostics.HasError() {
		return
	}
	changed := func(state, plan attr.Value) bool { return !state.IsNull() && !state.Equal(plan) }
	resp.RequiresReplace = !st.ClientID.Equal(pl.ClientID) || !st.TokenURL.Equal(pl.TokenURL) ||
		changed(st.ClientSecret, pl.ClientSecret) || changed(st.ClientSecretWOVersion, pl.ClientSecretWOVersion)
}

// replacingChanges names the attributes whose change replaces the subscription, as the plan
// modifiers of the schema decide it.
func replacingChanges(state, plan *webhookSubscriptionModel) []string {
	var out []string
	add := func(name string, changed bool) {
		if changed {
			out = append(out, name)
		}
	}
	differs := func(a, b attr.Value) bool { return !b.IsUnknown() && !a.Equal(b) }
	add("name", differs(state.Name, plan.Name))
	add("queue", differs(state.Queue, plan.Queue))
	add("qos", differs(state.QoS, plan.QoS))
	add("endpoint", differs(state.Endpoint, plan.Endpoint))
	add("exempt_handshake", differs(state.ExemptHandshake, plan.ExemptHandshake))
	add("default_content_type", differs(state.DefaultContentType, plan.DefaultContentType))
	switch {
	case (state.OAuth2 == nil) != (plan.OAuth2 == nil):
		add("oauth2", true)
	case state.OAuth2 != nil:
		st, pl := state.OAuth2, plan.OAuth2
		changed := func(s, p attr.Value) bool { return !s.IsNull() && differs(s, p) }
		add("oauth2", differs(st.ClientID, pl.ClientID) || differs(st.TokenURL, pl.TokenURL) ||
			changed(st.ClientSecret, pl.ClientSecret) || changed(st.ClientSecretWOVersion, pl.ClientSecretWOVersion))
	}
	return out
}

func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func webhookErrorDetail(name string, err error) string {
	return fmt.Sprintf("The Event Mesh messaging REST API failed for webhook subscription %q: %s. Check the provider's connection and "+
		"the service's status, then run the command again; TF_LOG=debug shows each request.", name, framework.Clause(err))
}

func (r *webhookSubscriptionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer WebhookIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan webhookSubscriptionModel
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	var secretWO types.String
	if plan.OAuth2 != nil {
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("oauth2").AtName("client_secret_wo"), &secretWO)...)
	}
	if resp.Diagnostics.HasError() || !r.messagingOrError(&resp.Diagnostics) {
		return
	}
	spec := plan.spec(secretWO)
	if spec.OAuth2 != nil {
		framework.MaskSecrets(&ctx, spec.OAuth2.ClientSecret)
	}
	w, err := r.data.Messaging.CreateWebhook(ctx, spec)
	if errors.Is(err, eventmesh.ErrWebhookExists) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Webhook Subscription Exists",
			fmt.Sprintf("Event Mesh already has a webhook subscription named %q, which this configuration does not manage. "+
				"Import it with terraform import, or choose another name.", spec.Name))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create Webhook Subscription", webhookErrorDetail(spec.Name, err))
		return
	}
	wantPaused := plan.Paused.ValueBool()
	plan.apply(w)
	if p, _ := w.Paused(); p != wantPaused {
		if err := r.data.Messaging.SetWebhookPaused(ctx, spec.Name, wantPaused); err != nil {
			resp.Diagnostics.AddError("Cannot Pause Webhook Subscription", webhookErrorDetail(spec.Name, err))
		} else if w, err = r.data.Messaging.GetWebhook(ctx, spec.Name); err == nil {
			plan.apply(w)
		}
		plan.Paused = types.BoolValue(wantPaused)
	}
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
}

func (r *webhookSubscriptionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	WebhookIdentity.Set(ctx, &req.State, resp.Identity, &resp.Diagnostics) // identity.go: first, also when the subscription is gone
	var state webhookSubscriptionModel
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.messagingOrError(&resp.Diagnostics) {
		return
	}
	name := state.Name.ValueString()
	w, err := r.data.Messaging.GetWebhook(ctx, name)
	if errors.Is(err, eventmesh.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Webhook Subscription", webhookErrorDetail(name, err))
		return
	}
	state.apply(w)
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
}

// Update changes what can change in place: paused (the API's pause and resume),
// accept_message_loss, allow_exempt_handshake_without_auth and allow_http_endpoint (the provider's checks
// only). Every other
// change replaces.
func (r *webhookSubscriptionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer WebhookIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan, state webhookSubscriptionModel
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.messagingOrError(&resp.Diagnostics) {
		return
	}
	name := plan.Name.ValueString()
	if plan.Paused.ValueBool() != state.Paused.ValueBool() {
		if err := r.data.Messaging.SetWebhookPaused(ctx, name, plan.Paused.ValueBool()); err != nil {
			if plan.Paused.ValueBool() {
				resp.Diagnostics.AddError("Cannot Pause Webhook Subscription", webhookErrorDetail(name, err))
			} else {
				resp.Diagnostics.AddError("Cannot Resume Webhook Subscription", webhookErrorDetail(name, err))
			}
			return
		}
	}
	w, err := r.data.Messaging.GetWebhook(ctx, name)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Webhook Subscription", webhookErrorDetail(name, err))
		return
	}
	wantPaused := plan.Paused
	plan.apply(w)
	plan.Paused = wantPaused
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
}

func (r *webhookSubscriptionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state webhookSubscriptionModel
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.messagingOrError(&resp.Diagnostics) {
		return
	}
	name := state.Name.ValueString()
	if err := r.data.Messaging.DeleteWebhook(ctx, name); err != nil && !errors.Is(err, eventmesh.ErrNotFound) {
		resp.Diagnostics.AddError("Cannot Delete Webhook Subscription", webhookErrorDetail(name, err))
	}
}

func (r *webhookSubscriptionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !WebhookIdentity.ResolveImport(&req, resp) { // identity.go
		return
	}
	if req.ID == "" {
		resp.Diagnostics.AddError("Invalid Import ID", "The import ID is empty. Use the webhook subscription's name, for example acme/crm/prod/orders/webhook.")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
}

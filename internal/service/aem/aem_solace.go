package aem

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The way over from SolaceProducts/terraform-provider-solacebroker (v1.3.0): Terraform 1.8 and later move a
// resource's state across providers with a `moved` block when the target resource implements the
// framework's resource move (ResourceWithMoveState), and this file holds the three moves
//
//	solacebroker_msg_vpn_queue              -> sapmessaging_aem_queue or sapmessaging_aem_dead_message_queue
//	solacebroker_msg_vpn_queue_subscription -> sapmessaging_aem_queue_subscription
//
// and the import IDs that provider uses (`<msg_vpn>/<url-encoded queue name>`, and
// `<msg_vpn>/<queue>/<topic>` for a subscription), accepted beside this provider's own.
//
// The source state is read from its raw JSON: solacebroker's schema is generated from SEMP's MsgVpnQueue
// (each attribute its SEMP name in snake case, `queue_name` and `msg_vpn_name` identifying), and it keeps an
// attribute at null while the broker holds its default, so a null reads as SEMP's default ([SPEC]
// MsgVpnQueue x-default), as a SEMP answer that leaves the attribute out. The next refresh reads the queue
// from the broker anyway; what the move carries is what the plan starts from.

var (
	_ resource.ResourceWithMoveState       = (*aemQueueResourceBase[AEMQueueModel, *AEMQueueModel])(nil)
	_ resource.ResourceWithMoveState       = (*aemQueueSubscriptionResource)(nil)
	_ resource.ResourceWithUpgradeIdentity = (*aemQueueSubscriptionResource)(nil)
)

// solaceProviderType is the source provider's namespace and type, whatever registry host it was installed
// from (registry.terraform.io or registry.opentofu.org).
const solaceProviderType = "solaceproducts/solacebroker"

// The source resource types of the moves.
const (
	SolaceQueueType        = "solacebroker_msg_vpn_queue"
	solaceSubscriptionType = "solacebroker_msg_vpn_queue_subscription"
)

// fromSolaceProvider reports whether a moved resource comes from Solace's provider.
func fromSolaceProvider(address string) bool {
	return strings.HasSuffix(strings.ToLower(address), "/"+solaceProviderType)
}

// SolaceQueueAttributes maps the attributes of solacebroker_msg_vpn_queue that the AEM queue resources manage
// to theirs (the migration guide prints this table; TestSolaceQueueAttributesCovered keeps it whole).
var SolaceQueueAttributes = [][2]string{
	{"msg_vpn_name", "msg_vpn_name"},
	{"queue_name", "name"},
	{"access_type", "access_type"},
	{"dead_msg_queue", "dead_message_queue"},
	{"delivery_count_enabled", "delivery_count_enabled"},
	{"egress_enabled", "egress_enabled"},
	{"ingress_enabled", "ingress_enabled"},
	{"max_msg_spool_usage", "max_msg_spool_usage"},
	{"max_redelivery_count", "max_redelivery_count"},
	{"max_ttl", "max_ttl"},
	{"redelivery_delay_enabled", "redelivery_delay_enabled"},
	{"redelivery_delay_initial_interval", "redelivery_delay_initial_interval"},
	{"redelivery_delay_max_interval", "redelivery_delay_max_interval"},
	{"redelivery_delay_multiplier", "redelivery_delay_multiplier"},
	{"redelivery_enabled", "redelivery_enabled"},
	{"reject_msg_to_sender_on_discard_behavior", "reject_msg_to_sender_on_discard_behavior"},
	{"respect_dmq_eligible_enabled", "respect_dmq_eligible_enabled"},
	{"respect_ttl_enabled", "respect_ttl"},
}

// solaceSubscriptionAttributes maps the attributes of solacebroker_msg_vpn_queue_subscription.
var solaceSubscriptionAttributes = [][2]string{
	{"msg_vpn_name", "msg_vpn_name"},
	{"queue_name", "queue_name"},
	{"subscription_topic", "topic"},
}

// solaceQueueState is the state of a solacebroker_msg_vpn_queue: the attributes the AEM queue resources
// manage (null: the broker's default). The others stay on the broker, unmanaged (solaceUnmanaged).
type solaceQueueState struct {
	MsgVpnName                         *string `json:"msg_vpn_name"`
	QueueName                          *string `json:"queue_name"`
	AccessType                         *string `json:"access_type"`
	DeadMsgQueue                       *string `json:"dead_msg_queue"`
	DeliveryCountEnabled               *bool   `json:"delivery_count_enabled"`
	EgressEnabled                      *bool   `json:"egress_enabled"`
	IngressEnabled                     *bool   `json:"ingress_enabled"`
	MaxMsgSpoolUsage                   *int64  `json:"max_msg_spool_usage"`
	MaxRedeliveryCount                 *int64  `json:"max_redelivery_count"`
	MaxTTL                             *int64  `json:"max_ttl"`
	RedeliveryDelayEnabled             *bool   `json:"redelivery_delay_enabled"`
	RedeliveryDelayInitialInterval     *int64  `json:"redelivery_delay_initial_interval"`
	RedeliveryDelayMaxInterval         *int64  `json:"redelivery_delay_max_interval"`
	RedeliveryDelayMultiplier          *int64  `json:"redelivery_delay_multiplier"`
	RedeliveryEnabled                  *bool   `json:"redelivery_enabled"`
	RejectMsgToSenderOnDiscardBehavior *string `json:"reject_msg_to_sender_on_discard_behavior"`
	RespectDmqEligibleEnabled          *bool   `json:"respect_dmq_eligible_enabled"`
	RespectTTLEnabled                  *bool   `json:"respect_ttl_enabled"`
}

func (s *solaceQueueState) queue() aem.Queue {
	return aem.Queue{Name: *s.QueueName, QueueSettings: aem.QueueSettings{
		AccessType:                         s.AccessType,
		DeadMsgQueue:                       s.DeadMsgQueue,
		DeliveryCountEnabled:               s.DeliveryCountEnabled,
		EgressEnabled:                      s.EgressEnabled,
		IngressEnabled:                     s.IngressEnabled,
		MaxMsgSpoolUsage:                   s.MaxMsgSpoolUsage,
		MaxRedeliveryCount:                 s.MaxRedeliveryCount,
		MaxTTL:                             s.MaxTTL,
		RedeliveryDelayEnabled:             s.RedeliveryDelayEnabled,
		RedeliveryDelayInitialInterval:     s.RedeliveryDelayInitialInterval,
		RedeliveryDelayMaxInterval:         s.RedeliveryDelayMaxInterval,
		RedeliveryDelayMultiplier:          s.RedeliveryDelayMultiplier,
		RedeliveryEnabled:                  s.RedeliveryEnabled,
		RejectMsgToSenderOnDiscardBehavior: s.RejectMsgToSenderOnDiscardBehavior,
		RespectDmqEligibleEnabled:          s.RespectDmqEligibleEnabled,
		RespectTTLEnabled:                  s.RespectTTLEnabled,
	}}
}

// readSolaceState decodes the raw state of a moved solacebroker resource into v and returns every attribute
// of it, for solaceUnmanaged. required are the identifying attributes, which must hold a string.
func readSolaceState(raw *tfprotov6.RawState, typeName string, v any, diags *diag.Diagnostics, required ...string) map[string]json.RawMessage {
	if raw == nil || len(raw.JSON) == 0 {
		diags.AddError("Cannot Move Resource State", fmt.Sprintf("Terraform sent the state of the %s to move in a form this provider "+
			"does not read (no JSON). Run terraform apply once with the solacebroker provider's current version so that it rewrites its "+
			"state, then move it again.", typeName))
		return nil
	}
	var all map[string]json.RawMessage
	err := json.Unmarshal(raw.JSON, &all)
	if err == nil {
		err = json.Unmarshal(raw.JSON, v)
	}
	if err != nil {
		diags.AddError("Cannot Move Resource State", fmt.Sprintf("The state of the %s to move cannot be read: %s. It is not a state "+
			"that the solacebroker provider v1.x writes. Remove the `moved` block and import the object instead.", typeName, framework.Clause(err)))
		return nil
	}
	for _, attr := range required {
		var s *string
		if json.Unmarshal(all[attr], &s) != nil || s == nil || *s == "" {
			diags.AddError("Cannot Move Resource State", fmt.Sprintf("The state of the %s to move holds no `%s`, which identifies the "+
				"object on the broker. Remove the `moved` block and import the object instead.", typeName, attr))
			return nil
		}
	}
	return all
}

// solaceUnmanaged returns the attributes of a moved state that hold a value (not null) and that the target
// resource does not manage, each as attr = value, sorted.
func solaceUnmanaged(all map[string]json.RawMessage, managed [][2]string) []string {
	known := make(map[string]bool, len(managed))
	for _, m := range managed {
		known[m[0]] = true
	}
	var out []string
	for k, v := range all {
		if known[k] || string(v) == "null" || k == "id" {
			continue
		}
		out = append(out, solaceSettings(k, v)...)
	}
	sort.Strings(out)
	return out
}

// solaceSettings writes a setting of a solacebroker state as name = value: a nested object (an event threshold)
// as one name.attribute = value per attribute that holds a value, without the nulls.
func solaceSettings(name string, v json.RawMessage) []string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return []string{fmt.Sprintf("%s = %s", name, string(v))}
	}
	var out []string
	for k, sub := range obj {
		if string(sub) != "null" {
			out = append(out, solaceSettings(name+"."+k, sub)...)
		}
	}
	return out
}

// warnSolaceUnmanaged says which settings of a moved object stay on the broker without being managed.
func warnSolaceUnmanaged(diags *diag.Diagnostics, what string, unmanaged []string) {
	if len(unmanaged) == 0 {
		return
	}
	diags.AddWarning("Settings Left Unmanaged", fmt.Sprintf("The solacebroker state of %s holds settings that this provider does not "+
		"manage:\n  %s\nThe broker keeps their values, because this provider's updates write only the attributes its configuration sets. "+
		"Change them in the cloud console from now on, and retire the solacebroker configuration of this object in the same change: "+
		"applied again, it would reset the queue to the broker's defaults, which retry a poison message for ever.", what, strings.Join(unmanaged, "\n  ")))
}

// MoveState moves a solacebroker_msg_vpn_queue into sapmessaging_aem_queue or
// sapmessaging_aem_dead_message_queue: the settings the resource manages, by their names here, and the
// resource's own attributes as an import sets them (allow_* from what the queue holds, force_destroy false).
func (r *aemQueueResourceBase[M, P]) MoveState(_ context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		if !fromSolaceProvider(req.SourceProviderAddress) || req.SourceTypeName != SolaceQueueType {
			return
		}
		var src solaceQueueState
		all := readSolaceState(req.SourceRawState, SolaceQueueType, &src, &resp.Diagnostics, "queue_name", "msg_vpn_name")
		if all == nil {
			return
		}
		if err := rules.ValidAEMQueueName(*src.QueueName); err != nil {
			resp.Diagnostics.AddError("Cannot Move Resource State", fmt.Sprintf("The moved state names the queue %q, which is no queue name "+
				"the broker accepts: %s. Remove the `moved` block and import the queue by its name instead.", *src.QueueName, framework.Clause(err)))
			return
		}
		var m M
		q := src.queue()
		P(&m).FromBroker(&q, *src.MsgVpnName, nil) // no broker at a move: the refresh that follows reads it
		if u, ok := any(P(&m)).(interface{ leaveToRefresh() }); ok {
			u.leaveToRefresh()
		}
		resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
		AEMQueueIdentity.Set(ctx, &resp.TargetState, resp.TargetIdentity, &resp.Diagnostics) // identity.go
		warnSolaceUnmanaged(&resp.Diagnostics, fmt.Sprintf("the queue %q (%s, moved into %s)", *src.QueueName, SolaceQueueType, r.typeName),
			solaceUnmanaged(all, SolaceQueueAttributes))
	}}}
}

// solaceSubscriptionState is the state of a solacebroker_msg_vpn_queue_subscription.
type solaceSubscriptionState struct {
	MsgVpnName        *string `json:"msg_vpn_name"`
	QueueName         *string `json:"queue_name"`
	SubscriptionTopic *string `json:"subscription_topic"`
}

// MoveState moves a solacebroker_msg_vpn_queue_subscription into sapmessaging_aem_queue_subscription.
func (r *aemQueueSubscriptionResource) MoveState(_ context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		if !fromSolaceProvider(req.SourceProviderAddress) || req.SourceTypeName != solaceSubscriptionType {
			return
		}
		var src solaceSubscriptionState
		all := readSolaceState(req.SourceRawState, solaceSubscriptionType, &src, &resp.Diagnostics, "queue_name", "subscription_topic", "msg_vpn_name")
		if all == nil {
			return
		}
		m := AEMQueueSubscriptionModel{
			ID:         types.StringValue(*src.QueueName + aemSubscriptionIDSep + *src.SubscriptionTopic),
			QueueName:  types.StringValue(*src.QueueName),
			Topic:      types.StringValue(*src.SubscriptionTopic),
			MsgVpnName: types.StringValue(*src.MsgVpnName),
		}
		m.Timeouts.Object = types.ObjectNull(map[string]attr.Type{"create": types.StringType, "read": types.StringType, "delete": types.StringType})
		resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
		AEMSubscriptionIdentity.Set(ctx, &resp.TargetState, resp.TargetIdentity, &resp.Diagnostics) // identity.go
		warnSolaceUnmanaged(&resp.Diagnostics, fmt.Sprintf("the subscription of %q to %q (%s, moved into sapmessaging_aem_queue_subscription)",
			*src.QueueName, *src.SubscriptionTopic, solaceSubscriptionType),
			solaceUnmanaged(all, solaceSubscriptionAttributes))
	}}}
}

// SolaceQueueImportID reads Solace's import ID of a queue, `<msg_vpn>/<url-encoded queue name>` (its
// identifying attributes joined with "/", each path-escaped; solacebroker also reads "," as "/"): the queue
// name, when the ID has that form and names the Message VPN vpn.
func SolaceQueueImportID(id, vpn string) (string, bool) {
	parts := strings.Split(strings.ReplaceAll(id, ",", "/"), "/")
	if len(parts) != 2 || parts[0] != vpn {
		return "", false
	}
	name, err := url.PathUnescape(parts[1])
	if err != nil || rules.ValidAEMQueueName(name) != nil {
		return "", false
	}
	return name, true
}

// SolaceSubscriptionImportID reads Solace's import ID of a queue subscription,
// `<msg_vpn>/<url-encoded queue name>/<url-encoded topic>`.
func SolaceSubscriptionImportID(id, vpn string) (queue, topic string, ok bool) {
	parts := strings.Split(strings.ReplaceAll(id, ",", "/"), "/")
	if len(parts) != 3 || parts[0] != vpn {
		return "", "", false
	}
	queue, qerr := url.PathUnescape(parts[1])
	topic, terr := url.PathUnescape(parts[2])
	if qerr != nil || terr != nil || rules.ValidAEMQueueName(queue) != nil || rules.ValidAEMTopicSubscription(topic) != nil {
		return "", "", false
	}
	return queue, topic, true
}

// solaceOtherVPN returns the Message VPN that id names when it has Solace's import ID form of n parts
// (`<msg_vpn>/<url-encoded part>`…, each part a valid path escape) and names a Message VPN other than vpn.
func solaceOtherVPN(id, vpn string, n int) (string, bool) {
	parts := strings.Split(strings.ReplaceAll(id, ",", "/"), "/")
	if vpn == "" || len(parts) != n || parts[0] == vpn || parts[0] == "" {
		return "", false
	}
	for _, p := range parts[1:] {
		if u, err := url.PathUnescape(p); err != nil || u == "" {
			return "", false
		}
	}
	return parts[0], true
}

// addSolaceOtherVPN reports an import ID of Solace's form that names another Message VPN than the provider
// configuration's: what of the ID names the object (form), and the ID in the configuration's Message VPN.
func addSolaceOtherVPN(diags *diag.Diagnostics, id, other, vpn, form string) {
	diags.AddError("Object of Another Message VPN", fmt.Sprintf("The import ID %q has Solace's form %s and names the Message VPN %q, "+
		"but the provider configuration connects to the Message VPN %q, where an object of the same name would be another one. Nothing was imported. "+
		"Set the import's `provider` to the configuration of Message VPN %q, or write the ID as %s to import the object of that name in %q.",
		id, form, other, vpn, other, vpn+strings.TrimPrefix(strings.ReplaceAll(id, ",", "/"), other), vpn))
}

// aemVPNOrPlaceholder is vpn, or <msg_vpn_name> in an import form while the Message VPN is not known.
func aemVPNOrPlaceholder(vpn string) string {
	if vpn == "" {
		return "<msg_vpn_name>"
	}
	return vpn
}

// aemQueueImportForms lists the import IDs that name a queue, for the errors of an ID that fits none ("Use %s.").
func aemQueueImportForms(vpn string) string {
	vpn = aemVPNOrPlaceholder(vpn)
	return fmt.Sprintf("the queue name (for example acme/aem/prod/orders), or Solace's form %s/<url-encoded queue name> "+
		"(for example %s/acme%%2Faem%%2Fprod%%2Forders, as the solacebroker provider imports it), or an import block's "+
		"identity = { msg_vpn_name = %q, name = \"acme/aem/prod/orders\" }", vpn, vpn, vpn)
}

// aemSameVPN reports whether the Message VPN an object's state names is the provider configuration's; false,
// with an error, when it is another one (a state moved or imported from another Message VPN): reading the
// object through this configuration would take another object of the same name for it.
func aemSameVPN(stateVPN, vpn, what string, diags *diag.Diagnostics) bool {
	if stateVPN == "" || stateVPN == vpn {
		return true
	}
	diags.AddError("Object of Another Message VPN", fmt.Sprintf("The state records %s in the Message VPN %q, but the provider "+
		"configuration connects to the Message VPN %q, where an object of the same name would be another one. Nothing was read "+
		"or changed. Give this resource the `provider` of Message VPN %q; or, if the object has moved to %q, run terraform state rm "+
		"on this resource and import it again.", what, stateVPN, vpn, stateVPN, vpn))
	return false
}

// UpgradeIdentity upgrades the identities stored before version 1, which had no msg_vpn_name: the
// configuration's Message VPN, the one the subscription is read from (null while the provider is not
// configured; the next refresh sets it).
func (r *aemQueueSubscriptionResource) UpgradeIdentity(_ context.Context) map[int64]resource.IdentityUpgrader {
	prior := identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"queue_name": identityschema.StringAttribute{RequiredForImport: true},
		"topic":      identityschema.StringAttribute{RequiredForImport: true},
	}}
	return map[int64]resource.IdentityUpgrader{0: {
		PriorSchema: &prior,
		IdentityUpgrader: func(ctx context.Context, req resource.UpgradeIdentityRequest, resp *resource.UpgradeIdentityResponse) {
			var old struct {
				QueueName types.String `tfsdk:"queue_name"`
				Topic     types.String `tfsdk:"topic"`
			}
			resp.Diagnostics.Append(req.Identity.Get(ctx, &old)...)
			if resp.Diagnostics.HasError() {
				return
			}
			vpn := types.StringNull()
			if d := r.Data(); d != nil && d.AEM != nil {
				vpn = types.StringValue(d.AEM.MsgVpnName())
			}
			resp.Diagnostics.Append(resp.Identity.Set(ctx, struct {
				MsgVpnName types.String `tfsdk:"msg_vpn_name"`
				QueueName  types.String `tfsdk:"queue_name"`
				Topic      types.String `tfsdk:"topic"`
			}{vpn, old.QueueName, old.Topic})...)
		},
	}}
}

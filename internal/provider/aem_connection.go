package provider

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// The connection to SAP Integration Suite, advanced event mesh (AEM): one broker service's SEMP v2 API
// with its management user (shared/reference/aem.md, section 1). Every attribute of the block falls back
// to its environment variable on its own, so that a password can come from the environment while the URL
// is in the configuration. Several brokers are several provider configurations (aliases).

type aemConnectionModel struct {
	SEMPURL    types.String `tfsdk:"semp_url"`
	MsgVpnName types.String `tfsdk:"msg_vpn_name"`
	Username   types.String `tfsdk:"username"`
	Password   types.String `tfsdk:"password"`
}

// aemField is one attribute of the block with its environment variable.
type aemField struct {
	attr, env, what string
}

var aemFields = []aemField{
	{"semp_url", framework.EnvAEMSEMPURL, "the SEMP URL the cloud console shows for the broker service (Manage, SEMP - REST API), for example `https://mr-connection-abc.messaging.solace.cloud:943`"},
	{"msg_vpn_name", framework.EnvAEMMsgVpnName, "the Message VPN name the cloud console shows for the broker service"},
	{"username", framework.EnvAEMUsername, "the management user the cloud console shows for the broker service"},
	{"password", framework.EnvAEMPassword, "that user's password"},
}

func aemConnectionSchema() schema.SingleNestedAttribute {
	attr := func(f aemField, sensitive bool) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s. When not set, the provider reads `%s`.", upperFirst(f.what), f.env),
			Optional:            true,
			Sensitive:           sensitive,
		}
	}
	return schema.SingleNestedAttribute{
		MarkdownDescription: "Connection to one broker service of SAP Integration Suite, advanced event mesh (AEM) through its SEMP v2 " +
			"management API, with HTTP Basic authentication. Each attribute left out is read from its environment variable (`" +
			framework.EnvAEMSEMPURL + "`, `" + framework.EnvAEMMsgVpnName + "`, `" + framework.EnvAEMUsername + "`, `" + framework.EnvAEMPassword + "`). " +
			"`https` is required except for loopback hosts; the password is never logged. Manage several brokers with provider aliases. " +
			"Without this connection the `sapmessaging_aem_*` resources fail at plan and everything else works as before.",
		Optional: true,
		Attributes: map[string]schema.Attribute{
			"semp_url":     attr(aemFields[0], false),
			"msg_vpn_name": attr(aemFields[1], false),
			"username":     attr(aemFields[2], false),
			"password":     attr(aemFields[3], true),
		},
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// aemSettings are the resolved values of the block, and where each came from.
type aemSettings struct {
	sempURL, vpn, username, password string
	sources                          [4]string
}

// resolveAEM reads the block and the environment. It returns false when nothing is configured (neither
// block attributes nor environment variables), when a value is unknown until apply (unknown is set then),
// or after adding an error.
func resolveAEM(ctx context.Context, block types.Object, diags *diag.Diagnostics) (s aemSettings, ok, unknown bool) {
	var m aemConnectionModel
	if !block.IsNull() && !block.IsUnknown() {
		diags.Append(block.As(ctx, &m, framework.ObjectAsOptions)...)
		if diags.HasError() {
			return s, false, false
		}
	}
	if block.IsUnknown() {
		return s, false, true
	}
	vals := []types.String{m.SEMPURL, m.MsgVpnName, m.Username, m.Password}
	got := make([]string, 4)
	anySet := false
	var missing []aemField
	for i, f := range aemFields {
		v := vals[i]
		switch {
		case v.IsUnknown():
			return s, false, true
		case !v.IsNull():
			got[i], s.sources[i] = v.ValueString(), "advanced_event_mesh."+f.attr
			if strings.TrimSpace(got[i]) == "" {
				diags.AddAttributeError(path.Root("advanced_event_mesh").AtName(f.attr), "Empty Advanced Event Mesh Setting",
					fmt.Sprintf("The `advanced_event_mesh` block sets `%s`, but it is empty. The provider does not fall back to %s then: an "+
						"empty value (for example from a variable that is not filled) would silently connect to whatever the environment names. "+
						"Set `%s` to %s, or remove the attribute to use %s.", f.attr, f.env, f.attr, f.what, f.env))
				return s, false, false
			}
			anySet = true
		default:
			got[i], s.sources[i] = os.Getenv(f.env), f.env
			if got[i] != "" {
				anySet = true
			}
		}
		if got[i] == "" {
			missing = append(missing, f)
		}
	}
	if !anySet {
		return s, false, false
	}
	for _, f := range missing {
		diags.AddAttributeError(path.Root("advanced_event_mesh").AtName(f.attr), "Missing Advanced Event Mesh Setting",
			fmt.Sprintf("The Advanced Event Mesh connection is set in part, but `%s` is neither in the `advanced_event_mesh` block nor in %s, "+
				"so the provider cannot reach the broker. Set `advanced_event_mesh.%s` (or %s) to %s.", f.attr, f.env, f.attr, f.env, f.what))
	}
	if len(missing) > 0 {
		return s, false, false
	}
	s.sempURL, s.vpn, s.username, s.password = strings.TrimSpace(got[0]), strings.TrimSpace(got[1]), got[2], got[3]
	u, err := url.Parse(s.sempURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		diags.AddAttributeError(path.Root("advanced_event_mesh").AtName("semp_url"), "Invalid Advanced Event Mesh SEMP URL",
			fmt.Sprintf("The SEMP URL %q from %s is not an http(s) URL with a host. Set it to %s.", s.sempURL, s.sources[0], aemFields[0].what))
		return s, false, false
	}
	if strings.Contains(u.Path, "/SEMP/") {
		diags.AddAttributeError(path.Root("advanced_event_mesh").AtName("semp_url"), "Invalid Advanced Event Mesh SEMP URL",
			fmt.Sprintf("The SEMP URL %q from %s includes the API path; the provider adds `/SEMP/v2/config` and the other API paths itself. "+
				"Set it to the scheme, host and port only, for example %q.", s.sempURL, s.sources[0], u.Scheme+"://"+u.Host))
		return s, false, false
	}
	return s, true, false
}

// configureAEM sets the AEM client of data from the block or the environment.
func (p *sapMessagingProvider) configureAEM(ctx context.Context, block types.Object, common httpx.Config, data *framework.ProviderData, diags *diag.Diagnostics) {
	var own diag.Diagnostics
	s, ok, unknown := resolveAEM(ctx, block, &own)
	data.AEMUnknown = unknown
	data.AEMKeyError = deferKeyError(block, &own)
	diags.Append(own...)
	if !ok {
		return
	}
	framework.MaskSecrets(&ctx, s.password)
	cfg, hc := common, aem.HTTPConfig(s.sempURL, s.username, s.password)
	cfg.BaseURL, cfg.Username, cfg.Password = hc.BaseURL, hc.Username, hc.Password
	h, err := p.newHTTPClient(cfg)
	if err != nil {
		diags.AddAttributeError(path.Root("advanced_event_mesh"), "Invalid Advanced Event Mesh Connection", connectionDetail("advanced_event_mesh", err))
		return
	}
	c, err := aem.New(h, s.vpn)
	if err != nil {
		diags.AddAttributeError(path.Root("advanced_event_mesh").AtName("msg_vpn_name"), "Invalid Advanced Event Mesh Connection", connectionDetail("advanced_event_mesh", err))
		return
	}
	data.AEM = c
	data.AEMBroker = "advanced-event-mesh " + framework.NormalURL(s.sempURL) + " " + s.vpn
	data.Owners.Shared = framework.JoinWalk(ctx) // joined when the process started (NewWithHTTPClient)
	data.AEMCredential = framework.Credential{Service: "Advanced Event Mesh SEMP API", Source: s.sources[2] + " and " + s.sources[3],
		ClientID: s.username, HTTP: h, Check: c.CheckAccess}
}

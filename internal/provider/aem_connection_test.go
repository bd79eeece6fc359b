package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

var aemBlockTypes = map[string]attr.Type{
	"semp_url": types.StringType, "msg_vpn_name": types.StringType, "username": types.StringType, "password": types.StringType,
}

func aemBlock(t *testing.T, vals map[string]attr.Value) types.Object {
	t.Helper()
	full := map[string]attr.Value{}
	for k := range aemBlockTypes {
		full[k] = types.StringNull()
	}
	for k, v := range vals {
		full[k] = v
	}
	o, d := types.ObjectValue(aemBlockTypes, full)
	if d.HasError() {
		t.Fatal(d)
	}
	return o
}

// Each attribute of the block falls back to its own environment variable; a connection set in part names
// what is missing; an empty value never falls back; a SEMP URL with the API path is refused.
func TestResolveAEM(t *testing.T) {
	s := types.StringValue
	cases := []struct {
		name          string
		block         map[string]attr.Value // nil: no block
		env           map[string]string
		ok, unknown   bool
		wantErr       string
		wantURL, user string
	}{
		{name: "nothing configured"},
		{name: "all from the block", block: map[string]attr.Value{"semp_url": s("https://b.example:943"), "msg_vpn_name": s("v"), "username": s("u"), "password": s("p")},
			ok: true, wantURL: "https://b.example:943", user: "u"},
		{name: "all from the environment", env: map[string]string{framework.EnvAEMSEMPURL: "https://e.example:943", framework.EnvAEMMsgVpnName: "v", framework.EnvAEMUsername: "eu", framework.EnvAEMPassword: "p"},
			ok: true, wantURL: "https://e.example:943", user: "eu"},
		{name: "password from the environment", block: map[string]attr.Value{"semp_url": s("https://b.example:943"), "msg_vpn_name": s("v"), "username": s("u")},
			env: map[string]string{framework.EnvAEMPassword: "p"}, ok: true, wantURL: "https://b.example:943", user: "u"},
		{name: "set in part", block: map[string]attr.Value{"semp_url": s("https://b.example:943")},
			wantErr: "Missing Advanced Event Mesh Setting: The Advanced Event Mesh connection is set in part, but `msg_vpn_name`"},
		{name: "empty value", block: map[string]attr.Value{"semp_url": s("https://b.example:943"), "msg_vpn_name": s("v"), "username": s("u"), "password": s("")},
			env: map[string]string{framework.EnvAEMPassword: "p"}, wantErr: "Empty Advanced Event Mesh Setting: The `advanced_event_mesh` block sets `password`, but it is empty"},
		{name: "API path in the URL", block: map[string]attr.Value{"semp_url": s("https://b.example:943/SEMP/v2/config"), "msg_vpn_name": s("v"), "username": s("u"), "password": s("p")},
			wantErr: `includes the API path; the provider adds ` + "`/SEMP/v2/config`" + ` and the other API paths itself. Set it to the scheme, host and port only, for example "https://b.example:943"`},
		{name: "not a URL", block: map[string]attr.Value{"semp_url": s("b.example"), "msg_vpn_name": s("v"), "username": s("u"), "password": s("p")},
			wantErr: "Invalid Advanced Event Mesh SEMP URL"},
		{name: "unknown until apply", block: map[string]attr.Value{"semp_url": types.StringUnknown(), "msg_vpn_name": s("v"), "username": s("u"), "password": s("p")},
			unknown: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{framework.EnvAEMSEMPURL, framework.EnvAEMMsgVpnName, framework.EnvAEMUsername, framework.EnvAEMPassword} {
				t.Setenv(k, tc.env[k])
			}
			block := types.ObjectNull(aemBlockTypes)
			if tc.block != nil {
				block = aemBlock(t, tc.block)
			}
			var diags diag.Diagnostics
			got, ok, unknown := resolveAEM(context.Background(), block, &diags)
			if ok != tc.ok || unknown != tc.unknown {
				t.Fatalf("ok, unknown = %v, %v; want %v, %v (%v)", ok, unknown, tc.ok, tc.unknown, diags)
			}
			text := ""
			for _, d := range diags.Errors() {
				text += d.Summary() + ": " + d.Detail() + "\n"
			}
			if tc.wantErr == "" && text != "" || !strings.Contains(text, tc.wantErr) {
				t.Errorf("errors = %q, want %q", text, tc.wantErr)
			}
			if ok && (got.sempURL != tc.wantURL || got.username != tc.user) {
				t.Errorf("resolved %q as %q, want %q as %q", got.sempURL, got.username, tc.wantURL, tc.user)
			}
		})
	}
}

// A plan that needs the broker proves the user once per run with one authenticated read; a wrong password
// is "Credentials Refused" naming the user and where it came from (never the password); a Message VPN the
// broker does not have fails the plan too; without the connection the error says what to set.
func TestRequireAtPlan_aem(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	creds := srv.AdvancedEventMeshCredentials()
	configure := func(vpn, password string) (*framework.ProviderData, *httpx.Client) {
		t.Helper()
		block := aemBlock(t, map[string]attr.Value{"semp_url": types.StringValue(creds.SEMPURL), "msg_vpn_name": types.StringValue(vpn),
			"username": types.StringValue(creds.Username), "password": types.StringValue(password)})
		var h *httpx.Client
		p := &sapMessagingProvider{newHTTPClient: func(c httpx.Config) (*httpx.Client, error) {
			c.SetRetries(0)
			var err error
			h, err = httpx.New(c)
			return h, err
		}}
		d := &framework.ProviderData{}
		var diags diag.Diagnostics
		p.configureAEM(context.Background(), block, httpx.Config{}, d, &diags)
		if diags.HasError() || d.AEM == nil {
			t.Fatalf("configure: %v", diags)
		}
		return d, h
	}
	errorText := func(d *framework.ProviderData) string {
		var diags diag.Diagnostics
		if d.RequireAtPlan(context.Background(), &diags, framework.NeedAEM) {
			return ""
		}
		return diags.Errors()[0].Summary() + ": " + diags.Errors()[0].Detail()
	}

	d, h := configure(creds.MsgVpnName, creds.Password)
	for range 3 {
		if text := errorText(d); text != "" {
			t.Fatalf("the right credentials failed: %s", text)
		}
	}
	if n := h.Stats().Requests; n != 1 {
		t.Errorf("SEMP requests of three plan checks = %d, want 1 per run", n)
	}

	d, _ = configure(creds.MsgVpnName, "wrong-password-given-by-mistake")
	text := errorText(d)
	for _, want := range []string{"Advanced Event Mesh SEMP API Credentials Refused", creds.Username, "advanced_event_mesh.password", "401"} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal does not say %q: %s", want, text)
		}
	}
	if n := strings.Count(strings.ToLower(text), "set `"); n != 1 {
		t.Errorf("the refusal gives its fix %d times, want one fix sentence: %s", n, text)
	}
	for _, secret := range []string{"wrong-password-given-by-mistake", creds.Password} {
		if strings.Contains(text, secret) {
			t.Errorf("the refusal shows a password: %s", text)
		}
	}

	d, _ = configure("no-such-vpn", creds.Password)
	if text := errorText(d); !strings.Contains(text, "Cannot Verify Advanced Event Mesh SEMP API Credentials") || !strings.Contains(text, "no-such-vpn") {
		t.Errorf("a Message VPN the broker lacks: %q", text)
	}

	if text := errorText(&framework.ProviderData{}); !strings.HasPrefix(text, "Advanced Event Mesh Not Configured: ") || !strings.Contains(text, framework.EnvAEMSEMPURL) {
		t.Errorf("without the connection: %q", text)
	}
}

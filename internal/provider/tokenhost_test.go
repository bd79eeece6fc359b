package provider_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// configure runs the provider's Configure with the emulator's Cloud Integration key and the
// given trusted_token_hosts, and returns its diagnostics.
func configure(t *testing.T, ciKey string, trusted []string) diag.Diagnostics {
	t.Helper()
	ctx := context.Background()
	p := provider.New("test")()
	var sr fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &sr)
	typ, ok := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("the provider schema is not an object")
	}
	str := func(s string) tftypes.Value {
		if s == "" {
			return tftypes.NewValue(tftypes.String, nil)
		}
		return tftypes.NewValue(tftypes.String, s)
	}
	ciType, ok := typ.AttributeTypes["cloud_integration"].(tftypes.Object)
	if !ok {
		t.Fatal("cloud_integration is not an object")
	}
	ci := map[string]tftypes.Value{}
	for name := range ciType.AttributeTypes {
		ci[name] = str("")
	}
	ci["service_key"] = str(ciKey)
	list := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)
	if trusted != nil {
		var vs []tftypes.Value
		for _, h := range trusted {
			vs = append(vs, str(h))
		}
		list = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, vs)
	}
	raw := tftypes.NewValue(typ, map[string]tftypes.Value{
		"event_mesh":              tftypes.NewValue(typ.AttributeTypes["event_mesh"], nil),
		"advanced_event_mesh":     tftypes.NewValue(typ.AttributeTypes["advanced_event_mesh"], nil),
		"cloud_integration":       tftypes.NewValue(ciType, ci),
		"max_retries":             tftypes.NewValue(tftypes.Number, nil),
		"request_timeout_seconds": tftypes.NewValue(tftypes.Number, nil),
		"trusted_token_hosts":     list,
	})
	var resp fwprovider.ConfigureResponse
	p.Configure(ctx, fwprovider.ConfigureRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: raw}}, &resp)
	return resp.Diagnostics
}

// A key whose token endpoint is on another host than the API, outside SAP BTP's domains,
// draws a warning naming both hosts; trusted_token_hosts silences it.
func TestConfigureWarnsOfForeignTokenHost(t *testing.T) {
	t.Setenv(framework.EnvEventMeshServiceKey, "")
	s := emulatortest.Start(t, emulator.Options{TokenHost: "127.0.0.2"})
	key := string(s.CloudIntegrationKey())

	diags := configure(t, key, nil)
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("diagnostics %v, want one warning", diags)
	}
	w := diags.Warnings()[0]
	if w.Summary() != "Unexpected Cloud Integration Token Host" || !strings.Contains(w.Detail(), `"127.0.0.2"`) ||
		!strings.Contains(w.Detail(), `"127.0.0.1"`) || !strings.Contains(w.Detail(), "trusted_token_hosts") {
		t.Fatalf("warning %q: %q", w.Summary(), w.Detail())
	}

	if diags := configure(t, key, []string{"127.0.0.2"}); diags.HasError() || diags.WarningsCount() != 0 {
		t.Fatalf("with the host trusted: %v, want no diagnostics", diags)
	}

	// The same emulator without a separate token host draws no warning.
	plain := emulatortest.Start(t, emulator.Options{})
	if diags := configure(t, string(plain.CloudIntegrationKey()), nil); diags.HasError() || diags.WarningsCount() != 0 {
		t.Fatalf("same host: %v, want no diagnostics", diags)
	}
}

// The token endpoint must be https unless it is a loopback host.
func TestConfigureRefusesPlainHTTPTokenEndpoint(t *testing.T) {
	t.Setenv(framework.EnvEventMeshServiceKey, "")
	key := `{"oauth":{"url":"https://tenant.it-cpi018.cfapps.eu10.hana.ondemand.com","tokenurl":"http://acme.authentication.eu10.hana.ondemand.com/oauth/token","clientid":"c","clientsecret":"s"}}`
	diags := configure(t, key, nil)
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "plain http") {
		t.Fatalf("diagnostics %v, want an error about plain http", diags)
	}
}

// The provider fetches its tokens from a token endpoint on another loopback address than the
// API, once that host is trusted.
func TestAccTokenHost_otherLoopbackAddress(t *testing.T) {
	srv := emulatortest.Start(t, emulator.Options{TokenHost: "127.0.0.2"})
	config := fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh          = { service_key = %q }
  trusted_token_hosts = ["127.0.0.2"]
}

resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/tokens/dmq"
}
`, string(srv.EventMeshKey()))
	parallelSteps(t, []resource.TestStep{{
		Config: config,
		Check: acctest.CheckEmulator(func() error {
			if _, ok := srv.Queue("acme/crm/prod/tokens/dmq"); !ok {
				return fmt.Errorf("the queue was not created")
			}
			if !strings.HasPrefix(srv.TokenURL(), "http://127.0.0.2:") || srv.Stats().TokensIssued == 0 {
				return fmt.Errorf("no token was issued by %s", srv.TokenURL())
			}
			return nil
		}),
	}})
}

package provider_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

func TestProvider_schemaValid(t *testing.T) {
	t.Parallel()
	p := provider.New("test")()
	srv := providerserver.NewProtocol6(p)()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Errorf("schema error: %s: %s", d.Summary, d.Detail)
		}
	}
	for _, name := range []string{"sapmessaging_queue", "sapmessaging_dead_message_queue", "sapmessaging_queue_subscription", "sapmessaging_amqp_sender", "sapmessaging_jms_sender"} {
		if _, ok := resp.ResourceSchemas[name]; !ok {
			t.Errorf("resource %s missing", name)
		}
	}
}

func TestAccProvider_configurationErrors(t *testing.T) {
	queue := `
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 5
  dead_message_queue   = "acme/crm/prod/orders/dmq"
}
`
	steps := []struct{ provider, want string }{
		{`event_mesh = { service_key = "{}" }`, `Invalid Event Mesh Service Key.*missing "management`},
		{`event_mesh = { service_key = "{\"management\": [{\"uri\": \"https://em.example\", \"oa2\": {\"clientid\": \"id\", \"tokenendpoint\": \"https://t.example/oauth/token\"}}]}" }`,
			`Invalid Event Mesh Service Key.*clientsecret`},
		{`event_mesh = { management_url = "https://em.example", token_url = "https://t.example/oauth/token", client_id = "id" }`,
			`Missing Event Mesh Setting.*client_secret`},
		{`event_mesh = { service_key = "{}", client_id = "id" }`, `Conflicting Event Mesh Settings`},
		{`event_mesh = { management_url = "http://em.example", token_url = "https://t.example/oauth/token", client_id = "id", client_secret = "s" }`,
			`Invalid Event Mesh Connection.*https`},
		{`cloud_integration = { service_key = "{\"oauth\": {}}" }`, `Invalid Cloud Integration Service Key.*missing`},
		{``, `Event Mesh Not Configured.*SAPMESSAGING_EVENT_MESH_SERVICE_KEY`},
		// Set but empty or blank: an error, not the environment variable.
		{`event_mesh = { service_key = "" }`, `Empty Event Mesh Service Key.*does not fall back`},
		{`event_mesh = { service_key = "  \n" }`, `Empty Event Mesh Service Key`},
		{`cloud_integration = { service_key = "" }`, `Empty Cloud Integration Service Key`},
		{`event_mesh = { management_url = "" }`, `Missing Event Mesh Setting`},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		ts = append(ts, resource.TestStep{
			Config:      "provider \"sapmessaging\" {\n" + s.provider + "\n}\n" + queue,
			ExpectError: acctest.Wrapped(s.want),
		})
	}
	// The environment must not configure the provider here, except for the steps that show that
	// an empty service key does not fall back to it.
	t.Setenv(framework.EnvEventMeshServiceKey, "")
	t.Setenv(framework.EnvCloudIntegrationServiceKey, "")
	env := acctest.NewTestEnv(t)
	for i := range ts {
		if strings.Contains(ts[i].Config, `service_key = "`) && !strings.Contains(ts[i].Config, `service_key = "{`) || strings.Contains(ts[i].Config, `management_url = ""`) {
			// A working connection in the environment, which must not be used.
			ts[i].PreConfig = func() {
				t.Setenv(framework.EnvEventMeshServiceKey, string(env.Srv.EventMeshKey()))
				t.Setenv(framework.EnvCloudIntegrationServiceKey, string(env.Srv.CloudIntegrationKey()))
			}
		}
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: ts})
}

// A service key that the environment names and that cannot be used, with no provider block: the
// provider's own error, on the resource that needs the service, is the only error. Reported by
// Configure, Terraform would put its generic "requires explicit configuration" error first.
func TestAccProvider_environmentKeyErrorComesFirst(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env := acctest.NewTestEnv(t)
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), `
terraform {
  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/orders/dmq"
}
`)
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	w.Creds = []string{framework.EnvEventMeshServiceKey + "=" + filepath.Join(dir, "keys", "event-mesh.jsn")}
	r := w.MustRun(1, "plan", "-input=false", "-no-color")
	if strings.Contains(r.Output, "requires explicit") || strings.Contains(r.Output, "Invalid provider configuration") {
		t.Errorf("the plan shows Terraform's generic provider configuration error:\n%s", r.Output)
	}
	if !acctest.Wrapped(`Error: Invalid Event Mesh Service Key`).MatchString(r.Output) || !acctest.Wrapped(`from SAPMESSAGING_EVENT_MESH_SERVICE_KEY cannot be used`).MatchString(r.Output) {
		t.Errorf("the plan does not show the provider's error for the key path:\n%s", r.Output)
	}
	if !strings.Contains(r.Output, `resource "sapmessaging_dead_message_queue" "dmq"`) {
		t.Errorf("the error is not reported on the resource that needs Event Mesh:\n%s", r.Output)
	}
}

func TestBacktickTolerant(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, text string
		match         bool
	}{
		{`Set force_destroy = true`, "Set `force_destroy = true`.", true},
		{`Set force_destroy = true`, "Set force_destroy = true.", true},
		{`(?s)Set max_ttl to \(7 days\)`, "Set `max_ttl` to (7 days)", true},
		{`Set max_ttl to`, "Set max_tt to", false},
		{`^warning: qos = 0.*lost$`, "warning: `qos = 0` is lost", true},
		{`dmq = "" names no queue`, "`dmq = \"\"` names no queue", true},
		{`queue q[0-9]+: 503`, "queue q15: 503", true},
		{`queue q[0-9]+: 503`, "queue qx: 503", false},
		{`name [^"]+ is`, "name `a b` is", true},
	} {
		if got := regexp.MustCompile(acctest.BacktickTolerant(tc.pattern)).MatchString(tc.text); got != tc.match {
			t.Errorf("backtickTolerant(%q) on %q: match %v, want %v", tc.pattern, tc.text, got, tc.match)
		}
	}
}

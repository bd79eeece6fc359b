package aem_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

func TestSolaceQueueImportID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id, vpn, want string
		ok            bool
	}{
		{"acme-prod/acme%2Faem%2Fprod%2Forders", "acme-prod", "acme/aem/prod/orders", true},
		{"acme-prod,acme%2Faem%2Fprod%2Forders", "acme-prod", "acme/aem/prod/orders", true},
		{"acme-prod/orders", "acme-prod", "orders", true},
		{"other/acme%2Forders", "acme-prod", "", false},            // another Message VPN
		{"acme-prod/acme/aem/prod/orders", "acme-prod", "", false}, // unescaped slashes: a plain name
		{"acme/aem/prod/orders", "acme-prod", "", false},
		{"acme-prod/%zz", "acme-prod", "", false},     // no valid escape
		{"acme-prod/a%2Ab", "acme-prod", "", false},   // a*b: no queue name
		{"acme-prod/", "acme-prod", "", false},        // empty name
		{"orders", "acme-prod", "", false},            // one part
		{"acme-prod/x/y/z", "acme-prod", "", false},   // four parts
		{"acme-prod/q%3Bx", "acme-prod", "", false},   // q;x
		{"acme-prod/q%20x", "acme-prod", "q x", true}, // a space is a queue name's character
		{"acme-prod/%2Fq", "acme-prod", "/q", true},   // as the broker accepts it
		{"acme-prod/acme%2Forders", "", "", false},    // no Message VPN known
		{"/acme%2Forders", "acme-prod", "", false},    // empty Message VPN
		{"acme-prod/acme%2Forders", "ACME-PROD", "", false},
	} {
		got, ok := tfaem.SolaceQueueImportID(tc.id, tc.vpn)
		if got != tc.want || ok != tc.ok {
			t.Errorf("solaceQueueImportID(%q, %q) = %q, %v; want %q, %v", tc.id, tc.vpn, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSolaceSubscriptionImportID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id, vpn, queue, topic string
		ok                    bool
	}{
		{"acme-prod/acme%2Forders/acme%2Forders%2F%3E", "acme-prod", "acme/orders", "acme/orders/>", true},
		{"acme-prod,acme%2Forders,acme%2Forders%2Fcreated", "acme-prod", "acme/orders", "acme/orders/created", true},
		{"other/acme%2Forders/acme%2Forders", "acme-prod", "", "", false},
		{"acme-prod/acme%2Forders", "acme-prod", "", "", false},
		{"acme-prod/acme%2Forders/acme/orders", "acme-prod", "", "", false}, // the topic's slashes unescaped
		{"acme-prod/acme%2Forders/a%2F%2Fb", "acme-prod", "", "", false},    // a//b: an empty level
		{"acme-prod/a%2Ab/t", "acme-prod", "", "", false},
	} {
		q, tp, ok := tfaem.SolaceSubscriptionImportID(tc.id, tc.vpn)
		if q != tc.queue || tp != tc.topic || ok != tc.ok {
			t.Errorf("solaceSubscriptionImportID(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.id, tc.vpn, q, tp, ok, tc.queue, tc.topic, tc.ok)
		}
	}
}

// TestSolaceQueueAttributesCovered: every attribute of the state fixture (solacebroker v1.3.0's schema) is either
// mapped to an attribute of sapmessaging_aem_queue or named as unmanaged, and every mapped attribute exists on
// both sides.
func TestSolaceQueueAttributesCovered(t *testing.T) {
	t.Parallel()
	srv := providerserver.NewProtocol6(provider.New("test")())()
	schemas, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	target := map[string]bool{}
	for _, a := range schemas.ResourceSchemas["sapmessaging_aem_queue"].Block.Attributes {
		target[a.Name] = true
	}
	source := map[string]bool{}
	for _, inst := range solaceFixtureInstances(t, "MSG_VPN") {
		if inst.typeName != tfaem.SolaceQueueType {
			continue
		}
		for k := range inst.attributes {
			source[k] = true
		}
	}
	for _, m := range tfaem.SolaceQueueAttributes {
		if !source[m[0]] {
			t.Errorf("the mapping names %q, which solacebroker_msg_vpn_queue does not have", m[0])
		}
		if !target[m[1]] {
			t.Errorf("the mapping names %q, which sapmessaging_aem_queue does not have", m[1])
		}
		delete(source, m[0])
	}
	guide, err := os.ReadFile(filepath.Join("..", "..", "..", "templates", "guides", "migrating-from-solacebroker.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	for k := range source {
		if !strings.Contains(string(guide), "`"+k+"`") {
			t.Errorf("solacebroker_msg_vpn_queue's %q is neither mapped nor named among the unmanaged attributes of the guide Migrating from solacebroker", k)
		}
	}
	for _, m := range tfaem.SolaceQueueAttributes {
		if !strings.Contains(string(guide), "| `"+m[0]+"` | `"+m[1]+"` |") {
			t.Errorf("the guide's table of attribute names lacks the row | `%s` | `%s` |", m[0], m[1])
		}
	}
}

type solaceFixtureInstance struct {
	typeName, name string
	schemaVersion  int64
	raw            []byte
	attributes     map[string]json.RawMessage
}

// solaceFixtureInstances reads testdata/solacebroker/state-v1.3.0.json with vpn for MSG_VPN.
func solaceFixtureInstances(t *testing.T, vpn string) []solaceFixtureInstance {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "solacebroker", "state-v1.3.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), "MSG_VPN", vpn))
	var st struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				SchemaVersion int64           `json:"schema_version"`
				Attributes    json.RawMessage `json:"attributes"`
			}
		}
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	var out []solaceFixtureInstance
	for _, r := range st.Resources {
		for _, i := range r.Instances {
			in := solaceFixtureInstance{typeName: r.Type, name: r.Name, schemaVersion: i.SchemaVersion, raw: i.Attributes}
			if err := json.Unmarshal(i.Attributes, &in.attributes); err != nil {
				t.Fatal(err)
			}
			out = append(out, in)
		}
	}
	return out
}

// moveFixture moves the fixture's instance name into target through the provider's protocol server.
func moveFixture(t *testing.T, name, target string) (*tfprotov6.MoveResourceStateResponse, map[string]tftypes.Value) {
	t.Helper()
	var inst *solaceFixtureInstance
	for _, i := range solaceFixtureInstances(t, "acme-prod") {
		if i.name == name {
			inst = &i
		}
	}
	if inst == nil {
		t.Fatalf("no instance %q in the fixture", name)
	}
	ctx := context.Background()
	srv := providerserver.NewProtocol6(provider.New("test")())()
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.MoveResourceState(ctx, &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: "registry.terraform.io/solaceproducts/solacebroker",
		SourceTypeName:        inst.typeName,
		SourceSchemaVersion:   inst.schemaVersion,
		SourceState:           &tfprotov6.RawState{JSON: inst.raw},
		TargetTypeName:        target,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.TargetState == nil {
		return resp, nil
	}
	v, err := resp.TargetState.Unmarshal(schemas.ResourceSchemas[target].ValueType())
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	return resp, attrs
}

// expectMoved moves the fixture's resource name into the resource type target, which must succeed with the
// attributes want (the others are not checked), and returns the move's response.
func expectMoved(t *testing.T, name, target string, want map[string]any) *tfprotov6.MoveResourceStateResponse {
	t.Helper()
	resp, attrs := moveFixture(t, name, target)
	if diagsHaveError(resp.Diagnostics) {
		t.Fatalf("the move failed: %s", protoDiagText(resp.Diagnostics))
	}
	for k, w := range want {
		if got := acctest.GoValue(t, attrs[k]); got != w {
			t.Errorf("%s = %#v, want %#v", k, got, w)
		}
	}
	return resp
}

func TestSolaceMoveQueue(t *testing.T) {
	t.Parallel()
	resp := expectMoved(t, "orders", "sapmessaging_aem_queue", map[string]any{
		"id": "acme/aem/prod/orders", "name": "acme/aem/prod/orders", "msg_vpn_name": "acme-prod",
		"dead_message_queue": "acme/aem/prod/orders/dmq", "max_redelivery_count": int64(5), "delivery_count_enabled": true,
		"ingress_enabled": true, "egress_enabled": true, "redelivery_delay_enabled": true,
		// null in solacebroker's state: the broker's defaults
		"redelivery_enabled": true, "respect_ttl": false, "max_ttl": int64(0), "access_type": "exclusive",
		"redelivery_delay_initial_interval": int64(1000), "redelivery_delay_multiplier": int64(200),
		"max_msg_spool_usage": int64(5000), "reject_msg_to_sender_on_discard_behavior": "when-queue-enabled",
		// as an import sets them
		"force_destroy": false, "allow_unlimited_redelivery": false,
		// Computed from the broker's queue list (whether the dead message queues form a cycle), which a move does not
		// read: the refresh that follows the move computes them.
		"poison_message_deliveries": nil, "time_to_dead_letter": nil,
		// Whether the dead message queue exists and takes messages: the refresh that follows sets it as an import does.
		"allow_missing_dead_message_queue": nil,
	})
	var warned bool
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == "Settings Left Unmanaged" {
			warned = strings.Contains(d.Detail, `owner = "acme-orders"`) && strings.Contains(d.Detail, `permission = "consume"`) &&
				!strings.Contains(d.Detail, "max_bind_count")
		}
	}
	if !warned {
		t.Errorf("no warning naming owner and permission (and only the attributes that hold a value): %v", resp.Diagnostics)
	}
}

func TestSolaceMoveDeadMessageQueue(t *testing.T) {
	t.Parallel()
	resp := expectMoved(t, "orders_dmq", "sapmessaging_aem_dead_message_queue", map[string]any{
		"name": "acme/aem/prod/orders/dmq", "respect_ttl": true, "max_ttl": int64(604800), "ingress_enabled": true,
		"dead_message_queue": "#DEAD_MSG_QUEUE", "max_redelivery_count": int64(0), "allow_no_ttl": false,
	})
	// The unmanaged settings readable: each threshold attribute that holds a value as name.attribute = value,
	// no nulls and no JSON; and the object and the resource types named.
	var named bool
	for _, d := range resp.Diagnostics {
		if d.Summary != "Settings Left Unmanaged" {
			continue
		}
		named = true
		for _, want := range []string{"event_msg_spool_usage_threshold.set_percent = 80", "event_msg_spool_usage_threshold.clear_percent = 50",
			`the queue "acme/aem/prod/orders/dmq" (solacebroker_msg_vpn_queue, moved into sapmessaging_aem_dead_message_queue)`} {
			if !strings.Contains(d.Detail, want) {
				t.Errorf("the warning does not say %q:\n%s", want, d.Detail)
			}
		}
		for _, not := range []string{"null", "{", "set_value"} {
			if strings.Contains(d.Detail, not) {
				t.Errorf("the warning holds %q:\n%s", not, d.Detail)
			}
		}
	}
	if !named {
		t.Errorf("the unmanaged event threshold is not named: %v", resp.Diagnostics)
	}
}

func TestSolaceMoveSubscription(t *testing.T) {
	t.Parallel()
	expectMoved(t, "orders_created", "sapmessaging_aem_queue_subscription", map[string]any{
		"id": "acme/aem/prod/orders;acme/orders/created/>", "queue_name": "acme/aem/prod/orders",
		"topic": "acme/orders/created/>", "msg_vpn_name": "acme-prod",
	})
}

func TestSolaceMoveRefusesOthers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := providerserver.NewProtocol6(provider.New("test")())()
	for _, tc := range []struct{ provider, source, target, state, want string }{
		// another provider's queue: no mover applies
		{"registry.terraform.io/hashicorp/null", "solacebroker_msg_vpn_queue", "sapmessaging_aem_queue", `{"queue_name":"q","msg_vpn_name":"v"}`, "Unable to Move Resource State"},
		// another resource type of Solace's provider
		{"registry.terraform.io/solaceproducts/solacebroker", "solacebroker_msg_vpn_acl_profile", "sapmessaging_aem_queue", `{"msg_vpn_name":"v"}`, "Unable to Move Resource State"},
		// a subscription moved into a queue
		{"registry.terraform.io/solaceproducts/solacebroker", "solacebroker_msg_vpn_queue_subscription", "sapmessaging_aem_queue", `{"queue_name":"q","msg_vpn_name":"v","subscription_topic":"t"}`, "Unable to Move Resource State"},
		// no queue name
		{"registry.opentofu.org/solaceproducts/solacebroker", "solacebroker_msg_vpn_queue", "sapmessaging_aem_queue", `{"queue_name":null,"msg_vpn_name":"v"}`, "holds no `queue_name`"},
		// a name the broker refuses
		{"registry.terraform.io/solaceproducts/solacebroker", "solacebroker_msg_vpn_queue", "sapmessaging_aem_dead_message_queue", `{"queue_name":"a*b","msg_vpn_name":"v"}`, "no queue name"},
		// not a state solacebroker writes
		{"registry.terraform.io/solaceproducts/solacebroker", "solacebroker_msg_vpn_queue", "sapmessaging_aem_queue", `{"queue_name":"q","msg_vpn_name":"v","max_ttl":"soon"}`, "cannot be read"},
	} {
		resp, err := srv.MoveResourceState(ctx, &tfprotov6.MoveResourceStateRequest{
			SourceProviderAddress: tc.provider, SourceTypeName: tc.source, SourceSchemaVersion: 1,
			SourceState: &tfprotov6.RawState{JSON: []byte(tc.state)}, TargetTypeName: tc.target,
		})
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, d := range resp.Diagnostics {
			found = found || d.Severity == tfprotov6.DiagnosticSeverityError && strings.Contains(d.Summary+" "+d.Detail, tc.want)
		}
		if !found {
			t.Errorf("%s %s -> %s: want an error with %q, got %v", tc.provider, tc.source, tc.target, tc.want, resp.Diagnostics)
		}
	}
}

func diagsHaveError(ds []*tfprotov6.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

func protoDiagText(ds []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

// solaceMoveConfig adopts the fixture's three objects with `moved` blocks.
var solaceMoveConfig = acctest.RequiredProviders + `
provider "sapmessaging" {}

resource "sapmessaging_aem_dead_message_queue" "orders_dmq" {
  name            = "acme/aem/prod/orders/dmq"
  respect_ttl     = true
  max_ttl         = 604800
  ingress_enabled = true
  egress_enabled  = false
}

resource "sapmessaging_aem_queue" "orders" {
  name                     = "acme/aem/prod/orders"
  max_redelivery_count     = 5
  dead_message_queue       = sapmessaging_aem_dead_message_queue.orders_dmq.name
  redelivery_delay_enabled = true
  delivery_count_enabled   = true
  ingress_enabled          = true
  egress_enabled           = true
}

resource "sapmessaging_aem_queue_subscription" "orders_created" {
  queue_name = sapmessaging_aem_queue.orders.name
  topic      = "acme/orders/created/>"
}
` + solaceMoved(
	"solacebroker_msg_vpn_queue.orders_dmq", "sapmessaging_aem_dead_message_queue.orders_dmq",
	"solacebroker_msg_vpn_queue.orders", "sapmessaging_aem_queue.orders",
	"solacebroker_msg_vpn_queue_subscription.orders_created", "sapmessaging_aem_queue_subscription.orders_created")

// solaceMoved is a moved block for each pair of addresses of moves: from, to, from, to...
func solaceMoved(moves ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(moves); i += 2 {
		fmt.Fprintf(&b, "\nmoved {\n  from = %s\n  to   = %s\n}\n", moves[i], moves[i+1])
	}
	return b.String()
}

// solaceMoveWorkspace starts a test of the move from Solace's provider: an emulator with the sample content, and
// a workspace that holds files and runs this provider and solacebroker from local binaries; it skips without a
// Terraform that moves state across providers (1.8 or later) or without a solacebroker binary.
func solaceMoveWorkspace(t *testing.T, files map[string]string) (*acctest.TestEnv, *acctest.CLIWorkspace) {
	t.Helper()
	tf := acctest.NewerCLI(t, 8, "cannot move state across providers (Terraform 1.8 or later can)")
	solace := acctest.SolacebrokerDir(t)
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	w := acctest.NewWorkspace(t, tf, env, files)
	w.CliConfig = writeSolaceCLIConfig(t, solace, w.Plugins())
	w.WithAEM(env)
	return env, w
}

// solaceMoveApplies plans the move, which must show every string of shows, applies it, and checks that the next
// plan is empty.
func solaceMoveApplies(t *testing.T, w *acctest.CLIWorkspace, shows ...string) {
	t.Helper()
	plan := w.MustRun(0, "plan", "-no-color", "-input=false")
	acctest.ExpectContains(t, "the plan", plan.Output, shows...)
	w.MustRun(0, "apply", "-no-color", "-input=false", "-auto-approve")
	if after := w.MustRun(0, "plan", "-no-color", "-input=false", "-detailed-exitcode"); !strings.Contains(after.Output, "No changes.") {
		t.Errorf("the plan after the move is not empty:\n%s", after.Output)
	}
}

// The move as a user runs it: the state solacebroker v1.3.0 wrote (the fixture), a configuration with `moved`
// blocks, terraform plan shows three moves and nothing to add, change or destroy, the apply records them, and
// the next plan is empty; the broker's queues are untouched.
func TestAccSolaceMove_stateFixture(t *testing.T) {
	env, w := solaceMoveWorkspace(t, map[string]string{"main.tf": solaceMoveConfig})
	c := env.AEM(t)
	if err := c.CreateSubscription(t.Context(), "acme/aem/prod/orders", "acme/orders/created/>"); err != nil {
		t.Fatal(err)
	}
	fixture, err := os.ReadFile(filepath.Join("testdata", "solacebroker", "state-v1.3.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteFile("terraform.tfstate", strings.ReplaceAll(string(fixture), "MSG_VPN", env.Srv.AdvancedEventMeshCredentials().MsgVpnName))
	queues := []string{"acme/aem/prod/orders", "acme/aem/prod/orders/dmq"}
	held := func() []aem.QueueSettings {
		out := make([]aem.QueueSettings, len(queues))
		for i, n := range queues {
			q, err := c.GetQueue(t.Context(), n)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = q.QueueSettings
		}
		return out
	}
	before := held()

	solaceMoveApplies(t, w,
		"solacebroker_msg_vpn_queue.orders has moved to sapmessaging_aem_queue.orders",
		"solacebroker_msg_vpn_queue.orders_dmq has moved to sapmessaging_aem_dead_message_queue.orders_dmq",
		"solacebroker_msg_vpn_queue_subscription.orders_created has moved to sapmessaging_aem_queue_subscription.orders_created",
		"Plan: 0 to add, 0 to change, 0 to destroy.",
		"Settings Left Unmanaged")
	st := w.MustRun(0, "state", "list")
	acctest.ExpectContains(t, "the state", st.Output,
		"sapmessaging_aem_queue.orders", "sapmessaging_aem_dead_message_queue.orders_dmq", "sapmessaging_aem_queue_subscription.orders_created")
	if strings.Contains(st.Output, "solacebroker_") {
		t.Errorf("the state still holds solacebroker resources:\n%s", st.Output)
	}
	if got := held(); !reflect.DeepEqual(got, before) {
		t.Errorf("the move changed the queues on the broker:\nbefore %+v\nafter  %+v", before, got)
	}
}

// writeSolaceCLIConfig writes a CLI configuration with both providers from local binaries (dev_overrides).
func writeSolaceCLIConfig(t *testing.T, solace, plugins string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cli.tfrc")
	acctest.WriteFile(t, p, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/sapmessaging/sapmessaging"      = %q
    "registry.terraform.io/solaceproducts/solacebroker"    = %q
  }
  direct {}
}
`, plugins, solace))
	return p
}

// The move end to end, as a team that runs Solace's provider does it: solacebroker v1.3.0 (its real binary,
// where one is built) creates a queue with an owner and a subscription on the emulator's broker; the
// configuration is then rewritten for this provider with `moved` blocks; the plan shows the moves and nothing
// else, the apply records them, the next plan is empty and the broker still holds the owner.
func TestAccSolaceMove_endToEnd(t *testing.T) {
	env, w := solaceMoveWorkspace(t, nil)
	creds := env.Srv.AdvancedEventMeshCredentials()
	w.WriteFile("main.tf", fmt.Sprintf(`
terraform {
  required_providers {
    solacebroker = { source = "solaceproducts/solacebroker" }
  }
}

provider "solacebroker" {
  url                  = %q
  username             = %q
  password             = %q
}

resource "solacebroker_msg_vpn_queue" "invoices" {
  msg_vpn_name             = %q
  queue_name               = "acme/aem/prod/invoices"
  max_redelivery_count     = 4
  dead_msg_queue           = "acme/aem/prod/orders/dmq"
  respect_ttl_enabled      = true
  max_ttl                  = 86400
  redelivery_delay_enabled = true
  ingress_enabled          = true
  egress_enabled           = true
  owner                    = "acme-invoicing"
}

resource "solacebroker_msg_vpn_queue_subscription" "invoices_created" {
  msg_vpn_name       = %q
  queue_name         = solacebroker_msg_vpn_queue.invoices.queue_name
  subscription_topic = "acme/invoices/created/>"
}

# The broker's defaults: retry for ever, into #DEAD_MSG_QUEUE, which does not exist.
resource "solacebroker_msg_vpn_queue" "legacy" {
  msg_vpn_name    = %q
  queue_name      = "acme/aem/prod/legacy"
  ingress_enabled = true
  egress_enabled  = true
}
`, creds.SEMPURL, creds.Username, creds.Password, creds.MsgVpnName, creds.MsgVpnName, creds.MsgVpnName))
	w.MustRun(0, "apply", "-no-color", "-input=false", "-auto-approve")

	w.WriteFile("main.tf", acctest.RequiredProviders+`
provider "sapmessaging" {}

resource "sapmessaging_aem_queue" "invoices" {
  name                     = "acme/aem/prod/invoices"
  max_redelivery_count     = 4
  dead_message_queue       = "acme/aem/prod/orders/dmq"
  respect_ttl              = true
  max_ttl                  = 86400
  redelivery_delay_enabled = true
  ingress_enabled          = true
  egress_enabled           = true
}

resource "sapmessaging_aem_queue_subscription" "invoices_created" {
  queue_name = sapmessaging_aem_queue.invoices.name
  topic      = "acme/invoices/created/>"
}
`+solaceMoved(
		"solacebroker_msg_vpn_queue.invoices", "sapmessaging_aem_queue.invoices",
		"solacebroker_msg_vpn_queue_subscription.invoices_created", "sapmessaging_aem_queue_subscription.invoices_created")+`
# As an import and terraform query write it: both adoption attributes set.
resource "sapmessaging_aem_queue" "legacy" {
  name                             = "acme/aem/prod/legacy"
  ingress_enabled                  = true
  egress_enabled                   = true
  allow_unlimited_redelivery       = true
  allow_missing_dead_message_queue = true
}
`+solaceMoved("solacebroker_msg_vpn_queue.legacy", "sapmessaging_aem_queue.legacy"))
	solaceMoveApplies(t, w,
		"solacebroker_msg_vpn_queue.invoices has moved to sapmessaging_aem_queue.invoices",
		"solacebroker_msg_vpn_queue_subscription.invoices_created has moved to sapmessaging_aem_queue_subscription.invoices_created",
		"solacebroker_msg_vpn_queue.legacy has moved to sapmessaging_aem_queue.legacy",
		"Plan: 0 to add, 0 to change, 0 to destroy.",
		`owner = "acme-invoicing"`,
		"Unlimited Redelivery Allowed", "Missing Dead Message Queue Allowed")
	q, err := env.AEM(t).GetQueue(t.Context(), "acme/aem/prod/invoices")
	if err != nil {
		t.Fatal(err)
	}
	if q.MaxRedeliveryCount == nil || *q.MaxRedeliveryCount != 4 || q.IngressEnabled == nil || !*q.IngressEnabled {
		t.Errorf("the broker's queue changed: %+v", q.QueueSettings)
	}
}

// Solace's import IDs beside this provider's: a queue by `<msg_vpn>/<url-encoded name>`, a subscription by
// `<msg_vpn>/<queue>/<topic>`; an ID that names no queue of the broker, or fits no form, fails with the forms
// that work (before: "Cannot import non-existent remote object").
func TestAccSolaceImportIDs(t *testing.T) {
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	if err := env.AEM(t).CreateSubscription(t.Context(), "acme/aem/prod/orders", "acme/orders/created/>"); err != nil {
		t.Fatal(err)
	}
	vpn := env.Srv.AdvancedEventMeshCredentials().MsgVpnName
	// A queue literally named "<vpn>/amb" and a queue "amb": the ID "<vpn>/amb" fits both forms.
	for _, name := range []string{vpn + "/amb", "amb"} {
		if _, err := env.AEM(t).CreateQueue(t.Context(), aem.Queue{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	cfg := env.AEMConfig(`
resource "sapmessaging_aem_queue" "orders" {
  name                     = "acme/aem/prod/orders"
  max_redelivery_count     = 5
  dead_message_queue       = "acme/aem/prod/orders/dmq"
  redelivery_delay_enabled = true
  delivery_count_enabled   = true
  ingress_enabled          = true
  egress_enabled           = true
}

resource "sapmessaging_aem_queue_subscription" "created" {
  queue_name = "acme/aem/prod/orders"
  topic      = "acme/orders/created/>"
}
`)
	forms := regexp.MustCompile(`Solace's\s+form\s+` + regexp.QuoteMeta(vpn) + `/<url-encoded\s+queue\s+name>`)
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue.orders", ImportState: true,
			ImportStateId: vpn + "/acme%2Faem%2Fprod%2Forders",
			ImportStateCheck: func(s []*terraform.InstanceState) error {
				if len(s) != 1 || s[0].Attributes["name"] != "acme/aem/prod/orders" || s[0].Attributes["max_redelivery_count"] != "5" ||
					s[0].Attributes["msg_vpn_name"] != vpn {
					return fmt.Errorf("imported %v", s)
				}
				return nil
			},
		},
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue_subscription.created", ImportState: true,
			ImportStateId: vpn + "/acme%2Faem%2Fprod%2Forders/acme%2Forders%2Fcreated%2F%3E",
			ImportStateCheck: func(s []*terraform.InstanceState) error {
				if len(s) != 1 || s[0].Attributes["id"] != "acme/aem/prod/orders;acme/orders/created/>" || s[0].Attributes["msg_vpn_name"] != vpn {
					return fmt.Errorf("imported %v", s)
				}
				return nil
			},
		},
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue.orders", ImportState: true,
			ImportStateId: vpn + "/acme%2Faem%2Fprod%2Fnothing",
			ExpectError:   regexp.MustCompile(`(?s)Queue Not Found.*acme/aem/prod/nothing.*` + forms.String()),
		},
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue.orders", ImportState: true,
			ImportStateId: "acme/aem/prod/a*b",
			ExpectError:   regexp.MustCompile(`(?s)Invalid Import ID.*` + forms.String()),
		},
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue_subscription.created", ImportState: true,
			ImportStateId: "acme/aem/prod/orders",
			ExpectError:   regexp.MustCompile(`(?s)Invalid Import ID.*QUEUE;TOPIC.*Solace's\s+form`),
		},
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue.orders", ImportState: true,
			ImportStateId: "other-vpn/acme%2Faem%2Fprod%2Forders",
			ExpectError: acctest.Wrapped(`Object of Another Message VPN.*names the Message VPN "other-vpn".*connects to the Message VPN "` +
				regexp.QuoteMeta(vpn) + `".*` + regexp.QuoteMeta(vpn+"/acme%2Faem%2Fprod%2Forders")),
		},
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue_subscription.created", ImportState: true,
			ImportStateId: "other-vpn/acme%2Faem%2Fprod%2Forders/acme%2Forders%2Fcreated%2F%3E",
			ExpectError: acctest.Wrapped(`Object of Another Message VPN.*names the Message VPN "other-vpn".*connects to the Message VPN "` +
				regexp.QuoteMeta(vpn) + `"`),
		},
		{
			Config: cfg, ResourceName: "sapmessaging_aem_queue.orders", ImportState: true,
			ImportStateId: vpn + "/amb",
			ExpectError:   acctest.Wrapped(`Ambiguous Import ID.*the queue named "` + regexp.QuoteMeta(vpn) + `/amb" itself.*the queue "amb"`),
		},
	})
}

// A subscription recorded before its identity held msg_vpn_name (identity version 0, state without the
// attribute) plans no change: the identity is upgraded with the configuration's Message VPN, and the refresh
// fills the state.
func TestAccAEMQueueSubscription_identityUpgrade(t *testing.T) {
	tf := acctest.NewerCLI(t, 12, "keeps no resource identity (Terraform 1.12 or later does)")
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	if err := env.AEM(t).CreateSubscription(t.Context(), "acme/aem/prod/orders", "acme/orders/created/>"); err != nil {
		t.Fatal(err)
	}
	creds := env.Srv.AdvancedEventMeshCredentials()
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"terraform.tfstate": `{
  "version": 4,
  "terraform_version": "1.14.3",
  "serial": 1,
  "lineage": "0c1f6a52-7d0a-4f44-9b5e-0d7a5c3e9a01",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "sapmessaging_aem_queue_subscription",
      "name": "created",
      "provider": "provider[\"registry.terraform.io/sapmessaging/sapmessaging\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "id": "acme/aem/prod/orders;acme/orders/created/>",
            "queue_name": "acme/aem/prod/orders",
            "timeouts": null,
            "topic": "acme/orders/created/>"
          },
          "sensitive_attributes": [],
          "identity_schema_version": 0,
          "identity": {
            "queue_name": "acme/aem/prod/orders",
            "topic": "acme/orders/created/>"
          }
        }
      ]
    }
  ],
  "check_results": null
}
`, "main.tf": acctest.RequiredProviders + `
provider "sapmessaging" {}

resource "sapmessaging_aem_queue_subscription" "created" {
  queue_name = "acme/aem/prod/orders"
  topic      = "acme/orders/created/>"
}
`})
	w.WithAEM(env)
	plan := w.MustRun(0, "plan", "-no-color", "-input=false", "-detailed-exitcode")
	if !strings.Contains(plan.Output, "No changes.") {
		t.Errorf("the plan of a subscription recorded before msg_vpn_name is not empty:\n%s", plan.Output)
	}
	w.MustRun(0, "apply", "-no-color", "-input=false", "-auto-approve", "-refresh-only")
	st := w.MustRun(0, "state", "show", "-no-color", "sapmessaging_aem_queue_subscription.created")
	if !strings.Contains(st.Output, `msg_vpn_name = "`+creds.MsgVpnName+`"`) {
		t.Errorf("the refresh did not record msg_vpn_name:\n%s", st.Output)
	}
}

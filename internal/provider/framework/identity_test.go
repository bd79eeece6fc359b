package framework_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/integration"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// identityQueuesHCL is a queue (acctest.TestQueue) with its dead message queue and a subscription.
var identityQueuesHCL = acctest.QueueHCL(4) + `
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = sapmessaging_queue.orders.name
  topic_pattern = "acme/crm/prod/ce/ident/*"
}
`

// identityFlowsHCL is an AMQP sender picked by channel, a JMS sender without one, and a deployment.
const identityFlowsHCL = `
resource "sapmessaging_amqp_sender" "a" {
  iflow_id              = "IdentTwoSenders"
  channel               = "Returns"
  max_number_of_retries = 1
  deploy                = false # as terraform query writes it: an import by identity reads deploy = false
}

resource "sapmessaging_jms_sender" "j" {
  iflow_id       = "JmsUnguarded"
  retry_interval = 2
  deploy         = false
}

resource "sapmessaging_iflow_deployment" "d" {
  iflow_id = "IdentDeployed"
}
`

// identityChecks are the identities identityQueuesHCL and identityFlowsHCL make.
var (
	queueIdentityChecks = []statecheck.StateCheck{
		statecheck.ExpectIdentity("sapmessaging_queue.orders", map[string]knownvalue.Check{"name": knownvalue.StringExact(acctest.TestQueue)}),
		statecheck.ExpectIdentityValueMatchesState("sapmessaging_queue.orders", tfjsonpath.New("name")),
		statecheck.ExpectIdentity("sapmessaging_dead_message_queue.dmq", map[string]knownvalue.Check{"name": knownvalue.StringExact(acctest.TestQueue + "/dmq")}),
		statecheck.ExpectIdentity("sapmessaging_queue_subscription.s", map[string]knownvalue.Check{
			"queue_name":    knownvalue.StringExact(acctest.TestQueue),
			"topic_pattern": knownvalue.StringExact("acme/crm/prod/ce/ident/*"),
		}),
		statecheck.ExpectIdentityValueMatchesState("sapmessaging_queue_subscription.s", tfjsonpath.New("topic_pattern")),
	}
	flowIdentityChecks = []statecheck.StateCheck{
		statecheck.ExpectIdentity("sapmessaging_amqp_sender.a", map[string]knownvalue.Check{
			"iflow_id": knownvalue.StringExact("IdentTwoSenders"),
			"channel":  knownvalue.StringExact("Returns"),
		}),
		statecheck.ExpectIdentity("sapmessaging_jms_sender.j", map[string]knownvalue.Check{
			"iflow_id": knownvalue.StringExact(acctest.JMSUnguardedFlow),
			"channel":  knownvalue.Null(),
		}),
		statecheck.ExpectIdentityValueMatchesState("sapmessaging_jms_sender.j", tfjsonpath.New("iflow_id")),
		statecheck.ExpectIdentity("sapmessaging_iflow_deployment.d", map[string]knownvalue.Check{"iflow_id": knownvalue.StringExact("IdentDeployed")}),
	}
)

// Every resource has an identity made of the parts of its import ID, and import blocks can
// name an object by it.
func TestAccIdentity_queues(t *testing.T) {
	identityImports(t, acctest.NewTestEnv(t), identityQueuesHCL, queueIdentityChecks,
		"sapmessaging_queue.orders", "sapmessaging_dead_message_queue.dmq", "sapmessaging_queue_subscription.s")
}

func TestAccIdentity_flows(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddIdentityFlows(t)
	identityImports(t, env, identityFlowsHCL, flowIdentityChecks,
		"sapmessaging_amqp_sender.a", "sapmessaging_jms_sender.j", "sapmessaging_iflow_deployment.d")
}

// identityImports applies hcl, checks the identities in the state, and imports each of addrs by
// its identity.
func identityImports(t *testing.T, env *acctest.TestEnv, hcl string, checks []statecheck.StateCheck, addrs ...string) {
	t.Helper()
	config := env.Config(hcl)
	steps := []acc.TestStep{{Config: config, ConfigStateChecks: checks}}
	for _, addr := range addrs {
		steps = append(steps, acctest.ImportByIdentity(config, addr))
	}
	identityTest(t, steps)
}

// identityTest runs steps with a CLI that stores identities (Terraform 1.12 or later), beside the
// other parallel tests.
func identityTest(t *testing.T, steps []acc.TestStep) {
	t.Helper()
	acc.ParallelTest(t, acc.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// An import block whose identity has an empty part is refused with the form the identity takes;
// one that lacks a required part Terraform refuses itself (the provider refuses it too when a
// client lets it through: TestResourceIdentity).
func TestAccIdentity_invalidImport(t *testing.T) {
	env := acctest.NewTestEnv(t)
	cases := []struct{ name, hcl, want string }{
		{"empty queue name", `
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/ident"
  max_redelivery_count = 4
}
import {
  to       = sapmessaging_queue.q
  identity = { name = "" }
}`, `Invalid Import Identity.*name is empty.*identity = { name = "acme/crm/prod/orders" }`},
		{"empty topic", `
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = "acme/crm/prod/ident"
  topic_pattern = "acme/crm/prod/ce/ident/*"
}
import {
  to       = sapmessaging_queue_subscription.s
  identity = { queue_name = "acme/crm/prod/ident", topic_pattern = " " }
}`, `Invalid Import Identity.*topic_pattern is empty.*queue_name = "acme/crm/prod/orders", topic_pattern =`},
		{"missing topic", `
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = "acme/crm/prod/ident"
  topic_pattern = "acme/crm/prod/ce/ident/*"
}
import {
  to       = sapmessaging_queue_subscription.s
  identity = { queue_name = "acme/crm/prod/ident" }
}`, `attribute "topic_pattern" is required`},
		{"empty channel", `
resource "sapmessaging_amqp_sender" "a" {
  iflow_id              = "IdentTwoSenders"
  max_number_of_retries = 1
}
import {
  to       = sapmessaging_amqp_sender.a
  identity = { iflow_id = "IdentTwoSenders", channel = "" }
}`, `Invalid Import Identity.*channel is empty.*channel only when the resource sets it`},
		{"empty flow", `
resource "sapmessaging_iflow_deployment" "d" {
  iflow_id = "IdentDeployed"
}
import {
  to       = sapmessaging_iflow_deployment.d
  identity = { iflow_id = "" }
}`, `Invalid Import Identity.*iflow_id is empty.*identity = { iflow_id = "Orders_Inbound" }`},
	}
	steps := make([]acc.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, acc.TestStep{Config: env.Config(c.hcl), PlanOnly: true, ExpectError: acctest.Wrapped(regexpQuote(c.want))})
	}
	identityTest(t, steps)
}

// regexpQuote quotes the braces of an identity block, keeping the .* of a pattern.
func regexpQuote(pattern string) string {
	return strings.NewReplacer("{", `\{`, "}", `\}`, "*\"", `\*"`).Replace(pattern)
}

// withoutIdentity is the provider as released before its resources had identities: the same
// resources, with no identity schemas and no identity in any answer. State it writes is state
// of that release.
type withoutIdentity struct{ tfprotov6.ProviderServer }

func (s withoutIdentity) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (s withoutIdentity) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (s withoutIdentity) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		resp.PlannedIdentity = nil
	}
	return resp, err
}

func (s withoutIdentity) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (s withoutIdentity) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	resp, err := s.ProviderServer.ImportResourceState(ctx, req)
	if resp != nil {
		for _, r := range resp.ImportedResources {
			r.Identity = nil
		}
	}
	return resp, err
}

// previousRelease runs the provider as withoutIdentity.
var previousRelease = map[string]func() (tfprotov6.ProviderServer, error){
	"sapmessaging": func() (tfprotov6.ProviderServer, error) {
		s, err := providerserver.NewProtocol6WithError(provider.NewWithHTTPClient("test", acctest.RecordingHTTPClient)())()
		return withoutIdentity{s}, err
	},
}

// State written before resources had identities upgrades without an error: the first refresh
// gives every resource its identity, and the plan is empty.
func TestAccIdentity_upgrade(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddIdentityFlows(t)
	config := env.Config(identityQueuesHCL + identityFlowsHCL)
	acc.ParallelTest(t, acc.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []acc.TestStep{
			{
				ProtoV6ProviderFactories: previousRelease,
				Config:                   config,
				ConfigStateChecks: []statecheck.StateCheck{
					// The state has no identity: the check of one fails on the missing identity.
					expectNoIdentity("sapmessaging_queue.orders"),
					expectNoIdentity("sapmessaging_amqp_sender.a"),
				},
			},
			{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Config:                   config,
				ConfigPlanChecks:         acc.ConfigPlanChecks{PreApply: acctest.ExpectEmptyPlan()},
				ConfigStateChecks:        append(append([]statecheck.StateCheck{}, queueIdentityChecks...), flowIdentityChecks...),
			},
		},
	})
}

// State written before resources had identities, of objects deleted out of band after the
// upgrade: the refresh removes the queues and the subscription (and plans them again) and keeps
// the senders and the deployment of the deleted flows with a warning, without the framework's
// "Missing Resource Identity After Read". This holds for every CLI: the framework asks for an
// identity after each read whether the CLI stores it or not.
func TestAccIdentity_upgradeDeletedOutOfBand(t *testing.T) {
	env := acctest.NewTestEnv(t)
	identityUpgradeDeleted(t, env, identityQueuesHCL, func() {
		em := env.EventMesh(t)
		ctx := context.Background()
		if err := em.DeleteSubscription(ctx, acctest.TestQueue, "acme/crm/prod/ce/ident/*"); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{acctest.TestQueue, acctest.TestQueue + "/dmq"} {
			if err := em.DeleteQueue(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// Deleted flows are drift: the plan creates them again (and warns that the apply needs the flows
// uploaded first).
func TestAccIdentity_upgradeFlowDeletedOutOfBand(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddIdentityFlows(t)
	identityUpgradeDeleted(t, env, identityFlowsHCL, func() {
		for _, id := range []string{"IdentTwoSenders", acctest.JMSUnguardedFlow, "IdentDeployed"} {
			env.Srv.DeleteIFlow(id)
		}
	})
}

// identityUpgradeDeleted applies hcl with the release before identities, deletes its objects out of
// band with deleteObjects, and plans with this provider: the plan succeeds and is not empty.
func identityUpgradeDeleted(t *testing.T, env *acctest.TestEnv, hcl string, deleteObjects func()) {
	t.Helper()
	config := env.Config(hcl)
	acc.ParallelTest(t, acc.TestCase{
		Steps: []acc.TestStep{
			{ProtoV6ProviderFactories: previousRelease, Config: config},
			{
				PreConfig:                deleteObjects,
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Config:                   config,
				PlanOnly:                 true,
				ExpectNonEmptyPlan:       true,
			},
		},
	})
}

// expectNoIdentity checks that the state holds no identity for addr.
func expectNoIdentity(addr string) statecheck.StateCheck {
	return noIdentity{addr}
}

type noIdentity struct{ addr string }

func (c noIdentity) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("no state")
		return
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == c.addr {
			if len(r.IdentityValues) > 0 {
				resp.Error = fmt.Errorf("%s has the identity %v, want none", c.addr, r.IdentityValues)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("%s not in the state", c.addr)
}

// The identity is set from the state; an import by identity stands for the import ID it joins.
func TestResourceIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	schemaOf := func(ri framework.ResourceIdentity) *tfsdk.ResourceIdentity {
		var resp resource.IdentitySchemaResponse
		resp.IdentitySchema = ri.Schema()
		return &tfsdk.ResourceIdentity{Schema: resp.IdentitySchema, Raw: tftypes.NewValue(resp.IdentitySchema.Type().TerraformType(ctx), nil)}
	}
	identityOf := func(ri framework.ResourceIdentity, vals map[string]*string) *tfsdk.ResourceIdentity {
		id := schemaOf(ri)
		attrs := map[string]tftypes.Value{}
		for _, p := range ri.Parts {
			var v any
			if s := vals[p.Attr]; s != nil {
				v = *s
			}
			attrs[p.Attr] = tftypes.NewValue(tftypes.String, v)
		}
		id.Raw = tftypes.NewValue(id.Schema.Type().TerraformType(ctx), attrs)
		return id
	}
	str := func(s string) *string { return &s }

	tests := []struct {
		name    string
		ri      framework.ResourceIdentity
		vals    map[string]*string
		wantID  string
		wantErr string
	}{
		{"queue", tfeventmesh.QueueIdentity, map[string]*string{"name": str("acme/crm/prod/orders")}, "acme/crm/prod/orders", ""},
		{"subscription", tfeventmesh.SubscriptionIdentity, map[string]*string{"queue_name": str("a/q"), "topic_pattern": str("a/t/*")}, "a/q,a/t/*", ""},
		{"sender without channel", integration.SenderIdentity, map[string]*string{"iflow_id": str("F")}, "F", ""},
		{"sender with channel", integration.SenderIdentity, map[string]*string{"iflow_id": str("F"), "channel": str("C")}, "F,C", ""},
		{"missing queue name", tfeventmesh.QueueIdentity, map[string]*string{}, "", `has no name`},
		{"missing topic", tfeventmesh.SubscriptionIdentity, map[string]*string{"queue_name": str("a/q")}, "", `has no topic_pattern`},
		{"empty flow", integration.SenderIdentity, map[string]*string{"iflow_id": str(" "), "channel": str("C")}, "", `iflow_id is empty`},
		{"empty channel", integration.SenderIdentity, map[string]*string{"iflow_id": str("F"), "channel": str("")}, "", `channel is empty`},
		{"empty deployment", integration.DeploymentIdentity, map[string]*string{"iflow_id": str("")}, "", `iflow_id is empty`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var resp resource.ImportStateResponse
			req := resource.ImportStateRequest{Identity: identityOf(tc.ri, tc.vals)}
			ok := tc.ri.ResolveImport(&req, &resp)
			if tc.wantErr == "" {
				if !ok || resp.Diagnostics.HasError() || req.ID != tc.wantID {
					t.Fatalf("import ID %q (ok %v, %v), want %q", req.ID, ok, resp.Diagnostics, tc.wantID)
				}
				return
			}
			if ok || !resp.Diagnostics.HasError() {
				t.Fatalf("import ID %q accepted, want an error with %q", req.ID, tc.wantErr)
			}
			d := resp.Diagnostics.Errors()[0]
			if d.Summary() != "Invalid Import Identity" || !strings.Contains(d.Detail(), tc.wantErr) || !strings.Contains(d.Detail(), tc.ri.Form()) {
				t.Fatalf("error %q: %q, want %q and the form %s", d.Summary(), d.Detail(), tc.wantErr, tc.ri.Form())
			}
		})
	}

	// An import by ID keeps the ID.
	req := resource.ImportStateRequest{ID: "acme/crm/prod/orders", Identity: schemaOf(tfeventmesh.QueueIdentity)}
	var resp resource.ImportStateResponse
	if !tfeventmesh.QueueIdentity.ResolveImport(&req, &resp) || req.ID != "acme/crm/prod/orders" {
		t.Fatalf("import by ID changed to %q (%v)", req.ID, resp.Diagnostics)
	}
}

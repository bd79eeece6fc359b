package integration_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// Every AEM sender channel of package AcmeAEM is a result; include_resource carries the settings and the
// poison message's path as an import and its read make them.
func TestAccAEMSenderListResource_query(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	const all = "sapmessaging_aem_sender.acme_aem"
	acctest.QueryTest(t,
		acctest.QueryStep(env.AEMProviderBlock("")+acctest.ReadExample(t, "list-resources/sapmessaging_aem_sender/list-resource.tfquery.hcl"),
			acctest.ExpectResults(all, len(emulator.SampleAEMIFlows)),
			acctest.ExpectSender(all, acctest.AEMOrdersFlow, ""),
			acctest.ExpectDisplayName(all, acctest.BySender(acctest.AEMOrdersFlow, ""),
				acctest.AEMOrdersFlow+": AEM sender of queue acme/aem/prod/orders (package AcmeAEM)"),
			acctest.ExpectResultValues(all, acctest.BySender(acctest.AEMOrdersFlow, ""), map[string]knownvalue.Check{
				"id":                                   knownvalue.StringExact(acctest.AEMOrdersFlow),
				"deploy":                               knownvalue.Bool(false),
				"runtime_status":                       knownvalue.StringExact("NOT_DEPLOYED"),
				"max_message_processing_attempts":      knownvalue.Int64Exact(5),
				"retry_multiplier":                     knownvalue.Float64Exact(3),
				"settlement_outcome":                   knownvalue.StringExact("FAILED"),
				"consumer_mode":                        knownvalue.StringExact("GUARANTEED"),
				"accept_message_loss":                  knownvalue.Bool(false),
				"worst_case_runs":                      knownvalue.Int64Exact(30),
				"poison_message_end":                   knownvalue.StringExact("DMQ"),
				"effective_queue_max_redelivery_count": knownvalue.Int64Exact(5),
				"adapter":                              knownvalue.StringExact("AdvancedEventMesh"),
			}),
			acctest.ExpectResultValues(all, acctest.BySender(acctest.AEMAuditFlow, ""), map[string]knownvalue.Check{
				"acknowledgement_mode": knownvalue.StringExact("AUTOMATIC_IMMEDIATE"),
				"accept_message_loss":  knownvalue.Bool(true),
				"poison_message_end":   knownvalue.StringExact("lost"),
			}),
			acctest.ExpectResultValues(all, acctest.BySender(acctest.AEMSolaceFlow, ""), map[string]knownvalue.Check{
				"adapter":         knownvalue.StringExact("SolacePubSubPlus"),
				"unconfirmed":     knownvalue.ListSizeExact(1),
				"worst_case_runs": knownvalue.Int64Exact(30),
			}),
			acctest.ExpectResultValues(all, acctest.BySender(acctest.AEMLegacyFlow, ""), map[string]knownvalue.Check{
				"poison_message_end":                   knownvalue.StringExact("never"),
				"worst_case_runs":                      knownvalue.Null(),
				"effective_queue_max_redelivery_count": knownvalue.Int64Exact(0),
			}),
		),
	)
}

// Adoption round-trip: terraform query -generate-config-out writes the AEM senders that the resource accepts
// (the healthy one, and the one that loses failed messages with accept_message_loss), their plan imports only,
// the apply changes nothing on the tenant, and the next plan is empty. The channel that runs for ever on a
// queue with max_redelivery_count 0 is refused at plan: its fix is the queue's.
func TestAccAEMSenderListResource_adopt(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewAEMSenderEnv(t)
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.AdoptionMain, "aem.tfquery.hcl", acctest.ListHCL("sapmessaging_aem_sender", "orders", `iflow_id_prefix = "Acme_AEM_Orders_"`)+
		acctest.ListHCL("sapmessaging_aem_sender", "audit", `iflow_id_prefix = "Acme_AEM_Audit_"`))
	w.WithAEM(env)
	before := map[string]string{acctest.AEMOrdersFlow: string(env.Srv.IFlowContent(acctest.AEMOrdersFlow)), acctest.AEMAuditFlow: string(env.Srv.IFlowContent(acctest.AEMAuditFlow))}

	_, generated := w.Generate("generated.tf")
	if n := strings.Count(generated, `resource "sapmessaging_aem_sender"`); n != 2 {
		t.Fatalf("generated.tf has %d sapmessaging_aem_sender blocks, want 2:\n%s", n, generated)
	}
	if acctest.CountTrue(generated, "accept_message_loss") == 0 {
		t.Errorf("the channel that acknowledges on receipt is not generated with accept_message_loss = true:\n%s", generated)
	}
	w.PlanImportsOnly(2, "Failed Messages Lost Accepted")
	w.ApplyImports(2)
	w.PlanEmpty()
	for id, content := range before {
		if string(env.Srv.IFlowContent(id)) != content {
			t.Errorf("the adoption changed the content of %s", id)
		}
		if rt, err := env.CloudIntegration(t).RuntimeArtifact(t.Context(), id); err == nil {
			t.Errorf("the adoption deployed %s: %+v", id, rt)
		}
	}

	// The channel that runs for ever is listed, and its generated configuration adopts it as it is: it plans the
	// import only, with allow_unlimited_redelivery, and the plan warns until the queue is bounded.
	w.WriteFile("aem.tfquery.hcl", fmt.Sprintf(acctest.ListHCL("sapmessaging_aem_sender", "legacy", "iflow_id_prefix = %q"), acctest.AEMLegacyFlow))
	_, gen := w.Generate("legacy.tf")
	if !regexp.MustCompile(`allow_unlimited_redelivery\s+= true`).MatchString(gen) {
		t.Errorf("the generated configuration of the channel that runs for ever does not adopt it with allow_unlimited_redelivery:\n%s", gen)
	}
	w.PlanImportsOnly(1, "Adapter Retries for Ever Allowed")
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	// Without the attribute, the plan refuses it with the queue's fix.
	w.WriteFile("legacy.tf", regexp.MustCompile(`allow_unlimited_redelivery\s+= true`).ReplaceAllString(gen, "allow_unlimited_redelivery = false"))
	r := w.MustRun(1, "plan", "-input=false", "-no-color")
	if !strings.Contains(r.Output, "Adapter Retries for Ever") {
		t.Errorf("the plan of the channel that runs for ever does not refuse it once the attribute is removed:\n%s", r.Output)
	}
}

package aem_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// Queues made by hand that the broker takes but the rules refuse are adopted as they are with terraform query
// -generate-config-out: a queue naming itself as its dead message queue (SEMP's deadMsgQueue has only a length
// and a pattern), a queue with a max_ttl while respect_ttl is off, and a dead message queue alike. The generated
// configuration sets the adoption attributes, plans the imports only (warning), applies, and then plans no change.
func TestAccAEMQueueListResource_adoptSelfAndIneffectiveTTL(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	on := aem.Ptr(true)
	for _, q := range []aem.Queue{
		{Name: "acme/adopt/self", QueueSettings: aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, MaxRedeliveryCount: aem.Ptr[int64](3),
			RedeliveryDelayEnabled: on, DeadMsgQueue: aem.Ptr("acme/adopt/self")}},
		{Name: "acme/adopt/ttl.dmq", QueueSettings: aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, MaxTTL: aem.Ptr[int64](604800)}},
		{Name: "acme/adopt/ttl", QueueSettings: aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, MaxRedeliveryCount: aem.Ptr[int64](3),
			RedeliveryDelayEnabled: on, DeadMsgQueue: aem.Ptr("acme/adopt/ttl.dmq"), MaxTTL: aem.Ptr[int64](3600)}},
	} {
		if _, err := c.CreateQueue(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.RequiredProviders, "aem.tfquery.hcl", acctest.ListHCL("sapmessaging_aem_queue", "adopt", `name_prefix = "acme/adopt/"`, "include_resource = true")+
		acctest.ListHCL("sapmessaging_aem_dead_message_queue", "adopt", `name_prefix = "acme/adopt/"`, "include_resource = true"))
	w.WithAEM(env)
	_, generated := w.Generate("generated.tf")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`allow_missing_dead_message_queue\s+= true`),
		regexp.MustCompile(`allow_ineffective_ttl\s+= true`),
		regexp.MustCompile(`allow_no_ttl\s+= true`),
	} {
		if !want.MatchString(generated) {
			t.Errorf("generated.tf lacks %s:\n%s", want, generated)
		}
	}
	w.PlanImportsOnly(3, "Dead Message Queue Cycle Allowed", "Max TTL Without Respect TTL Allowed", "Dead Message Queue Without TTL Allowed")
	w.ApplyImports(3)
	w.PlanEmpty()
	// Without its attribute, the queue naming itself is refused again.
	gen := regexp.MustCompile(`allow_missing_dead_message_queue\s+= true`).ReplaceAllString(generated, "allow_missing_dead_message_queue = false")
	w.WriteFile("generated.tf", gen)
	r := w.MustRun(1, "plan", "-input=false", "-no-color")
	if !strings.Contains(r.Output, "Dead Message Queue Cycle") || !strings.Contains(r.Output, "allow_missing_dead_message_queue = true") {
		t.Errorf("the plan of the queue naming itself does not refuse it, with its way in, once the attribute is removed:\n%s", r.Output)
	}
}

// AEM sender channels whose .iflw holds values SAP documents no behaviour for (written by hand: an unknown
// settlement outcome, a retry interval of 0, an unknown acknowledgement mode) are adopted as they are: terraform query -generate-config-out
// sets allow_undocumented_values, the plan imports them only and warns, the apply writes nothing.
func TestAccAEMSenderListResource_adoptUndocumentedValues(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewAEMSenderEnv(t)
	flows := map[string]map[string]string{
		"Acme_Handwritten_Outcome_Inbound":  {"failedMessageSettlementOutcome": "DISCARD"},
		"Acme_Handwritten_Interval_Inbound": {"messageRetryInitialDelayInterval": "0"},
		"Acme_Handwritten_Ack_Inbound":      {"ackMode": "CLIENT"},
	}
	before := map[string]string{}
	for id, set := range flows {
		p := iflowbuild.DefaultAEMSenderProperties("acme/aem/prod/orders")
		for k, v := range set {
			p[k] = v
		}
		zip := iflowbuild.Build(iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{{Name: "AEM_In", Adapter: "AEM", Properties: p}},
			ExceptionEnds: [][]string{{"error"}}})
		if err := env.Srv.CreateIFlow(id, id, emulator.SampleAEMIFlowPackage, zip); err != nil {
			t.Fatal(err)
		}
		before[id] = string(env.Srv.IFlowContent(id))
	}
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.AdoptionMain, "aem.tfquery.hcl", acctest.ListHCL("sapmessaging_aem_sender", "handwritten", `iflow_id_prefix = "Acme_Handwritten_"`))
	w.WithAEM(env)
	_, generated := w.Generate("generated.tf")
	if n := len(regexp.MustCompile(`allow_undocumented_values\s+= true`).FindAllString(generated, -1)); n != 3 {
		t.Errorf("generated.tf sets allow_undocumented_values = true %d times, want 3:\n%s", n, generated)
	}
	w.PlanImportsOnly(3, "Invalid Settlement Outcome Allowed", "Invalid Retry Interval Allowed", "Invalid Acknowledgement Mode Allowed")
	w.ApplyImports(3)
	w.PlanEmpty()
	for id, content := range before {
		if string(env.Srv.IFlowContent(id)) != content {
			t.Errorf("the adoption changed the content of %s", id)
		}
	}
}

package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// generatedResource is a resource block of a generated configuration.
var generatedResource = regexp.MustCompile(`(?m)^resource "`)

// planImports is the summary line of a plan that only imports.
var planImports = regexp.MustCompile(`Plan: (\d+) to import, 0 to add, 0 to change, 0 to destroy\.`)

// listExampleContent makes, per list-resource example, content its list blocks select.
var listExampleContent = map[string]func(*testing.T, *testEnv){
	"sapmessaging_queue":              func(t *testing.T, e *testEnv) { e.addHandMadeQueues(t) },
	"sapmessaging_dead_message_queue": func(t *testing.T, e *testEnv) { e.addHandMadeQueues(t) },
	"sapmessaging_queue_subscription": func(t *testing.T, e *testEnv) { e.addHandMadeQueues(t); e.addHandMadeSubscriptions(t) },
	"sapmessaging_webhook_subscription": func(t *testing.T, e *testEnv) {
		e.addHandMadeQueues(t)
		for _, spec := range []eventmesh.WebhookSpec{
			{Name: "orders-push", Queue: "acme/crm/prod/orders", QoS: 1, Endpoint: "https://orders.acme.example/events"},
			{Name: "returns-push", Queue: "acme/crm/prod/returns", QoS: 0, Endpoint: "https://returns.acme.example/events"},
		} {
			if _, err := e.messaging(t).CreateWebhook(t.Context(), spec); err != nil {
				t.Fatal(err)
			}
		}
	},
	"sapmessaging_jms_sender":             func(t *testing.T, e *testEnv) { e.addHandMadeFlows(t) },
	"sapmessaging_amqp_sender":            func(t *testing.T, e *testEnv) { e.addHandMadeFlows(t) },
	"sapmessaging_iflow_deployment":       func(t *testing.T, e *testEnv) { e.addHandMadeFlows(t) },
	"sapmessaging_aem_queue_subscription": func(t *testing.T, e *testEnv) { e.addAEMSubscriptions(t) },
	"sapmessaging_aem_queue":              loadSample,
	"sapmessaging_aem_dead_message_queue": loadSample,
	"sapmessaging_aem_sender":             loadSample,
}

// listExampleRefusals are the plan errors a list resource's page names among what to review before the
// apply, by example: the sample's channel on a queue that redelivers for ever is refused until the queue is fixed.
var listExampleRefusals = map[string]string{}

func loadSample(t *testing.T, e *testEnv) {
	if err := e.srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
}

func allEqual(matches [][]string, want string) bool {
	for _, m := range matches {
		if strings.TrimSpace(m[1]) != want {
			return false
		}
	}
	return true
}

// The workflow of each list resource's "Generating the Configuration" section, run on every example under
// examples/list-resources as shipped, against the sandbox's sample content: `terraform query
// -generate-config-out=generated.tf` with the example's query file, then `terraform plan`, which imports each
// generated resource and adds nothing. Two list blocks of one example that return the same object would
// generate it twice ("... Managed Twice").
func TestAccListResourceExamples_generateConfig(t *testing.T) {
	tf := terraformCLI(t)
	if !terraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no terraform query: list resources need Terraform 1.14 or later", tf)
	}
	t.Parallel()
	plugins := filepath.Join(t.TempDir(), "plugins")
	buildProvider(t, plugins)
	root := filepath.Join("..", "..", "examples", "list-resources")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			env := newTestEnv(t)
			seed, ok := listExampleContent[e.Name()]
			if !ok {
				t.Fatalf("examples/list-resources/%s has no content to list in listExampleContent; add it", e.Name())
			}
			seed(t, env)
			dir := t.TempDir()
			files, _ := filepath.Glob(filepath.Join(root, e.Name(), "*.hcl"))
			if len(files) == 0 {
				t.Fatalf("examples/list-resources/%s has no query file", e.Name())
			}
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(dir, filepath.Base(f)), string(b))
			}
			writeFile(t, filepath.Join(dir, "main.tf"), requiredProviders+env.aemProviderBlock(""))
			w := newCLIWorkspace(t, tf, plugins, dir, env)
			q := w.mustRun(0, "query", "-generate-config-out=generated.tf", "-no-color")
			b, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
			if err != nil {
				t.Fatalf("terraform query wrote no generated.tf (%v):\n%s", err, q.output)
			}
			resources := len(generatedResource.FindAll(b, -1))
			if resources == 0 {
				t.Fatalf("examples/list-resources/%s listed nothing: the content of listExampleContent does not match its filters", e.Name())
			}
			r := w.run("plan", "-input=false", "-no-color")
			if strings.Contains(r.output, "Managed Twice") {
				t.Fatalf("two list blocks of examples/list-resources/%s return the same object:\n%s", e.Name(), r.output)
			}
			if want, ok := listExampleRefusals[e.Name()]; ok && r.exitCode == 1 {
				// The refusal that the list resource's page names among what to review before the apply.
				if got := regexp.MustCompile(`Error: ([^\n]+)`).FindAllStringSubmatch(r.output, -1); len(got) == 0 || !allEqual(got, want) {
					t.Fatalf("the plan of the configuration generated from examples/list-resources/%s fails with other errors than %q:\n%s", e.Name(), want, r.output)
				}
				return
			}
			if r.exitCode != 0 {
				t.Fatalf("the plan of the configuration generated from examples/list-resources/%s failed (exit %d; %d resources generated):\n%s",
					e.Name(), r.exitCode, resources, r.output)
			}
			if resources > 0 && !planImports.MatchString(r.output) {
				t.Errorf("the plan of the configuration generated from examples/list-resources/%s does not only import:\n%s", e.Name(), r.output)
			}
			t.Logf("%s: %d resources generated", e.Name(), resources)
		})
	}
}

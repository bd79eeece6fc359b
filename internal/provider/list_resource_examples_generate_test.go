package provider_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// generatedResource is a resource block of a generated configuration.
var generatedResource = regexp.MustCompile(`(?m)^resource "`)

// planImports is the summary line of a plan that only imports.
var planImports = regexp.MustCompile(`Plan: (\d+) to import, 0 to add, 0 to change, 0 to destroy\.`)

// listExampleContent makes, per list-resource example, content its list blocks select.
var listExampleContent = map[string]func(*testing.T, *acctest.TestEnv){
	"sapmessaging_queue":              func(t *testing.T, e *acctest.TestEnv) { e.AddHandMadeQueues(t) },
	"sapmessaging_dead_message_queue": func(t *testing.T, e *acctest.TestEnv) { e.AddHandMadeQueues(t) },
	"sapmessaging_queue_subscription": func(t *testing.T, e *acctest.TestEnv) { e.AddHandMadeQueues(t); e.AddHandMadeSubscriptions(t) },
	"sapmessaging_webhook_subscription": func(t *testing.T, e *acctest.TestEnv) {
		e.AddHandMadeQueues(t)
		for _, spec := range []eventmesh.WebhookSpec{
			{Name: "orders-push", Queue: "acme/crm/prod/orders", QoS: 1, Endpoint: "https://orders.acme.example/events"},
			{Name: "returns-push", Queue: "acme/crm/prod/returns", QoS: 0, Endpoint: "https://returns.acme.example/events"},
		} {
			if _, err := e.Messaging(t).CreateWebhook(t.Context(), spec); err != nil {
				t.Fatal(err)
			}
		}
	},
	"sapmessaging_jms_sender":             func(t *testing.T, e *acctest.TestEnv) { e.AddHandMadeFlows(t) },
	"sapmessaging_amqp_sender":            func(t *testing.T, e *acctest.TestEnv) { e.AddHandMadeFlows(t) },
	"sapmessaging_iflow_deployment":       func(t *testing.T, e *acctest.TestEnv) { e.AddHandMadeFlows(t) },
	"sapmessaging_aem_queue_subscription": func(t *testing.T, e *acctest.TestEnv) { e.AddAEMSubscriptions(t) },
	"sapmessaging_aem_queue":              loadSample,
	"sapmessaging_aem_dead_message_queue": loadSample,
	"sapmessaging_aem_sender":             loadSample,
}

// listExampleRefusals are the plan errors a list resource's page names among what to review before the
// apply, by example: the sample's channel on a queue that redelivers for ever is refused until the queue is fixed.
var listExampleRefusals = map[string]string{}

func loadSample(t *testing.T, e *acctest.TestEnv) {
	if err := e.Srv.LoadSampleContent(); err != nil {
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
	tf := queryCLI(t, "list resources need")
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
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
			env := acctest.NewTestEnv(t)
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
				b := acctest.ReadFile(t, f)
				acctest.WriteFile(t, filepath.Join(dir, filepath.Base(f)), string(b))
			}
			acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.RequiredProviders+env.AEMProviderBlock(""))
			w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
			q := w.MustRun(0, "query", "-generate-config-out=generated.tf", "-no-color")
			b, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
			if err != nil {
				t.Fatalf("terraform query wrote no generated.tf (%v):\n%s", err, q.Output)
			}
			resources := len(generatedResource.FindAll(b, -1))
			if resources == 0 {
				t.Fatalf("examples/list-resources/%s listed nothing: the content of listExampleContent does not match its filters", e.Name())
			}
			r := w.Run("plan", "-input=false", "-no-color")
			if strings.Contains(r.Output, "Managed Twice") {
				t.Fatalf("two list blocks of examples/list-resources/%s return the same object:\n%s", e.Name(), r.Output)
			}
			if want, ok := listExampleRefusals[e.Name()]; ok && r.ExitCode == 1 {
				// The refusal that the list resource's page names among what to review before the apply.
				if got := regexp.MustCompile(`Error: ([^\n]+)`).FindAllStringSubmatch(r.Output, -1); len(got) == 0 || !allEqual(got, want) {
					t.Fatalf("the plan of the configuration generated from examples/list-resources/%s fails with other errors than %q:\n%s", e.Name(), want, r.Output)
				}
				return
			}
			if r.ExitCode != 0 {
				t.Fatalf("the plan of the configuration generated from examples/list-resources/%s failed (exit %d; %d resources generated):\n%s",
					e.Name(), r.ExitCode, resources, r.Output)
			}
			if resources > 0 && !planImports.MatchString(r.Output) {
				t.Errorf("the plan of the configuration generated from examples/list-resources/%s does not only import:\n%s", e.Name(), r.Output)
			}
			t.Logf("%s: %d resources generated", e.Name(), resources)
		})
	}
}

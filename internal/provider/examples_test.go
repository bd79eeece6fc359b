package provider_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// exampleModuleVars are the variables each module under examples/modules is applied with as a root
// module of its own. A new module example needs an entry here.
var exampleModuleVars = map[string][]string{
	"modules/retry-policy": {"namespace=acme/crm/test",
		`queues={orders={total_attempts=5, attempt_seconds=2, topics=["acme/crm/test/ce/sap/s4/SalesOrder/*"]}}`,
		`amqp_senders={"Acme_Orders_Inbound"={queue="orders"}}`},
}

// exampleRootSetups are the examples that a user initializes with a backend configuration and
// applies with a variable file, as their comments say: each runs as its first environment.
var exampleRootSetups = map[string]struct {
	backendConfig string // the -backend-config file of terraform init
	varFile       string // the -var-file of every plan, apply and destroy
	keys          string // where the variable file expects the service keys
}{
	"landscapes": {backendConfig: "dev.tfbackend", varFile: "dev.tfvars", keys: "keys/dev"},
}

// exampleApplies is what the first apply of an example must report, where it does more than create.
var exampleApplies = map[string]string{
	// The ten queues of the sample landscape are imported; the queue with unlimited redelivery
	// and the dead message queue without a time to live are changed.
	"adopting-a-landscape/import-for-each": "Resources: 10 imported, 0 added, 2 changed, 0 destroyed.",
}

// exampleDirs lists every directory under examples/ that holds a .tf file, relative to examples/,
// without the import/ fragments (applied together with their resource example) and the helper
// modules of `terraform test` files under a tests/ directory (run by TestAccExampleModuleTests).
func exampleDirs(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "tests") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".tf") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if filepath.Base(rel) != "import" {
				seen[filepath.ToSlash(rel)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}

// shellWords splits one command line of an example shell script into its words: blanks separate
// words, single quotes keep blanks and asterisks; nothing else of the shell is used by the examples.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

var importTarget = regexp.MustCompile(`(?m)^\s*to\s*=\s*(\S+)\s*$`)

// providerBlockRe finds a default (unaliased or aliased) provider block in a configuration.
var providerBlockRe = regexp.MustCompile(`(?m)^provider "sapmessaging"`)

// Every configuration under examples/ runs as shipped: each is copied into a temporary directory
// (with the rest of examples/, so that landscapes find their modules) and applied with the real CLI
// against its own emulator started with the sample content of `make sandbox`. After the apply the
// plan must be empty; each `terraform import` of a resource example's import.sh, and then its
// import/import-by-string-id.tf, must import the resource again after `state rm`; destroy must
// leave no queue behind but those of the sample landscape.
func TestAccExamples(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	plugins := filepath.Join(t.TempDir(), "plugins")
	var build sync.Once
	root := filepath.Join("..", "..", "examples")
	dirs := exampleDirs(t, root)
	for _, want := range []string{"resources/sapmessaging_queue", "data-sources/sapmessaging_queue", "functions/max_attempts",
		"modules/retry-policy", "landscapes", "drift-detection", "demo", "provider"} {
		if !contains(dirs, want) {
			t.Fatalf("examples/%s not found among %v", want, dirs)
		}
	}
	for _, rel := range dirs {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			build.Do(func() { acctest.BuildProvider(t, plugins) })
			if _, err := os.Stat(filepath.Join(plugins, "terraform-provider-sapmessaging")); err != nil {
				t.Fatalf("the provider build failed in another subtest: %v", err)
			}
			runExample(t, tf, plugins, root, rel)
		})
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// runExample applies one example directory, checks the empty plan and the import example, and destroys it.
func runExample(t *testing.T, tf, plugins, root, rel string) {
	if strings.HasPrefix(rel, "actions/") && !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("examples/%s not applied: actions need Terraform 1.14 or later, and %s is older or OpenTofu", rel, tf)
	}
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	// Nothing is made out of band: an Advanced Event Mesh example reads what `make sandbox` holds
	// (TestAEMExamplesReadTheSandboxQueues).
	examples := filepath.Join(t.TempDir(), "examples")
	acctest.CopyTree(t, root, examples)
	dir := filepath.Join(examples, filepath.FromSlash(rel))
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)

	var vars []string
	if strings.HasPrefix(rel, "modules/") {
		mv, ok := exampleModuleVars[rel]
		if !ok {
			t.Fatalf("examples/%s is a module without variables in exampleModuleVars; add them", rel)
		}
		for _, v := range mv {
			vars = append(vars, "-var", v)
		}
	}
	if rel == "provider" {
		// The provider example reads the service key files a user saves next to it, and takes the
		// client secrets of its explicit form as variables.
		for name, key := range map[string][]byte{
			"event-mesh-service-key.json":        env.Srv.EventMeshKey(),
			"cloud-integration-service-key.json": env.Srv.CloudIntegrationKey(),
		} {
			acctest.WriteFile(t, filepath.Join(dir, name), string(key))
		}
		vars = append(vars, "-var", "event_mesh_client_secret=unused", "-var", "cloud_integration_client_secret=unused")
	}
	setup, isRoot := exampleRootSetups[rel]
	if isRoot {
		// The service keys where the variable file names them, the provider installed by init
		// from a mirror (init needs the provider; dev_overrides makes it look it up online).
		if err := env.Srv.WriteKeys(filepath.Join(dir, filepath.FromSlash(setup.keys))); err != nil {
			t.Fatal(err)
		}
		w.CliConfig = writeMirrorCLIConfig(t, t.TempDir(), plugins)
		w.Creds = []string{framework.EnvEventMeshServiceKey + "=", framework.EnvCloudIntegrationServiceKey + "="}
		vars = append(vars, "-var-file="+setup.varFile)
	}
	hasProvider := false
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	for _, f := range files {
		b := acctest.ReadFile(t, f)
		hasProvider = hasProvider || providerBlockRe.Match(b)
	}
	if !hasProvider {
		// What a user adds, or leaves to the environment: the provider block, here with the emulator's keys.
		// Advanced Event Mesh examples get the emulator's broker too, as the environment variables give it to a user.
		block := env.ProviderBlock
		if strings.Contains(rel, "aem") || rel == "data-sources/sapmessaging_retry_audit" { // the audit joins both brokers
			block = env.AEMProviderBlock("")
		}
		acctest.WriteFile(t, filepath.Join(dir, "provider_test.tf"), block)
	}

	// The queues of the sample landscape are there before the example; an example may adopt
	// and destroy them, but must leave no queue of its own behind.
	before := map[string]bool{}
	sample, err := env.EventMesh(t).ListQueues(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range sample {
		before[q.Name] = true
	}

	// Local modules must be installed even with dev_overrides; nothing else is downloaded.
	if isRoot {
		w.MustRun(0, "init", "-input=false", "-no-color", "-backend-config="+setup.backendConfig)
	} else {
		w.MustRun(0, "get")
	}
	r := w.MustRun(0, append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, vars...)...)
	if want, ok := exampleApplies[rel]; ok && !strings.Contains(r.Output, want) {
		t.Errorf("the apply of examples/%s does not say %q:\n%s", rel, want, r.Output)
	}
	t.Cleanup(func() { w.Run(append([]string{"destroy", "-auto-approve", "-input=false"}, vars...)...) })
	w.MustRun(0, append([]string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}, vars...)...)

	// Every `terraform import` command of import.sh imports the resource again after `state rm`.
	if b, err := os.ReadFile(filepath.Join(dir, "import.sh")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(line, "terraform import ") {
				continue
			}
			args := shellWords(t, strings.TrimPrefix(line, "terraform "))
			w.MustRun(0, "state", "rm", args[1])
			w.MustRun(0, args...)
		}
	}

	// Each import block example (by ID, and by identity with Terraform 1.12 and later) imports the
	// resource again after `state rm`.
	for _, example := range []string{"import-by-string-id.tf", "import-by-identity.tf"} {
		b, err := os.ReadFile(filepath.Join(dir, "import", example))
		if err != nil {
			continue
		}
		if example == "import-by-identity.tf" && !acctest.TerraformAtLeast(t, tf, 12) {
			t.Logf("examples/%s/import/%s not applied: import by identity needs Terraform 1.12 or later", rel, example)
			continue
		}
		m := importTarget.FindSubmatch(b)
		if m == nil {
			t.Fatalf("no `to = ADDRESS` in examples/%s/import/%s", rel, example)
		}
		addr := string(m[1])
		w.MustRun(0, "state", "rm", addr)
		acctest.WriteFile(t, filepath.Join(dir, "import.tf"), string(b))
		r := w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
		if !strings.Contains(r.Output, "1 imported") {
			t.Errorf("the import example %s did not import %s:\n%s", example, addr, r.Output)
		}
		w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")
		if err := os.Remove(filepath.Join(dir, "import.tf")); err != nil {
			t.Fatal(err)
		}
	}

	w.MustRun(0, append([]string{"destroy", "-auto-approve", "-input=false", "-no-color"}, vars...)...)
	queues, err := env.EventMesh(t).ListQueues(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, q := range queues {
		if !before[q.Name] {
			left = append(left, q.Name)
		}
	}
	if len(left) != 0 {
		t.Errorf("queues left after destroy: %v", left)
	}
}

package provider_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

var testRunBlock = regexp.MustCompile(`(?m)^run "`)

// The `terraform test` files of every module under examples/modules pass with the CLI under test:
// those that need no API (every tests/*.tftest.hcl but tests/emulator*.tftest.hcl: mocked
// provider, or the real provider planning only) without any credentials, and all of them with the
// service keys of an emulator holding the sandbox's sample content, named by the variables
// event_mesh_service_key_file and cloud_integration_service_key_file. The emulator test files
// destroy what they create, so no queue is left behind. Given a service key that names a host
// that is not a loopback address, they refuse to run and create nothing.
func TestAccExampleModuleTests(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	modules, err := filepath.Glob(filepath.Join("..", "..", "examples", "modules", "*", "tests"))
	if err != nil {
		t.Fatal(err)
	}
	if len(modules) == 0 {
		t.Fatal("no module under examples/modules has a tests directory")
	}
	for _, testsDir := range modules {
		module := filepath.Dir(testsDir)
		t.Run(filepath.Base(module), func(t *testing.T) {
			t.Parallel()
			env := acctest.NewTestEnv(t)
			if err := env.Srv.LoadSampleContent(); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), filepath.Base(module))
			acctest.CopyTree(t, module, dir)
			w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)

			files, _ := filepath.Glob(filepath.Join(dir, "tests", "*.tftest.hcl"))
			var offline []string
			runs, offlineRuns := 0, 0
			for _, f := range files {
				b := acctest.ReadFile(t, f)
				n := len(testRunBlock.FindAll(b, -1))
				runs += n
				if !strings.HasPrefix(filepath.Base(f), "emulator") {
					offline = append(offline, "-filter=tests/"+filepath.Base(f))
					offlineRuns += n
				}
			}
			if len(offline) == 0 || offlineRuns == runs {
				t.Fatalf("examples/modules/%s/tests needs test files without an API and an emulator*.tftest.hcl that applies the module", filepath.Base(module))
			}

			// The helper modules of the test files (tests/tenant) are installed like any module.
			w.MustRun(0, "get")

			// Without credentials: the mocked provider and the real provider's plan need none.
			noCreds := []string{framework.EnvEventMeshServiceKey + "=", framework.EnvCloudIntegrationServiceKey + "="}
			r := acctest.RunTerraformEnv(t, tf, dir, w.CliConfig, noCreds, append([]string{"test", "-no-color"}, offline...)...)
			if want := fmt.Sprintf("%d passed, 0 failed", offlineRuns); r.ExitCode != 0 || !strings.Contains(r.Output, want) {
				t.Fatalf("terraform test %v without credentials: exit %d, want 0 and %q:\n%s", offline, r.ExitCode, want, r.Output)
			}

			// A service key of a tenant that is not on this machine: refused before anything is created.
			keys := t.TempDir()
			if err := env.Srv.WriteKeys(keys); err != nil {
				t.Fatal(err)
			}
			emKey, ciKey := filepath.Join(keys, "event-mesh.json"), filepath.Join(keys, "cloud-integration.json")
			remoteKey := filepath.Join(keys, "remote-cloud-integration.json")
			acctest.WriteFile(t, remoteKey, strings.ReplaceAll(string(env.Srv.CloudIntegrationKey()), "http://127.0.0.1", "https://acme.it-cpi018.cfapps.eu10-003.hana.ondemand.com"))
			r = acctest.RunTerraformEnv(t, tf, dir, w.CliConfig, noCreds, "test", "-no-color",
				"-var", "event_mesh_service_key_file="+emKey, "-var", "cloud_integration_service_key_file="+remoteKey)
			if r.ExitCode != 1 || !strings.Contains(strings.Join(strings.Fields(r.Output), " "), "acme.it-cpi018.cfapps.eu10-003.hana.ondemand.com, not a loopback address") {
				t.Errorf("terraform test with a remote tenant's key: exit %d, want 1 and the refusal:\n%s", r.ExitCode, r.Output)
			}
			if queues, err := env.EventMesh(t).ListQueues(context.Background()); err != nil || len(queues) != len(emulator.SampleQueues) {
				t.Errorf("the refused test created queues: %d queues (%v), want the %d of the sample landscape", len(queues), err, len(emulator.SampleQueues))
			}

			// With the emulator: every file, including the one that applies and destroys the module.
			r = acctest.RunTerraformEnv(t, tf, dir, w.CliConfig, noCreds, "test", "-no-color",
				"-var", "event_mesh_service_key_file="+emKey, "-var", "cloud_integration_service_key_file="+ciKey)
			if r.ExitCode != 0 {
				t.Fatalf("terraform test with the emulator's keys: exit %d:\n%s", r.ExitCode, r.Output)
			}
			if want := fmt.Sprintf("%d passed, 0 failed", runs); !strings.Contains(r.Output, want) {
				t.Fatalf("terraform test: want %q:\n%s", want, r.Output)
			}
			queues, err := env.EventMesh(t).ListQueues(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range queues {
				if !strings.HasPrefix(q.Name, emulator.SampleLandscapePrefix) {
					t.Errorf("terraform test left the queue %s behind", q.Name)
				}
			}
		})
	}
}

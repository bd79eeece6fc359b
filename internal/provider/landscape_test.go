package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// copyTree copies the directory src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The dev landscape applied as a user runs it: examples/landscapes/dev with the shared
// retry-policy module, the provider built from source and configured from the environment,
// against the emulator with the landscape's iFlow deployed on it.
func TestAccLandscapeDev(t *testing.T) {
	tf := terraformCLI(t)
	t.Parallel()
	work := t.TempDir()
	plugins := filepath.Join(work, "plugins")
	buildProvider(t, plugins)

	env := newTestEnv(t)
	env.addFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/dev/orders")}}, nil, []string{"error"})
	keys := filepath.Join(work, "keys")
	if err := env.srv.WriteKeys(keys); err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(work, "examples")
	copyTree(t, filepath.Join("..", "..", "examples"), examples)
	dir := filepath.Join(examples, "landscapes", "dev")
	cliConfig := writeCLIConfig(t, work, plugins)
	creds := []string{
		EnvEventMeshServiceKey + "=" + filepath.Join(keys, "event-mesh.json"),
		EnvCloudIntegrationServiceKey + "=" + filepath.Join(keys, "cloud-integration.json"),
	}
	run := func(args ...string) cliRun {
		t.Helper()
		return runTerraformEnv(t, tf, dir, cliConfig, creds, args...)
	}
	// With dev_overrides there is no provider to install; get installs the local module.
	if r := run("get"); r.exitCode != 0 {
		t.Fatalf("get failed:\n%s", r.output)
	}
	if r := run("apply", "-auto-approve", "-input=false"); r.exitCode != 0 {
		t.Fatalf("apply failed:\n%s", r.output)
	}
	if r := run("plan", "-detailed-exitcode", "-input=false"); r.exitCode != 0 {
		t.Fatalf("the plan after apply is not empty (exit %d):\n%s", r.exitCode, r.output)
	}
	r := run("output", "-json")
	var out map[string]struct{ Value any }
	if err := json.Unmarshal([]byte(r.output[strings.Index(r.output, "{"):]), &out); err != nil {
		t.Fatalf("output -json: %v\n%s", err, r.output)
	}
	if got := out["worst_case_attempts"].Value; got != float64(3) {
		t.Errorf("worst_case_attempts = %v, want 3 (the dev budget)", got)
	}
	q, ok := env.srv.Queue("acme/crm/dev/orders")
	if !ok || q.MaxRedeliveryCount != 1 || q.DeadMsgQueue == nil || *q.DeadMsgQueue != "acme/crm/dev/orders/dmq" {
		t.Errorf("queue on the emulator = %+v (found %v), want max redelivery 1 and the dev DMQ", q, ok)
	}
	if d, ok := env.srv.Deployed("OrdersInbound"); !ok || d.Status != "STARTED" {
		t.Errorf("the landscape's iFlow is not running: %+v", d)
	}
	if got, _ := env.senderProperty("OrdersInbound", "maxRetries"); got != "1" {
		t.Errorf("maxRetries of the iFlow = %q, want 1", got)
	}
	if r := run("destroy", "-auto-approve", "-input=false"); r.exitCode != 0 {
		t.Fatalf("destroy failed:\n%s", r.output)
	}
	if _, ok := env.srv.Queue("acme/crm/dev/orders"); ok {
		t.Error("the dev queue survived destroy")
	}

	// A budget the module cannot meet is refused at plan time by its own variable validation.
	writeFile(t, filepath.Join(dir, "budget_override.tf"), "module \"orders\" {\n  total_attempts = 2\n}\n")
	if r := run("plan", "-input=false"); r.exitCode != 1 || !strings.Contains(r.output, "must be 3 to 257") {
		t.Errorf("a budget of 2 was not refused by the module (exit %d):\n%s", r.exitCode, r.output)
	}
}

package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// writeMirrorCLIConfig lays the provider built into plugins out as version 0.1.0 of
// sapmessaging/sapmessaging in a filesystem mirror under dir, and writes a CLI configuration that
// installs it from there: `terraform init` then installs the provider as from the registry,
// checking the configuration's version constraints and writing the lock file, without a network.
// The registry host is TF_ACC_PROVIDER_HOST's (registry.opentofu.org for OpenTofu).
func writeMirrorCLIConfig(t *testing.T, dir, plugins string) string {
	t.Helper()
	host := os.Getenv("TF_ACC_PROVIDER_HOST")
	if host == "" {
		host = "registry.terraform.io"
	}
	mirror := filepath.Join(dir, "mirror")
	target := filepath.Join(mirror, host, "sapmessaging", "sapmessaging", "0.1.0", runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	b := acctest.ReadFile(t, filepath.Join(plugins, "terraform-provider-sapmessaging"))
	if err := os.WriteFile(filepath.Join(target, "terraform-provider-sapmessaging_v0.1.0"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(dir, "mirror.tfrc")
	acctest.WriteFile(t, cliConfig, fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["%s/sapmessaging/sapmessaging"]
  }
}
`, mirror, host))
	return cliConfig
}

// landscapeEnvironments is what each variable file of examples/landscapes sets, as the test checks it.
var landscapeEnvironments = []struct {
	name             string
	redeliveries     int64  // max_redelivery_count of acme/crm/ENV/orders
	attempts         int    // worst_case_attempts of orders
	concurrency      string // the AMQP sender's concurrent processes
	endpoint         string // the webhook's endpoint
	forceDestroy     bool
	topicsOfOrders   int
	pushRedeliveries int64
}{
	{name: "dev", redeliveries: 1, attempts: 3, concurrency: "1", endpoint: "https://orders-dev.example.com/events", forceDestroy: true, topicsOfOrders: 1, pushRedeliveries: 1},
	{name: "test", redeliveries: 5, attempts: 7, concurrency: "2", endpoint: "https://orders-test.example.com/events", forceDestroy: true, topicsOfOrders: 1, pushRedeliveries: 2},
	{name: "prod", redeliveries: 5, attempts: 7, concurrency: "4", endpoint: "https://orders.example.com/events", topicsOfOrders: 2, pushRedeliveries: 2},
}

// examples/landscapes applied as a team runs it: one configuration, dev, test and prod one after
// the other in the same directory, each with `terraform init -reconfigure
// -backend-config=ENV.tfbackend` (its own state file), `terraform apply -var-file=ENV.tfvars` and
// the service keys its variable file names (keys/ENV/), each against an emulator of its own that
// holds the sandbox's sample content. The provider is installed by init, as from a registry, at
// version 0.1.0 (the configuration pins ~> 0.1.0). Each environment's queues, senders, deployments
// and webhook land on its own emulator and no other; its next plan is empty; a budget below 3 is
// refused by the module; destroy removes every queue.
func TestAccLandscapes(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	work := t.TempDir()
	plugins := filepath.Join(work, "plugins")
	acctest.BuildProvider(t, plugins)
	cliConfig := writeMirrorCLIConfig(t, work, plugins)

	examples := filepath.Join(work, "examples")
	acctest.CopyTree(t, filepath.Join("..", "..", "examples"), examples)
	dir := filepath.Join(examples, "landscapes")
	// No credentials in the environment: each environment's come from its variable file.
	noEnvCreds := []string{framework.EnvEventMeshServiceKey + "=", framework.EnvCloudIntegrationServiceKey + "="}
	run := func(want int, args ...string) acctest.CLIRun {
		t.Helper()
		r := acctest.RunTerraformEnv(t, tf, dir, cliConfig, noEnvCreds, args...)
		if r.ExitCode != want {
			t.Fatalf("%s %s: exit %d, want %d:\n%s", filepath.Base(tf), strings.Join(args, " "), r.ExitCode, want, r.Output)
		}
		return r
	}

	envs := map[string]*acctest.TestEnv{}
	for _, e := range landscapeEnvironments {
		env := acctest.NewTestEnv(t)
		if err := env.Srv.LoadSampleContent(); err != nil {
			t.Fatal(err)
		}
		if err := env.Srv.WriteKeys(filepath.Join(dir, "keys", e.name)); err != nil {
			t.Fatal(err)
		}
		envs[e.name] = env
	}

	for _, e := range landscapeEnvironments {
		env := envs[e.name]
		run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config="+e.name+".tfbackend")
		r := run(0, "apply", "-auto-approve", "-input=false", "-no-color", "-var-file="+e.name+".tfvars")
		// Two queues with their DMQs, the subscriptions, a webhook, two senders, two deployments and
		// the record of the state's environment.
		if want := fmt.Sprintf("Apply complete! Resources: %d added", 10+e.topicsOfOrders); !strings.Contains(r.Output, want) {
			t.Errorf("%s: the apply does not say %q:\n%s", e.name, want, r.Output)
		}
		run(0, "plan", "-detailed-exitcode", "-input=false", "-no-color", "-var-file="+e.name+".tfvars")
		if _, err := os.Stat(filepath.Join(dir, e.name+".tfstate")); err != nil {
			t.Errorf("%s: no state file of its own: %v", e.name, err)
		}

		out := map[string]struct{ Value any }{}
		r = run(0, "output", "-json")
		if err := json.Unmarshal([]byte(r.Output[strings.Index(r.Output, "{"):]), &out); err != nil {
			t.Fatalf("output -json: %v\n%s", err, r.Output)
		}
		if got, _ := out["worst_case_attempts"].Value.(map[string]any); got["orders"] != float64(e.attempts) {
			t.Errorf("%s: worst_case_attempts of orders = %v, want %d", e.name, got, e.attempts)
		}
		if got := out["runtime_status"].Value; !reflect.DeepEqual(got, map[string]any{"OrdersInbound": "STARTED", "Acme_Orders_Retry": "STARTED"}) {
			t.Errorf("%s: runtime_status = %v, want both flows STARTED", e.name, got)
		}

		ns := "acme/crm/" + e.name + "/"
		for name, want := range map[string]int64{"orders": e.redeliveries, "orders-push": e.pushRedeliveries} {
			q, ok := env.Srv.Queue(ns + name)
			if !ok || q.MaxRedeliveryCount != want || q.DeadMsgQueue == nil || *q.DeadMsgQueue != ns+name+"/dmq" {
				t.Errorf("%s: queue %s on its emulator = %+v (found %v), want max redelivery %d and its own DMQ", e.name, ns+name, q, ok, want)
			}
		}
		subs, err := env.EventMesh(t).ListSubscriptions(context.Background(), ns+"orders")
		if err != nil || len(subs) != e.topicsOfOrders {
			t.Errorf("%s: subscriptions of orders = %v, %v; want %d", e.name, subs, err, e.topicsOfOrders)
		}
		for _, flow := range []string{"OrdersInbound", "Acme_Orders_Retry"} {
			if d, ok := env.Srv.Deployed(flow); !ok || d.Status != "STARTED" {
				t.Errorf("%s: the flow %s does not run: %+v", e.name, flow, d)
			}
		}
		if got, _ := env.SenderProperty("OrdersInbound", "maxRetries"); got != "1" {
			t.Errorf("%s: maxRetries of OrdersInbound = %q, want 1", e.name, got)
		}
		if got, _ := env.SenderProperty("OrdersInbound", "NumberConcurrentProcesses"); got != e.concurrency {
			t.Errorf("%s: concurrent processes of OrdersInbound = %q, want %s", e.name, got, e.concurrency)
		}
		w, err := env.Messaging(t).GetWebhook(context.Background(), ns+"orders-push/webhook")
		if err != nil || w.Queue != ns+"orders-push" || w.Endpoint != e.endpoint {
			t.Errorf("%s: webhook = %+v, %v; want it on %sorders-push pushing to %s", e.name, w, err, ns, e.endpoint)
		}
		// Its credentials reached its own emulator only.
		for _, other := range landscapeEnvironments {
			if other.name == e.name {
				continue
			}
			queues, err := envs[other.name].EventMesh(t).ListQueues(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range queues {
				if strings.HasPrefix(q.Name, ns) {
					t.Errorf("%s's queue %s is on the emulator of %s", e.name, q.Name, other.name)
				}
			}
		}
	}

	// dev's variable file against test's backend fails at plan and writes nothing: refused by the
	// backend's settings, and, where the working directory is elsewhere (TF_DATA_DIR), by the
	// environment test's state was applied with.
	run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config=test.tfbackend")
	testState := acctest.ReadFile(t, filepath.Join(dir, "test.tfstate"))
	before, err := envs["dev"].EventMesh(t).ListQueues(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dataDir := []string{"TF_DATA_DIR=" + filepath.Join(t.TempDir(), "tfdata")}
	for _, c := range []struct {
		env  []string
		want string
	}{
		{nil, "The backend is initialised for another environment than the variable file's (dev)"},
		{dataDir, "This state belongs to the environment test, and the variable file is dev's"},
	} {
		if c.env != nil {
			// The working directory only under TF_DATA_DIR: no .terraform/ beside the configuration.
			if err := os.RemoveAll(filepath.Join(dir, ".terraform")); err != nil {
				t.Fatal(err)
			}
			if r := acctest.RunTerraformEnv(t, tf, dir, cliConfig, append(noEnvCreds, c.env...), "init", "-input=false", "-no-color", "-reconfigure", "-backend-config=test.tfbackend"); r.ExitCode != 0 {
				t.Fatalf("init with TF_DATA_DIR: exit %d:\n%s", r.ExitCode, r.Output)
			}
		}
		for _, cmd := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
			r := acctest.RunTerraformEnv(t, tf, dir, cliConfig, append(noEnvCreds, c.env...), append(cmd, "-input=false", "-no-color", "-var-file=dev.tfvars")...)
			if flat := strings.Join(strings.Fields(strings.ReplaceAll(r.Output, "│", " ")), " "); r.ExitCode != 1 || !strings.Contains(flat, c.want) {
				t.Errorf("%s -var-file=dev.tfvars against test's backend (%v): exit %d, want 1 with %q:\n%s", cmd[0], c.env, r.ExitCode, c.want, r.Output)
			}
		}
	}
	if after, err := os.ReadFile(filepath.Join(dir, "test.tfstate")); err != nil || !bytes.Equal(after, testState) {
		t.Errorf("test.tfstate changed by dev's variable file (%v)", err)
	}
	if after, err := envs["dev"].EventMesh(t).ListQueues(context.Background()); err != nil || len(after) != len(before) {
		t.Errorf("dev's Event Mesh holds %d queues after the refused plans, %d before (%v)", len(after), len(before), err)
	}

	// A backend whose settings hold the environment's name only inside another word (preprod.tfstate) is not
	// that environment's: prod's variable file is refused against it.
	acctest.WriteFile(t, filepath.Join(dir, "preprod.tfbackend"), "path = \"preprod.tfstate\"\n")
	run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config=preprod.tfbackend")
	pre := acctest.RunTerraformEnv(t, tf, dir, cliConfig, noEnvCreds, "plan", "-input=false", "-no-color", "-var-file=prod.tfvars")
	if flat := strings.Join(strings.Fields(strings.ReplaceAll(pre.Output, "│", " ")), " "); pre.ExitCode != 1 ||
		!strings.Contains(flat, "The backend is initialised for another environment than the variable file's (prod)") {
		t.Errorf("plan -var-file=prod.tfvars against preprod's backend: exit %d, want 1 with the guard's error:\n%s", pre.ExitCode, pre.Output)
	}
	if err := os.Remove(filepath.Join(dir, "preprod.tfbackend")); err != nil {
		t.Fatal(err)
	}

	// The module refuses a budget it cannot meet, whatever the environment.
	run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config=dev.tfbackend")
	r := acctest.RunTerraformEnv(t, tf, dir, cliConfig, noEnvCreds, "plan", "-input=false", "-no-color", "-var-file=dev.tfvars",
		"-var", `queues={orders={total_attempts=2}}`)
	if r.ExitCode != 1 || !strings.Contains(r.Output, "must be 3 to 257") {
		t.Errorf("a budget of 2 was not refused by the module (exit %d):\n%s", r.ExitCode, r.Output)
	}

	for _, e := range landscapeEnvironments {
		run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config="+e.name+".tfbackend")
		run(0, "destroy", "-auto-approve", "-input=false", "-no-color", "-var-file="+e.name+".tfvars")
		queues, err := envs[e.name].EventMesh(t).ListQueues(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queues {
			if !strings.HasPrefix(q.Name, emulator.SampleLandscapePrefix) {
				t.Errorf("%s: the queue %s survived destroy", e.name, q.Name)
			}
		}
	}
}

// sandbox is `make sandbox` (scripts/sandbox.sh) running in the background: its directory and
// the export lines it prints, which a reader pastes into another shell.
type sandbox struct {
	dir     string
	exports string
}

// startSandbox runs scripts/sandbox.sh as `make sandbox` does, with SANDBOX_DIR in a temporary
// directory and a free port, until its emulator has written the service keys; the test's cleanup
// stops it.
func startSandbox(t *testing.T) sandbox {
	t.Helper()
	dir := t.TempDir()
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "sandbox.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script)
	cmd.Env = append(readerEnv(), "SANDBOX_DIR="+dir, "SANDBOX_LISTEN=127.0.0.1:0")
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // the emulator: the script execs it
		if err := <-exited; err != nil {
			t.Logf("make sandbox stopped: %v", err)
		}
	})
	deadline := time.After(5 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(dir, "keys", "advanced-event-mesh.json")); err == nil {
			break
		}
		select {
		case err := <-exited:
			exited <- err // for the cleanup
			t.Fatalf("make sandbox exited (%v):\n%s\n%s", err, stdout.String(), stderr.String())
		case <-deadline:
			t.Fatalf("make sandbox did not start within 5 minutes:\n%s\n%s", stdout.String(), stderr.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	var exports []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "export ") {
			exports = append(exports, l)
		}
	}
	if len(exports) < 3 {
		t.Fatalf("make sandbox printed %d export lines, want the CLI configuration and the service keys:\n%s", len(exports), stdout.String())
	}
	return sandbox{dir: dir, exports: strings.Join(exports, "\n") + "\n"}
}

// lockedBuffer is a bytes.Buffer that a command writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// readerShell runs script in bash in dir as a reader's shell after `make sandbox`: the export
// lines the sandbox printed, `terraform` the CLI under test, apply and destroy confirmed.
func readerShell(t *testing.T, tf string, sb sandbox, dir, script string) (string, error) {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tf, filepath.Join(bin, "terraform")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", sb.exports+script)
	cmd.Dir = dir
	cmd.Env = append(readerEnv(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+home,
		"TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1",
		"TF_CLI_ARGS_apply=-auto-approve", "TF_CLI_ARGS_destroy=-auto-approve")
	out, err := cmd.CombinedOutput()
	return ansiRe.ReplaceAllString(string(out), ""), err
}

// `terraform init` works against `make sandbox` as it does against the registry: in an empty
// directory with a configuration that declares the provider, and the environment the sandbox
// prints, init exits 0, installs sapmessaging/sapmessaging and writes the lock file; apply then runs.
func TestAccSandbox_init(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	sb := startSandbox(t)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.RequiredProviders+`
data "sapmessaging_queues" "all" {}

output "queues" {
  value = length(data.sapmessaging_queues.all.queues)
}
`)
	out, err := readerShell(t, tf, sb, dir, "terraform init -no-color && terraform apply -no-color")
	if err != nil {
		t.Fatalf("terraform init and apply against the sandbox: %v\n%s", err, out)
	}
	lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	// The registry host is the CLI's: registry.terraform.io for Terraform, registry.opentofu.org for OpenTofu.
	if err != nil || !regexp.MustCompile(`provider "registry\.(terraform\.io|opentofu\.org)/sapmessaging/sapmessaging"`).Match(lock) {
		t.Errorf("no lock file of sapmessaging/sapmessaging after terraform init (%v):\n%s\n%s", err, lock, out)
	}
	if want := fmt.Sprintf("queues = %d", len(emulator.SampleQueues)); !strings.Contains(out, want) {
		t.Errorf("the apply against the sandbox does not show %q:\n%s", want, out)
	}
}

// examples/landscapes/README.md run as written after `make sandbox`: from a clone of the
// repository, every block of the README that is not marked skip, in one shell with the
// environment the sandbox prints. It applies dev and refuses test's variables against dev's
// backend, and git, in the clone, would commit neither the state, nor .terraform/, nor the keys.
func TestAccLandscapeReadme(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	readme := acctest.ReadFile(t, filepath.Join("..", "..", "examples", "landscapes", "README.md"))
	steps, err := guideSteps(string(readme))
	if err != nil {
		t.Fatalf("examples/landscapes/README.md: %v", err)
	}
	sb := startSandbox(t)
	clone := t.TempDir()
	acctest.CopyTree(t, filepath.Join("..", "..", "examples"), filepath.Join(clone, "examples"))
	var script strings.Builder
	for _, s := range steps {
		if s.skip != "" || len(s.commands) == 0 {
			continue
		}
		fmt.Fprintf(&script, ": > \"$HOME/block.out\"\n")
		for _, c := range s.commands {
			// In the shell itself, not a pipeline's subshell: a `cd` carries over.
			fmt.Fprintf(&script, "{\n%s\n} > \"$HOME/cmd.out\" 2>&1\n__rc=$?; cat \"$HOME/cmd.out\"; cat \"$HOME/cmd.out\" >> \"$HOME/block.out\"\n", c)
			fmt.Fprintf(&script, "[ \"$__rc\" -eq 0 ] || { echo 'readme-test: a command of the block at line %d exited '\"$__rc\"; exit 90; }\n", s.line)
		}
		for _, e := range s.expect {
			fmt.Fprintf(&script, "grep -qF -- %s \"$HOME/block.out\" || { echo %s; exit 91; }\n", shellQuote(e),
				shellQuote(fmt.Sprintf("readme-test: the output of the block at line %d does not show %q", s.line, e)))
		}
	}
	out, err := readerShell(t, tf, sb, clone, script.String())
	if err != nil {
		t.Fatalf("examples/landscapes/README.md does not run as written (%v):\n%s", err, out)
	}
	dir := filepath.Join(clone, "examples", "landscapes")
	if _, err := os.Stat(filepath.Join(dir, "dev.tfstate")); err != nil {
		t.Errorf("no state of dev: %v\n%s", err, out)
	}
	// The queues of dev are on the sandbox: the next plan is empty.
	if out2, err := readerShell(t, tf, sb, dir, "terraform plan -detailed-exitcode -no-color -var-file=dev.tfvars"); err != nil {
		t.Errorf("the plan after the README's apply is not empty (%v):\n%s", err, out2)
	}

	// What git would take from the clone.
	git := exec.Command("sh", "-c", "git init -q . && git add --dry-run -A examples/landscapes")
	git.Dir = clone
	added, err := git.CombinedOutput()
	if err != nil {
		t.Fatalf("git add --dry-run: %v\n%s", err, added)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(added)), "\n") {
		f := strings.TrimSuffix(strings.TrimPrefix(line, "add '"), "'")
		if strings.Contains(f, "/.terraform/") || strings.Contains(f, ".tfstate") || strings.Contains(f, "/keys/") {
			t.Errorf("git would commit %s: examples/landscapes/.gitignore does not keep it out", f)
		}
	}
	if !strings.Contains(string(added), "examples/landscapes/.terraform.lock.hcl") {
		t.Errorf("git would not commit the lock file:\n%s", added)
	}
}

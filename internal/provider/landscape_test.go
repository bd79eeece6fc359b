package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
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
	b, err := os.ReadFile(filepath.Join(plugins, "terraform-provider-sapmessaging"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "terraform-provider-sapmessaging_v0.1.0"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(dir, "mirror.tfrc")
	writeFile(t, cliConfig, fmt.Sprintf(`provider_installation {
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
	tf := terraformCLI(t)
	t.Parallel()
	work := t.TempDir()
	plugins := filepath.Join(work, "plugins")
	buildProvider(t, plugins)
	cliConfig := writeMirrorCLIConfig(t, work, plugins)

	examples := filepath.Join(work, "examples")
	copyTree(t, filepath.Join("..", "..", "examples"), examples)
	dir := filepath.Join(examples, "landscapes")
	// No credentials in the environment: each environment's come from its variable file.
	noEnvCreds := []string{EnvEventMeshServiceKey + "=", EnvCloudIntegrationServiceKey + "="}
	run := func(want int, args ...string) cliRun {
		t.Helper()
		r := runTerraformEnv(t, tf, dir, cliConfig, noEnvCreds, args...)
		if r.exitCode != want {
			t.Fatalf("%s %s: exit %d, want %d:\n%s", filepath.Base(tf), strings.Join(args, " "), r.exitCode, want, r.output)
		}
		return r
	}

	envs := map[string]*testEnv{}
	for _, e := range landscapeEnvironments {
		env := newTestEnv(t)
		if err := env.srv.LoadSampleContent(); err != nil {
			t.Fatal(err)
		}
		if err := env.srv.WriteKeys(filepath.Join(dir, "keys", e.name)); err != nil {
			t.Fatal(err)
		}
		envs[e.name] = env
	}

	for _, e := range landscapeEnvironments {
		env := envs[e.name]
		run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config="+e.name+".tfbackend")
		r := run(0, "apply", "-auto-approve", "-input=false", "-no-color", "-var-file="+e.name+".tfvars")
		// Two queues with their DMQs, the subscriptions, a webhook, two senders and two deployments.
		if want := fmt.Sprintf("Apply complete! Resources: %d added", 9+e.topicsOfOrders); !strings.Contains(r.output, want) {
			t.Errorf("%s: the apply does not say %q:\n%s", e.name, want, r.output)
		}
		run(0, "plan", "-detailed-exitcode", "-input=false", "-no-color", "-var-file="+e.name+".tfvars")
		if _, err := os.Stat(filepath.Join(dir, e.name+".tfstate")); err != nil {
			t.Errorf("%s: no state file of its own: %v", e.name, err)
		}

		out := map[string]struct{ Value any }{}
		r = run(0, "output", "-json")
		if err := json.Unmarshal([]byte(r.output[strings.Index(r.output, "{"):]), &out); err != nil {
			t.Fatalf("output -json: %v\n%s", err, r.output)
		}
		if got, _ := out["worst_case_attempts"].Value.(map[string]any); got["orders"] != float64(e.attempts) {
			t.Errorf("%s: worst_case_attempts of orders = %v, want %d", e.name, got, e.attempts)
		}
		if got := out["runtime_status"].Value; !reflect.DeepEqual(got, map[string]any{"OrdersInbound": "STARTED", "Acme_Orders_Retry": "STARTED"}) {
			t.Errorf("%s: runtime_status = %v, want both flows STARTED", e.name, got)
		}

		ns := "acme/crm/" + e.name + "/"
		for name, want := range map[string]int64{"orders": e.redeliveries, "orders-push": e.pushRedeliveries} {
			q, ok := env.srv.Queue(ns + name)
			if !ok || q.MaxRedeliveryCount != want || q.DeadMsgQueue == nil || *q.DeadMsgQueue != ns+name+"/dmq" {
				t.Errorf("%s: queue %s on its emulator = %+v (found %v), want max redelivery %d and its own DMQ", e.name, ns+name, q, ok, want)
			}
		}
		subs, err := env.eventMesh(t).ListSubscriptions(context.Background(), ns+"orders")
		if err != nil || len(subs) != e.topicsOfOrders {
			t.Errorf("%s: subscriptions of orders = %v, %v; want %d", e.name, subs, err, e.topicsOfOrders)
		}
		for _, flow := range []string{"OrdersInbound", "Acme_Orders_Retry"} {
			if d, ok := env.srv.Deployed(flow); !ok || d.Status != "STARTED" {
				t.Errorf("%s: the flow %s does not run: %+v", e.name, flow, d)
			}
		}
		if got, _ := env.senderProperty("OrdersInbound", "maxRetries"); got != "1" {
			t.Errorf("%s: maxRetries of OrdersInbound = %q, want 1", e.name, got)
		}
		if got, _ := env.senderProperty("OrdersInbound", "NumberConcurrentProcesses"); got != e.concurrency {
			t.Errorf("%s: concurrent processes of OrdersInbound = %q, want %s", e.name, got, e.concurrency)
		}
		w, err := env.messaging(t).GetWebhook(context.Background(), ns+"orders-push/webhook")
		if err != nil || w.Queue != ns+"orders-push" || w.Endpoint != e.endpoint {
			t.Errorf("%s: webhook = %+v, %v; want it on %sorders-push pushing to %s", e.name, w, err, ns, e.endpoint)
		}
		// Its credentials reached its own emulator only.
		for _, other := range landscapeEnvironments {
			if other.name == e.name {
				continue
			}
			queues, err := envs[other.name].eventMesh(t).ListQueues(context.Background())
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

	// The module refuses a budget it cannot meet, whatever the environment.
	run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config=dev.tfbackend")
	r := runTerraformEnv(t, tf, dir, cliConfig, noEnvCreds, "plan", "-input=false", "-no-color", "-var-file=dev.tfvars",
		"-var", `queues={orders={total_attempts=2}}`)
	if r.exitCode != 1 || !strings.Contains(r.output, "must be 3 to 257") {
		t.Errorf("a budget of 2 was not refused by the module (exit %d):\n%s", r.exitCode, r.output)
	}

	for _, e := range landscapeEnvironments {
		run(0, "init", "-input=false", "-no-color", "-reconfigure", "-backend-config="+e.name+".tfbackend")
		run(0, "destroy", "-auto-approve", "-input=false", "-no-color", "-var-file="+e.name+".tfvars")
		queues, err := envs[e.name].eventMesh(t).ListQueues(context.Background())
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

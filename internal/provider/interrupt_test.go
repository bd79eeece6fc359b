package provider_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// noOrphanQueues asserts that every queue the emulator holds is in the state (tainted or not):
// whatever interrupted the apply, no queue was left behind that no state knows of. It returns
// how many queues the emulator holds and how many state entries are tainted.
func noOrphanQueues(t *testing.T, srv *emulatortest.Emulator, resources []acctest.StateResource) (held, tainted int) {
	t.Helper()
	inState := map[string]bool{}
	for _, r := range resources {
		if r.Typ == "sapmessaging_queue" || r.Typ == "sapmessaging_dead_message_queue" {
			inState[r.Attrs["name"]] = true
		}
		if r.Tainted {
			tainted++
		}
	}
	var orphans []string
	for _, q := range srv.Queues() {
		held++
		if !inState[q.Name] {
			orphans = append(orphans, q.Name)
		}
	}
	if len(orphans) > 0 {
		slices.Sort(orphans)
		t.Errorf("%d queue(s) on the emulator are in no state after the interrupted apply: %v", len(orphans), orphans)
	}
	return held, tainted
}

// convergeAfter fails the test with the output of the disturbed apply (what) when a check after it
// failed; else it applies again and checks that the emulator holds exactly the fleet of n queues
// with their dead message queues and subscriptions, and that the plan after it is empty.
func convergeAfter(t *testing.T, w *acctest.CLIWork, env *acctest.TestEnv, out *bytes.Buffer, what string, n int) {
	t.Helper()
	if t.Failed() {
		t.Fatalf("output of the %s:\n%s", what, out.String())
	}
	w.Converge(t, env, 2*n, n)
}

// waitForPUTs waits until the emulator has received n queue PUTs.
func waitForPUTs(t *testing.T, srv *emulatortest.Emulator, n int64, out *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for srv.Stats().Routes["PUT /queues/{queue}"] < n {
		if time.Now().After(deadline) {
			t.Fatalf("the apply sent fewer than %d queue PUTs in 3 minutes:\n%s", n, out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Ctrl-C (SIGINT to Terraform and its provider) during an apply of 100 queues with their dead
// message queues and subscriptions, while the service holds back answers to changes it made:
// every queue on the service is in the state, those whose create was cut off as tainted; the
// next apply converges to exactly the configuration and the plan after it is empty.
func TestAccReliability_interruptedApply(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	const n = 100
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	w := acctest.NewCLIWork(t, tf, srv, "  max_retries = 3", fleetHCL("acme/crm/prod/sigint", n, 5))

	// Each change is made at once and answered 300ms later: the interrupt finds changes made
	// whose answers are still on their way.
	srv.SetFaults(emulator.Faults{ResponseLatency: 300 * time.Millisecond})
	cmd, out := w.Start(t, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=10")
	waitForPUTs(t, srv, 60, out)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if err == nil {
		t.Fatalf("the interrupted apply succeeded; the interrupt came too late:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "Interrupt received") {
		t.Fatalf("Terraform did not see the interrupt:\n%s", out.String())
	}
	srv.ClearFaults()
	held, tainted := noOrphanQueues(t, srv, w.State(t))
	t.Logf("after the interrupt: the emulator holds %d queues, %d state entries are tainted; %d queue PUTs sent",
		held, tainted, srv.Stats().Routes["PUT /queues/{queue}"])
	if strings.Contains(out.String(), "Queue May Exist") && tainted == 0 {
		t.Errorf("a create ended with an unknown outcome but nothing is tainted:\n%s", out.String())
	}
	convergeAfter(t, w, env, out, "interrupted apply", n)
}

// The emulator stops mid-apply (connections cut, requests refused) and comes back 3 seconds
// later with its state file, on the same address: every queue it holds is in the state, and
// the next apply converges with an empty plan after it.
func TestAccReliability_emulatorRestartedMidApply(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	const n = 50
	stateFile := filepath.Join(t.TempDir(), "emulator.json")
	srv := emulatortest.Start(t, emulator.Options{StateFile: stateFile})
	addr := strings.TrimPrefix(srv.URL(), "http://")
	w := acctest.NewCLIWork(t, tf, srv, "  max_retries = 1", fleetHCL("acme/crm/prod/restart", n, 5))

	srv.SetFaults(emulator.Faults{Latency: 50 * time.Millisecond, ResponseLatency: 50 * time.Millisecond})
	cmd, out := w.Start(t, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=10")
	waitForPUTs(t, srv, 30, out)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	restarted := emulator.New(emulator.Options{StateFile: stateFile})
	if err := restarted.Start(addr); err != nil {
		t.Fatalf("restarting the emulator on %s: %v", addr, err)
	}
	t.Cleanup(func() { _ = restarted.Close() })
	srv = emulatortest.FromServer(t, restarted)
	env := &acctest.TestEnv{Srv: srv}
	err := cmd.Wait()
	held, tainted := noOrphanQueues(t, srv, w.State(t))
	t.Logf("after the restart: apply error %v; the emulator holds %d queues, %d state entries are tainted", err, held, tainted)
	convergeAfter(t, w, env, out, "apply", n)
}

// A queue recorded as tainted by a create with an unknown outcome that has received a message
// since is not deleted by the replacing apply: the error says to untaint it, after which the
// apply updates it in place and the message is still there.
func TestAccReliability_taintedQueueKeepsMessages(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	const name = "acme/crm/prod/tainted"
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	w := acctest.NewCLIWork(t, tf, srv, "  max_retries = 0", fmt.Sprintf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 4
}
`, name))

	srv.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse)
	srv.InjectNextOn("GET /queues/{queue}", emulator.Fault503)
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color"); r.ExitCode == 0 || !strings.Contains(r.Output, "Queue May Exist") {
		t.Fatalf("the apply with a lost answer and a failing read back did not fail with Queue May Exist (exit %d):\n%s", r.ExitCode, r.Output)
	}
	if st := w.State(t); len(st) != 1 || !st[0].Tainted {
		t.Fatalf("state %+v, want the queue recorded as tainted", st)
	}
	if err := env.Messaging(t).Publish(t.Context(), name, []byte(`{"id":1}`), "application/json"); err != nil {
		t.Fatal(err)
	}
	r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color")
	if r.ExitCode == 0 || !strings.Contains(r.Output, "Queue Holds Messages") || !strings.Contains(strings.Join(strings.Fields(r.Output), " "), "terraform untaint") {
		t.Fatalf("the replacing apply did not refuse to delete the queue holding a message (exit %d):\n%s", r.ExitCode, r.Output)
	}
	if q, ok := srv.Queue(name); !ok || q.MessageCount != 1 {
		t.Fatalf("the queue or its message is gone: %+v", q)
	}
	if r := w.Run(t, "untaint", "-no-color", "sapmessaging_queue.q"); r.ExitCode != 0 {
		t.Fatalf("untaint failed:\n%s", r.Output)
	}
	w.Converge(t, env, 1, 0)
	if q, _ := srv.Queue(name); q.MessageCount != 1 {
		t.Fatalf("after the untaint and apply the queue holds %d messages, want 1", q.MessageCount)
	}
}

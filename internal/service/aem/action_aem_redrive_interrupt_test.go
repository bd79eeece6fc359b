package aem_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// aemRedriveNamed finds the messages an interrupted or stopped redrive names as in both queues or perhaps in both.
var aemRedriveNamed = regexp.MustCompile(`Message (\d+) (?:\(replication group message ID \S+\) is still in|was copied to)`)

// aemRedriveOnBoth finds the messages a redrive names as certainly in both queues.
var aemRedriveOnBoth = regexp.MustCompile(`Message (\d+) was copied to "[^"]+", but its delete from "[^"]+" failed`)

// startAEMRedrive makes the dead message queue dmq (with dmqSettings) and the queue that names it, publishes
// published messages into dmq, plans the redrive of all of them to the queue and starts its apply with every
// request delayed by latency, in its own process group; it returns once the redrive started.
func startAEMRedrive(t *testing.T, dmq string, dmqSettings aem.QueueSettings, queue string, published int,
	latency time.Duration) (*acctest.TestEnv, *exec.Cmd, *bytes.Buffer) {
	t.Helper()
	tf := acctest.ActionCLI(t)
	env := acctest.NewTestEnv(t)
	env.CreateAEMQueues(t, aem.Queue{Name: dmq, QueueSettings: dmqSettings},
		aem.Queue{Name: queue, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
			MaxRedeliveryCount: aem.Ptr[int64](3), DeadMsgQueue: aem.Ptr(dmq)}})
	env.AEMPublish(t, dmq, published)
	cr := env.Srv.AdvancedEventMeshCredentials()
	w := acctest.NewCLIWork(t, tf, env.Srv, fmt.Sprintf("  advanced_event_mesh = {\n    semp_url = %q\n    msg_vpn_name = %q\n    username = %q\n    password = %q\n  }",
		cr.SEMPURL, cr.MsgVpnName, cr.Username, cr.Password), fmt.Sprintf(`
action "sapmessaging_aem_redrive" "r" {
  config {
    from         = %q
    to           = %q
    max_messages = %d
  }
}
`, dmq, queue, published))
	if r := w.Run(t, "plan", "-input=false", "-no-color", "-invoke=action.sapmessaging_aem_redrive.r", "-out=p.tfplan"); r.ExitCode != 0 {
		t.Fatalf("the plan failed (exit %d):\n%s", r.ExitCode, r.Output)
	}
	env.Srv.SetFaults(emulator.Faults{Latency: latency})
	cmd, out := w.Start(t, "apply", "-input=false", "-no-color", "p.tfplan")
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(out.String(), "Redriving") {
		if time.Now().After(deadline) {
			t.Fatalf("the redrive did not start in 2 minutes:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return env, cmd, out
}

// interruptAEMRedrive sends Ctrl-C after wait to the apply of startAEMRedrive, waits for its end and clears the
// faults; it returns the apply's output, flat, and its exit error.
func interruptAEMRedrive(t *testing.T, env *acctest.TestEnv, cmd *exec.Cmd, out *bytes.Buffer, wait time.Duration) (string, error) {
	t.Helper()
	time.Sleep(wait)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	env.Srv.ClearFaults()
	return acctest.Flat(out.String()), err
}

// Ctrl-C (SIGINT to Terraform and its provider, as a terminal sends it) while a redrive's copies are under way
// and some of their answers come 50 seconds late: the apply fails with "Redrive Interrupted", counts the moved
// messages, and names every message left in both queues.
func TestAccAEMRedriveAction_interrupted(t *testing.T) {
	const dmq, queue, published = "r/dmq", "r/q", 30
	env, cmd, out := startAEMRedrive(t, dmq, aem.QueueSettings{IngressEnabled: aem.Ptr(true), RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](604800)},
		queue, published, 400*time.Millisecond)
	env.Srv.SetFaults(emulator.Faults{Latency: 400 * time.Millisecond, Rate: 0.6, Kinds: []emulator.FaultKind{emulator.FaultLateResponse},
		Seed: 5, SlowDelay: 50 * time.Second})
	flat, err := interruptAEMRedrive(t, env, cmd, out, 1500*time.Millisecond)
	output := out.String()
	if err == nil {
		t.Fatalf("the interrupted redrive ended with exit 0:\n%s", output)
	}
	if !strings.Contains(flat, "Redrive Interrupted") {
		t.Fatalf("the interrupted redrive does not fail with Redrive Interrupted:\n%s", output)
	}

	// Where the messages are: moved ones only in the queue, the others in the DMQ, some of those in both. A
	// message whose delete got no answer is named as perhaps still in the DMQ, and is not counted as moved.
	depths := env.AEMDepths(t, dmq, queue)
	left, both := published-depths[0], depths[0]+depths[1]-published
	m := regexp.MustCompile(`interrupted after (\d+) moved messages?`).FindStringSubmatch(flat)
	if m == nil {
		t.Fatalf("the error does not count the moved messages:\n%s", output)
	}
	moved, _ := strconv.Atoi(m[1])
	onDMQ := map[int64]bool{}
	msgs, lerr := env.AEM(t).ListMessages(t.Context(), dmq)
	if lerr != nil {
		t.Fatal(lerr)
	}
	for _, m := range msgs {
		onDMQ[m.MsgID] = true
	}
	named := map[int64]bool{}
	for _, m := range aemRedriveNamed.FindAllStringSubmatch(flat, -1) {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		named[id] = true
	}
	for _, m := range aemRedriveOnBoth.FindAllStringSubmatch(flat, -1) {
		if id, _ := strconv.ParseInt(m[1], 10, 64); !onDMQ[id] {
			t.Errorf("message %d is named as in both queues, but is not on %s", id, dmq)
		}
	}
	t.Logf("after the interrupt: %d off the DMQ, %d counted as moved, %d in both queues, %d named", left, moved, both, len(named))
	if moved > left || moved+len(named) < left {
		t.Errorf("%d messages left the DMQ; the error counts %d moved and names %d:\n%s", left, moved, len(named), output)
	}
	if len(named) < both {
		t.Errorf("%d messages are in both queues, the error names %d:\n%s", both, len(named), output)
	}
}

// Ctrl-C during the redrive's first list of the DMQ: nothing moved, and the apply fails with Redrive
// Interrupted, saying so.
func TestAccAEMRedriveAction_interruptedDuringList(t *testing.T) {
	const dmq, queue, published = "l/dmq", "l/q", 5
	// Every request waits 3 seconds: the interrupt, a second after "Redriving", finds the first list under way.
	env, cmd, out := startAEMRedrive(t, dmq, aem.QueueSettings{IngressEnabled: aem.Ptr(true)}, queue, published, 3*time.Second)
	flat, err := interruptAEMRedrive(t, env, cmd, out, time.Second)
	if err == nil || !strings.Contains(flat, "Redrive Interrupted") || !strings.Contains(flat, "interrupted after 0 moved messages") ||
		!strings.Contains(flat, "no message is in both queues") {
		t.Fatalf("the redrive interrupted during its first list (exit error %v):\n%s", err, out.String())
	}
	env.ExpectAEMDepths(t, "after the interrupt", []string{dmq, queue}, published, 0)
}

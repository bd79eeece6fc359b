package aem_test

import (
	"fmt"
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

// Ctrl-C (SIGINT to Terraform and its provider, as a terminal sends it) while a redrive's copies are under way
// and some of their answers come 50 seconds late: the apply fails with "Redrive Interrupted", counts the moved
// messages, and names every message left in both queues.
func TestAccAEMRedriveAction_interrupted(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no actions: the redrive needs Terraform 1.14 or later (make testacc-tf114)", tf)
	}
	t.Parallel()
	const dmq, queue, published = "r/dmq", "r/q", 30
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	for _, q := range []aem.Queue{
		{Name: dmq, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](604800)}},
		{Name: queue, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
			MaxRedeliveryCount: aem.Ptr[int64](3), DeadMsgQueue: aem.Ptr(dmq)}},
	} {
		if _, err := c.CreateQueue(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
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

	env.Srv.SetFaults(emulator.Faults{Latency: 400 * time.Millisecond})
	cmd, out := w.Start(t, "apply", "-input=false", "-no-color", "p.tfplan")
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(out.String(), "Redriving") {
		if time.Now().After(deadline) {
			t.Fatalf("the redrive did not start in 2 minutes:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	env.Srv.SetFaults(emulator.Faults{Latency: 400 * time.Millisecond, Rate: 0.6, Kinds: []emulator.FaultKind{emulator.FaultLateResponse},
		Seed: 5, SlowDelay: 50 * time.Second})
	time.Sleep(1500 * time.Millisecond)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	env.Srv.ClearFaults()
	output := out.String()
	if err == nil {
		t.Fatalf("the interrupted redrive ended with exit 0:\n%s", output)
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(output, "│", " ")), " ")
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
	msgs, lerr := c.ListMessages(t.Context(), dmq)
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
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no actions: the redrive needs Terraform 1.14 or later (make testacc-tf114)", tf)
	}
	t.Parallel()
	const dmq, queue, published = "l/dmq", "l/q", 5
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	for _, q := range []aem.Queue{
		{Name: dmq, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}},
		{Name: queue, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
			MaxRedeliveryCount: aem.Ptr[int64](3), DeadMsgQueue: aem.Ptr(dmq)}},
	} {
		if _, err := c.CreateQueue(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
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
	// Every request waits 3 seconds: the interrupt, a second after "Redriving", finds the first list under way.
	env.Srv.SetFaults(emulator.Faults{Latency: 3 * time.Second})
	cmd, out := w.Start(t, "apply", "-input=false", "-no-color", "p.tfplan")
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(out.String(), "Redriving") {
		if time.Now().After(deadline) {
			t.Fatalf("the redrive did not start in 2 minutes:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(time.Second)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	env.Srv.ClearFaults()
	flat := strings.Join(strings.Fields(strings.ReplaceAll(out.String(), "│", " ")), " ")
	if err == nil || !strings.Contains(flat, "Redrive Interrupted") || !strings.Contains(flat, "interrupted after 0 moved messages") ||
		!strings.Contains(flat, "no message is in both queues") {
		t.Fatalf("the redrive interrupted during its first list (exit error %v):\n%s", err, out.String())
	}
	if got := env.AEMDepths(t, dmq, queue); got[0] != published || got[1] != 0 {
		t.Fatalf("after the interrupt: %v on the DMQ and the queue, want [%d 0]", got, published)
	}
}

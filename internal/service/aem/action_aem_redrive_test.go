package aem_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

const (
	aemRedriveDMQ   = "acme/aem/prod/orders/dmq"
	aemRedriveQueue = "acme/aem/prod/orders"
)

// The action invoked as a user would, `terraform apply -invoke=...`: bounded runs that move 10, 10 and the
// last 5 messages, with progress and a summary; refusals and warnings at plan; actions change no state.
func TestAccAEMRedriveAction_invokeFromCLI(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no actions: the redrive needs Terraform 1.14 or later (make testacc-tf114)", tf)
	}
	t.Parallel()
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	for _, q := range []aem.Queue{
		{Name: aemRedriveDMQ, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](604800)}},
		{Name: aemRedriveQueue, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
			MaxRedeliveryCount: aem.Ptr[int64](5), DeadMsgQueue: aem.Ptr(aemRedriveDMQ)}},
		{Name: "acme/aem/prod/closed", QueueSettings: aem.QueueSettings{}},
		{Name: "acme/aem/prod/forever", QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true)}},
	} {
		if _, err := c.CreateQueue(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	env.AEMPublish(t, aemRedriveDMQ, 25)

	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "provider.tf"), acctest.RequiredProviders+env.AEMConfig(""))
	action := func(name, from, to string, n int) {
		acctest.WriteFile(t, filepath.Join(dir, name+".tf"), fmt.Sprintf("action \"sapmessaging_aem_redrive\" %q {\n  config {\n    from         = %q\n    to           = %q\n    max_messages = %d\n  }\n}\n", name, from, to, n))
	}
	action("orders", aemRedriveDMQ, aemRedriveQueue, 10)
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	invoke := func(name string, want int) acctest.CLIRun {
		return w.MustRun(want, "apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sapmessaging_aem_redrive."+name)
	}
	r := invoke("orders", 0)
	for _, want := range []string{
		"Redriving up to 10 messages from acme/aem/prod/orders/dmq to acme/aem/prod/orders",
		"ended: moved 10", "15 messages left in acme/aem/prod/orders/dmq",
	} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("the first invoke's output lacks %q:\n%s", want, r.Output)
		}
	}
	if got := env.AEMDepths(t, aemRedriveDMQ, aemRedriveQueue); got[0] != 15 || got[1] != 10 {
		t.Fatalf("after the first invoke: %v on the DMQ and the queue, want [15 10]", got)
	}
	invoke("orders", 0)
	r = invoke("orders", 0)
	if !strings.Contains(r.Output, "ended: moved 5") || !strings.Contains(r.Output, "has no more messages") {
		t.Errorf("the third invoke's output:\n%s", r.Output)
	}
	if got := env.AEMDepths(t, aemRedriveDMQ, aemRedriveQueue); got[0] != 0 || got[1] != 25 {
		t.Fatalf("after three invokes: %v, want [0 25]", got)
	}
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")

	// Refused at plan, nothing moved: the same queue, a missing queue, a destination that takes no message.
	for _, tc := range []struct{ name, from, to, want string }{
		{"same", aemRedriveQueue, aemRedriveQueue, "Redrive Into the Same Queue"},
		{"missing", "acme/aem/prod/gone", aemRedriveQueue, "Queue Not Found"},
		{"closed", aemRedriveQueue, "acme/aem/prod/closed", "Redrive Into a Queue That Takes No Messages"},
	} {
		action(tc.name, tc.from, tc.to, 1)
		r := invoke(tc.name, 1)
		if !strings.Contains(r.Output, tc.want) {
			t.Errorf("invoking %s: the output lacks %q:\n%s", tc.name, tc.want, r.Output)
		}
		if err := os.Remove(filepath.Join(dir, tc.name+".tf")); err != nil {
			t.Fatal(err)
		}
	}
	if got := env.AEMDepths(t, aemRedriveDMQ, aemRedriveQueue); got[0] != 0 || got[1] != 25 {
		t.Fatalf("after the refused invokes: %v, want [0 25]", got)
	}

	// Warned: into a dead message queue, into a queue that retries for ever.
	action("back", aemRedriveQueue, aemRedriveDMQ, 1)
	r = invoke("back", 0)
	if !strings.Contains(r.Output, "Redrive Into a Dead Message Queue") || !strings.Contains(r.Output, "ended: moved 1") {
		t.Errorf("the redrive into the DMQ:\n%s", r.Output)
	}
	action("forever", aemRedriveQueue, "acme/aem/prod/forever", 1)
	r = invoke("forever", 0)
	if !strings.Contains(r.Output, "Redrive Into a Queue That Redelivers for Ever") {
		t.Errorf("the redrive into a queue at max_redelivery_count 0:\n%s", r.Output)
	}
	if got := env.AEMDepths(t, aemRedriveDMQ, aemRedriveQueue, "acme/aem/prod/forever"); got[0] != 1 || got[1] != 23 || got[2] != 1 {
		t.Fatalf("after the warned invokes: %v, want [1 23 1]", got)
	}
}

// Without the advanced_event_mesh block the action fails at plan, saying what to set.
func TestAccAEMRedriveAction_notConfigured(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no actions: the redrive needs Terraform 1.14 or later (make testacc-tf114)", tf)
	}
	t.Parallel()
	env := acctest.NewTestEnv(t)
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.RequiredProviders+env.Config(`
action "sapmessaging_aem_redrive" "orders" {
  config {
    from         = "orders/dmq"
    to           = "orders"
    max_messages = 1
  }
}
`))
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	r := w.MustRun(1, "apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sapmessaging_aem_redrive.orders")
	if !strings.Contains(r.Output, "Advanced Event Mesh Not Configured") || !strings.Contains(r.Output, framework.EnvAEMSEMPURL) {
		t.Errorf("the output lacks the missing connection's error:\n%s", r.Output)
	}
}

// The shipped example against the sample landscape's queue acme/aem/prod/orders and its dead message queue: invoked
// on request it moves 10 messages; a new flow version in its action_trigger moves the next 10.
func TestAccAEMRedriveAction_example(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no actions: the redrive needs Terraform 1.14 or later (make testacc-tf114)", tf)
	}
	t.Parallel()
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.CopyTree(t, filepath.Join("..", "..", "..", "examples", "actions", "sapmessaging_aem_redrive"), dir)
	acctest.WriteFile(t, filepath.Join(dir, "provider_test.tf"), env.AEMProviderBlock(""))
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	env.AEMPublish(t, aemRedriveDMQ, 25)

	r := w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sapmessaging_aem_redrive.orders")
	if !strings.Contains(r.Output, "Redriving up to 10 messages from acme/aem/prod/orders/dmq to acme/aem/prod/orders") || !strings.Contains(r.Output, "ended: moved 10") {
		t.Errorf("the invoke's output:\n%s", r.Output)
	}
	if got := env.AEMDepths(t, aemRedriveDMQ, aemRedriveQueue); got[0] != 15 || got[1] != 10 {
		t.Fatalf("after the invoke: %v on the DMQ and the queue, want [15 10]", got)
	}
	r = w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color", "-var", "flow_version=1.0.2")
	if !strings.Contains(r.Output, "ended: moved 10") {
		t.Errorf("the apply of a new flow version does not run the redrive:\n%s", r.Output)
	}
	if got := env.AEMDepths(t, aemRedriveDMQ, aemRedriveQueue); got[0] != 5 || got[1] != 20 {
		t.Fatalf("after the triggered redrive: %v, want [5 20]", got)
	}
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color", "-var", "flow_version=1.0.2")
}

// A copy whose answer is lost is not sent again by the provider's retries: the action stops, naming the message as
// still in the DMQ and perhaps in the queue, and the queue holds one copy of it, not two.
func TestAccAEMRedriveAction_lostCopyAnswer(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no actions: the redrive needs Terraform 1.14 or later (make testacc-tf114)", tf)
	}
	t.Parallel()
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	for _, q := range []aem.Queue{
		{Name: aemRedriveDMQ, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}},
		{Name: aemRedriveQueue, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true), MaxRedeliveryCount: aem.Ptr[int64](5)}},
	} {
		if _, err := c.CreateQueue(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	env.AEMPublish(t, aemRedriveDMQ, 5)
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.RequiredProviders+env.AEMConfig("")+fmt.Sprintf(`
action "sapmessaging_aem_redrive" "orders" {
  config {
    from         = %q
    to           = %q
    max_messages = 5
    concurrency  = 1
  }
}
`, aemRedriveDMQ, aemRedriveQueue))
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	env.Srv.InjectNextOn("PUT "+aem.ActionBasePath+"/msgVpns/{vpn}/queues/{queue}/copyMsgFromQueue", emulator.FaultLostResponse)
	r := w.MustRun(1, "apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sapmessaging_aem_redrive.orders")
	out := strings.Join(strings.Fields(r.Output), " ")
	for _, want := range []string{"Redrive Stopped", "The redrive stopped after 0 moved messages", fmt.Sprintf("is still in %q and may also be in %q", aemRedriveDMQ, aemRedriveQueue)} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, r.Output)
		}
	}
	if got := env.AEMDepths(t, aemRedriveDMQ, aemRedriveQueue); got[0] != 5 || got[1] != 1 {
		t.Fatalf("after the lost copy answer: %v on the DMQ and the queue, want [5 1]", got)
	}
}

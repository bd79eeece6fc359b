package aem_test

import (
	"fmt"
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

// aemRedrivePair is the dead message queue and the queue of the redrive tests, in that order.
var aemRedrivePair = []string{aemRedriveDMQ, aemRedriveQueue}

// The action invoked as a user would, `terraform apply -invoke=...`: bounded runs that move 10, 10 and the
// last 5 messages, with progress and a summary; refusals and warnings at plan; actions change no state.
func TestAccAEMRedriveAction_invokeFromCLI(t *testing.T) {
	tf := acctest.ActionCLI(t)
	env := acctest.NewTestEnv(t)
	env.CreateAEMQueues(t,
		aem.Queue{Name: aemRedriveDMQ, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](604800)}},
		aem.Queue{Name: aemRedriveQueue, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
			MaxRedeliveryCount: aem.Ptr[int64](5), DeadMsgQueue: aem.Ptr(aemRedriveDMQ)}},
		aem.Queue{Name: "acme/aem/prod/closed", QueueSettings: aem.QueueSettings{}},
		aem.Queue{Name: "acme/aem/prod/forever", QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true)}},
	)
	env.AEMPublish(t, aemRedriveDMQ, 25)

	w := acctest.NewWorkspace(t, tf, env, map[string]string{"provider.tf": acctest.RequiredProviders + env.AEMConfig("")})
	action := func(name, from, to string, n int) {
		w.WriteFile(name+".tf", fmt.Sprintf("action \"sapmessaging_aem_redrive\" %q {\n  config {\n    from         = %q\n    to           = %q\n    max_messages = %d\n  }\n}\n", name, from, to, n))
	}
	action("orders", aemRedriveDMQ, aemRedriveQueue, 10)
	invoke := func(name string, want int) acctest.CLIRun {
		return w.Invoke(want, "sapmessaging_aem_redrive."+name)
	}
	r := invoke("orders", 0)
	acctest.ExpectContains(t, "the first invoke's output", r.Output,
		"Redriving up to 10 messages from acme/aem/prod/orders/dmq to acme/aem/prod/orders",
		"ended: moved 10", "15 messages left in acme/aem/prod/orders/dmq")
	env.ExpectAEMDepths(t, "after the first invoke", aemRedrivePair, 15, 10)
	invoke("orders", 0)
	r = invoke("orders", 0)
	acctest.ExpectContains(t, "the third invoke's output", r.Output, "ended: moved 5", "has no more messages")
	env.ExpectAEMDepths(t, "after three invokes", aemRedrivePair, 0, 25)
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")

	// Refused at plan, nothing moved: the same queue, a missing queue, a destination that takes no message.
	for _, tc := range []struct{ name, from, to, want string }{
		{"same", aemRedriveQueue, aemRedriveQueue, "Redrive Into the Same Queue"},
		{"missing", "acme/aem/prod/gone", aemRedriveQueue, "Queue Not Found"},
		{"closed", aemRedriveQueue, "acme/aem/prod/closed", "Redrive Into a Queue That Takes No Messages"},
	} {
		action(tc.name, tc.from, tc.to, 1)
		r := invoke(tc.name, 1)
		acctest.ExpectContains(t, "invoking "+tc.name, r.Output, tc.want)
		w.RemoveFile(tc.name + ".tf")
	}
	env.ExpectAEMDepths(t, "after the refused invokes", aemRedrivePair, 0, 25)

	// Warned: into a dead message queue, into a queue that retries for ever.
	action("back", aemRedriveQueue, aemRedriveDMQ, 1)
	r = invoke("back", 0)
	acctest.ExpectContains(t, "the redrive into the DMQ", r.Output, "Redrive Into a Dead Message Queue", "ended: moved 1")
	action("forever", aemRedriveQueue, "acme/aem/prod/forever", 1)
	r = invoke("forever", 0)
	acctest.ExpectContains(t, "the redrive into a queue at max_redelivery_count 0", r.Output, "Redrive Into a Queue That Redelivers for Ever")
	env.ExpectAEMDepths(t, "after the warned invokes", append(aemRedrivePair, "acme/aem/prod/forever"), 1, 23, 1)
}

// Without the advanced_event_mesh block the action fails at plan, saying what to set.
func TestAccAEMRedriveAction_notConfigured(t *testing.T) {
	tf := acctest.ActionCLI(t)
	env := acctest.NewTestEnv(t)
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.RequiredProviders + env.Config(`
action "sapmessaging_aem_redrive" "orders" {
  config {
    from         = "orders/dmq"
    to           = "orders"
    max_messages = 1
  }
}
`)})
	r := w.Invoke(1, "sapmessaging_aem_redrive.orders")
	acctest.ExpectContains(t, "the output of the missing connection", r.Output, "Advanced Event Mesh Not Configured", framework.EnvAEMSEMPURL)
}

// The shipped example against the sample landscape's queue acme/aem/prod/orders and its dead message queue: invoked
// on request it moves 10 messages; a new flow version in its action_trigger moves the next 10.
func TestAccAEMRedriveAction_example(t *testing.T) {
	tf := acctest.ActionCLI(t)
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	w := acctest.NewExampleWorkspace(t, tf, env, "actions/sapmessaging_aem_redrive", map[string]string{"provider_test.tf": env.AEMProviderBlock("")})
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	env.AEMPublish(t, aemRedriveDMQ, 25)

	r := w.Invoke(0, "sapmessaging_aem_redrive.orders")
	acctest.ExpectContains(t, "the invoke's output", r.Output, "Redriving up to 10 messages from acme/aem/prod/orders/dmq to acme/aem/prod/orders", "ended: moved 10")
	env.ExpectAEMDepths(t, "after the invoke", aemRedrivePair, 15, 10)
	r = w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color", "-var", "flow_version=1.0.2")
	acctest.ExpectContains(t, "the apply of a new flow version", r.Output, "ended: moved 10")
	env.ExpectAEMDepths(t, "after the triggered redrive", aemRedrivePair, 5, 20)
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color", "-var", "flow_version=1.0.2")
}

// A copy whose answer is lost is not sent again by the provider's retries: the action stops, naming the message as
// still in the DMQ and perhaps in the queue, and the queue holds one copy of it, not two.
func TestAccAEMRedriveAction_lostCopyAnswer(t *testing.T) {
	tf := acctest.ActionCLI(t)
	env := acctest.NewTestEnv(t)
	env.CreateAEMQueues(t,
		aem.Queue{Name: aemRedriveDMQ, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}},
		aem.Queue{Name: aemRedriveQueue, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true), MaxRedeliveryCount: aem.Ptr[int64](5)}},
	)
	env.AEMPublish(t, aemRedriveDMQ, 5)
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.RequiredProviders + env.AEMConfig("") + fmt.Sprintf(`
action "sapmessaging_aem_redrive" "orders" {
  config {
    from         = %q
    to           = %q
    max_messages = 5
    concurrency  = 1
  }
}
`, aemRedriveDMQ, aemRedriveQueue)})
	env.Srv.InjectNextOn("PUT "+aem.ActionBasePath+"/msgVpns/{vpn}/queues/{queue}/copyMsgFromQueue", emulator.FaultLostResponse)
	r := w.Invoke(1, "sapmessaging_aem_redrive.orders")
	acctest.ExpectFlatContains(t, "the output", r.Output, "Redrive Stopped", "The redrive stopped after 0 moved messages",
		fmt.Sprintf("is still in %q and may also be in %q", aemRedriveDMQ, aemRedriveQueue))
	env.ExpectAEMDepths(t, "after the lost copy answer", aemRedrivePair, 5, 1)
}

package provider

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// A queue whose dead message queue takes smaller messages than the queue itself (maxMsgSize, which the
// provider leaves to the broker) plans with a warning that large poison messages are deleted, as the audit
// reports it.
func TestAccAEMQueue_deadMessageQueueMaxMsgSize(t *testing.T) {
	tf := terraformCLI(t)
	t.Parallel()
	env := newTestEnv(t)
	on := aem.Ptr(true)
	if _, err := env.aem(t).CreateQueue(t.Context(), aem.Queue{Name: "acme/size/dmq", QueueSettings: aem.QueueSettings{IngressEnabled: on, EgressEnabled: on,
		RespectTTLEnabled: on, MaxTTL: aem.Ptr[int64](604800), MaxMsgSize: aem.Ptr[int64](1000)}}); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	buildProvider(t, plugins)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), adoptionMain+`
resource "sapmessaging_aem_queue" "orders" {
  name                     = "acme/size/orders"
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = "acme/size/dmq"
}
`)
	w := newCLIWorkspace(t, tf, plugins, dir, env)
	w.withAEM(env)
	r := w.mustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	out := strings.Join(strings.Fields(strings.ReplaceAll(r.output, "│", " ")), " ")
	for _, want := range []string{"Large Dead Messages Deleted", "at most 1000 bytes", "larger than 1000 bytes"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, r.output)
		}
	}
}

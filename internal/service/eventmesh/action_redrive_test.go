package eventmesh_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

const (
	redriveDMQ   = "acme/crm/prod/orders/dmq"
	redriveQueue = "acme/crm/prod/orders"
)

// redriveOrdersActionHCL is the redrive action name from the dead message queue of QueueWithDMQHCL's queue orders
// into the queue, with the further arguments of its config block, one a line.
func redriveOrdersActionHCL(name, args string) string {
	return fmt.Sprintf(`
action "sapmessaging_redrive" %q {
  config {
    from = sapmessaging_dead_message_queue.dmq.name
    to   = sapmessaging_queue.orders.name
    %s
  }
}
`, name, strings.ReplaceAll(args, "\n", "\n    "))
}

// publishToDMQ puts n messages with a content type and CloudEvents headers into the dead message queue.
func publishToDMQ(t *testing.T, srv *emulator.Server, n int) {
	t.Helper()
	for i := range n {
		if _, err := srv.PublishWithHeaders(redriveDMQ, fmt.Appendf(nil, `{"order":%d}`, i), "application/json",
			map[string]string{"ce-id": fmt.Sprint(i), "ce-type": "acme.order.created"}); err != nil {
			t.Fatal(err)
		}
	}
}

// checkQueueCounts fails the test unless queueCounts finds the queues as expected.
func checkQueueCounts(t *testing.T, srv *emulator.Server, wantFrom, wantTo int) {
	t.Helper()
	if err := queueCounts(srv, wantFrom, wantTo); err != nil {
		t.Fatal(err)
	}
}

// queueCounts checks that the dead message queue (from) and the queue (to) hold these many
// messages, none unacknowledged, and that every message in to kept its content type and headers.
func queueCounts(srv *emulator.Server, wantFrom, wantTo int) error {
	from, to := redriveDMQ, redriveQueue
	fm, _ := srv.Messages(from)
	tm, _ := srv.Messages(to)
	if len(fm) != wantFrom || len(tm) != wantTo {
		return fmt.Errorf("%s holds %d messages (want %d), %s holds %d (want %d)", from, len(fm), wantFrom, to, len(tm), wantTo)
	}
	for _, m := range append(fm, tm...) {
		if m.Unacknowledged {
			return fmt.Errorf("message %s is still unacknowledged", m.ID)
		}
	}
	for _, m := range tm {
		if m.ContentType != "application/json" || m.Headers["ce-type"] != "acme.order.created" || m.Headers["ce-id"] == "" {
			return fmt.Errorf("a redriven message lost its content type or headers: %+v", m)
		}
	}
	return nil
}

// The shipped example, invoked as a user would: `terraform apply -invoke=...` three times moves
// 10, 10 and the last 5 messages, with progress messages and a summary; refusals and warnings
// come at plan.
func TestAccRedriveAction_invokeFromCLI(t *testing.T) {
	tf := acctest.ActionCLI(t)
	env := acctest.NewTestEnv(t)
	w := acctest.NewExampleWorkspace(t, tf, env, "actions/sapmessaging_redrive", map[string]string{"provider_test.tf": env.ProviderBlock})
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	publishToDMQ(t, env.Srv.Server, 25)

	r := w.Invoke(0, "sapmessaging_redrive.orders")
	acctest.ExpectContains(t, "the first invoke's output", r.Output,
		"Redriving up to 10 of the 25 messages in acme/crm/prod/orders/dmq to acme/crm/prod/orders, 8 at a time, at most 50 per second",
		"ended: moved 10, failed 0, possible duplicates 0",
		"`max_messages` reached",
		"Redrive Into a Queue Without Consumer")
	t.Logf("the first invoke:\n%s", r.Output)
	checkQueueCounts(t, env.Srv.Server, 15, 10)
	w.Invoke(0, "sapmessaging_redrive.orders")
	r = w.Invoke(0, "sapmessaging_redrive.orders")
	acctest.ExpectContains(t, "the third invoke's output", r.Output, "ended: moved 5, failed 0", "has no more messages available")
	checkQueueCounts(t, env.Srv.Server, 0, 25)
	// Actions change no state.
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")

	// Refused: the same queue twice, a queue that does not exist.
	for _, tc := range []struct{ name, config, want string }{
		{"same", `from = "acme/crm/prod/orders"
    to = "acme/crm/prod/orders"`, "Redrive Into the Same Queue"},
		{"missing", `from = "acme/crm/prod/orders/gone"
    to = "acme/crm/prod/orders"`, "Queue Not Found"},
	} {
		w.WriteFile("refused.tf", fmt.Sprintf("action \"sapmessaging_redrive\" %q {\n  config {\n    %s\n    max_messages = 1\n  }\n}\n", tc.name, tc.config))
		r := w.Invoke(1, "sapmessaging_redrive."+tc.name)
		acctest.ExpectContains(t, "invoking "+tc.name, r.Output, tc.want)
		w.RemoveFile("refused.tf")
	}
	checkQueueCounts(t, env.Srv.Server, 0, 25)

	// Warned: a to queue that is a dead message queue, redelivers for ever, has no dead message queue.
	w.WriteFile("back.tf", `action "sapmessaging_redrive" "back" {
  config {
    from         = "acme/crm/prod/orders"
    to           = "acme/crm/prod/orders/dmq"
    max_messages = 1
    concurrency  = 1
  }
}
`)
	r = w.Invoke(0, "sapmessaging_redrive.back")
	acctest.ExpectContains(t, "the output", r.Output, "Redrive Into a Dead Message Queue", "ended: moved 1")
	// A dead message queue has no redelivery count or dead message queue of its own to set: the
	// warnings that would tell the user to set them are misdirected.
	for _, unwanted := range []string{"Redrive Into a Queue That Redelivers for Ever", "Redrive Into a Queue Without Dead Message Queue", "Redrive Into a Queue Without Consumer"} {
		if strings.Contains(r.Output, unwanted) {
			t.Errorf("the output of a redrive into a dead message queue holds %q:\n%s", unwanted, r.Output)
		}
	}
	checkQueueCounts(t, env.Srv.Server, 1, 24)
}

// An action_trigger on a resource's lifecycle runs the redrive when the resource changes.
func TestAccRedriveAction_trigger(t *testing.T) {
	t.Parallel()
	env := acctest.NewTestEnv(t)
	queues := acctest.QueueWithDMQHCL("orders", redriveQueue, 3, "  force_destroy = true # the test destroys it with the redriven messages\n") +
		redriveOrdersActionHCL("orders", "max_messages = 20\nconcurrency = 4")
	trigger := func(version string) string {
		return env.Config(queues + fmt.Sprintf(`
resource "terraform_data" "fix" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.sapmessaging_redrive.orders]
    }
  }
}
`, version))
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.Config(queues)},
			{
				PreConfig: func() { publishToDMQ(t, env.Srv.Server, 30) },
				Config:    trigger("1.0.1"),
				Check: func(_ *terraform.State) error {
					return queueCounts(env.Srv.Server, 10, 20)
				},
			},
			{
				Config: trigger("1.0.2"),
				Check: func(_ *terraform.State) error {
					return queueCounts(env.Srv.Server, 0, 30)
				},
			},
			{
				// Unchanged, the resource plans nothing and the action does not run.
				Config:   trigger("1.0.2"),
				PlanOnly: true,
			},
		},
	})
}

// Invoke called directly: the progress messages go through SendProgress, and a publish that
// fails stops the redrive with an error that says the message stayed in from.
func TestRedriveActionInvokeStopsOnPublishFailure(t *testing.T) {
	t.Parallel()
	small := int64(10)
	env, a, sch := redriveActionFixture(t, queueSettingsFor(t, nil), queueSettingsFor(t, &small), 3)
	ctx := context.Background()
	cfg := redriveConfig(t, sch, 5)
	var progress []string
	resp := action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) { progress = append(progress, e.Message) }}
	a.Invoke(ctx, action.InvokeRequest{Config: cfg}, &resp)
	if !resp.Diagnostics.HasError() || !strings.Contains(fmt.Sprint(resp.Diagnostics), "Redrive Stopped") {
		t.Fatalf("diagnostics %v", resp.Diagnostics)
	}
	if !regexp.MustCompile(`ended: moved 0, failed [1-3]`).MatchString(strings.Join(progress, "\n")) {
		t.Fatalf("progress %q", progress)
	}
	// The messages larger than the maxMessageSizeInBytes of to stay in from: the first one to
	// refused is named and was put back without spending a delivery.
	fm, _ := env.Srv.Messages(redriveDMQ)
	if len(fm) != 3 {
		t.Fatalf("from holds %d messages, want 3", len(fm))
	}
	if d := fmt.Sprint(resp.Diagnostics); !regexp.MustCompile(`did not take message [0-9a-f-]{36}; it was put back into "` + redriveDMQ + `"`).MatchString(d) {
		t.Errorf("the error does not name the message put back: %s", d)
	}
}

// A from queue with a redelivery count and no dead message queue discards a message after its
// last failed delivery: the action refuses it (at plan and when invoked) unless
// accept_delivery_count_use = true, and then a message to refuses is put back into from with no
// delivery spent, run after run.
func TestRedriveActionFromQueueThatDiscards(t *testing.T) {
	t.Parallel()
	small := int64(10)
	env, a, sch := redriveActionFixture(t, eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](1)}, queueSettingsFor(t, &small), 2)
	ctx := context.Background()

	cfg := redriveConfig(t, sch, 5)
	var plan action.ModifyPlanResponse
	a.ModifyPlan(ctx, action.ModifyPlanRequest{Config: cfg}, &plan)
	var resp action.InvokeResponse
	a.Invoke(ctx, action.InvokeRequest{Config: cfg}, &resp)
	for what, d := range map[string]fmt.Stringer{"plan": diagString(plan.Diagnostics), "invoke": diagString(resp.Diagnostics)} {
		if !strings.Contains(d.String(), "Redrive From a Queue That Discards Messages") {
			t.Errorf("%s: %s", what, d)
		}
	}
	if st := env.Srv.Stats(); st.Routes["POST /messagingrest/v1/queues/{queue}/messages/consumption"] != 0 {
		t.Fatalf("the refused redrive consumed: %v", st.Routes)
	}

	cfg = redriveConfigAccept(t, sch, 5, true)
	for run := range 4 {
		var resp action.InvokeResponse
		a.Invoke(ctx, action.InvokeRequest{Config: cfg}, &resp)
		if !strings.Contains(fmt.Sprint(resp.Diagnostics), "it was put back into") {
			t.Fatalf("run %d: %v", run, resp.Diagnostics)
		}
		fm, _ := env.Srv.Messages(redriveDMQ)
		if len(fm) != 2 || env.Srv.Stats().Broker.Discarded != 0 {
			t.Fatalf("run %d: from holds %d messages (want 2), %d discarded", run, len(fm), env.Srv.Stats().Broker.Discarded)
		}
	}
}

// redriveActionFixture makes redriveDMQ and redriveQueue with the given settings, publishes published messages
// into redriveDMQ, and returns the emulator and the action, connected to it, with its schema.
func redriveActionFixture(t *testing.T, dmq, queue eventmesh.QueueSettings, published int) (*acctest.TestEnv, action.ActionWithModifyPlan, action.SchemaResponse) {
	t.Helper()
	env := acctest.NewTestEnv(t)
	env.PutQueues(t, acctest.EventMeshQueue{Name: redriveDMQ, Settings: dmq}, acctest.EventMeshQueue{Name: redriveQueue, Settings: queue})
	publishToDMQ(t, env.Srv.Server, published)
	a, ok := tfeventmesh.NewRedriveAction().(interface {
		action.ActionWithConfigure
		action.ActionWithModifyPlan
	})
	if !ok {
		t.Fatal("the redrive action is not configured by the provider or has no plan")
	}
	var configured action.ConfigureResponse
	a.Configure(t.Context(), action.ConfigureRequest{ProviderData: &framework.ProviderData{EventMesh: env.EventMesh(t), Messaging: env.Messaging(t)}}, &configured)
	if configured.Diagnostics.HasError() {
		t.Fatal(configured.Diagnostics)
	}
	var sch action.SchemaResponse
	a.Schema(t.Context(), action.SchemaRequest{}, &sch)
	return env, a, sch
}

type diagString diag.Diagnostics

func (d diagString) String() string { return fmt.Sprint(diag.Diagnostics(d)) }

// queueSettingsFor is a queue's settings with an optional maxMessageSizeInBytes.
func queueSettingsFor(t *testing.T, maxMessageSize *int64) eventmesh.QueueSettings {
	t.Helper()
	return eventmesh.QueueSettings{MaxMessageSizeInBytes: maxMessageSize}
}

// redriveConfig is the action's configuration from redriveDMQ to redriveQueue with max_messages.
func redriveConfig(t *testing.T, sch action.SchemaResponse, maxMessages int64) tfsdk.Config {
	t.Helper()
	return redriveConfigAccept(t, sch, maxMessages, nil)
}

// redriveConfigAccept is redriveConfig with accept_delivery_count_use (nil for null).
func redriveConfigAccept(t *testing.T, sch action.SchemaResponse, maxMessages int64, accept any) tfsdk.Config {
	t.Helper()
	typ, ok := sch.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		t.Fatal("the action's schema is not an object type")
	}
	return tfsdk.Config{Schema: sch.Schema, Raw: tftypes.NewValue(typ, map[string]tftypes.Value{
		"from":                      tftypes.NewValue(tftypes.String, redriveDMQ),
		"to":                        tftypes.NewValue(tftypes.String, redriveQueue),
		"max_messages":              tftypes.NewValue(tftypes.Number, maxMessages),
		"max_per_second":            tftypes.NewValue(tftypes.Number, nil),
		"concurrency":               tftypes.NewValue(tftypes.Number, nil),
		"accept_delivery_count_use": tftypes.NewValue(tftypes.Bool, accept),
	})}
}

// A longer redrive reports its progress every redriveProgressEvery messages, then a summary.
func TestRedriveActionInvokeProgress(t *testing.T) {
	t.Parallel()
	env, a, sch := redriveActionFixture(t, queueSettingsFor(t, nil), queueSettingsFor(t, nil), 250)
	ctx := context.Background()
	var progress []string
	resp := action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) { progress = append(progress, e.Message) }}
	a.Invoke(ctx, action.InvokeRequest{Config: redriveConfig(t, sch, 1000)}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	text := strings.Join(progress, "\n")
	if n := len(regexp.MustCompile(`(?m)^Moved \d+, remaining \d+, failed 0 \(`).FindAllString(text, -1)); n < 2 {
		t.Errorf("%d progress messages, want one per %d messages:\n%s", n, tfeventmesh.RedriveProgressEvery, text)
	}
	if !strings.HasPrefix(text, "Redriving up to 1000 of the 250 messages") || !strings.Contains(text, "ended: moved 250, failed 0, possible duplicates 0") {
		t.Errorf("progress:\n%s", text)
	}
	checkQueueCounts(t, env.Srv.Server, 0, 250)
}

// Ctrl-C while the action runs: Terraform stops the provider, the redrive ends after the
// messages in flight, and every message is in one of the two queues, none unacknowledged.
func TestAccRedriveAction_interrupt(t *testing.T) {
	tf := acctest.ActionCLI(t)
	env := acctest.NewTestEnv(t)
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.RequiredProviders + env.ProviderBlock + acctest.QueueWithDMQHCL("orders", redriveQueue, 3, "") +
		redriveOrdersActionHCL("slow", "max_messages = 200\nmax_per_second = 20")})
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	publishToDMQ(t, env.Srv.Server, 200)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tf, "apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.sapmessaging_redrive.slow")
	cmd.Dir = w.Dir()
	cmd.Env = append(os.Environ(), append([]string{"TF_CLI_CONFIG_FILE=" + w.CliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1"}, w.Creds...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if tm, _ := env.Srv.Messages(redriveQueue); len(tm) >= 20 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the redrive did not start:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	fm, _ := env.Srv.Messages(redriveDMQ)
	tm, _ := env.Srv.Messages(redriveQueue)
	t.Logf("after the interrupt: %d in from, %d in to\n%s", len(fm), len(tm), out.String())
	if len(tm) >= 200 || len(fm)+len(tm) != 200 {
		t.Fatalf("after the interrupt %d messages are in from and %d in to, want all 200 in one of them and the redrive stopped early", len(fm), len(tm))
	}
	if err := queueCounts(env.Srv.Server, len(fm), len(tm)); err != nil {
		t.Fatal(err)
	}
	// Terraform stops showing the action's messages once interrupted, so the summary is not
	// checked here; the counts are what the interrupt must keep right.
}

// A publish whose answer got lost is retried and may be in to twice: the action says so with a
// warning, and no message is lost.
func TestRedriveActionInvokeWarnsOfDuplicates(t *testing.T) {
	t.Parallel()
	env, a, sch := redriveActionFixture(t, queueSettingsFor(t, nil), queueSettingsFor(t, nil), 20)
	env.Srv.InjectNextOn("POST /messagingrest/v1/queues/{queue}/messages", emulator.FaultLostResponse)
	ctx := context.Background()
	var resp action.InvokeResponse
	a.Invoke(ctx, action.InvokeRequest{Config: redriveConfig(t, sch, 100)}, &resp)
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 || resp.Diagnostics.Warnings()[0].Summary() != "Messages May Be Duplicated" {
		t.Fatalf("diagnostics %v", resp.Diagnostics)
	}
	fm, _ := env.Srv.Messages(redriveDMQ)
	tm, _ := env.Srv.Messages(redriveQueue)
	seen := map[string]int{}
	for _, m := range tm {
		seen[m.Body]++
	}
	if len(fm) != 0 || len(tm) != 21 || len(seen) != 20 {
		t.Fatalf("from holds %d, to %d messages (%d different); want 0, and all 20 in to, one of them twice", len(fm), len(tm), len(seen))
	}
}

package provider_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// checkWarnings returns the warnings of failed check assertions in the -json output of a plan, by
// the check block they come from (the snippet's context, `check "NAME"`), as a scheduled job reads them.
func checkWarnings(t *testing.T, output string) map[string]string {
	t.Helper()
	warnings := map[string]string{}
	for _, line := range strings.Split(output, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var d acctest.JSONDiagnostic
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("a line of plan -json is not JSON: %v\n%s", err, line)
		}
		if d.Type == "diagnostic" && d.Diagnostic.Severity == "warning" && d.Diagnostic.Summary == "Check block assertion failed" {
			warnings[d.Diagnostic.Snippet.Context] = d.Diagnostic.Detail
		}
	}
	return warnings
}

// unmanagedQueues reads a saved plan (show -json) as the guide's workflow does: the names listed by
// data.sapmessaging_queues that no sapmessaging_queue or sapmessaging_dead_message_queue manages.
// auditDiagram returns the diagram of the data.sapmessaging_retry_audit in the prior state of a
// saved plan's JSON, as the workflow's "Draw the retry paths" step reads it.
func auditDiagram(t *testing.T, planJSON string) string {
	t.Helper()
	var plan struct {
		PriorState struct {
			Values struct {
				RootModule struct {
					Resources []struct {
						Mode, Type string
						Values     struct {
							Diagram string `json:"diagram"`
						} `json:"values"`
					} `json:"resources"`
				} `json:"root_module"`
			} `json:"values"`
		} `json:"prior_state"`
	}
	if err := json.Unmarshal([]byte(planJSON[strings.Index(planJSON, "{"):]), &plan); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	for _, r := range plan.PriorState.Values.RootModule.Resources {
		if r.Mode == "data" && r.Type == "sapmessaging_retry_audit" {
			return r.Values.Diagram
		}
	}
	return ""
}

func unmanagedQueues(t *testing.T, planJSON string) []string {
	t.Helper()
	type res struct {
		Mode, Type string
		Values     struct {
			Name  string   `json:"name"`
			Names []string `json:"names"`
		} `json:"values"`
	}
	var plan struct {
		PriorState struct {
			Values struct {
				RootModule struct {
					Resources []res `json:"resources"`
				} `json:"root_module"`
			} `json:"values"`
		} `json:"prior_state"`
	}
	if err := json.Unmarshal([]byte(planJSON[strings.Index(planJSON, "{"):]), &plan); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	managed := map[string]bool{}
	var listed []string
	for _, r := range plan.PriorState.Values.RootModule.Resources {
		switch {
		case r.Mode == "managed" && (r.Type == "sapmessaging_queue" || r.Type == "sapmessaging_dead_message_queue"):
			managed[r.Values.Name] = true
		case r.Mode == "data" && r.Type == "sapmessaging_queues":
			listed = append(listed, r.Values.Names...)
		}
	}
	var out []string
	for _, n := range listed {
		if !managed[n] {
			out = append(out, n)
		}
	}
	return out
}

// The drift detection recipe of examples/drift-detection, run as the scheduled job of the guide
// "Detecting Drift" runs it: `plan -detailed-exitcode` exits 0 when nothing changed, even with the
// monitoring checks in the configuration, 2 when a queue was edited or deleted outside Terraform,
// and still 0 when messages wait in a dead message queue, which the check reports as a warning in
// the JSON output instead.
func TestAccDriftDetection_exitCodes(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env := acctest.NewTestEnv(t)
	w, _ := newWorkspace(t, tf, env, filepath.Join("..", "..", "examples", "drift-detection"), nil)
	ctx := context.Background()
	em := env.EventMesh(t)
	const queue, dmq = "acme/crm/prod/orders", "acme/crm/prod/orders/dmq"

	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { w.Run("destroy", "-auto-approve", "-input=false") })

	// 1. Nothing changed: 0, twice (a data source deferred to the apply would exit 2 on every run).
	for i := 0; i < 2; i++ {
		r := w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-json")
		if got := checkWarnings(t, r.Output); len(got) != 0 {
			t.Errorf("an unchanged landscape with empty dead message queues warns: %v", got)
		}
	}

	// 2. A queue edited outside Terraform: 2, and the plan updates it back.
	q, err := em.GetQueue(ctx, queue)
	if err != nil {
		t.Fatal(err)
	}
	s := q.Settings()
	s.MaxRedeliveryCount = new(int64)
	*s.MaxRedeliveryCount = 0
	if _, _, err := em.PutQueue(ctx, queue, s); err != nil {
		t.Fatal(err)
	}
	em.InvalidateSnapshot()
	r := w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if !strings.Contains(r.Output, "sapmessaging_queue.orders will be updated in-place") {
		t.Errorf("the plan after an edit outside Terraform does not update the queue:\n%s", r.Output)
	}
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false")

	// 3. A queue deleted outside Terraform: 2, and the plan creates it again.
	if err := em.DeleteQueue(ctx, queue); err != nil {
		t.Fatal(err)
	}
	em.InvalidateSnapshot()
	r = w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if !strings.Contains(r.Output, "sapmessaging_queue.orders will be created") {
		t.Errorf("the plan after a deletion outside Terraform does not create the queue again:\n%s", r.Output)
	}
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false")

	// 4. Messages in the dead message queue: still 0, with the check's warning in the JSON output.
	// A queue created outside Terraform in the namespace changes no exit code either: the job lists
	// it from data.sapmessaging_queues in the saved plan.
	five := int64(5)
	if _, _, err := em.PutQueue(ctx, "acme/crm/prod/legacy", eventmesh.QueueSettings{MaxRedeliveryCount: &five}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := env.Srv.Publish(dmq, []byte(`{"order":"4711"}`), "application/json"); err != nil {
			t.Fatal(err)
		}
	}
	r = w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-json", "-out=tfplan")
	warnings := checkWarnings(t, r.Output)
	if got := warnings[`check "dead_messages"`]; !strings.Contains(got, dmq+" (2)") {
		t.Errorf("the dead_messages check does not warn about 2 messages in %s; check warnings: %v", dmq, warnings)
	}
	if len(warnings) != 1 {
		t.Errorf("check warnings = %v, want only the one of check \"dead_messages\"", warnings)
	}

	shown := w.MustRun(0, "show", "-json", "tfplan").Output
	if got := unmanagedQueues(t, shown); strings.Join(got, ",") != "acme/crm/prod/legacy" {
		t.Errorf("queues no configuration manages = %v, want [acme/crm/prod/legacy]", got)
	}
	// The job summary's diagram: the retry audit read during the plan, as the workflow's jq finds it.
	if d := auditDiagram(t, shown); !strings.HasPrefix(d, "flowchart LR\n") {
		t.Errorf("the saved plan holds no retry audit diagram for the job summary: %q", d)
	}

	// The dead messages were not touched by the plan.
	if msgs, ok := env.Srv.Messages(dmq); !ok || len(msgs) != 2 {
		t.Errorf("the dead message queue holds %d messages after the plan (found %v), want 2", len(msgs), ok)
	}
}

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// demo starts an emulator with the demo's queues (maxRedeliveryCount r)
// and returns the base arguments of the command.
func demo(t *testing.T, r int64) (*emulatortest.Emulator, []string) {
	t.Helper()
	s, dir := cmdtest.Start(t, emulator.Options{})
	mgmt := eventmesh.New(s.ManagementClient(t))
	ctx := context.Background()
	dmq := "acme/crm/prod/orders/dmq"
	if _, _, err := mgmt.PutQueue(ctx, dmq, eventmesh.QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mgmt.PutQueue(ctx, "acme/crm/prod/orders", eventmesh.QueueSettings{MaxRedeliveryCount: &r, DeadMsgQueue: &dmq}); err != nil {
		t.Fatal(err)
	}
	return s, []string{
		"-emulator", s.URL(),
		"-event-mesh-key", filepath.Join(dir, "event-mesh.json"),
		"-cloud-integration-key", filepath.Join(dir, "cloud-integration.json"),
		"-timeout", "30s",
	}
}

// outputs writes a `terraform output -json` document like the demo's.
func outputs(t *testing.T, worst int) string {
	t.Helper()
	doc := fmt.Sprintf(`{
  "landscape_queues": {"sensitive": false, "type": ["list", "string"], "value": ["acme/crm/prod/orders"]},
  "orders_queue": {"sensitive": false, "type": ["object", {}], "value": {
    "name": "acme/crm/prod/orders", "max_redelivery_count": 3,
    "dead_message_queue": "acme/crm/prod/orders/dmq", "worst_case_attempts": %d}}
}`, worst)
	return cmdtest.WriteFile(t, t.TempDir(), "outputs.json", doc)
}

func TestPoisonMatchesWorstCase(t *testing.T) {
	t.Parallel()
	s, args := demo(t, 3)
	out := cmdtest.Run(t, run, 0, append(args, "-outputs", outputs(t, 5))...)
	cmdtest.Contains(t, "stdout", out,
		"executions:            5 in 4 deliveries (RETRY, FAILED, FAILED, FAILED, FAILED)",
		"predicted (R+1)×n+1:   (3+1)×1+1 = 5",
		"worst_case_attempts:   5 (terraform output)",
		"ended in:              dead message queue acme/crm/prod/orders/dmq (1 message(s) there now)",
		"poison: 5 executions, as worst_case_attempts predicts.",
	)
	if dead, _ := s.Messages("acme/crm/prod/orders/dmq"); len(dead) != 1 {
		t.Fatalf("dead message queue holds %d messages, want 1", len(dead))
	}

	// A second run reuses the flow and counts only its own message.
	out = cmdtest.Run(t, run, 0, append(args, "-outputs", outputs(t, 5))...)
	cmdtest.Contains(t, "second run's stdout", out, "(2 message(s) there now)")
}

func TestPoisonReportsMismatch(t *testing.T) {
	t.Parallel()
	_, args := demo(t, 3)
	code, out, errOut := cmdtest.Exec(run, append(args, "-outputs", outputs(t, 4)))
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	cmdtest.Contains(t, "stderr", errOut, "took 5 executions, but worst_case_attempts predicts 4")
}

func TestPoisonUndeliverable(t *testing.T) {
	t.Parallel()
	_, args := demo(t, 3)
	out := cmdtest.Run(t, run, 0, append(args, "-queue", "acme/crm/prod/orders", "-delivery-state", "MODIFIED_FAILED_UNDELIVERABLE", "-max-retries", "2")...)
	cmdtest.Contains(t, "stdout", out, "executions:            3 in 1 deliveries", "ended:                 undeliverable, not in a dead message queue.")
}

func TestPoisonArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-emulator", "", "-event-mesh-key", "", "-cloud-integration-key", ""}, "both service keys are required"},
		{[]string{"-emulator", "http://127.0.0.1:1", "-event-mesh-key", "{}", "-cloud-integration-key", "{}"}, "no queue to publish to"},
		{[]string{"-emulator", "http://127.0.0.1:1", "-event-mesh-key", "{}", "-cloud-integration-key", "{}", "-queue", "q", "-max-retries", "100"}, "outside 0..99"},
		{[]string{"-emulator", "http://127.0.0.1:1", "-event-mesh-key", "{}", "-cloud-integration-key", "{}", "-queue", "q", "-delivery-state", "ACCEPTED"}, "not known"},
		{[]string{"extra"}, "unexpected arguments"},
	}
	for _, tc := range cases {
		if code, _, errOut := cmdtest.Exec(run, tc.args); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestWorstCase(t *testing.T) {
	t.Parallel()
	doc := []byte(`{
  "a": {"value": {"name": "q1", "worst_case_attempts": 3}},
  "b": {"value": {"name": "q2", "worst_case_attempts": 7}},
  "c": {"value": "plain"}
}`)
	if w, name, err := worstCase(doc, ""); err != nil || w != 3 || name != "q1" {
		t.Fatalf("first: %d %q %v", w, name, err)
	}
	if w, name, err := worstCase(doc, "q2"); err != nil || w != 7 || name != "q2" {
		t.Fatalf("by queue: %d %q %v", w, name, err)
	}
	if _, _, err := worstCase([]byte(`{"c": {"value": 1}}`), ""); err == nil {
		t.Fatal("no error without worst_case_attempts")
	}
	if _, _, err := worstCase([]byte(`[`), ""); err == nil {
		t.Fatal("no error for invalid JSON")
	}
}

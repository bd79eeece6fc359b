package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// demo starts an emulator with the demo's queues (maxRedeliveryCount r)
// and returns the base arguments of the command.
func demo(t *testing.T, r int64) (*emulatortest.Emulator, []string) {
	t.Helper()
	s := emulatortest.Start(t, emulator.Options{})
	s.SetDeployDelay(5 * time.Millisecond)
	dir := t.TempDir()
	if err := s.WriteKeys(dir); err != nil {
		t.Fatal(err)
	}
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
	p := filepath.Join(t.TempDir(), "outputs.json")
	doc := fmt.Sprintf(`{
  "landscape_queues": {"sensitive": false, "type": ["list", "string"], "value": ["acme/crm/prod/orders"]},
  "orders_queue": {"sensitive": false, "type": ["object", {}], "value": {
    "name": "acme/crm/prod/orders", "max_redelivery_count": 3,
    "dead_message_queue": "acme/crm/prod/orders/dmq", "worst_case_attempts": %d}}
}`, worst)
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPoisonMatchesWorstCase(t *testing.T) {
	t.Parallel()
	s, args := demo(t, 3)
	var out, errOut bytes.Buffer
	code := run(context.Background(), append(args, "-outputs", outputs(t, 5)), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		"executions:            5 in 4 deliveries (RETRY, FAILED, FAILED, FAILED, FAILED)",
		"predicted (R+1)×n+1:   (3+1)×1+1 = 5",
		"worst_case_attempts:   5 (terraform output)",
		"ended in:              dead message queue acme/crm/prod/orders/dmq (1 message(s) there now)",
		"poison: 5 executions, as worst_case_attempts predicts.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	if dead, _ := s.Messages("acme/crm/prod/orders/dmq"); len(dead) != 1 {
		t.Fatalf("dead message queue holds %d messages, want 1", len(dead))
	}

	// A second run reuses the flow and counts only its own message.
	out.Reset()
	if code := run(context.Background(), append(args, "-outputs", outputs(t, 5)), &out, &errOut); code != 0 {
		t.Fatalf("second run: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "(2 message(s) there now)") {
		t.Fatalf("second run:\n%s", out.String())
	}
}

func TestPoisonReportsMismatch(t *testing.T) {
	t.Parallel()
	_, args := demo(t, 3)
	var out, errOut bytes.Buffer
	if code := run(context.Background(), append(args, "-outputs", outputs(t, 4)), &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "took 5 executions, but worst_case_attempts predicts 4") {
		t.Fatalf("stderr: %s", errOut.String())
	}
}

func TestPoisonUndeliverable(t *testing.T) {
	t.Parallel()
	_, args := demo(t, 3)
	var out, errOut bytes.Buffer
	args = append(args, "-queue", "acme/crm/prod/orders", "-delivery-state", "MODIFIED_FAILED_UNDELIVERABLE", "-max-retries", "2")
	if code := run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"executions:            3 in 1 deliveries", "ended:                 undeliverable, not in a dead message queue."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
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
		var out, errOut bytes.Buffer
		if code := run(context.Background(), tc.args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), tc.want)
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

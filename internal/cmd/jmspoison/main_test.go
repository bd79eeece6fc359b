package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

func startEmulator(t *testing.T) []string {
	t.Helper()
	s := emulatortest.Start(t, emulator.Options{JMSMinute: 20 * time.Microsecond})
	s.SetDeployDelay(5 * time.Millisecond)
	dir := t.TempDir()
	if err := s.WriteKeys(dir); err != nil {
		t.Fatal(err)
	}
	return []string{"-emulator", s.URL(), "-cloud-integration-key", filepath.Join(dir, "cloud-integration.json"), "-timeout", "60s"}
}

func TestReplayMatchesTheRules(t *testing.T) {
	t.Parallel()
	args := startEmulator(t)
	var out, errOut bytes.Buffer
	if rc := run(context.Background(), args, &out, &errOut); rc != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", rc, out.String(), errOut.String())
	}
	for _, want := range []string{
		// No guard: 724 retries in 30 days, the last 43143 minutes after the first failure.
		"executions:            725 (725 RETRY)",
		"1 + 724 retries = 725 executions within the 43200-minute expiration period (last retry 43143 minutes",
		"first waits 1, 2, 4, 8, 16, 32, 60, 60 minutes",
		"outcome expired; 0 message(s) left",
		// Guard SAPJMSRetries > 5: ends on retry 6, 63 minutes after the first failure.
		"executions:            7 (6 RETRY, 1 ESCALATED)",
		"1 + 6 retries = 7 executions (the guard ends the message on retry 6), given up 63 minutes",
		"outcome guardEnded",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestReplayFollowsTheExpiration(t *testing.T) {
	t.Parallel()
	// With an expiration of 1 day: 6 + (1440 − 63) / 60 = 28 retries.
	args := startEmulator(t)
	var out, errOut bytes.Buffer
	if rc := run(context.Background(), append(args, "-expiration-days", "1"), &out, &errOut); rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "1 + 28 retries = 29 executions within the 1440-minute expiration period (last retry 1383 minutes") {
		t.Fatalf("output:\n%s", out.String())
	}
}

func TestArguments(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	for _, args := range [][]string{{"-emulator", ""}, {"-emulator", "http://127.0.0.1:1", "-cloud-integration-key", "{}", "-expiration-days", "181"}, {"extra"}} {
		if rc := run(context.Background(), args, &out, &errOut); rc != 2 {
			t.Errorf("run(%q) = %d, want 2", args, rc)
		}
	}
}

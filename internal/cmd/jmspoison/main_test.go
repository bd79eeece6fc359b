package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

func startEmulator(t *testing.T) []string {
	t.Helper()
	s, dir := cmdtest.Start(t, emulator.Options{JMSMinute: 20 * time.Microsecond})
	return []string{"-emulator", s.URL(), "-cloud-integration-key", filepath.Join(dir, "cloud-integration.json"), "-timeout", "60s"}
}

func TestReplayMatchesTheRules(t *testing.T) {
	t.Parallel()
	out := cmdtest.Run(t, run, 0, startEmulator(t)...)
	cmdtest.Contains(t, "output", out,
		// No guard: 724 retries in 30 days, the last 43143 minutes after the first failure.
		"executions:            725 (725 RETRY)",
		"1 + 724 retries = 725 executions within the 43200-minute expiration period (last retry 43143 minutes",
		"first waits 1, 2, 4, 8, 16, 32, 60, 60 minutes",
		"outcome expired; 0 message(s) left",
		// Guard SAPJMSRetries > 5: ends on retry 6, 63 minutes after the first failure.
		"executions:            7 (6 RETRY, 1 ESCALATED)",
		"1 + 6 retries = 7 executions (the guard ends the message on retry 6), given up 63 minutes",
		"outcome guardEnded",
	)
}

func TestReplayFollowsTheExpiration(t *testing.T) {
	t.Parallel()
	// With an expiration of 1 day: 6 + (1440 − 63) / 60 = 28 retries.
	out := cmdtest.Run(t, run, 0, append(startEmulator(t), "-expiration-days", "1")...)
	cmdtest.Contains(t, "output", out, "1 + 28 retries = 29 executions within the 1440-minute expiration period (last retry 1383 minutes")
}

func TestArguments(t *testing.T) {
	t.Parallel()
	cmdtest.Refuses(t, run, []string{"-emulator", ""}, []string{"-emulator", "http://127.0.0.1:1", "-cloud-integration-key", "{}", "-expiration-days", "181"}, []string{"extra"})
}

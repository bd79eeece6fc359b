package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

func TestReplayMatchesThePlan(t *testing.T) {
	t.Parallel()
	s, dir := cmdtest.Start(t, emulator.Options{WebhookMinute: time.Millisecond})
	out := cmdtest.Run(t, run, 0, "-emulator", s.URL(), "-event-mesh-key", filepath.Join(dir, "event-mesh.json"), "-timeout", "60s")
	cmdtest.Contains(t, "output", out,
		"plan said:  error: QoS 0 Loses Messages",
		"happened:   1 push to the endpoint, 1 POST seen; message lost: true; left in its queue: 0",
		"plan said:  3 tries within 45 minutes, then the dead message queue",
		"happened:   3 pushes, 3 POSTs seen; dead-lettered: true; messages in the dead message queue: 1",
	)
}

func TestReplayNeedsTheEmulator(t *testing.T) {
	t.Parallel()
	cmdtest.Refuses(t, run, []string{"-emulator", "", "-event-mesh-key", ""})
}

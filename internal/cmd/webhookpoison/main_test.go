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

func TestReplayMatchesThePlan(t *testing.T) {
	t.Parallel()
	s := emulatortest.Start(t, emulator.Options{WebhookMinute: time.Millisecond})
	dir := t.TempDir()
	if err := s.WriteKeys(dir); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	args := []string{"-emulator", s.URL(), "-event-mesh-key", filepath.Join(dir, "event-mesh.json"), "-timeout", "60s"}
	if rc := run(context.Background(), args, &out, &errOut); rc != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", rc, out.String(), errOut.String())
	}
	for _, want := range []string{
		"plan said:  error: QoS 0 Loses Messages",
		"happened:   1 push to the endpoint, 1 POST seen; message lost: true; left in its queue: 0",
		"plan said:  3 tries within 45 minutes, then the dead message queue",
		"happened:   3 pushes, 3 POSTs seen; dead-lettered: true; messages in the dead message queue: 1",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestReplayNeedsTheEmulator(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if rc := run(context.Background(), []string{"-emulator", "", "-event-mesh-key", ""}, &out, &errOut); rc != 2 {
		t.Fatalf("exit %d, want 2", rc)
	}
}

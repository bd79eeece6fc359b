package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestAEMMinuteRejected(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"-aem-minute", "0s"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "-aem-minute must be a positive duration") {
		t.Errorf("exit %d, stderr %q; want 2 and an explanation", code, errOut.String())
	}
}

// With -keys the emulator writes advanced-event-mesh.json beside the other keys, pointing at its URL.
func TestAEMKeyWrittenWithKeys(t *testing.T) {
	t.Parallel()
	base, keys, stop := startRun(t, "-aem-minute", "1s")
	b := readKey(t, keys, "advanced-event-mesh.json")
	stop()
	var k map[string]string
	if err := json.Unmarshal(b, &k); err != nil || k["semp_url"] != base || k["password"] == "" {
		t.Errorf("advanced-event-mesh.json %s (%v); want semp_url %s and a password", b, err, base)
	}
}

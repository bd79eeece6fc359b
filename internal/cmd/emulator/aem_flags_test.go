package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
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
	keys := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"-keys", keys, "-aem-minute", "1s"}, pw, &stderr)
		_ = pw.Close()
	}()
	m := listeningLine.FindStringSubmatch(readLine(t, pr))
	if m == nil {
		t.Fatal("no listening line")
	}
	b, err := os.ReadFile(filepath.Join(keys, "advanced-event-mesh.json"))
	cancel()
	if c := <-code; c != 0 {
		t.Fatalf("exit code %d, stderr %s", c, stderr.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	var k map[string]string
	if err := json.Unmarshal(b, &k); err != nil || k["semp_url"] != m[1] || k["password"] == "" {
		t.Errorf("advanced-event-mesh.json %s (%v); want semp_url %s and a password", b, err, m[1])
	}
}

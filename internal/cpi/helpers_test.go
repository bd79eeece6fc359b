package cpi_test

import (
	"archive/zip"
	"bytes"
	"io"
	"sort"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// startEmulator starts an emulator on a loopback port that stops with the test.
func startEmulator(t *testing.T, opts emulator.Options) *emulatortest.Emulator {
	t.Helper()
	s := emulatortest.Start(t, opts)
	s.SetDeployDelay(10 * time.Millisecond)
	return s
}

// httpConfig returns the httpx configuration that the provider builds from
// the emulator's service key, with short retry waits.
func httpConfig(s *emulatortest.Emulator) httpx.Config {
	cfg := s.CloudIntegrationConfig()
	cfg.CSRFFetchPath = cpi.CSRFFetchPath
	cfg.MaxRetries, cfg.RetryWaitMax = 1, 5*time.Millisecond
	cfg.RequestTimeout = 20 * time.Second
	return cfg
}

func newClient(t *testing.T, cfg httpx.Config) *cpi.Client {
	t.Helper()
	return cpi.New(emulatortest.Client(t, cfg))
}

// setup starts an emulator and returns it with a client of its Cloud Integration API.
func setup(t *testing.T, opts emulator.Options) (*emulatortest.Emulator, *cpi.Client) {
	t.Helper()
	s := startEmulator(t, opts)
	return s, newClient(t, httpConfig(s))
}

// createFlow creates the integration flow "Flow" with content, in the package "Pkg" of the
// emulator s.
func createFlow(t *testing.T, s *emulatortest.Emulator, content []byte) {
	t.Helper()
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", content); err != nil {
		t.Fatal(err)
	}
}

// zipEntry is one entry of a zip archive.
type zipEntry struct {
	header  zip.FileHeader
	content []byte
}

// readEntries returns the entries of a zip archive by name, and the names in order.
func readEntries(t *testing.T, data []byte) (map[string]zipEntry, []string) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("reading zip: %v", err)
	}
	m := map[string]zipEntry{}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		m[f.Name] = zipEntry{header: f.FileHeader, content: b}
		names = append(names, f.Name)
	}
	return m, names
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func ptr[T any](v T) *T { return &v }

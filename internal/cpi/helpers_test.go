package cpi_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// startEmulator starts an emulator on a loopback port that stops with the test.
func startEmulator(t *testing.T, opts emulator.Options) *emulator.Server {
	t.Helper()
	s := emulator.New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("starting the emulator: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	s.SetDeployDelay(10 * time.Millisecond)
	return s
}

// cloudIntegrationKey is the Cloud Integration service key of the emulator.
type cloudIntegrationKey struct {
	OAuth struct {
		URL          string `json:"url"`
		TokenURL     string `json:"tokenurl"`
		ClientID     string `json:"clientid"`
		ClientSecret string `json:"clientsecret"`
	} `json:"oauth"`
}

// httpConfig returns the httpx configuration that the provider builds from
// the emulator's service key, with short retry waits.
func httpConfig(t *testing.T, s *emulator.Server) httpx.Config {
	t.Helper()
	var k cloudIntegrationKey
	if err := json.Unmarshal(s.CloudIntegrationKey(), &k); err != nil {
		t.Fatalf("service key: %v", err)
	}
	return httpx.Config{
		BaseURL: k.OAuth.URL, TokenURL: k.OAuth.TokenURL, ClientID: k.OAuth.ClientID, ClientSecret: k.OAuth.ClientSecret,
		CSRFFetchPath: cpi.CSRFFetchPath,
		MaxRetries:    1, RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond,
		RequestTimeout: 20 * time.Second,
	}
}

func newClient(t *testing.T, cfg httpx.Config) *cpi.Client {
	t.Helper()
	h, err := httpx.New(cfg)
	if err != nil {
		t.Fatalf("httpx.New: %v", err)
	}
	return cpi.New(h)
}

// setup starts an emulator and returns it with a client of its Cloud Integration API.
func setup(t *testing.T, opts emulator.Options) (*emulator.Server, *cpi.Client) {
	t.Helper()
	s := startEmulator(t, opts)
	return s, newClient(t, httpConfig(t, s))
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

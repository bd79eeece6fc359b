package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/servicekey"
)

var listeningLine = regexp.MustCompile(`^listening on (http://127\.0\.0\.1:[0-9]+)$`)

// readLine returns the first line of r, failing the test after a generous timeout.
func readLine(t *testing.T, r io.Reader) string {
	t.Helper()
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatal("the emulator ended without printing the listening line")
		}
		return line
	case <-time.After(60 * time.Second):
		t.Fatal("no listening line within 60s")
	}
	return ""
}

// fetchToken fetches an access token with the client credentials id and secret from tokenURL.
func fetchToken(t *testing.T, c *http.Client, tokenURL, id, secret string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", tokenURL, strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(res.Body).Decode(&tok)
	_ = res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("token: status %d, %v", res.StatusCode, err)
	}
	return tok.AccessToken
}

// checkServes fetches a management token with the written key and calls the readiness check.
func checkServes(t *testing.T, base, keysDir string) {
	t.Helper()
	data := readKey(t, keysDir, "event-mesh.json")
	var key struct {
		Management []struct {
			URI string `json:"uri"`
			OA2 struct {
				ClientID      string `json:"clientid"`
				ClientSecret  string `json:"clientsecret"`
				TokenEndpoint string `json:"tokenendpoint"`
			} `json:"oa2"`
		} `json:"management"`
	}
	if err := json.Unmarshal(data, &key); err != nil || len(key.Management) != 1 {
		t.Fatalf("event-mesh.json: %v", err)
	}
	m := key.Management[0]
	if m.URI != base || m.OA2.TokenEndpoint != base+"/oauth/token" {
		t.Fatalf("key points at %s / %s, want %s", m.URI, m.OA2.TokenEndpoint, base)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	tok := fetchToken(t, c, m.OA2.TokenEndpoint, m.OA2.ClientID, m.OA2.ClientSecret)
	req, _ := http.NewRequest("GET", base+"/hub/rest/api/v1/management/messaging/readinessCheck", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("readinessCheck: status %d", res.StatusCode)
	}
}

// goTool returns the go command that builds the emulator binary. go test puts
// $GOROOT/bin first on PATH, so this is normally the toolchain running the
// test; a test binary run on its own falls back to $GOROOT/bin/go.
func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	root := os.Getenv("GOROOT")
	if root == "" {
		t.Fatal("no go tool to build the emulator: go is not on PATH and GOROOT is not set")
	}
	p := filepath.Join(root, "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go tool to build the emulator: %v", err)
	}
	return p
}

func TestBinaryPrintsListeningLineAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "emulator")
	build := exec.Command(goTool(t), "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	keys := filepath.Join(dir, "keys")
	state := filepath.Join(dir, "state.json")
	cmd := exec.Command(bin, "-keys", keys, "-state", state)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	line := readLine(t, stdout)
	m := listeningLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line %q does not match %s", line, listeningLine)
	}
	checkServes(t, m[1], keys)
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("state file: %v", err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\nstderr: %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the emulator did not stop within 30s of SIGTERM")
	}
}

// startRun runs the emulator with args in the background, writing its service keys into a new directory,
// and returns the base URL of its listening line and the keys directory; stop cancels it and fails the test
// unless it exits with 0.
func startRun(t *testing.T, args ...string) (baseURL, keys string, stop func()) {
	t.Helper()
	keys = t.TempDir()
	args = append([]string{"-keys", keys}, args...)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, args, pw, &stderr)
		_ = pw.Close()
	}()
	line := readLine(t, pr)
	m := listeningLine.FindStringSubmatch(line)
	if m == nil {
		cancel()
		t.Fatalf("first line %q", line)
	}
	return m[1], keys, func() {
		t.Helper()
		cancel()
		if c := <-code; c != 0 {
			t.Fatalf("exit code %d, stderr %s", c, stderr.String())
		}
	}
}

// readKey returns the service key file name that the emulator wrote into keys.
func readKey(t *testing.T, keys, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(keys, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRunServesUntilCancelled(t *testing.T) {
	t.Parallel()
	base, keys, stop := startRun(t, "-latency", "1ms", "-fault-rate", "0", "-fault-kinds", "503,drop")
	checkServes(t, base, keys)
	stop()
}

// -key-type external-certificate writes certificate keys, the private key apart and the CA.
func TestRunWritesCertificateKeys(t *testing.T) {
	t.Parallel()
	_, keys, stop := startRun(t, "-key-type", "external-certificate")
	ci := readKey(t, keys, "cloud-integration.json")
	if !strings.Contains(string(ci), `"certificate"`) || strings.Contains(string(ci), `"key"`) || strings.Contains(string(ci), "clientsecret") ||
		!strings.Contains(string(ci), `"tokenurl": "https://127.0.0.1:`) {
		t.Errorf("cloud-integration.json is no External Certificate key:\n%s", ci)
	}
	for _, f := range []string{"cloud-integration-key.pem", "ca.pem"} {
		if _, err := os.Stat(filepath.Join(keys, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	stop()
}

// -max-queues sets the instance's queue limit (the provider benchmark holds 250 queues and their
// dead message queue): the queue after the limit is refused.
func TestRunMaxQueues(t *testing.T) {
	t.Parallel()
	_, keys, stop := startRun(t, "-max-queues", "2")
	data, err := servicekey.Load(filepath.Join(keys, "event-mesh.json"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := servicekey.ParseEventMesh(data)
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpx.New(httpx.Config{BaseURL: key.ManagementURL, TokenURL: key.TokenURL, ClientID: key.ClientID, ClientSecret: key.ClientSecret})
	if err != nil {
		t.Fatal(err)
	}
	em := eventmesh.New(h)
	for i, name := range []string{"acme/crm/prod/a", "acme/crm/prod/b", "acme/crm/prod/c"} {
		_, _, err := em.PutQueue(t.Context(), name, eventmesh.QueueSettings{})
		if (i < 2) != (err == nil) || (err != nil && !strings.Contains(err.Error(), "the maximum")) {
			t.Errorf("queue %d of a limit of 2: %v", i+1, err)
		}
	}
	stop()
}

func TestRunRefusesBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-listen", "0.0.0.0:0"},
		{"-listen", ":8080"},
		{"-listen", "10.1.2.3:80"},
		{"-fault-rate", "1.5"},
		{"-fault-kinds", "teapot"},
		{"-key-type", "password"},
		{"-token-host", "10.1.2.3"},
		{"-max-queues", "0"},
		{"-unknown"},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if c := run(context.Background(), args, &stdout, &stderr); c == 0 {
			t.Errorf("%v: exit code 0", args)
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: printed %q on stdout", args, stdout.String())
		}
		if stderr.Len() == 0 {
			t.Errorf("%v: no explanation on stderr", args)
		}
	}
}

// -h names every fault kind the emulator can inject, and each of them is accepted.
func TestHelpNamesEveryFaultKind(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if c := run(context.Background(), []string{"-h"}, &stdout, &stderr); c == 0 {
		t.Fatal("-h: exit code 0")
	}
	for _, k := range emulator.AllFaultKinds {
		if !strings.Contains(stderr.String(), string(k)) {
			t.Errorf("the help does not name the fault kind %q:\n%s", k, stderr.String())
		}
		if _, err := emulator.ParseFaultKind(string(k)); err != nil {
			t.Errorf("the fault kind %q is refused: %v", k, err)
		}
	}
}

// -sample-content starts the emulator with the integration flows the examples name and the
// deployed flows of the sample landscape, readable through the Cloud Integration API with the
// written service key; without it the tenant is empty.
func TestRunSampleContent(t *testing.T) {
	t.Parallel()
	for _, sample := range []bool{true, false} {
		var args []string
		if sample {
			args = append(args, "-sample-content")
		}
		_, keys, stop := startRun(t, args...)
		data := readKey(t, keys, "cloud-integration.json")
		var key struct {
			OAuth struct {
				URL, TokenURL, ClientID, ClientSecret string
			} `json:"oauth"`
		}
		if err := json.Unmarshal(data, &key); err != nil {
			t.Fatal(err)
		}
		c := &http.Client{Timeout: 10 * time.Second}
		tok := fetchToken(t, c, key.OAuth.TokenURL, key.OAuth.ClientID, key.OAuth.ClientSecret)
		get := func(path string, want int) {
			req, _ := http.NewRequest("GET", key.OAuth.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Accept", "application/json")
			res, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			if res.StatusCode != want {
				t.Errorf("sample content %v: GET %s: status %d, want %d", sample, path, res.StatusCode, want)
			}
		}
		found := map[bool]int{true: http.StatusOK, false: http.StatusNotFound}
		for _, f := range append(append([]emulator.SampleIFlow{}, emulator.SampleIFlows...), emulator.SampleLandscapeIFlows...) {
			get("/api/v1/IntegrationDesigntimeArtifacts(Id='"+f.ID+"',Version='active')", found[sample])
			// The flows of the sample landscape run; those the examples configure are deployed by the examples.
			get("/api/v1/IntegrationRuntimeArtifacts('"+f.ID+"')", found[sample && f.Deployed])
		}
		stop()
	}
}

package cpi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func flowZip(name string, params map[string]string, senders ...map[string]string) []byte {
	o := iflowbuild.Options{Name: name, Parameters: params}
	for _, p := range senders {
		o.Senders = append(o.Senders, iflowbuild.Sender{Properties: p})
	}
	return iflowbuild.Build(o)
}

func TestArtifactContent(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	id := "Orders In 'EU'"
	content := flowZip(id, nil, iflowbuild.DefaultSenderProperties("acme/crm/prod/orders"))

	a, err := c.CreateArtifact(ctx, cpi.Artifact{ID: id, Name: "Orders In", PackageID: "Pkg"}, content)
	if err != nil {
		t.Fatalf("CreateArtifact: %v", err)
	}
	if a.ID != id || a.Version != "1.0.0" || a.PackageID != "Pkg" || a.Name != "Orders In" {
		t.Fatalf("created %+v", a)
	}
	got, err := c.GetArtifact(ctx, id, "")
	if err != nil || *got != *a {
		t.Fatalf("GetArtifact = %+v, %v; want %+v", got, err, a)
	}
	if _, err := c.GetArtifact(ctx, id, "2.0.0"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("GetArtifact of another version: %v", err)
	}
	b, err := c.Content(ctx, id, cpi.ActiveVersion)
	if err != nil || !bytes.Equal(b, content) {
		t.Fatalf("Content: %v, equal %v", err, bytes.Equal(b, content))
	}

	updated := flowZip(id, nil, iflowbuild.DefaultSenderProperties("acme/crm/prod/other"))
	if err := c.UpdateContent(ctx, id, "1.0.0", "Orders In", updated); err != nil {
		t.Fatalf("UpdateContent: %v", err)
	}
	if b, _ := c.Content(ctx, id, ""); !bytes.Equal(b, updated) || !bytes.Equal(s.IFlowContent(id), updated) {
		t.Fatal("the content was not replaced")
	}
	if got, _ := c.GetArtifact(ctx, id, ""); got.Name != "Orders In" {
		t.Fatalf("name after update %q", got.Name)
	}

	_, err = c.CreateArtifact(ctx, cpi.Artifact{ID: id, Name: "Again", PackageID: "Pkg"}, nil)
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusInternalServerError || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("duplicate CreateArtifact: %v", err)
	}
	if err := c.DeleteArtifact(ctx, id, ""); err != nil {
		t.Fatalf("DeleteArtifact: %v", err)
	}
	for name, err := range map[string]error{
		"GetArtifact":    second(c.GetArtifact(ctx, id, "")),
		"Content":        second(c.Content(ctx, id, "")),
		"Configurations": second(c.Configurations(ctx, id, "")),
		"UpdateContent":  c.UpdateContent(ctx, id, "", "x", updated),
		"DeleteArtifact": c.DeleteArtifact(ctx, id, ""),
	} {
		if !errors.Is(err, cpi.ErrNotFound) {
			t.Errorf("%s of a deleted flow: %v, want ErrNotFound", name, err)
		} else if !strings.Contains(err.Error(), "404") {
			t.Errorf("%s: error %q does not name the status", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestConfigurations(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	key := "Max Retries 'AMQP' (orders)"
	content := flowZip("Flow", map[string]string{key: "5", "Queue": "orders", "Flag": "true"},
		map[string]string{"maxRetries": "{{" + key + "}}"})
	createFlow(t, s, content)
	list, err := c.Configurations(ctx, "Flow", "")
	if err != nil {
		t.Fatalf("Configurations: %v", err)
	}
	want := []cpi.Configuration{{"Flag", "true", "xsd:boolean"}, {key, "5", "xsd:integer"}, {"Queue", "orders", "xsd:string"}}
	if len(list) != len(want) {
		t.Fatalf("Configurations = %+v", list)
	}
	for i := range want {
		if list[i] != want[i] {
			t.Errorf("configuration %d = %+v, want %+v", i, list[i], want[i])
		}
	}
	if err := c.SetConfiguration(ctx, "Flow", "", key, "2", "xsd:integer"); err != nil {
		t.Fatalf("SetConfiguration: %v", err)
	}
	if m, _ := s.IFlowConfigurations("Flow"); m[key] != "2" {
		t.Fatalf("after SetConfiguration: %v", m)
	}
	err = c.SetConfiguration(ctx, "Flow", "", "Nope", "1", "")
	if !errors.Is(err, cpi.ErrNotFound) || !strings.Contains(err.Error(), "Nope") {
		t.Fatalf("SetConfiguration of an unknown key: %v", err)
	}
}

func TestDeployAndWait(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	content := flowZip("Flow", map[string]string{"Retries": "3"}, map[string]string{"maxRetries": "{{Retries}}"})
	createFlow(t, s, content)
	if _, err := c.RuntimeArtifact(ctx, "Flow"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("RuntimeArtifact before deploy: %v", err)
	}
	rt, err := c.DeployAndWait(ctx, "Flow", "", 5*time.Millisecond)
	if err != nil {
		t.Fatalf("DeployAndWait: %v", err)
	}
	if rt.Status != cpi.RuntimeStarted || rt.Version != "1.0.0" || rt.ID != "Flow" || rt.Type != "INTEGRATION_FLOW" {
		t.Fatalf("runtime %+v", rt)
	}
	if d, ok := s.Deployed("Flow"); !ok || d.Parameters["Retries"] != "3" {
		t.Fatalf("deployed %+v", d)
	}
	if msg, err := c.RuntimeErrorInformation(ctx, "Flow"); err != nil || msg != "" {
		t.Fatalf("RuntimeErrorInformation of a started flow: %q, %v", msg, err)
	}
	task, err := c.Deploy(ctx, "Flow", "")
	if err != nil || task == "" {
		t.Fatalf("Deploy: %q, %v", task, err)
	}
	if st, err := c.DeployStatus(ctx, task); err != nil || (st != cpi.TaskDeploying && st != cpi.TaskSuccess) {
		t.Fatalf("DeployStatus: %q, %v", st, err)
	}
	if _, err := c.DeployStatus(ctx, "no-such-task"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("DeployStatus of an unknown task: %v", err)
	}
	if err := c.Undeploy(ctx, "Flow"); err != nil {
		t.Fatalf("Undeploy: %v", err)
	}
	if _, err := c.RuntimeArtifact(ctx, "Flow"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("RuntimeArtifact after undeploy: %v", err)
	}
	if err := c.Undeploy(ctx, "Flow"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("second Undeploy: %v", err)
	}
	if _, err := c.Deploy(ctx, "Missing", ""); err == nil {
		t.Fatal("Deploy of a missing flow succeeded")
	}
}

// A build that fails while the previous version keeps running: the error says so and names the
// running version instead of waiting for error information a STARTED artifact never has.
func TestDeployBuildFailureSaysWhatRuns(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	createFlow(t, s, flowZip("Flow", nil))
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if _, err := c.DeployAndWait(ctx, "Flow", "", 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	s.FailNextBuild("Flow", "Build failed")
	_, err := c.DeployAndWait(ctx, "Flow", "", 5*time.Millisecond)
	var de *cpi.DeployError
	if !errors.As(err, &de) || de.Status != cpi.TaskFail || de.StillRunning == nil || de.StillRunning.Status != cpi.RuntimeStarted ||
		!strings.Contains(err.Error(), "keeps running the version deployed before (version 1.0.0, status STARTED)") {
		t.Fatalf("DeployAndWait: %v", err)
	}
}

func TestDeployFailureCarriesTenantText(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	createFlow(t, s, flowZip("Flow", nil))
	text := "Error in AMQP sender: queue 'acme/crm/prod/orders' is not known to the broker"
	s.FailNextDeploy("Flow", text)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	_, err := c.DeployAndWait(ctx, "Flow", "", 5*time.Millisecond)
	var de *cpi.DeployError
	if !errors.As(err, &de) || de.Status != cpi.TaskFail || de.Message != text || !strings.Contains(err.Error(), text) {
		t.Fatalf("DeployAndWait: %v", err)
	}
	if msg, err := c.RuntimeErrorInformation(ctx, "Flow"); err != nil || msg != text {
		t.Fatalf("RuntimeErrorInformation = %q, %v", msg, err)
	}
	// The next deploy succeeds again.
	if _, err := c.DeployAndWait(ctx, "Flow", "", 5*time.Millisecond); err != nil {
		t.Fatalf("DeployAndWait after the failure: %v", err)
	}
}

func TestDeployAndWaitStopsWithContext(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	s.SetDeployDelay(time.Hour)
	createFlow(t, s, flowZip("Flow", nil))
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
	defer cancel()
	_, err := c.DeployAndWait(ctx, "Flow", "", 10*time.Millisecond)
	var te *cpi.DeployTimeoutError
	if !errors.As(err, &te) || te.Phase != "build" || te.Status != cpi.TaskDeploying || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("DeployAndWait: %v", err)
	}
}

func TestCSRFFetchAndRetryOnce(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{RequireCSRF: true})
	createFlow(t, s, flowZip("Flow", map[string]string{"P": "1"}))
	ctx := t.Context()
	s.ResetStats()
	if err := c.SetConfiguration(ctx, "Flow", "", "P", "2", ""); err != nil {
		t.Fatalf("SetConfiguration: %v", err)
	}
	st := s.Stats()
	put := "PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$links/Configurations(ParameterKey)"
	if st.Routes[put] != 2 || st.Routes["GET /api/v1/"] != 1 || st.Statuses[http.StatusForbidden] != 1 {
		t.Fatalf("routes %v statuses %v: want one rejected PUT, one fetch, one accepted PUT", st.Routes, st.Statuses)
	}
	// The token is kept for later writes.
	if err := c.SetConfiguration(ctx, "Flow", "", "P", "3", ""); err != nil {
		t.Fatalf("second SetConfiguration: %v", err)
	}
	if got := s.Stats(); got.Routes["GET /api/v1/"] != 1 || got.Statuses[http.StatusForbidden] != 1 {
		t.Fatalf("second write fetched again: %v", got.Routes)
	}
	// A token that went stale is fetched again.
	s.InvalidateCSRFTokens()
	if err := c.Undeploy(ctx, "Flow"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("Undeploy after invalidation: %v", err)
	}
	if got := s.Stats(); got.Routes["GET /api/v1/"] != 2 {
		t.Fatalf("no new fetch after invalidation: %v", got.Routes)
	}
}

func TestCSRFSecondRejectionIsNotLooped(t *testing.T) {
	t.Parallel()
	s := startEmulator(t, emulator.Options{RequireCSRF: true})
	createFlow(t, s, flowZip("Flow", map[string]string{"P": "1"}))
	var writes, fetches atomic.Int64
	h := s.Handler()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("X-CSRF-Token") == "Fetch" {
			fetches.Add(1)
		}
		if r.Method == http.MethodPut {
			writes.Add(1)
			w.Header().Set("X-CSRF-Token", "Required")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"error":{"code":"Forbidden","message":{"lang":"en","value":"CSRF token validation failed"}}}`))
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	cfg := httpConfig(s)
	cfg.BaseURL = front.URL
	c := newClient(t, cfg)
	err := c.SetConfiguration(t.Context(), "Flow", "", "P", "2", "")
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusForbidden || !strings.Contains(err.Error(), "CSRF token validation failed") {
		t.Fatalf("SetConfiguration: %v", err)
	}
	if writes.Load() != 2 || fetches.Load() != 1 {
		t.Fatalf("%d writes and %d fetches, want 2 and 1", writes.Load(), fetches.Load())
	}
}

func TestUnauthorizedClient(t *testing.T) {
	t.Parallel()
	s := startEmulator(t, emulator.Options{})
	cfg := httpConfig(s)
	cfg.ClientSecret = "wrong"
	c := newClient(t, cfg)
	_, err := c.GetArtifact(t.Context(), "Flow", "")
	if err == nil || errors.Is(err, cpi.ErrNotFound) || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("GetArtifact with a wrong secret: %v", err)
	}
}

// TestStandaloneKeyFile uses the cloud-integration.json that the emulator
// writes for its standalone binary.
func TestStandaloneKeyFile(t *testing.T) {
	t.Parallel()
	s := startEmulator(t, emulator.Options{})
	dir := t.TempDir()
	if err := s.WriteKeys(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, emulator.CloudIntegrationKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	var k emulator.CloudIntegrationServiceKey
	if err := json.Unmarshal(data, &k); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, httpx.Config{BaseURL: k.OAuth.URL, TokenURL: k.OAuth.TokenURL, ClientID: k.OAuth.ClientID,
		ClientSecret: k.OAuth.ClientSecret, CSRFFetchPath: cpi.CSRFFetchPath})
	createFlow(t, s, flowZip("Flow", nil, iflowbuild.DefaultSenderProperties("q")))
	if got, err := c.ReadSender(t.Context(), "Flow", "", ""); err != nil || got.QueueName != "q" {
		t.Fatalf("ReadSender with the key file: %+v, %v", got, err)
	}
}

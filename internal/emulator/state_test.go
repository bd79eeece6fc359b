package emulator_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

func TestPersistenceAcrossRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stateFile := filepath.Join(dir, "state.json")

	s1 := emulator.New(emulator.Options{StateFile: stateFile})
	if err := s1.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	id, secret := emulatortest.Creds(t, s1, emulator.AudienceManagement)
	cid, csecret := emulatortest.Creds(t, s1, emulator.AudienceCloudIntegration)
	tok := emulatortest.Token(t, s1, emulator.AudienceManagement)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s1, tok, "acme/crm/prod/q", `{"maxRedeliveryCount":4}`), http.StatusCreated)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", emulatortest.QPath(s1, "acme/crm/prod/q", "/subscriptions/t1"), tok, nil, nil), http.StatusCreated)
	if _, err := s1.Publish("acme/crm/prod/q", []byte("kept"), "text/plain"); err != nil {
		t.Fatal(err)
	}
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}

	info, err := os.Stat(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v, want 0600", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the state file (no temporary files)", len(entries))
	}

	s2 := emulatortest.StartServer(t, emulator.Options{StateFile: stateFile})
	if id2, secret2 := emulatortest.Creds(t, s2, emulator.AudienceManagement); id2 != id || secret2 != secret {
		t.Fatal("management credentials changed across the restart")
	}
	if cid2, csecret2 := emulatortest.Creds(t, s2, emulator.AudienceCloudIntegration); cid2 != cid || csecret2 != csecret {
		t.Fatal("Cloud Integration credentials changed across the restart")
	}
	emulatortest.Expect(t, emulatortest.FetchToken(t, s2, id, secret), http.StatusOK)
	// Old tokens are gone; the client must refresh.
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s2.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusUnauthorized)
	tok2 := emulatortest.Token(t, s2, emulator.AudienceManagement)
	r := emulatortest.Do(t, "GET", emulatortest.QPath(s2, "acme/crm/prod/q"), tok2, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var q emulator.Queue
	r.JSON(t, &q)
	if q.MaxRedeliveryCount != 4 || q.MessageCount != 1 {
		t.Fatalf("queue after restart %s", r.Body)
	}
	if subs, _ := s2.Subscriptions("acme/crm/prod/q"); len(subs) != 1 || subs[0] != "t1" {
		t.Fatalf("subscriptions after restart %v", subs)
	}
	m, ok, err := s2.Consume("acme/crm/prod/q", 0)
	if err != nil || !ok || m.Body != "kept" {
		t.Fatalf("message after restart: %+v %v %v", m, ok, err)
	}
	// Deleting is persisted as well.
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", emulatortest.QPath(s2, "acme/crm/prod/q"), tok2, nil, nil), http.StatusNoContent)
	data, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Queues []json.RawMessage `json:"queues"`
	}
	if err := json.Unmarshal(data, &st); err != nil || len(st.Queues) != 0 {
		t.Fatalf("state after delete: %v, %d queues", err, len(st.Queues))
	}
}

func TestCorruptStateFileFailsStart(t *testing.T) {
	t.Parallel()
	stateFile := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(stateFile, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := emulator.New(emulator.Options{StateFile: stateFile})
	if err := s.Start("127.0.0.1:0"); err == nil {
		_ = s.Close()
		t.Fatal("Start accepted a corrupt state file")
	}
	if data, _ := os.ReadFile(stateFile); string(data) != "{not json" {
		t.Fatal("the corrupt state file was overwritten")
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	k := emulatortest.EventMeshKey(t, s)
	m, msg := k.Management[0], k.Messaging[0]
	if m.URI != s.URL() || m.OA2.TokenEndpoint != s.URL()+"/oauth/token" || m.OA2.GrantType != "client_credentials" || m.OA2.ClientID == "" || m.OA2.ClientSecret == "" {
		t.Fatalf("management part %+v", m)
	}
	if msg.Broker.Type != "saprestmgw" || len(msg.Protocol) != 1 || msg.Protocol[0] != "httprest" || msg.URI != s.URL() || msg.OA2.ClientID == m.OA2.ClientID {
		t.Fatalf("messaging part %+v", msg)
	}
	if k.Namespace != "acme/crm/prod" || k.ServiceInstanceID == "" || k.XSAppName == "" {
		t.Fatalf("key %+v", k)
	}
	var ck emulator.CloudIntegrationServiceKey
	if err := json.Unmarshal(s.CloudIntegrationKey(), &ck); err != nil {
		t.Fatal(err)
	}
	if ck.OAuth.URL != s.URL() || ck.OAuth.TokenURL != s.URL()+"/oauth/token" || ck.OAuth.ClientID == "" || ck.OAuth.ClientSecret == "" {
		t.Fatalf("cloud integration key %+v", ck)
	}
	emulatortest.Expect(t, emulatortest.FetchToken(t, s, ck.OAuth.ClientID, ck.OAuth.ClientSecret), http.StatusOK)

	dir := filepath.Join(t.TempDir(), "keys")
	if err := s.WriteKeys(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"event-mesh.json", "cloud-integration.json"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode %v, want 0600", name, info.Mode().Perm())
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "event-mesh.json"))
	if !strings.Contains(string(data), m.OA2.ClientSecret) {
		t.Fatal("event-mesh.json does not hold the key")
	}
}

func TestStartRefusesNonLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:80", "nonsense"} {
		s := emulator.New(emulator.Options{})
		if err := s.Start(addr); err == nil {
			_ = s.Close()
			t.Errorf("Start(%q) succeeded", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "127.0.0.5:0"} {
		if _, err := emulator.LoopbackAddr(addr); err != nil {
			t.Errorf("LoopbackAddr(%q): %v", addr, err)
		}
	}
}

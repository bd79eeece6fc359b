package core_test

import (
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// Certificate keys: the Event Mesh x509 binding and both Cloud Integration variants name an
// HTTPS token endpoint that issues tokens only to a client presenting its certificate.
func TestCertificateKeys(t *testing.T) {
	t.Parallel()
	for _, kt := range []emulator.KeyType{emulator.KeyCertificate, emulator.KeyExternalCertificate} {
		t.Run(string(kt), func(t *testing.T) {
			t.Parallel()
			s := emulatortest.StartServer(t, emulator.Options{KeyType: kt})
			var em struct {
				Management []struct {
					OA2 map[string]string `json:"oa2"`
				} `json:"management"`
			}
			if err := json.Unmarshal(s.EventMeshKey(), &em); err != nil {
				t.Fatal(err)
			}
			oa2 := em.Management[0].OA2
			if oa2["clientsecret"] != "" || !strings.Contains(oa2["certificate"], "BEGIN CERTIFICATE") || !strings.Contains(oa2["key"], "PRIVATE KEY") ||
				oa2["granttype"] != "client_x509" || !strings.HasPrefix(oa2["tokenendpoint"], "https://127.0.0.1:") {
				t.Fatalf("Event Mesh key oa2 = %v", oa2)
			}
			var ci struct {
				OAuth map[string]string `json:"oauth"`
			}
			if err := json.Unmarshal(s.CloudIntegrationKey(), &ci); err != nil {
				t.Fatal(err)
			}
			_, hasKey := ci.OAuth["key"]
			if ci.OAuth["clientsecret"] != "" || ci.OAuth["certificate"] == "" || hasKey != (kt == emulator.KeyCertificate) {
				t.Fatalf("Cloud Integration key = %v", ci.OAuth)
			}
			dir := t.TempDir()
			if err := s.WriteKeys(dir); err != nil {
				t.Fatal(err)
			}
			_, err := os.Stat(filepath.Join(dir, emulator.CloudIntegrationPrivateKeyFile))
			if (err == nil) != (kt == emulator.KeyExternalCertificate) {
				t.Errorf("private key file: %v", err)
			}
			if ca, err := os.ReadFile(filepath.Join(dir, emulator.CAFile)); err != nil || !strings.Contains(string(ca), "BEGIN CERTIFICATE") {
				t.Errorf("CA file: %v", err)
			}

			pair, err := tls.X509KeyPair([]byte(oa2["certificate"]), []byte(oa2["key"]))
			if err != nil {
				t.Fatal(err)
			}
			post := func(certs []tls.Certificate, form url.Values) int {
				t.Helper()
				hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: s.CA().Pool(), Certificates: certs, MinVersion: tls.VersionTLS12}}}
				resp, err := hc.PostForm(oa2["tokenendpoint"], form)
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
				return resp.StatusCode
			}
			form := url.Values{"grant_type": {"client_credentials"}, "client_id": {oa2["clientid"]}}
			if got := post([]tls.Certificate{pair}, form); got != http.StatusOK {
				t.Errorf("token with the certificate: %d, want 200", got)
			}
			if got := post(nil, form); got != http.StatusUnauthorized {
				t.Errorf("token without a certificate: %d, want 401", got)
			}
			if got := post([]tls.Certificate{pair}, url.Values{"grant_type": {"client_credentials"}, "client_id": {"someone else"}}); got != http.StatusUnauthorized {
				t.Errorf("token for another client id: %d, want 401", got)
			}
			// The plain token endpoint of the API listener takes no certificate client.
			r := emulatortest.FetchToken(t, s, oa2["clientid"], "")
			emulatortest.Expect(t, r, http.StatusUnauthorized)
		})
	}
}

// With TokenHost the token endpoint listens on another loopback address than the API.
func TestTokenHost(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{TokenHost: "127.0.0.2"})
	if !strings.HasPrefix(s.TokenURL(), "http://127.0.0.2:") || !strings.Contains(string(s.CloudIntegrationKey()), s.TokenURL()) {
		t.Fatalf("token URL %s, key %s", s.TokenURL(), s.CloudIntegrationKey())
	}
	resp, err := http.PostForm(s.TokenURL(), url.Values{"grant_type": {"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("token endpoint on 127.0.0.2 answered %d, want 401 without credentials", resp.StatusCode)
	}
}

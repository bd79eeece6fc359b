package emulatortest_test

import (
	"encoding/json"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// The typed keys hold every field the emulator writes: marshalled again, they are the keys to
// the byte, for secret and both certificate variants; the parsed keys carry the credentials.
func TestStartKeys(t *testing.T) {
	t.Parallel()
	for _, kt := range []emulator.KeyType{emulator.KeySecret, emulator.KeyCertificate, emulator.KeyExternalCertificate} {
		t.Run(string(kt), func(t *testing.T) {
			t.Parallel()
			e := emulatortest.Start(t, emulator.Options{KeyType: kt})
			for name, c := range map[string]struct {
				doc  any
				want []byte
			}{
				"Event Mesh":        {e.EventMeshDoc, e.EventMeshKey()},
				"Cloud Integration": {e.CloudIntegrationDoc, e.CloudIntegrationKey()},
			} {
				b, err := json.MarshalIndent(c.doc, "", "  ")
				if err != nil || string(b) != string(c.want) {
					t.Errorf("%s key typed and marshalled again:\n%s\nwant\n%s", name, b, c.want)
				}
			}
			cert := kt != emulator.KeySecret
			if e.EventMesh.UsesCertificate() != cert || e.CloudIntegration.UsesCertificate() != cert {
				t.Errorf("certificate keys: Event Mesh %v, Cloud Integration %v, want %v", e.EventMesh.UsesCertificate(), e.CloudIntegration.UsesCertificate(), cert)
			}
			if cert && e.CloudIntegration.Key == "" {
				t.Error("the Cloud Integration key has no private key")
			}
			if e.ManagementConfig().BaseURL != e.URL() || e.CloudIntegrationConfig().BaseURL != e.URL() {
				t.Errorf("configurations point at %s and %s, want %s", e.ManagementConfig().BaseURL, e.CloudIntegrationConfig().BaseURL, e.URL())
			}
		})
	}
}

// The clients of a secret key reach their APIs.
func TestStartClients(t *testing.T) {
	t.Parallel()
	e := emulatortest.Start(t, emulator.Options{})
	resp, err := e.ManagementClient(t).Do(t.Context(), "GET", emulator.ManagementBasePath+"/queues", nil, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /queues: %v, %v", resp, err)
	}
	resp, err = e.CloudIntegrationClient(t).Do(t.Context(), "GET", emulator.CloudIntegrationBasePath+"/IntegrationRuntimeArtifacts", nil, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /IntegrationRuntimeArtifacts: %v, %v", resp, err)
	}
}

package emulator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Names of the files WriteKeys creates.
const (
	EventMeshKeyFile        = "event-mesh.json"
	CloudIntegrationKeyFile = "cloud-integration.json"
	// CloudIntegrationPrivateKeyFile holds the private key of an "External
	// Certificate" key (KeyExternalCertificate).
	CloudIntegrationPrivateKeyFile = "cloud-integration-key.pem"
	// CAFile holds the CA certificate of the HTTPS token endpoint (certificate keys).
	CAFile = "ca.pem"
)

type keyOA2 struct {
	ClientID      string `json:"clientid"`
	ClientSecret  string `json:"clientsecret,omitempty"`
	Certificate   string `json:"certificate,omitempty"`
	Key           string `json:"key,omitempty"`
	GrantType     string `json:"granttype"`
	TokenEndpoint string `json:"tokenendpoint"`
}

type keyManagement struct {
	OA2 keyOA2 `json:"oa2"`
	URI string `json:"uri"`
}

type keyBroker struct {
	Type string `json:"type"`
}

type keyMessaging struct {
	Broker   keyBroker `json:"broker"`
	OA2      keyOA2    `json:"oa2"`
	Protocol []string  `json:"protocol"`
	URI      string    `json:"uri"`
}

type eventMeshKey struct {
	Management        []keyManagement `json:"management"`
	Messaging         []keyMessaging  `json:"messaging"`
	Namespace         string          `json:"namespace"`
	ServiceInstanceID string          `json:"serviceinstanceid"`
	XSAppName         string          `json:"xsappname"`
}

func (s *Server) oa2(audience string) keyOA2 {
	c := s.client(audience)
	if c.cert != nil {
		// An x509 binding: certificate and key instead of the secret, and the
		// grant type BTP writes for it.
		return keyOA2{ClientID: c.ID, Certificate: c.cert.certPEM, Key: c.cert.keyPEM, GrantType: "client_x509", TokenEndpoint: s.TokenURL()}
	}
	return keyOA2{ClientID: c.ID, ClientSecret: c.Secret, GrantType: "client_credentials", TokenEndpoint: s.TokenURL()}
}

// EventMeshKey returns an Event Mesh service key in BTP format pointing at URL().
func (s *Server) EventMeshKey() []byte {
	k := eventMeshKey{
		Management: []keyManagement{{OA2: s.oa2(AudienceManagement), URI: s.URL()}},
		Messaging: []keyMessaging{{
			Broker: keyBroker{Type: "saprestmgw"}, OA2: s.oa2(AudienceMessaging),
			Protocol: []string{"httprest"}, URI: s.URL(),
		}},
		Namespace:         s.opts.Namespace,
		ServiceInstanceID: s.instance.ServiceInstanceID,
		XSAppName:         s.instance.XSAppName,
	}
	b, _ := json.MarshalIndent(k, "", "  ")
	return b
}

// CloudIntegrationKey returns a Cloud Integration (plan api) service key pointing at URL().
func (s *Server) CloudIntegrationKey() []byte {
	c := s.client(AudienceCloudIntegration)
	oauth := map[string]string{"url": s.URL(), "tokenurl": s.TokenURL(), "clientid": c.ID}
	switch {
	case c.cert != nil && s.opts.KeyType == KeyExternalCertificate:
		// "External Certificate": the key holds the certificate, not its private key.
		oauth["certificate"] = c.cert.certPEM
	case c.cert != nil:
		oauth["certificate"], oauth["key"] = c.cert.certPEM, c.cert.keyPEM
	default:
		oauth["clientsecret"] = c.Secret
	}
	b, _ := json.MarshalIndent(map[string]map[string]string{"oauth": oauth}, "", "  ")
	return b
}

// CloudIntegrationPrivateKey returns the PEM private key of the Cloud
// Integration client certificate, or nil for secret keys. With
// KeyExternalCertificate it is the part the service key leaves out.
func (s *Server) CloudIntegrationPrivateKey() []byte {
	if c := s.client(AudienceCloudIntegration); c.cert != nil {
		return []byte(c.cert.keyPEM)
	}
	return nil
}

// WriteKeys writes EventMeshKey and CloudIntegrationKey to dir/event-mesh.json
// and dir/cloud-integration.json with mode 0600, creating dir if needed.
func (s *Server) WriteKeys(dir string) error {
	if s.URL() == "" {
		return fmt.Errorf("emulator: keys point at the server's URL, so start the server before writing them")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, EventMeshKeyFile), s.EventMeshKey(), 0o600); err != nil {
		return err
	}
	if s.opts.KeyType == KeyExternalCertificate {
		if err := writeFileAtomic(filepath.Join(dir, CloudIntegrationPrivateKeyFile), s.CloudIntegrationPrivateKey(), 0o600); err != nil {
			return err
		}
	}
	if s.ca != nil {
		if err := writeFileAtomic(filepath.Join(dir, CAFile), s.ca.CertPEM(), 0o644); err != nil {
			return err
		}
	}
	return writeFileAtomic(filepath.Join(dir, CloudIntegrationKeyFile), s.CloudIntegrationKey(), 0o600)
}

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

// ServiceKeyOA2 is the OAuth part of an Event Mesh service key: a secret
// (client_credentials) or, for an x509 binding, a certificate and its key
// (client_x509).
type ServiceKeyOA2 struct {
	ClientID      string `json:"clientid"`
	ClientSecret  string `json:"clientsecret,omitempty"`
	Certificate   string `json:"certificate,omitempty"`
	Key           string `json:"key,omitempty"`
	GrantType     string `json:"granttype"`
	TokenEndpoint string `json:"tokenendpoint"`
}

// EventMeshManagement is the management entry of an Event Mesh service key.
type EventMeshManagement struct {
	OA2 ServiceKeyOA2 `json:"oa2"`
	URI string        `json:"uri"`
}

// EventMeshBroker names the broker of a messaging entry.
type EventMeshBroker struct {
	Type string `json:"type"`
}

// EventMeshMessaging is the messaging entry of an Event Mesh service key.
type EventMeshMessaging struct {
	Broker   EventMeshBroker `json:"broker"`
	OA2      ServiceKeyOA2   `json:"oa2"`
	Protocol []string        `json:"protocol"`
	URI      string          `json:"uri"`
}

// EventMeshServiceKey is the Event Mesh service key as BTP writes it and
// EventMeshKey returns it.
type EventMeshServiceKey struct {
	Management        []EventMeshManagement `json:"management"`
	Messaging         []EventMeshMessaging  `json:"messaging"`
	Namespace         string                `json:"namespace"`
	ServiceInstanceID string                `json:"serviceinstanceid"`
	XSAppName         string                `json:"xsappname"`
}

// CloudIntegrationOAuth is the oauth object of a Cloud Integration service
// key: a secret, a certificate with its key ("Certificate"), or a
// certificate alone ("External Certificate"). The fields stand in the
// alphabetical order BTP writes them in.
type CloudIntegrationOAuth struct {
	Certificate  string `json:"certificate,omitempty"`
	ClientID     string `json:"clientid"`
	ClientSecret string `json:"clientsecret,omitempty"`
	Key          string `json:"key,omitempty"`
	TokenURL     string `json:"tokenurl"`
	URL          string `json:"url"`
}

// CloudIntegrationServiceKey is the Cloud Integration (plan api) service key
// as CloudIntegrationKey returns it.
type CloudIntegrationServiceKey struct {
	OAuth CloudIntegrationOAuth `json:"oauth"`
}

func (s *Server) oa2(audience string) ServiceKeyOA2 {
	c := s.client(audience)
	if c.cert != nil {
		// An x509 binding: certificate and key instead of the secret, and the
		// grant type BTP writes for it.
		return ServiceKeyOA2{ClientID: c.ID, Certificate: c.cert.certPEM, Key: c.cert.keyPEM, GrantType: "client_x509", TokenEndpoint: s.TokenURL()}
	}
	return ServiceKeyOA2{ClientID: c.ID, ClientSecret: c.Secret, GrantType: "client_credentials", TokenEndpoint: s.TokenURL()}
}

// EventMeshKey returns an Event Mesh service key in BTP format pointing at URL().
func (s *Server) EventMeshKey() []byte {
	k := EventMeshServiceKey{
		Management: []EventMeshManagement{{OA2: s.oa2(AudienceManagement), URI: s.URL()}},
		Messaging: []EventMeshMessaging{{
			Broker: EventMeshBroker{Type: "saprestmgw"}, OA2: s.oa2(AudienceMessaging),
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
	oauth := CloudIntegrationOAuth{URL: s.URL(), TokenURL: s.TokenURL(), ClientID: c.ID}
	switch {
	case c.cert != nil && s.opts.KeyType == KeyExternalCertificate:
		// "External Certificate": the key holds the certificate, not its private key.
		oauth.Certificate = c.cert.certPEM
	case c.cert != nil:
		oauth.Certificate, oauth.Key = c.cert.certPEM, c.cert.keyPEM
	default:
		oauth.ClientSecret = c.Secret
	}
	b, _ := json.MarshalIndent(CloudIntegrationServiceKey{OAuth: oauth}, "", "  ")
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

// WriteKeys writes EventMeshKey, CloudIntegrationKey and AdvancedEventMeshKey to
// dir/event-mesh.json, dir/cloud-integration.json and dir/advanced-event-mesh.json
// with mode 0600, creating dir if needed.
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
	if err := s.writeAdvancedEventMeshKey(dir); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, CloudIntegrationKeyFile), s.CloudIntegrationKey(), 0o600)
}

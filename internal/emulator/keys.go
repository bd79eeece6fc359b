package emulator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
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
	c := s.Client(audience)
	if certPEM, keyPEM, ok := c.Certificate(); ok {
		// An x509 binding: certificate and key instead of the secret, and the
		// grant type BTP writes for it.
		return ServiceKeyOA2{ClientID: c.ID, Certificate: certPEM, Key: keyPEM, GrantType: "client_x509", TokenEndpoint: s.TokenURL()}
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
		Namespace:         s.Opts.Namespace,
		ServiceInstanceID: s.Instance.ServiceInstanceID,
		XSAppName:         s.Instance.XSAppName,
	}
	b, _ := json.MarshalIndent(k, "", "  ")
	return b
}

// CloudIntegrationKey returns a Cloud Integration (plan api) service key pointing at URL().
func (s *Server) CloudIntegrationKey() []byte {
	c := s.Client(AudienceCloudIntegration)
	oauth := CloudIntegrationOAuth{URL: s.URL(), TokenURL: s.TokenURL(), ClientID: c.ID}
	certPEM, keyPEM, hasCert := c.Certificate()
	switch {
	case hasCert && s.Opts.KeyType == KeyExternalCertificate:
		// "External Certificate": the key holds the certificate, not its private key.
		oauth.Certificate = certPEM
	case hasCert:
		oauth.Certificate, oauth.Key = certPEM, keyPEM
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
	if _, keyPEM, ok := s.Client(AudienceCloudIntegration).Certificate(); ok {
		return []byte(keyPEM)
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
	if err := core.WriteFileAtomic(filepath.Join(dir, EventMeshKeyFile), s.EventMeshKey(), 0o600); err != nil {
		return err
	}
	if s.Opts.KeyType == KeyExternalCertificate {
		if err := core.WriteFileAtomic(filepath.Join(dir, CloudIntegrationPrivateKeyFile), s.CloudIntegrationPrivateKey(), 0o600); err != nil {
			return err
		}
	}
	if ca := s.CA(); ca != nil {
		if err := core.WriteFileAtomic(filepath.Join(dir, CAFile), ca.CertPEM(), 0o644); err != nil {
			return err
		}
	}
	if err := s.writeAdvancedEventMeshKey(dir); err != nil {
		return err
	}
	return core.WriteFileAtomic(filepath.Join(dir, CloudIntegrationKeyFile), s.CloudIntegrationKey(), 0o600)
}

// AdvancedEventMeshCredentials returns the broker service's SEMP URL (the server's URL: SEMP and REST
// messaging share its listener), Message VPN and management user.
func (s *Server) AdvancedEventMeshCredentials() AdvancedEventMeshCredentials {
	return s.Credentials(s.URL())
}

// AdvancedEventMeshKey returns AdvancedEventMeshCredentials as JSON, as WriteKeys writes it.
func (s *Server) AdvancedEventMeshKey() []byte {
	b, _ := json.MarshalIndent(s.AdvancedEventMeshCredentials(), "", "  ")
	return b
}

func (s *Server) writeAdvancedEventMeshKey(dir string) error {
	return core.WriteFileAtomic(filepath.Join(dir, AdvancedEventMeshKeyFile), s.AdvancedEventMeshKey(), 0o600)
}

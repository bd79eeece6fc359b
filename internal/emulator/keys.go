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
)

type keyOA2 struct {
	ClientID      string `json:"clientid"`
	ClientSecret  string `json:"clientsecret"`
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
	return keyOA2{ClientID: c.ID, ClientSecret: c.Secret, GrantType: "client_credentials", TokenEndpoint: s.URL() + TokenPath}
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
	k := map[string]map[string]string{"oauth": {
		"url": s.URL(), "tokenurl": s.URL() + TokenPath, "clientid": c.ID, "clientsecret": c.Secret,
	}}
	b, _ := json.MarshalIndent(k, "", "  ")
	return b
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
	return writeFileAtomic(filepath.Join(dir, CloudIntegrationKeyFile), s.CloudIntegrationKey(), 0o600)
}

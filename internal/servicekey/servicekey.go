// Package servicekey parses SAP BTP service keys as BTP hands them out.
package servicekey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// EventMesh holds what the provider needs from an Event Mesh service key.
type EventMesh struct {
	// ManagementURL is management[0].uri; the management API lives below it.
	ManagementURL string
	TokenURL      string
	ClientID      string
	ClientSecret  string

	// The messaging REST endpoint, taken from the messaging entry with the
	// httprest protocol; all empty when the key has none.
	MessagingURL          string
	MessagingTokenURL     string
	MessagingClientID     string
	MessagingClientSecret string

	// Namespace is the instance namespace, e.g. "acme/crm/prod".
	Namespace string
}

// CloudIntegration holds what the provider needs from a Cloud Integration
// (Process Integration Runtime, plan api) service key.
type CloudIntegration struct {
	URL          string
	TokenURL     string
	ClientID     string
	ClientSecret string
}

// MissingFieldError names a required field the service key lacks.
type MissingFieldError struct {
	// Field is the JSON path of the field, e.g. "management[0].oa2.clientsecret".
	Field string
}

// Error returns e.g. `service key is missing "management[0].uri"; ...`.
func (e *MissingFieldError) Error() string {
	return fmt.Sprintf("service key is missing %q; use the complete service key JSON as SAP BTP created it", e.Field)
}

type oa2 struct {
	ClientID      string `json:"clientid"`
	ClientSecret  string `json:"clientsecret"`
	TokenEndpoint string `json:"tokenendpoint"`
}

type eventMeshKey struct {
	Management []struct {
		URI string `json:"uri"`
		OA2 *oa2   `json:"oa2"`
	} `json:"management"`
	Messaging []struct {
		Protocol stringList `json:"protocol"`
		URI      string     `json:"uri"`
		OA2      *oa2       `json:"oa2"`
	} `json:"messaging"`
	Namespace string `json:"namespace"`
}

type cloudIntegrationKey struct {
	OAuth *struct {
		URL          string `json:"url"`
		TokenURL     string `json:"tokenurl"`
		ClientID     string `json:"clientid"`
		ClientSecret string `json:"clientsecret"`
	} `json:"oauth"`
}

// stringList accepts a JSON array of strings or a single string.
type stringList []string

func (l *stringList) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*l = []string{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		// An unexpected protocol shape only means the entry is not recognised.
		*l = nil
		return nil //nolint:nilerr
	}
	*l = many
	return nil
}

// ParseEventMesh parses an Event Mesh service key. It requires
// management[0].uri and management[0].oa2 clientid, clientsecret and
// tokenendpoint; the messaging entry is optional. A key wrapped in
// {"credentials": {...}} is accepted too.
func ParseEventMesh(data []byte) (EventMesh, error) {
	var k eventMeshKey
	if err := decode(data, &k); err != nil {
		return EventMesh{}, err
	}
	if len(k.Management) == 0 {
		return EventMesh{}, &MissingFieldError{Field: "management[0]"}
	}
	m := k.Management[0]
	if err := required(
		"management[0].uri", m.URI,
		"management[0].oa2", present(m.OA2),
	); err != nil {
		return EventMesh{}, err
	}
	if err := required(
		"management[0].oa2.clientid", m.OA2.ClientID,
		"management[0].oa2.clientsecret", m.OA2.ClientSecret,
		"management[0].oa2.tokenendpoint", m.OA2.TokenEndpoint,
	); err != nil {
		return EventMesh{}, err
	}
	out := EventMesh{
		ManagementURL: strings.TrimSpace(m.URI),
		TokenURL:      strings.TrimSpace(m.OA2.TokenEndpoint),
		ClientID:      m.OA2.ClientID,
		ClientSecret:  m.OA2.ClientSecret,
		Namespace:     strings.TrimSpace(k.Namespace),
	}
	idx := -1
	for i, e := range k.Messaging {
		if slices.ContainsFunc(e.Protocol, func(p string) bool { return strings.EqualFold(strings.TrimSpace(p), "httprest") }) {
			idx = i
			break
		}
	}
	if idx < 0 && len(k.Messaging) == 1 && len(k.Messaging[0].Protocol) == 0 {
		idx = 0
	}
	if idx >= 0 {
		e := k.Messaging[idx]
		p := fmt.Sprintf("messaging[%d]", idx)
		if err := required(p+".uri", e.URI, p+".oa2", present(e.OA2)); err != nil {
			return EventMesh{}, err
		}
		if err := required(
			p+".oa2.clientid", e.OA2.ClientID,
			p+".oa2.clientsecret", e.OA2.ClientSecret,
			p+".oa2.tokenendpoint", e.OA2.TokenEndpoint,
		); err != nil {
			return EventMesh{}, err
		}
		out.MessagingURL = strings.TrimSpace(e.URI)
		out.MessagingTokenURL = strings.TrimSpace(e.OA2.TokenEndpoint)
		out.MessagingClientID = e.OA2.ClientID
		out.MessagingClientSecret = e.OA2.ClientSecret
	}
	return out, nil
}

// ParseCloudIntegration parses a Cloud Integration service key of the form
// {"oauth": {"url", "tokenurl", "clientid", "clientsecret"}}. A key wrapped in
// {"credentials": {...}} is accepted too.
func ParseCloudIntegration(data []byte) (CloudIntegration, error) {
	var k cloudIntegrationKey
	if err := decode(data, &k); err != nil {
		return CloudIntegration{}, err
	}
	if k.OAuth == nil {
		return CloudIntegration{}, &MissingFieldError{Field: "oauth"}
	}
	o := k.OAuth
	if err := required(
		"oauth.url", o.URL,
		"oauth.tokenurl", o.TokenURL,
		"oauth.clientid", o.ClientID,
		"oauth.clientsecret", o.ClientSecret,
	); err != nil {
		return CloudIntegration{}, err
	}
	return CloudIntegration{
		URL:          strings.TrimSpace(o.URL),
		TokenURL:     strings.TrimSpace(o.TokenURL),
		ClientID:     o.ClientID,
		ClientSecret: o.ClientSecret,
	}, nil
}

// Load returns the service key JSON given either as JSON text (starting with
// '{' after trimming) or as the path of a file holding it.
func Load(textOrPath string) ([]byte, error) {
	s := strings.TrimSpace(strings.TrimPrefix(textOrPath, "\uFEFF"))
	if s == "" {
		return nil, errors.New("the service key is empty; set the service key JSON or the path of a file holding it")
	}
	if strings.HasPrefix(s, "{") {
		return []byte(s), nil
	}
	if len(s) > 4096 || strings.ContainsAny(s, "\"{}\n\r") {
		return nil, errors.New("the service key is neither JSON text (it does not start with '{') nor the path of a readable file; " +
			"set the service key JSON or the path of a file holding it")
	}
	data, err := os.ReadFile(s)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("the service key file %q cannot be read (%v); set the service key JSON or the path of a readable file", s, err)
	}
	return bytes.TrimPrefix(data, []byte("\uFEFF")), nil
}

// decode unmarshals a service key into v, unwrapping {"credentials": {...}}.
// Its errors never quote the key's content.
func decode(data []byte, v any) error {
	data = bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\uFEFF")))
	if len(data) == 0 {
		return errors.New("the service key is empty")
	}
	var wrapper struct {
		Credentials json.RawMessage `json:"credentials"`
	}
	if err := json.Unmarshal(data, &wrapper); err != nil {
		return jsonError(err)
	}
	if c := bytes.TrimSpace(wrapper.Credentials); len(c) > 0 && c[0] == '{' {
		data = c
	}
	if err := json.Unmarshal(data, v); err != nil {
		return jsonError(err)
	}
	return nil
}

func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("service key is not valid JSON: syntax error at byte offset %d", syn.Offset)
	case errors.As(err, &typ):
		found, _, _ := strings.Cut(typ.Value, " ")
		if typ.Field == "" {
			return fmt.Errorf("the service key must be a JSON object, not %s", found)
		}
		want := "another type"
		if typ.Type != nil {
			want = jsonKind(typ.Type.Kind().String())
		}
		return fmt.Errorf("the service key field %q must be %s, not %s", typ.Field, want, found)
	default:
		return errors.New("service key is not valid JSON: the content cannot be decoded")
	}
}

func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "struct", "ptr", "map":
		return "an object"
	default:
		return "a " + kind
	}
}

// present turns a pointer into a non-empty marker for required.
func present[T any](p *T) string {
	if p == nil {
		return ""
	}
	return "present"
}

// required takes field/value pairs and names the first empty value.
func required(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.TrimSpace(pairs[i+1]) == "" {
			return &MissingFieldError{Field: pairs[i]}
		}
	}
	return nil
}

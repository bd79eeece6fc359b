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
	// ManagementURL is the uri of the management entry used; the management
	// API lives below it.
	ManagementURL string
	TokenURL      string
	ClientID      string
	// ClientSecret is set for a secret binding; Certificate and Key (PEM) for
	// an x509 binding, whose token endpoint expects the certificate in mutual TLS.
	ClientSecret string
	Certificate  string
	Key          string

	// The messaging REST endpoint, taken from the messaging entry with the
	// httprest protocol; all empty when the key has none.
	MessagingURL          string
	MessagingTokenURL     string
	MessagingClientID     string
	MessagingClientSecret string
	MessagingCertificate  string
	MessagingKey          string

	// Namespace is the instance namespace, e.g. "acme/crm/prod".
	Namespace string
}

// CloudIntegration holds what the provider needs from a Cloud Integration
// (Process Integration Runtime, plan api) service key.
type CloudIntegration struct {
	URL      string
	TokenURL string
	ClientID string
	// ClientSecret is set for the key types "Client ID/Secret"; Certificate
	// (PEM) for the types "Certificate" and "External Certificate".
	ClientSecret string
	Certificate  string
	// Key is the PEM private key of Certificate. An "External Certificate"
	// key does not hold it (ExternalKey is set): the user keeps it and
	// supplies it separately.
	Key         string
	ExternalKey bool
}

// UsesCertificate reports whether the credentials are a client certificate.
func (c CloudIntegration) UsesCertificate() bool { return c.Certificate != "" }

// UsesCertificate reports whether the management credentials are a client certificate.
func (e EventMesh) UsesCertificate() bool { return e.Certificate != "" }

// MissingFieldError names a required field the service key lacks.
type MissingFieldError struct {
	// Field is the JSON path of the field, e.g. "management[0].oa2.clientsecret".
	Field string
	// Alternative, when set, names the fields that can stand in for Field,
	// e.g. the certificate of a certificate-based key.
	Alternative string
}

// Error returns e.g. `service key is missing "management[0].uri"; ...`.
func (e *MissingFieldError) Error() string {
	if e.Alternative != "" {
		return fmt.Sprintf("service key is missing %q (a certificate-based key has %s instead); "+
			"use the complete service key JSON as SAP BTP created it", e.Field, e.Alternative)
	}
	return fmt.Sprintf("service key is missing %q; use the complete service key JSON as SAP BTP created it", e.Field)
}

type oa2 struct {
	ClientID      string `json:"clientid"`
	ClientSecret  string `json:"clientsecret"`
	Certificate   string `json:"certificate"`
	Key           string `json:"key"`
	TokenEndpoint string `json:"tokenendpoint"`
}

// uaa is the XSUAA entry of a binding; an x509 binding gives certurl, the
// authentication.cert. host that takes the client certificate.
type uaa struct {
	ClientID     string `json:"clientid"`
	ClientSecret string `json:"clientsecret"`
	Certificate  string `json:"certificate"`
	Key          string `json:"key"`
	URL          string `json:"url"`
	CertURL      string `json:"certurl"`
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
	UAA       *uaa   `json:"uaa"`
	Namespace string `json:"namespace"`
}

type cloudIntegrationKey struct {
	OAuth *struct {
		URL          string `json:"url"`
		TokenURL     string `json:"tokenurl"`
		ClientID     string `json:"clientid"`
		ClientSecret string `json:"clientsecret"`
		Certificate  string `json:"certificate"`
		Key          string `json:"key"`
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

// ParseEventMesh parses an Event Mesh service key. It takes the first
// management entry whose credentials the provider can use: uri and
// oa2.clientid and oa2.tokenendpoint, with oa2.clientsecret (a secret binding)
// or oa2.certificate and oa2.key (an x509 binding). An oa2 without credentials
// takes them from the key's uaa entry. The messaging entry is optional. A key
// wrapped in {"credentials": {...}} is accepted too.
func ParseEventMesh(data []byte) (EventMesh, error) {
	var k eventMeshKey
	if err := decode(data, &k, "enterprise-messaging"); err != nil {
		return EventMesh{}, err
	}
	if len(k.Management) == 0 {
		return EventMesh{}, &MissingFieldError{Field: "management[0]"}
	}
	var out EventMesh
	var firstErr error
	found := false
	for i, m := range k.Management {
		p := fmt.Sprintf("management[%d]", i)
		c, err := oa2Credentials(p, m.URI, m.OA2, k.UAA)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		out = EventMesh{
			ManagementURL: strings.TrimSpace(m.URI),
			TokenURL:      c.TokenEndpoint,
			ClientID:      c.ClientID,
			ClientSecret:  c.ClientSecret,
			Certificate:   c.Certificate,
			Key:           c.Key,
		}
		found = true
		break
	}
	if !found {
		return EventMesh{}, firstErr
	}
	out.Namespace = strings.TrimSpace(k.Namespace)
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
		c, err := oa2Credentials(fmt.Sprintf("messaging[%d]", idx), e.URI, e.OA2, k.UAA)
		if err != nil {
			return EventMesh{}, err
		}
		out.MessagingURL = strings.TrimSpace(e.URI)
		out.MessagingTokenURL = c.TokenEndpoint
		out.MessagingClientID = c.ClientID
		out.MessagingClientSecret = c.ClientSecret
		out.MessagingCertificate = c.Certificate
		out.MessagingKey = c.Key
	}
	return out, nil
}

// oa2Credentials checks the entry at p (uri and oa2) and returns its
// credentials: a client secret, or a certificate and key. When oa2 carries
// neither, the uaa entry's credentials are used with its token endpoint
// (certurl, the authentication.cert. host, for a certificate).
func oa2Credentials(p, uri string, o *oa2, u *uaa) (oa2, error) {
	if err := required(p+".uri", uri, p+".oa2", present(o)); err != nil {
		return oa2{}, err
	}
	c, at := *o, p+".oa2"
	if blank(c.ClientSecret) && blank(c.Certificate) && blank(c.Key) && u != nil && (!blank(u.Certificate) || !blank(u.ClientSecret)) {
		at = "uaa"
		c = oa2{ClientID: u.ClientID, ClientSecret: u.ClientSecret, TokenEndpoint: tokenEndpoint(u.URL)}
		if blank(u.ClientSecret) {
			c = oa2{ClientID: u.ClientID, Certificate: u.Certificate, Key: u.Key, TokenEndpoint: tokenEndpoint(u.CertURL)}
		}
	}
	tokenField := at + ".tokenendpoint"
	if at == "uaa" {
		tokenField = "uaa.url"
		if c.ClientSecret == "" {
			tokenField = "uaa.certurl"
		}
	}
	if err := required(at+".clientid", c.ClientID, tokenField, c.TokenEndpoint); err != nil {
		return oa2{}, err
	}
	switch {
	case !blank(c.ClientSecret):
		c.Certificate, c.Key = "", ""
	case !blank(c.Certificate) || !blank(c.Key):
		if err := required(at+".certificate", c.Certificate, at+".key", c.Key); err != nil {
			return oa2{}, err
		}
	default:
		return oa2{}, &MissingFieldError{Field: at + ".clientsecret", Alternative: fmt.Sprintf("%q and %q", at+".certificate", at+".key")}
	}
	c.TokenEndpoint = strings.TrimSpace(c.TokenEndpoint)
	return c, nil
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// tokenEndpoint returns the OAuth token endpoint of an XSUAA base URL.
func tokenEndpoint(base string) string {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if base == "" {
		return ""
	}
	return base + "/oauth/token"
}

// ParseCloudIntegration parses a Cloud Integration service key of the form
// {"oauth": {"url", "tokenurl", "clientid", ...}} with the credentials of
// its key type: "clientsecret" (Client ID/Secret), "certificate" and "key"
// (Certificate), or "certificate" alone (External Certificate: the private
// key stays with the user; ExternalKey is set and Key is empty). A key
// wrapped in {"credentials": {...}} is accepted too.
func ParseCloudIntegration(data []byte) (CloudIntegration, error) {
	var k cloudIntegrationKey
	if err := decode(data, &k, "it-rt"); err != nil {
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
	); err != nil {
		return CloudIntegration{}, err
	}
	out := CloudIntegration{
		URL:      strings.TrimSpace(o.URL),
		TokenURL: strings.TrimSpace(o.TokenURL),
		ClientID: o.ClientID,
	}
	switch {
	case strings.TrimSpace(o.ClientSecret) != "":
		out.ClientSecret = o.ClientSecret
	case strings.TrimSpace(o.Certificate) != "":
		out.Certificate, out.Key = o.Certificate, o.Key
		out.ExternalKey = strings.TrimSpace(o.Key) == ""
	case strings.TrimSpace(o.Key) != "":
		return CloudIntegration{}, &MissingFieldError{Field: "oauth.certificate"}
	default:
		return CloudIntegration{}, &MissingFieldError{Field: "oauth.clientsecret", Alternative: `"oauth.certificate"`}
	}
	return out, nil
}

// LoadPrivateKey returns a PEM private key given as PEM text or as the path
// of a file holding it. Its errors never quote the key.
func LoadPrivateKey(textOrPath string) (string, error) {
	s := strings.TrimSpace(textOrPath)
	if s == "" {
		return "", errors.New("the private key is empty; set the PEM private key of the certificate or the path of a file holding it")
	}
	if !strings.Contains(s, "-----BEGIN") {
		if len(s) > 4096 || strings.ContainsAny(s, "\n\r") {
			return "", errors.New("the private key is neither PEM text (it has no -----BEGIN line) nor the path of a readable file; " +
				"set the PEM private key or the path of a file holding it")
		}
		data, err := os.ReadFile(s)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return "", fmt.Errorf("the private key file %q cannot be read (%v); set the PEM private key or the path of a readable file", s, err)
		}
		s = strings.TrimSpace(string(data))
		if !strings.Contains(s, "-----BEGIN") {
			return "", fmt.Errorf("the private key file %q holds no PEM block (no -----BEGIN line); set the path of the PEM private key file", textOrPath)
		}
	}
	if !strings.Contains(s, "PRIVATE KEY-----") {
		return "", errors.New("the private key text is PEM, but not a private key (its -----BEGIN line names no PRIVATE KEY); set the private key of the certificate, not the certificate")
	}
	return s + "\n", nil
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
// A whole VCAP_SERVICES document is refused with the part to pass; label is
// the service's label there. Its errors never quote the key's content.
func decode(data []byte, v any, label string) error {
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
	c := bytes.TrimSpace(wrapper.Credentials)
	switch {
	case len(c) > 0 && c[0] == '{':
		data = c
	case len(c) > 0 && c[0] == '"':
		// A binding object (for example of the SAP BTP provider) whose
		// credentials hold the key as JSON text.
		return errors.New(`the service key is a binding object whose "credentials" field holds the service key as text; ` +
			`pass only the value of "credentials" (for example data.btp_subaccount_service_binding.NAME.credentials), not the whole binding`)
	default:
		if err := vcapServices(data, label); err != nil {
			return err
		}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return jsonError(err)
	}
	return nil
}

// vcapServices refuses a whole VCAP_SERVICES document (an object of service
// labels, each an array of bindings with "credentials"), or one wrapped in
// {"VCAP_SERVICES": ...}, and says which part to pass instead.
func vcapServices(data []byte, label string) error {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		// Not an object: the key's own decoding reports it.
		return nil //nolint:nilerr
	}
	if inner, ok := doc["VCAP_SERVICES"]; ok {
		_ = json.Unmarshal(inner, &doc)
	}
	var labels []string
	for name, raw := range doc {
		var bindings []struct {
			Credentials json.RawMessage `json:"credentials"`
		}
		if json.Unmarshal(raw, &bindings) == nil && len(bindings) > 0 && len(bindings[0].Credentials) > 0 {
			labels = append(labels, name)
		}
	}
	if len(labels) == 0 {
		return nil
	}
	slices.Sort(labels)
	use := label
	if !slices.Contains(labels, label) {
		use = labels[0]
	}
	return fmt.Errorf("the service key is a whole VCAP_SERVICES document (services %s), not one service key; "+
		"pass only the credentials object of one binding, VCAP_SERVICES[%q][0].credentials, or the service key that BTP shows for the instance",
		strings.Join(labels, ", "), use)
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

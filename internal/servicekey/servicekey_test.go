package servicekey

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var secrets = []string{"mgmt-SECRET-value=", "amqp-SECRET", "rest-SECRET", "cpi-SECRET$x=", "MIIBkey-SECRET", "vcap-SECRET"}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func assertNoSecret(t *testing.T, err error) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error %q contains a secret", err)
		}
	}
}

func TestParseEventMesh(t *testing.T) {
	t.Parallel()
	got, err := ParseEventMesh(readTestdata(t, "event-mesh.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := EventMesh{
		ManagementURL:         "https://enterprise-messaging-hub-backend.cfapps.eu10.hana.ondemand.com",
		TokenURL:              "https://acme.authentication.eu10.hana.ondemand.com/oauth/token",
		ClientID:              "sb-default-1234!b5678|xbem-service-broker-!b732",
		ClientSecret:          "mgmt-SECRET-value=",
		MessagingURL:          "https://enterprise-messaging-pubsub.cfapps.eu10.hana.ondemand.com",
		MessagingTokenURL:     "https://acme.authentication.eu10.hana.ondemand.com/oauth/token",
		MessagingClientID:     "sb-rest!b1",
		MessagingClientSecret: "rest-SECRET",
		Namespace:             "acme/crm/prod",
	}
	if got != want {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseEventMeshWithoutMessaging(t *testing.T) {
	t.Parallel()
	key := `{"management":[{"uri":"https://m","oa2":{"clientid":"c","clientsecret":"s","tokenendpoint":"https://t"}}],"namespace":"a/b/c"}`
	got, err := ParseEventMesh([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	if got.MessagingURL != "" || got.ManagementURL != "https://m" || got.Namespace != "a/b/c" {
		t.Errorf("got %+v", got)
	}
	// Only an AMQP entry: no REST messaging.
	key = `{"management":[{"uri":"https://m","oa2":{"clientid":"c","clientsecret":"s","tokenendpoint":"https://t"}}],
		"messaging":[{"protocol":["amqp10ws"],"uri":"wss://x","oa2":{"clientid":"a","clientsecret":"b","tokenendpoint":"https://t"}}]}`
	got, err = ParseEventMesh([]byte(key))
	if err != nil || got.MessagingURL != "" {
		t.Errorf("got %+v, %v; want no messaging endpoint", got, err)
	}
}

func TestParseEventMeshCredentialsWrapper(t *testing.T) {
	t.Parallel()
	wrapped := `{"credentials":` + string(readTestdata(t, "event-mesh.json")) + `}`
	got, err := ParseEventMesh([]byte(wrapped))
	if err != nil || got.ClientID == "" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestParseEventMeshMissingFields(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`{}`:                                   "management[0]",
		`{"management":[]}`:                    "management[0]",
		`{"management":[{"oa2":{}}]}`:          "management[0].uri",
		`{"management":[{"uri":"https://m"}]}`: "management[0].oa2",
		`{"management":[{"uri":"https://m","oa2":{"clientsecret":"mgmt-SECRET-value=","tokenendpoint":"t"}}]}`: "management[0].oa2.clientid",
		`{"management":[{"uri":"https://m","oa2":{"clientid":"c","tokenendpoint":"t"}}]}`:                      "management[0].oa2.clientsecret",
		`{"management":[{"uri":"https://m","oa2":{"clientid":"c","clientsecret":"amqp-SECRET"}}]}`:             "management[0].oa2.tokenendpoint",
		`{"management":[{"uri":"https://m","oa2":{"clientid":"c","clientsecret":"s","tokenendpoint":"t"}}],
		  "messaging":[{"protocol":["amqp10ws"]},{"protocol":["httprest"],"uri":"https://r","oa2":{"clientid":"c","clientsecret":"rest-SECRET"}}]}`: "messaging[1].oa2.tokenendpoint",
	}
	for key, field := range cases {
		_, err := ParseEventMesh([]byte(key))
		var mf *MissingFieldError
		if !errors.As(err, &mf) || mf.Field != field {
			t.Errorf("ParseEventMesh(%s) = %v, want missing %q", key, err, field)
			continue
		}
		if want := `missing "` + field + `"`; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %s", err, want)
		}
		assertNoSecret(t, err)
	}
}

func TestParseInvalidJSON(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`{"management":[{"uri":"https://m","oa2":{"clientsecret":"mgmt-SECRET-value=" "clientid":1}}]}`,
		`{"management": "mgmt-SECRET-value="}`,
		`{"oauth": {"clientsecret": 5, "url": "amqp-SECRET"}}`,
		`["rest-SECRET"]`,
		`rest-SECRET`,
		`{"oauth":{"clientsecret":"cpi-SECRET$x="`,
		``,
	}
	for _, in := range inputs {
		_, err1 := ParseEventMesh([]byte(in))
		_, err2 := ParseCloudIntegration([]byte(in))
		for _, err := range []error{err1, err2} {
			if err == nil {
				t.Errorf("%s: want an error", in)
				continue
			}
			assertNoSecret(t, err)
		}
	}
	_, err := ParseEventMesh([]byte(`{"management": [}`))
	if err == nil || !strings.HasPrefix(err.Error(), "service key is not valid JSON: ") {
		t.Errorf("error = %v", err)
	}
}

func TestParseCloudIntegration(t *testing.T) {
	t.Parallel()
	got, err := ParseCloudIntegration(readTestdata(t, "cloud-integration.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := CloudIntegration{
		URL:          "https://acme.it-cpi018.cfapps.eu10-003.hana.ondemand.com",
		TokenURL:     "https://acme.authentication.eu10.hana.ondemand.com/oauth/token",
		ClientID:     "sb-it!b1|it!b2",
		ClientSecret: "cpi-SECRET$x=",
	}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for key, field := range map[string]string{
		`{}`: "oauth",
		`{"oauth":{"tokenurl":"t","clientid":"c","clientsecret":"cpi-SECRET$x="}}`: "oauth.url",
		`{"oauth":{"url":"u","clientid":"c","clientsecret":"s"}}`:                  "oauth.tokenurl",
		`{"oauth":{"url":"u","tokenurl":"t","clientsecret":"s"}}`:                  "oauth.clientid",
		`{"oauth":{"url":"u","tokenurl":"t","clientid":"c","clientsecret":""}}`:    "oauth.clientsecret",
	} {
		_, err := ParseCloudIntegration([]byte(key))
		if err == nil || !strings.HasPrefix(err.Error(), `service key is missing "`+field+`"`) {
			t.Errorf("%s: error = %v, want missing %q", key, err, field)
		} else {
			assertNoSecret(t, err)
		}
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "key.json")
	if err := os.WriteFile(path, readTestdata(t, "cloud-integration.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseCloudIntegration(data); err != nil {
		t.Fatal(err)
	}
	data, err = Load("  \n" + `{"oauth":{}}` + "\n")
	if err != nil || string(data) != `{"oauth":{}}` {
		t.Fatalf("Load(text) = %q, %v", data, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("Load(missing) = %v, want an error naming the file", err)
	}
	if _, err := Load("   "); err == nil {
		t.Error("Load(blank) succeeded")
	}
	// Text that is neither JSON nor a path is not echoed.
	_, err = Load(`"oauth": {"clientsecret": "cpi-SECRET$x="}`)
	if err == nil {
		t.Fatal("Load(broken JSON) succeeded")
	}
	assertNoSecret(t, err)
}

func FuzzParseEventMesh(f *testing.F) {
	f.Add(readTestdata(f, "event-mesh.json"))
	f.Add([]byte(`{"management":[{"uri":"u","oa2":{"clientid":"c","clientsecret":"s","tokenendpoint":"t"}}],"messaging":[{"protocol":"httprest"}]}`))
	f.Add([]byte(`{"credentials":{"management":[]}}`))
	f.Add([]byte(`{"management":[{"uri":"u","oa2":{"clientid":"c","certificate":"C","key":"K","tokenendpoint":"t"}}],"uaa":{"clientid":"u","certificate":"C","key":"K","certurl":"x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseEventMesh(data)
		if err != nil {
			if k != (EventMesh{}) {
				t.Fatalf("error %v with a non-empty result", err)
			}
			return
		}
		// Exactly one kind of credentials: a secret, or a certificate with its key.
		creds := func(secret, cert, key string) bool {
			return (secret != "") != (cert != "" && key != "") && (secret == "" || cert == "" && key == "")
		}
		if k.ManagementURL == "" || k.TokenURL == "" || k.ClientID == "" || !creds(k.ClientSecret, k.Certificate, k.Key) {
			t.Fatalf("accepted a key without a required field: %+v", k)
		}
		if k.MessagingURL != "" && (k.MessagingClientID == "" || k.MessagingTokenURL == "" ||
			!creds(k.MessagingClientSecret, k.MessagingCertificate, k.MessagingKey)) {
			t.Fatalf("accepted an incomplete messaging entry: %+v", k)
		}
	})
}

func FuzzParseCloudIntegration(f *testing.F) {
	f.Add(readTestdata(f, "cloud-integration.json"))
	f.Add([]byte(`{"oauth":{"url":"u","tokenurl":"t","clientid":"c","clientsecret":"s"}}`))
	f.Add([]byte(`{"credentials":{"oauth":null}}`))
	f.Add([]byte(`{"oauth":{"url":"u","tokenurl":"t","clientid":"c","certificate":"C"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseCloudIntegration(data)
		if err != nil {
			return
		}
		// A secret, or a certificate with its key, or (External Certificate) a certificate alone.
		certOK := k.Certificate != "" && k.ClientSecret == "" && (k.Key != "") != k.ExternalKey
		secretOK := k.ClientSecret != "" && k.Certificate == "" && k.Key == "" && !k.ExternalKey
		if k.URL == "" || k.TokenURL == "" || k.ClientID == "" || !certOK && !secretOK {
			t.Fatalf("accepted a key without a required field: %+v", k)
		}
	})
}

const (
	testCert = "-----BEGIN CERTIFICATE-----\nMIIBcert\n-----END CERTIFICATE-----\n"
	testKey  = "-----BEGIN PRIVATE KEY-----\nMIIBkey-SECRET\n-----END PRIVATE KEY-----\n"
)

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Cloud Integration's key types "Certificate" (clientid, certificate, key, tokenurl, url) and
// "External Certificate" (the same without key), after SAP-docs btp-integration-suite
// "Creating Service Instance and Service Key for Inbound Authentication".
func TestParseCloudIntegrationCertificate(t *testing.T) {
	t.Parallel()
	withKey := `{"oauth":{"clientid":"sb-it!b1|it!b2","certificate":` + jsonString(testCert) + `,"key":` + jsonString(testKey) + `,
		"tokenurl":"https://acme.authentication.cert.eu10.hana.ondemand.com/oauth/token","url":"https://acme.it-cpi018.cfapps.eu10-003.hana.ondemand.com"}}`
	got, err := ParseCloudIntegration([]byte(withKey))
	if err != nil {
		t.Fatal(err)
	}
	if got.Certificate != testCert || got.Key != testKey || got.ClientSecret != "" || got.ExternalKey || !got.UsesCertificate() ||
		got.TokenURL != "https://acme.authentication.cert.eu10.hana.ondemand.com/oauth/token" {
		t.Errorf("Certificate key: %+v", got)
	}
	external := `{"oauth":{"clientid":"c","certificate":` + jsonString(testCert) + `,"tokenurl":"https://a.authentication.cert.eu10.hana.ondemand.com/oauth/token","url":"https://t"}}`
	got, err = ParseCloudIntegration([]byte(external))
	if err != nil {
		t.Fatal(err)
	}
	if got.Certificate != testCert || got.Key != "" || !got.ExternalKey {
		t.Errorf("External Certificate key: %+v", got)
	}
	_, err = ParseCloudIntegration([]byte(`{"oauth":{"clientid":"c","key":` + jsonString(testKey) + `,"tokenurl":"https://t","url":"https://t"}}`))
	if err == nil || !strings.Contains(err.Error(), `missing "oauth.certificate"`) {
		t.Errorf("key without certificate: %v", err)
	}
	assertNoSecret(t, err)
}

// An Event Mesh x509 binding: management[].oa2 carries certificate and key, the token
// endpoint is on the authentication.cert. host.
func TestParseEventMeshCertificate(t *testing.T) {
	t.Parallel()
	x509 := `{"management":[{"uri":"https://m","oa2":{"clientid":"c","certificate":` + jsonString(testCert) + `,"key":` + jsonString(testKey) + `,
		"granttype":"client_x509","tokenendpoint":"https://s.authentication.cert.eu10.hana.ondemand.com/oauth/token"}}],
		"messaging":[{"protocol":["httprest"],"uri":"https://r","oa2":{"clientid":"mc","certificate":` + jsonString(testCert) + `,"key":` + jsonString(testKey) + `,
		"tokenendpoint":"https://s.authentication.cert.eu10.hana.ondemand.com/oauth/token"}}],"namespace":"a/b/c"}`
	got, err := ParseEventMesh([]byte(x509))
	if err != nil {
		t.Fatal(err)
	}
	if got.ClientSecret != "" || got.Certificate != testCert || got.Key != testKey || !got.UsesCertificate() ||
		got.TokenURL != "https://s.authentication.cert.eu10.hana.ondemand.com/oauth/token" ||
		got.MessagingCertificate != testCert || got.MessagingKey != testKey || got.MessagingClientSecret != "" {
		t.Errorf("x509 binding: %+v", got)
	}
	for key, field := range map[string]string{
		`{"management":[{"uri":"https://m","oa2":{"clientid":"c","certificate":"C","tokenendpoint":"t"}}]}`: "management[0].oa2.key",
		`{"management":[{"uri":"https://m","oa2":{"clientid":"c","key":"K","tokenendpoint":"t"}}]}`:         "management[0].oa2.certificate",
	} {
		_, err := ParseEventMesh([]byte(key))
		var mf *MissingFieldError
		if !errors.As(err, &mf) || mf.Field != field {
			t.Errorf("ParseEventMesh(%s) = %v, want missing %q", key, err, field)
		}
	}
	// Neither secret nor certificate: the error names both ways.
	_, err = ParseEventMesh([]byte(`{"management":[{"uri":"https://m","oa2":{"clientid":"c","tokenendpoint":"t"}}]}`))
	if err == nil || !strings.Contains(err.Error(), `"management[0].oa2.certificate" and "management[0].oa2.key"`) {
		t.Errorf("no credentials: %v", err)
	}
}

// An oa2 without credentials takes them from the binding's uaa entry; a certificate uses certurl.
func TestParseEventMeshUAA(t *testing.T) {
	t.Parallel()
	key := `{"management":[{"uri":"https://m","oa2":{"tokenendpoint":"https://s.authentication.eu10.hana.ondemand.com/oauth/token"}}],
		"uaa":{"clientid":"u","certificate":` + jsonString(testCert) + `,"key":` + jsonString(testKey) + `,
		"url":"https://s.authentication.eu10.hana.ondemand.com","certurl":"https://s.authentication.cert.eu10.hana.ondemand.com/"}}`
	got, err := ParseEventMesh([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	if got.ClientID != "u" || got.Certificate != testCert || got.TokenURL != "https://s.authentication.cert.eu10.hana.ondemand.com/oauth/token" {
		t.Errorf("uaa certificate: %+v", got)
	}
	secret := `{"management":[{"uri":"https://m","oa2":{}}],"uaa":{"clientid":"u","clientsecret":"uaa-SECRET","url":"https://s.authentication.eu10.hana.ondemand.com"}}`
	if got, err = ParseEventMesh([]byte(secret)); err != nil || got.ClientSecret != "uaa-SECRET" ||
		got.TokenURL != "https://s.authentication.eu10.hana.ondemand.com/oauth/token" {
		t.Errorf("uaa secret: %+v, %v", got, err)
	}
}

// Of several management entries the first with usable credentials is taken.
func TestParseEventMeshPicksUsableManagementEntry(t *testing.T) {
	t.Parallel()
	key := `{"management":[
		{"uri":"https://first","oa2":{"clientid":"c1","tokenendpoint":"https://t1/oauth/token"}},
		{"uri":"https://second","oa2":{"clientid":"c2","clientsecret":"two-SECRET","tokenendpoint":"https://t2/oauth/token"}}]}`
	got, err := ParseEventMesh([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	if got.ManagementURL != "https://second" || got.ClientID != "c2" || got.TokenURL != "https://t2/oauth/token" {
		t.Errorf("picked %+v, want the second entry", got)
	}
	// None usable: the first entry's problem is reported.
	_, err = ParseEventMesh([]byte(`{"management":[{"uri":"https://a","oa2":{"clientid":"c"}},{"uri":"https://b"}]}`))
	if err == nil || !strings.Contains(err.Error(), `"management[0].oa2.tokenendpoint"`) {
		t.Errorf("no usable entry: %v", err)
	}
}

// A whole VCAP_SERVICES document gets an error that says which part to pass.
func TestParseVCAPServices(t *testing.T) {
	t.Parallel()
	binding := `{"label":"enterprise-messaging","name":"em","credentials":{"management":[{"uri":"https://m","oa2":{"clientid":"c","clientsecret":"vcap-SECRET","tokenendpoint":"https://t"}}]}}`
	for _, doc := range []string{
		`{"enterprise-messaging":[` + binding + `],"xsuaa":[{"credentials":{"clientid":"x"}}]}`,
		`{"VCAP_SERVICES":{"enterprise-messaging":[` + binding + `]}}`,
	} {
		_, err := ParseEventMesh([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), `VCAP_SERVICES["enterprise-messaging"][0].credentials`) {
			t.Errorf("ParseEventMesh(VCAP_SERVICES) = %v, want the part to pass", err)
		}
		assertNoSecret(t, err)
	}
	_, err := ParseCloudIntegration([]byte(`{"it-rt":[{"credentials":{"oauth":{}}}]}`))
	if err == nil || !strings.Contains(err.Error(), `VCAP_SERVICES["it-rt"][0].credentials`) {
		t.Errorf("ParseCloudIntegration(VCAP_SERVICES) = %v", err)
	}
	// A binding object whose credentials are JSON text: pass the credentials value.
	_, err = ParseEventMesh([]byte(`{"id":"b1","name":"terraform-event-mesh","credentials":"{\"management\":[]}"}`))
	if err == nil || !strings.Contains(err.Error(), `pass only the value of "credentials"`) {
		t.Errorf("binding with text credentials: %v", err)
	}
	// One binding of it (with its credentials) is still accepted.
	if _, err := ParseEventMesh([]byte(binding)); err != nil {
		t.Errorf("binding: %v", err)
	}
}

func TestLoadPrivateKey(t *testing.T) {
	t.Parallel()
	if got, err := LoadPrivateKey("  " + testKey); err != nil || got != testKey {
		t.Errorf("PEM text: %q, %v", got, err)
	}
	file := filepath.Join(t.TempDir(), "key.pem")
	if err := os.WriteFile(file, []byte(testKey), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadPrivateKey(file); err != nil || got != testKey {
		t.Errorf("file: %q, %v", got, err)
	}
	for in, want := range map[string]string{
		"":        "empty",
		testCert:  "not a private key",
		"/nope":   "cannot be read",
		"a\nb":    "neither PEM text",
		"go.mod!": "cannot be read",
	} {
		_, err := LoadPrivateKey(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadPrivateKey(%q) = %v, want %q", in, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "MIIB") {
			t.Errorf("error quotes the key: %v", err)
		}
	}
}

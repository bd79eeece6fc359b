package servicekey

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var secrets = []string{"mgmt-SECRET-value=", "amqp-SECRET", "rest-SECRET", "cpi-SECRET$x="}

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
		if err == nil || !strings.HasPrefix(err.Error(), `service key is missing "`+field+`";`) {
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
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseEventMesh(data)
		if err != nil {
			if k != (EventMesh{}) {
				t.Fatalf("error %v with a non-empty result", err)
			}
			return
		}
		if k.ManagementURL == "" || k.TokenURL == "" || k.ClientID == "" || k.ClientSecret == "" {
			t.Fatalf("accepted a key without a required field: %+v", k)
		}
		if k.MessagingURL != "" && (k.MessagingClientID == "" || k.MessagingClientSecret == "" || k.MessagingTokenURL == "") {
			t.Fatalf("accepted an incomplete messaging entry: %+v", k)
		}
	})
}

func FuzzParseCloudIntegration(f *testing.F) {
	f.Add(readTestdata(f, "cloud-integration.json"))
	f.Add([]byte(`{"oauth":{"url":"u","tokenurl":"t","clientid":"c","clientsecret":"s"}}`))
	f.Add([]byte(`{"credentials":{"oauth":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseCloudIntegration(data)
		if err != nil {
			return
		}
		if k.URL == "" || k.TokenURL == "" || k.ClientID == "" || k.ClientSecret == "" {
			t.Fatalf("accepted a key without a required field: %+v", k)
		}
	})
}

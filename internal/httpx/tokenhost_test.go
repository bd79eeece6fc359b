package httpx

import (
	"strings"
	"testing"
)

func TestTokenHostWarning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, api, token string
		trusted          []string
		warn             bool
	}{
		{"BTP Event Mesh", "https://enterprise-messaging-hub-backend.cfapps.eu10.hana.ondemand.com", "https://acme.authentication.eu10.hana.ondemand.com/oauth/token", nil, false},
		{"BTP certificate host", "https://acme.it-cpi018.cfapps.eu10-003.hana.ondemand.com", "https://acme.authentication.cert.eu10.hana.ondemand.com/oauth/token", nil, false},
		{"cloud.sap token host", "https://api.example.org", "https://acme.authentication.eu10.cloud.sap/oauth/token", nil, false},
		{"China landscape", "https://x.cfapps.cn40.platform.sapcloud.cn", "https://acme.authentication.cn40.platform.sapcloud.cn/oauth/token", nil, false},
		{"same registrable domain", "https://api.corp.example.com", "https://login.example.com/oauth/token", nil, false},
		{"same host", "http://127.0.0.1:8080", "http://127.0.0.1:9090/oauth/token", nil, false},
		{"foreign token host", "https://acme.it-cpi018.cfapps.eu10.hana.ondemand.com", "https://collector.example.net/oauth/token", nil, true},
		{"look-alike domain", "https://acme.cfapps.eu10.hana.ondemand.com", "https://acme.authentication.hana.ondemand.com.example.net/oauth/token", nil, true},
		{"another loopback address", "http://127.0.0.1:8080", "http://127.0.0.2:9090/oauth/token", nil, true},
		{"trusted host", "http://127.0.0.1:8080", "http://127.0.0.2:9090/oauth/token", []string{"127.0.0.2"}, false},
		{"trusted domain", "https://api.example.org", "https://sso.idp.example.net/oauth/token", []string{".example.net"}, false},
		{"trust is not a suffix match", "https://api.example.org", "https://badexample.net/oauth/token", []string{"example.net"}, true},
	} {
		got := TokenHostWarning(tc.api, tc.token, tc.trusted)
		if (got != "") != tc.warn {
			t.Errorf("%s: warning %q, want a warning = %v", tc.name, got, tc.warn)
			continue
		}
		if got != "" && (!strings.Contains(got, hostOf(tc.api)) || !strings.Contains(got, hostOf(tc.token))) {
			t.Errorf("%s: warning %q does not name both hosts", tc.name, got)
		}
	}
}

package integration

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func TestParseODataPath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []odataSegment
	}{
		{"", nil},
		{"/", nil},
		{"IntegrationDesigntimeArtifacts", []odataSegment{{Name: "IntegrationDesigntimeArtifacts"}}},
		{"IntegrationDesigntimeArtifacts(Id='A',Version='active')/$value", []odataSegment{
			{Name: "IntegrationDesigntimeArtifacts", HasKey: true, Keys: map[string]string{"Id": "A", "Version": "active"}},
			{Name: "$value"},
		}},
		{"IntegrationRuntimeArtifacts('it''s/a (flow), ok')", []odataSegment{
			{Name: "IntegrationRuntimeArtifacts", HasKey: true, Key: "it's/a (flow), ok"},
		}},
		{"X(Id = 'a' , Version='b')", []odataSegment{{Name: "X", HasKey: true, Keys: map[string]string{"Id": "a", "Version": "b"}}}},
		{"X(42)", []odataSegment{{Name: "X", HasKey: true, Key: "42"}}},
		{"X('')", []odataSegment{{Name: "X", HasKey: true, Key: ""}}},
		{"X('''')", []odataSegment{{Name: "X", HasKey: true, Key: "'"}}},
		{"A/$links/Configurations('Max Retries ''x''')", []odataSegment{
			{Name: "A"}, {Name: "$links"}, {Name: "Configurations", HasKey: true, Key: "Max Retries 'x'"},
		}},
		{"A/", []odataSegment{{Name: "A"}}},
	}
	for _, tc := range cases {
		got, err := parseODataPath(tc.in)
		if err != nil {
			t.Errorf("parseODataPath(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseODataPath(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{
		"X('a)", "X(a='1',a='2')", "X('a','b')", "X(Id='a' Version='b')", "X()", "(x)", "X('a')y",
		"A//B", "X(Id=)", "X)", "X('a'", "X(Id='a',)",
	} {
		if got, err := parseODataPath(bad); err == nil {
			t.Errorf("parseODataPath(%q) = %#v, want an error", bad, got)
		}
	}
}

func TestODataLiteralRoundTrip(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"plain", "with space", "it's", "''", "a/b", "a)b(c", "a,b=c", "ü€", "100%", "a+b&c?d#e"} {
		lit := odataLiteral(v)
		dec, err := url.PathUnescape(lit)
		if err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		segs, err := parseODataPath("X(" + dec + ")")
		if err != nil || len(segs) != 1 || segs[0].Key != v {
			t.Errorf("round trip of %q via %q gave %#v, %v", v, lit, segs, err)
		}
		if strings.ContainsAny(strings.Trim(lit, "'"), "'/ ()") {
			t.Errorf("odataLiteral(%q) = %q leaves reserved characters unescaped", v, lit)
		}
	}
}

func TestMatchCPI(t *testing.T) {
	t.Parallel()
	cases := []struct {
		method, path, query string
		op                  cpiOp
		status              int
		id, version, key    string
		label               string
	}{
		{"GET", "", "", cpiOpRoot, 0, "", "", "", ""},
		{"GET", "IntegrationDesigntimeArtifacts(Id='a',Version='active')", "", cpiOpGetDesigntime, 0, "a", "active", "", "IntegrationDesigntimeArtifacts(Id,Version)"},
		{"HEAD", "IntegrationDesigntimeArtifacts(Id='a',Version='active')/$value", "", cpiOpGetContent, 0, "a", "active", "", "IntegrationDesigntimeArtifacts(Id,Version)/$value"},
		{"PUT", "IntegrationDesigntimeArtifacts(Version='1.0.0',Id='a')/$links/Configurations('k ''q''')", "", cpiOpSetConfiguration, 0, "a", "1.0.0", "k 'q'", "IntegrationDesigntimeArtifacts(Id,Version)/$links/Configurations(ParameterKey)"},
		{"PUT", "IntegrationDesigntimeArtifacts(Id='a',Version='active')/$links/Configurations(ParameterKey='k')", "", cpiOpSetConfiguration, 0, "a", "active", "k", ""},
		{"POST", "DeployIntegrationDesigntimeArtifact", "Id='a%26b'&Version='active'", cpiOpDeploy, 0, "a&b", "active", "", "DeployIntegrationDesigntimeArtifact"},
		{"POST", "DeployIntegrationDesigntimeArtifact", "Id=a&Version='active'", 0, http.StatusBadRequest, "", "", "", ""},
		{"GET", "BuildAndDeployStatus(TaskId='t1')", "", cpiOpDeployStatus, 0, "", "", "", "BuildAndDeployStatus(TaskId)"},
		{"GET", "IntegrationRuntimeArtifacts(Id='r')", "", cpiOpGetRuntime, 0, "r", "", "", "IntegrationRuntimeArtifacts(Id)"},
		{"DELETE", "IntegrationRuntimeArtifacts('r')", "", cpiOpUndeploy, 0, "r", "", "", ""},
		{"GET", "IntegrationRuntimeArtifacts('r')/ErrorInformation/$value", "", cpiOpRuntimeError, 0, "r", "", "", ""},
		{"POST", "IntegrationDesigntimeArtifacts", "", cpiOpCreateDesigntime, 0, "", "", "", ""},
		{"DELETE", "IntegrationDesigntimeArtifacts", "", 0, http.StatusMethodNotAllowed, "", "", "", ""},
		{"GET", "IntegrationDesigntimeArtifacts('a')", "", 0, http.StatusBadRequest, "", "", "", ""},
		{"GET", "IntegrationDesigntimeArtifacts(Id='a',Version='b',X='c')", "", 0, http.StatusBadRequest, "", "", "", ""},
		{"GET", "Nothing", "", 0, http.StatusNotFound, "", "", "", ""},
		{"GET", "IntegrationDesigntimeArtifacts(Id='a',Version='b')/Other", "", 0, http.StatusNotFound, "", "", "", ""},
		{"GET", "X('unclosed)", "", 0, http.StatusBadRequest, "", "", "", ""},
	}
	for _, tc := range cases {
		q, _ := url.ParseQuery(tc.query)
		req, status, msg := matchCPI(tc.method, tc.path, q)
		if status != tc.status || req.op != tc.op {
			t.Errorf("%s %s: op %d status %d (%s), want op %d status %d", tc.method, tc.path, req.op, status, msg, tc.op, tc.status)
			continue
		}
		if status != 0 {
			if msg == "" || !strings.HasSuffix(msg, ".") {
				t.Errorf("%s %s: message %q is not a sentence", tc.method, tc.path, msg)
			}
			continue
		}
		if req.id != tc.id || req.version != tc.version || req.key != tc.key {
			t.Errorf("%s %s: id %q version %q key %q, want %q %q %q", tc.method, tc.path, req.id, req.version, req.key, tc.id, tc.version, tc.key)
		}
		if tc.label != "" && req.resource != tc.label {
			t.Errorf("%s %s: resource %q, want %q", tc.method, tc.path, req.resource, tc.label)
		}
	}
}

// TestCPIControlEndpoints drives the control handlers on a mux of their own.
func TestCPIControlEndpoints(t *testing.T) {
	t.Parallel()
	c := core.NewCore(core.Options{Now: time.Now})
	s, _ := New(c, core.NewTokenService(c, func() string { return "" }), nil, nil)
	s.SetDeployDelay(0)
	mux := http.NewServeMux()
	s.MountControl(mux)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	call := func(method, path string, body any) (int, []byte) {
		t.Helper()
		var rd *bytes.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		} else {
			rd = bytes.NewReader(nil)
		}
		req, _ := http.NewRequest(method, ts.URL+core.ControlBasePath+path, rd)
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = res.Body.Close() }()
		var out bytes.Buffer
		_, _ = out.ReadFrom(res.Body)
		return res.StatusCode, out.Bytes()
	}
	zip := iflowbuild.Build(iflowbuild.Options{Name: "Flow", Parameters: map[string]string{"Retries": "3"},
		Senders: []iflowbuild.Sender{{Properties: map[string]string{"maxRetries": "{{Retries}}"}}}})
	if st, b := call("PUT", "/iflows/Flow", map[string]string{"name": "Flow", "packageId": "P", "content": base64.StdEncoding.EncodeToString(zip)}); st != http.StatusNoContent {
		t.Fatalf("PUT iflow: %d %s", st, b)
	}
	if st, b := call("GET", "/iflows/Flow/content", nil); st != http.StatusOK || !bytes.Equal(b, zip) {
		t.Fatalf("GET content: %d, equal %v", st, bytes.Equal(b, zip))
	}
	if st, b := call("PUT", "/iflows/Flow/configurations/Retries", map[string]string{"value": "7"}); st != http.StatusNoContent {
		t.Fatalf("PUT configuration: %d %s", st, b)
	}
	if st, b := call("GET", "/iflows/Flow/configurations", nil); st != http.StatusOK || !strings.Contains(string(b), `"Retries":"7"`) {
		t.Fatalf("GET configurations: %d %s", st, b)
	}
	if st, _ := call("PUT", "/iflows/Nope/configurations/Retries", map[string]string{"value": "7"}); st != http.StatusNotFound {
		t.Fatalf("PUT configuration of unknown flow: %d", st)
	}
	if st, _ := call("POST", "/iflows/Flow/fail-next-deploy", map[string]string{"error": "boom"}); st != http.StatusNoContent {
		t.Fatalf("fail-next-deploy: %d", st)
	}
	if st, _ := call("POST", "/iflows/Flow/fail-next-build", map[string]string{"error": "boom"}); st != http.StatusNoContent {
		t.Fatalf("fail-next-build: %d", st)
	}
	if st, _ := call("PUT", "/cloud-integration/deploy-delay", map[string]string{"delay": "5ms"}); st != http.StatusNoContent {
		t.Fatalf("deploy-delay: %d", st)
	}
	if st, _ := call("PUT", "/cloud-integration/deploy-delay", map[string]string{"delay": "soon"}); st != http.StatusBadRequest {
		t.Fatalf("bad deploy-delay: %d", st)
	}
	if st, _ := call("GET", "/iflows/Flow/deployed", nil); st != http.StatusNotFound {
		t.Fatalf("deployed before deploy: %d", st)
	}
	if st, _ := call("POST", "/cloud-integration/csrf/invalidate", nil); st != http.StatusNoContent {
		t.Fatalf("csrf invalidate: %d", st)
	}
	if st, _ := call("DELETE", "/iflows/Flow", nil); st != http.StatusNoContent {
		t.Fatalf("DELETE: %d", st)
	}
	if st, _ := call("DELETE", "/iflows/Flow", nil); st != http.StatusNotFound {
		t.Fatalf("second DELETE: %d", st)
	}
	s.cpi.mu.Lock()
	failText := s.cpi.failNext["Flow"]
	delay := s.cpi.deployDelay
	s.cpi.mu.Unlock()
	if failText != "boom" || delay.Milliseconds() != 5 {
		t.Fatalf("fail text %q, delay %v", failText, delay)
	}
}

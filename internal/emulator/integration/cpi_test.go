package integration_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

const cpiBase = emulator.CloudIntegrationBasePath

// cpiLit quotes an OData key value for a URL path as a client must.
func cpiLit(v string) string {
	var b strings.Builder
	for _, c := range []byte(strings.ReplaceAll(v, "'", "''")) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
		}
	}
	return "'" + b.String() + "'"
}

func cpiDesign(s *emulator.Server, id string, rest ...string) string {
	return s.URL() + cpiBase + "/IntegrationDesigntimeArtifacts(Id=" + cpiLit(id) + ",Version='active')" + strings.Join(rest, "")
}

func cpiRuntime(s *emulator.Server, id string, rest ...string) string {
	return s.URL() + cpiBase + "/IntegrationRuntimeArtifacts(" + cpiLit(id) + ")" + strings.Join(rest, "")
}

func cpiJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var cpiJSONHeader = map[string]string{"Content-Type": "application/json"}

func cpiFlow(params map[string]string, props map[string]string) []byte {
	return cpiFlowNamed("Flow", params, props)
}

// cpiFlowNamed builds a flow archive whose Bundle-SymbolicName is id.
func cpiFlowNamed(id string, params map[string]string, props map[string]string) []byte {
	return iflowbuild.Build(iflowbuild.Options{Name: id, Parameters: params,
		Senders: []iflowbuild.Sender{{Properties: props}}, ExceptionEnds: [][]string{{"error"}}})
}

func cpiZipEntry(t *testing.T, data []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			_ = rc.Close()
			return string(b)
		}
	}
	t.Fatalf("zip has no entry %s", name)
	return ""
}

func TestCPIDesigntimeLifecycle(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	content := cpiFlowNamed("Orders_In", nil, iflowbuild.DefaultSenderProperties("acme/crm/prod/orders"))

	// An archive whose manifest names another bundle is refused.
	r := emulatortest.Do(t, "POST", s.URL()+cpiBase+"/IntegrationDesigntimeArtifacts", tok, cpiJSON(t, map[string]string{
		"Id": "Orders_In", "Name": "Orders In", "PackageId": "Pkg", "ArtifactContent": base64.StdEncoding.EncodeToString(cpiFlow(nil, nil)),
	}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusBadRequest)
	if !strings.Contains(r.ODataError(t), `Bundle-SymbolicName "Flow"`) {
		t.Fatalf("mismatched manifest: %s", r.Body)
	}

	r = emulatortest.Do(t, "POST", s.URL()+cpiBase+"/IntegrationDesigntimeArtifacts", tok, cpiJSON(t, map[string]string{
		"Id": "Orders_In", "Name": "Orders In", "PackageId": "Pkg", "ArtifactContent": base64.StdEncoding.EncodeToString(content),
	}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusCreated)
	var created struct {
		ID, Version, PackageID, Name string
		Metadata                     struct{ URI string } `json:"__metadata"`
	}
	r.ODataD(t, &created)
	if created.Version != "1.0.0" || created.Metadata.URI == "" {
		t.Fatalf("created %+v", created)
	}
	r = emulatortest.Do(t, "POST", s.URL()+cpiBase+"/IntegrationDesigntimeArtifacts", tok, cpiJSON(t, map[string]string{
		"Id": "Orders_In", "Name": "Orders In", "PackageId": "Pkg",
	}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusInternalServerError)
	if !strings.Contains(r.ODataError(t), "already exists") {
		t.Fatalf("duplicate: %s", r.Body)
	}
	r = emulatortest.Do(t, "POST", s.URL()+cpiBase+"/IntegrationDesigntimeArtifacts", tok, cpiJSON(t, map[string]string{
		"Id": "X", "Name": "1bad.", "PackageId": "Pkg",
	}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusBadRequest)

	r = emulatortest.Do(t, "GET", cpiDesign(s, "Orders_In"), tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var got map[string]any
	r.ODataD(t, &got)
	for k, want := range map[string]string{"Id": "Orders_In", "Version": "1.0.0", "PackageId": "Pkg", "Name": "Orders In"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %s", k, got[k], want)
		}
	}
	if _, ok := got["__metadata"]; !ok {
		t.Error("no __metadata")
	}
	emulatortest.Expect(t, emulatortest.Do(t, "GET", strings.Replace(cpiDesign(s, "Orders_In"), "'active'", "'1.0.0'", 1), tok, nil, nil), http.StatusOK)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", strings.Replace(cpiDesign(s, "Orders_In"), "'active'", "'9.9.9'", 1), tok, nil, nil), http.StatusNotFound)

	r = emulatortest.Do(t, "GET", cpiDesign(s, "Orders_In", "/$value"), tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	if r.Header.Get("Content-Type") != "application/zip" || !bytes.Equal(r.Body, content) {
		t.Fatalf("$value: %s, %d bytes", r.Header.Get("Content-Type"), len(r.Body))
	}

	r = emulatortest.Do(t, "PUT", cpiDesign(s, "Orders_In"), tok, cpiJSON(t, map[string]string{
		"ArtifactContent": base64.StdEncoding.EncodeToString(cpiFlow(nil, nil)),
	}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusBadRequest)
	if !bytes.Equal(s.IFlowContent("Orders_In"), content) {
		t.Fatal("a refused PUT changed the content")
	}
	updated := cpiFlowNamed("Orders_In", nil, iflowbuild.DefaultSenderProperties("acme/crm/prod/other"))
	r = emulatortest.Do(t, "PUT", cpiDesign(s, "Orders_In"), tok, cpiJSON(t, map[string]string{
		"Name": "Orders In", "ArtifactContent": base64.StdEncoding.EncodeToString(updated),
	}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusOK)
	if !bytes.Equal(s.IFlowContent("Orders_In"), updated) {
		t.Fatal("PUT did not replace the content")
	}
	r = emulatortest.Do(t, "PUT", cpiDesign(s, "Orders_In"), tok, cpiJSON(t, map[string]string{"ArtifactContent": "not base64!"}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusBadRequest)
	r = emulatortest.Do(t, "PUT", cpiDesign(s, "Orders_In"), tok, cpiJSON(t, map[string]string{"ArtifactContent": base64.StdEncoding.EncodeToString([]byte("no zip"))}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusBadRequest)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", cpiDesign(s, "Missing"), tok, cpiJSON(t, map[string]string{"Name": "Missing"}), cpiJSONHeader), http.StatusNotFound)

	r = emulatortest.Do(t, "GET", s.URL()+cpiBase+"/IntegrationDesigntimeArtifacts", tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var list struct {
		Results []struct{ ID string } `json:"results"`
	}
	r.ODataD(t, &list)
	if len(list.Results) != 1 {
		t.Fatalf("list: %s", r.Body)
	}

	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", cpiDesign(s, "Orders_In"), tok, nil, nil), http.StatusOK)
	r = emulatortest.Do(t, "GET", cpiDesign(s, "Orders_In"), tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusNotFound)
	r.ODataError(t)
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", cpiDesign(s, "Orders_In"), tok, nil, nil), http.StatusNotFound)

	// Without content the tenant creates an empty flow.
	r = emulatortest.Do(t, "POST", s.URL()+cpiBase+"/IntegrationDesigntimeArtifacts", tok, cpiJSON(t, map[string]string{
		"Id": "Empty", "Name": "Empty", "PackageId": "Pkg",
	}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusCreated)
	if _, err := iflow.ReadZip(s.IFlowContent("Empty")); err != nil {
		t.Fatalf("empty flow: %v", err)
	}
}

func TestCPIConfigurations(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	key := "Max Retries 'AMQP'"
	content := cpiFlow(map[string]string{key: "5", "Queue": "orders"}, map[string]string{"maxRetries": "{{" + key + "}}", "destinationName": "queue:{{Queue}}"})
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", content); err != nil {
		t.Fatal(err)
	}
	configs := func() map[string][2]string {
		t.Helper()
		r := emulatortest.Do(t, "GET", cpiDesign(s, "Flow", "/Configurations"), tok, nil, nil)
		emulatortest.Expect(t, r, http.StatusOK)
		var list struct {
			Results []struct{ ParameterKey, ParameterValue, DataType string } `json:"results"`
		}
		r.ODataD(t, &list)
		m := map[string][2]string{}
		for _, c := range list.Results {
			m[c.ParameterKey] = [2]string{c.ParameterValue, c.DataType}
		}
		return m
	}
	if got := configs(); got[key] != [2]string{"5", "xsd:integer"} || got["Queue"] != [2]string{"orders", "xsd:string"} {
		t.Fatalf("configurations %v", got)
	}
	link := cpiDesign(s, "Flow", "/$links/Configurations("+cpiLit(key)+")")
	if !strings.Contains(link, "%27%27") || !strings.Contains(link, "%20") {
		t.Fatalf("the test URL %s does not exercise escaping", link)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", link, tok, cpiJSON(t, map[string]string{"ParameterValue": "2", "DataType": "xsd:integer"}), cpiJSONHeader), http.StatusAccepted)
	if got := configs(); got[key][0] != "2" {
		t.Fatalf("after PUT: %v", got)
	}
	if prop := cpiZipEntry(t, s.IFlowContent("Flow"), iflow.ParametersPath); !strings.Contains(prop, `Max\ Retries\ 'AMQP'=2`) {
		t.Fatalf("parameters.prop after PUT:\n%s", prop)
	}
	r := emulatortest.Do(t, "PUT", cpiDesign(s, "Flow", "/$links/Configurations('Unknown')"), tok, cpiJSON(t, map[string]string{"ParameterValue": "1"}), cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusNotFound)
	if !strings.Contains(r.ODataError(t), "Unknown") {
		t.Fatalf("unknown key: %s", r.Body)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", link, tok, cpiJSON(t, map[string]int{"ParameterValue": 1}), cpiJSONHeader), http.StatusBadRequest)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", link, tok, []byte("{"), cpiJSONHeader), http.StatusBadRequest)

	if err := s.SetConfigurationValue("Flow", "Queue", "other"); err != nil {
		t.Fatal(err)
	}
	if got := configs(); got["Queue"][0] != "other" {
		t.Fatalf("after out-of-band change: %v", got)
	}
	if err := s.SetConfigurationValue("Nope", "Queue", "x"); err == nil {
		t.Fatal("SetConfigurationValue on an unknown flow succeeded")
	}
}

func TestCPIDeployLifecycle(t *testing.T) {
	t.Parallel()
	clock := emulatortest.NewClock()
	s := emulatortest.StartServer(t, emulator.Options{Now: clock.Now})
	s.SetDeployDelay(time.Minute)
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	content := cpiFlow(map[string]string{"Retries": "3"}, map[string]string{"maxRetries": "{{Retries}}"})
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", content); err != nil {
		t.Fatal(err)
	}
	r := emulatortest.Do(t, "POST", s.URL()+cpiBase+"/DeployIntegrationDesigntimeArtifact?Id='Flow'&Version='active'", tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusAccepted)
	task := string(r.Body)
	status := func() string {
		t.Helper()
		r := emulatortest.Do(t, "GET", s.URL()+cpiBase+"/BuildAndDeployStatus(TaskId="+cpiLit(task)+")", tok, nil, nil)
		emulatortest.Expect(t, r, http.StatusOK)
		var st struct{ TaskID, Status string }
		r.ODataD(t, &st)
		if !strings.EqualFold(st.TaskID, task) {
			t.Fatalf("task id %q, want %q", st.TaskID, task)
		}
		return st.Status
	}
	runtime := func() (int, string, string) {
		t.Helper()
		r := emulatortest.Do(t, "GET", cpiRuntime(s, "Flow"), tok, nil, nil)
		if r.Status != http.StatusOK {
			return r.Status, "", ""
		}
		var rt struct{ Status, Version, DeployedOn string }
		r.ODataD(t, &rt)
		if !strings.HasPrefix(rt.DeployedOn, "/Date(") {
			t.Fatalf("DeployedOn %q", rt.DeployedOn)
		}
		return r.Status, rt.Status, rt.Version
	}
	if st := status(); st != "DEPLOYING" {
		t.Fatalf("status %s", st)
	}
	if code, _, _ := runtime(); code != http.StatusNotFound {
		t.Fatalf("runtime before the first build: %d", code)
	}
	clock.Advance(time.Minute)
	if st := status(); st != "SUCCESS" {
		t.Fatalf("status %s", st)
	}
	if _, st, v := runtime(); st != "STARTING" || v != "1.0.0" {
		t.Fatalf("runtime %s %s", st, v)
	}
	clock.Advance(time.Minute)
	if _, st, _ := runtime(); st != "STARTED" {
		t.Fatalf("runtime %s", st)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "GET", cpiRuntime(s, "Flow", "/ErrorInformation/$value"), tok, nil, nil), http.StatusNoContent)

	// The runtime keeps what was deployed; design time changes wait for the next deploy.
	if err := s.SetConfigurationValue("Flow", "Retries", "9"); err != nil {
		t.Fatal(err)
	}
	d, ok := s.Deployed("Flow")
	if !ok || d.Parameters["Retries"] != "3" || !bytes.Equal(d.Content, content) || d.Status != "STARTED" {
		t.Fatalf("deployed %+v %v", d.Parameters, ok)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "POST", s.URL()+cpiBase+"/DeployIntegrationDesigntimeArtifact?Id='Flow'&Version='active'", tok, nil, nil), http.StatusAccepted)
	if _, st, _ := runtime(); st != "STARTED" {
		t.Fatalf("the old deployment should run while the new one builds, got %s", st)
	}
	clock.Advance(2 * time.Minute)
	if d, _ := s.Deployed("Flow"); d.Parameters["Retries"] != "9" {
		t.Fatalf("after redeploy: %+v", d.Parameters)
	}

	r = emulatortest.Do(t, "GET", s.URL()+cpiBase+"/IntegrationRuntimeArtifacts", tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	if !strings.Contains(string(r.Body), `"Id":"Flow"`) {
		t.Fatalf("runtime list %s", r.Body)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", cpiRuntime(s, "Flow"), tok, nil, nil), http.StatusAccepted)
	if code, _, _ := runtime(); code != http.StatusNotFound {
		t.Fatalf("runtime after undeploy: %d", code)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", cpiRuntime(s, "Flow"), tok, nil, nil), http.StatusNotFound)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", cpiRuntime(s, "Flow", "/ErrorInformation/$value"), tok, nil, nil), http.StatusNotFound)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+cpiBase+"/BuildAndDeployStatus(TaskId='nope')", tok, nil, nil), http.StatusNotFound)
	r = emulatortest.Do(t, "POST", s.URL()+cpiBase+"/DeployIntegrationDesigntimeArtifact?Id='Nope'&Version='active'", tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusBadRequest)
	r.ODataError(t)
}

func TestCPIDeployFailure(t *testing.T) {
	t.Parallel()
	clock := emulatortest.NewClock()
	const failID = "Orders 'EU' & more"
	s := emulatortest.StartServer(t, emulator.Options{Now: clock.Now})
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	if err := s.CreateIFlow(failID, "Flow", "Pkg", cpiFlow(nil, nil)); err != nil {
		t.Fatal(err)
	}
	s.FailNextDeploy(failID, "Channel AMQP: queue 'orders' does not exist")
	r := emulatortest.Do(t, "POST", s.URL()+cpiBase+"/DeployIntegrationDesigntimeArtifact?Id="+cpiLit(failID)+"&Version='active'", tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusAccepted)
	clock.Advance(time.Second)
	r = emulatortest.Do(t, "GET", s.URL()+cpiBase+"/BuildAndDeployStatus(TaskId='"+string(r.Body)+"')", tok, nil, nil)
	if !strings.Contains(string(r.Body), `"Status":"FAIL"`) {
		t.Fatalf("status %s", r.Body)
	}
	r = emulatortest.Do(t, "GET", cpiRuntime(s, failID), tok, nil, nil)
	if !strings.Contains(string(r.Body), `"Status":"ERROR"`) {
		t.Fatalf("runtime %s", r.Body)
	}
	r = emulatortest.Do(t, "GET", cpiRuntime(s, failID, "/ErrorInformation/$value"), tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var info struct {
		Parameter []string `json:"parameter"`
	}
	r.JSON(t, &info)
	if len(info.Parameter) != 1 || info.Parameter[0] != "Channel AMQP: queue 'orders' does not exist" {
		t.Fatalf("error information %s", r.Body)
	}
	// Only the next deploy fails.
	r = emulatortest.Do(t, "POST", s.URL()+cpiBase+"/DeployIntegrationDesigntimeArtifact?Id="+cpiLit(failID)+"&Version='active'", tok, nil, nil)
	clock.Advance(time.Second)
	r = emulatortest.Do(t, "GET", s.URL()+cpiBase+"/BuildAndDeployStatus(TaskId='"+string(r.Body)+"')", tok, nil, nil)
	if !strings.Contains(string(r.Body), `"Status":"SUCCESS"`) {
		t.Fatalf("second deploy %s", r.Body)
	}
}

// A deploy whose build fails ends its task in FAIL and leaves the runtime running the version it
// ran before (FailNextDeploy, by contrast, puts the runtime in ERROR).
func TestCPIBuildFailureKeepsRuntime(t *testing.T) {
	t.Parallel()
	clock := emulatortest.NewClock()
	s := emulatortest.StartServer(t, emulator.Options{Now: clock.Now})
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", cpiFlow(map[string]string{"Retries": "3"}, nil)); err != nil {
		t.Fatal(err)
	}
	deploy := func() string {
		t.Helper()
		r := emulatortest.Do(t, "POST", s.URL()+cpiBase+"/DeployIntegrationDesigntimeArtifact?Id='Flow'&Version='active'", tok, nil, nil)
		emulatortest.Expect(t, r, http.StatusAccepted)
		clock.Advance(2 * time.Minute)
		r = emulatortest.Do(t, "GET", s.URL()+cpiBase+"/BuildAndDeployStatus(TaskId='"+string(r.Body)+"')", tok, nil, nil)
		emulatortest.Expect(t, r, http.StatusOK)
		var st struct{ Status string }
		r.ODataD(t, &st)
		return st.Status
	}
	if st := deploy(); st != "SUCCESS" {
		t.Fatalf("first deploy %s", st)
	}
	if err := s.SetConfigurationValue("Flow", "Retries", "9"); err != nil {
		t.Fatal(err)
	}
	s.FailNextBuild("Flow", "Build failed: adapter 'AMQP' not found")
	if st := deploy(); st != "FAIL" {
		t.Fatalf("deploy with a failing build: %s", st)
	}
	d, ok := s.Deployed("Flow")
	if !ok || d.Status != "STARTED" || d.Parameters["Retries"] != "3" {
		t.Fatalf("after a failed build the previous version should run: %+v %v", d, ok)
	}
	if st := deploy(); st != "SUCCESS" {
		t.Fatalf("only the next build fails: %s", st)
	}
	if d, _ := s.Deployed("Flow"); d.Parameters["Retries"] != "9" {
		t.Fatalf("after the next deploy: %+v", d.Parameters)
	}
}

func TestCPICSRF(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{RequireCSRF: true})
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", cpiFlow(map[string]string{"P": "1"}, nil)); err != nil {
		t.Fatal(err)
	}
	link := cpiDesign(s, "Flow", "/$links/Configurations('P')")
	body := cpiJSON(t, map[string]string{"ParameterValue": "2"})
	r := emulatortest.Do(t, "PUT", link, tok, body, cpiJSONHeader)
	emulatortest.Expect(t, r, http.StatusForbidden)
	if r.Header.Get("X-CSRF-Token") != "Required" {
		t.Fatalf("X-CSRF-Token %q", r.Header.Get("X-CSRF-Token"))
	}
	r.ODataError(t)
	// Reads need no token.
	emulatortest.Expect(t, emulatortest.Do(t, "GET", cpiDesign(s, "Flow"), tok, nil, nil), http.StatusOK)

	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	fetch, err := emulatortest.Send(t, hc, "GET", s.URL()+cpiBase+"/", tok, nil, map[string]string{"X-CSRF-Token": "Fetch"})
	if err != nil {
		t.Fatal(err)
	}
	emulatortest.Expect(t, fetch, http.StatusOK)
	csrf := fetch.Header.Get("X-CSRF-Token")
	if csrf == "" || strings.EqualFold(csrf, "Required") {
		t.Fatalf("fetched token %q", csrf)
	}
	r, err = emulatortest.Send(t, hc, "PUT", link, tok, body, map[string]string{"X-CSRF-Token": csrf, "Content-Type": "application/json"})
	if err != nil {
		t.Fatal(err)
	}
	emulatortest.Expect(t, r, http.StatusAccepted)
	// The token is bound to the session cookie.
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", link, tok, body, map[string]string{"X-CSRF-Token": csrf, "Content-Type": "application/json"}), http.StatusForbidden)
	r, _ = emulatortest.Send(t, hc, "PUT", link, tok, body, map[string]string{"X-CSRF-Token": "wrong", "Content-Type": "application/json"})
	emulatortest.Expect(t, r, http.StatusForbidden)
	// A second fetch in the same session returns the same token.
	again, _ := emulatortest.Send(t, hc, "GET", cpiDesign(s, "Flow"), tok, nil, map[string]string{"X-CSRF-Token": "Fetch"})
	if again.Header.Get("X-CSRF-Token") != csrf {
		t.Fatalf("second fetch gave %q, want %q", again.Header.Get("X-CSRF-Token"), csrf)
	}
	s.InvalidateCSRFTokens()
	r, _ = emulatortest.Send(t, hc, "PUT", link, tok, body, map[string]string{"X-CSRF-Token": csrf, "Content-Type": "application/json"})
	emulatortest.Expect(t, r, http.StatusForbidden)
}

func TestCPIAuth(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	r := emulatortest.Do(t, "GET", s.URL()+cpiBase+"/", "", nil, nil)
	emulatortest.Expect(t, r, http.StatusUnauthorized)
	r.ODataError(t)
	if r.Header.Get("WWW-Authenticate") == "" {
		t.Error("401 without WWW-Authenticate")
	}
	r = emulatortest.Do(t, "GET", s.URL()+cpiBase+"/", emulatortest.Token(t, s, emulator.AudienceManagement), nil, nil)
	emulatortest.Expect(t, r, http.StatusForbidden)
	r.ODataError(t)
	r = emulatortest.Do(t, "GET", s.URL()+cpiBase, emulatortest.Token(t, s, emulator.AudienceCloudIntegration), nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
}

func TestCPIRouteErrorsAndStats(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/IntegrationDesigntimeArtifacts('x')", http.StatusBadRequest},
		{"GET", "/IntegrationDesigntimeArtifacts(Id='x,Version='active')", http.StatusBadRequest},
		{"GET", "/Unknown", http.StatusNotFound},
		{"DELETE", "/IntegrationDesigntimeArtifacts", http.StatusMethodNotAllowed},
		{"POST", "/DeployIntegrationDesigntimeArtifact?Id=x&Version=active", http.StatusBadRequest},
	} {
		r := emulatortest.Do(t, tc.method, s.URL()+cpiBase+tc.path, tok, nil, nil)
		emulatortest.Expect(t, r, tc.status)
		r.ODataError(t)
	}
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", cpiFlow(nil, nil)); err != nil {
		t.Fatal(err)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "GET", cpiDesign(s, "Flow", "/$value"), tok, nil, nil), http.StatusOK)
	label := "GET " + cpiBase + "/IntegrationDesigntimeArtifacts(Id,Version)/$value"
	if n := s.Stats().Routes[label]; n != 1 {
		t.Fatalf("route %q counted %d times; routes %v", label, n, s.Stats().Routes)
	}
}

func TestCPIStatePersists(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "state.json")
	clock := emulatortest.NewClock()
	s := emulatortest.StartServer(t, emulator.Options{StateFile: file, Now: clock.Now})
	content := cpiFlow(map[string]string{"Retries": "3"}, map[string]string{"maxRetries": "{{Retries}}"})
	if err := s.CreateIFlow("Flow", "Flow", "Pkg", content); err != nil {
		t.Fatal(err)
	}
	tok := emulatortest.Token(t, s, emulator.AudienceCloudIntegration)
	emulatortest.Expect(t, emulatortest.Do(t, "POST", s.URL()+cpiBase+"/DeployIntegrationDesigntimeArtifact?Id='Flow'&Version='active'", tok, nil, nil), http.StatusAccepted)
	if err := s.SetConfigurationValue("Flow", "Retries", "4"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	_ = s.Close()

	s2 := emulatortest.StartServer(t, emulator.Options{StateFile: file, Now: clock.Now})
	if !bytes.Equal(s2.IFlowContent("Flow"), s.IFlowContent("Flow")) {
		t.Fatal("the flow content was not restored")
	}
	d, ok := s2.Deployed("Flow")
	if !ok || d.Status != "STARTED" || d.Parameters["Retries"] != "3" {
		t.Fatalf("deployed after restart: %+v %v", d, ok)
	}
}

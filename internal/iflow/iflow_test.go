package iflow_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// realIflw reads SAP's EMIS_AMQP_Consumer.iflw from the shared reference
// directory, three levels above the module root's internal/iflow.
func realIflw(t *testing.T) []byte {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(wd, "..", "..", "..", "shared", "reference", "specs", "iflows", "EMIS_AMQP_Consumer.iflw")
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("reference iFlow %s is not present", p)
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRealIflwParses(t *testing.T) {
	t.Parallel()
	m, err := iflow.ParseIflw(realIflw(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(m.MessageFlows); got != 2 {
		t.Fatalf("message flows = %d, want 2", got)
	}
	senders := m.AMQPSenders()
	if len(senders) != 1 {
		t.Fatalf("AMQP senders = %d, want 1 (MessageFlow_12 is an AMQP receiver)", len(senders))
	}
	s := senders[0]
	if s.ID != "MessageFlow_11" || s.Name != "AMQP" {
		t.Fatalf("sender = %q/%q, want MessageFlow_11/AMQP", s.ID, s.Name)
	}
	want := map[string]string{
		"NumberConcurrentProcesses": "1",
		"queuePrefetch":             "5",
		"maxRetries":                "5",
		"deliveryState":             "REJECTED",
		"destinationName":           "queue-CAP",
		"consumeExpiredMessages":    "false",
		"connectWithTLS":            "true",
		"Description":               "",
		"credentialName":            "EMIS-Consumer",
	}
	for k, v := range want {
		got, ok := s.Properties[k]
		if !ok || got != v {
			t.Errorf("%s = %q (present %v), want %q", k, got, ok, v)
		}
	}
	if q := iflow.QueueName(s.Properties[iflow.KeyDestinationName]); q != "queue-CAP" {
		t.Errorf("queue = %q, want queue-CAP", q)
	}
	rs := s.RetrySettings(nil)
	for _, st := range rs.All() {
		if !st.Present || st.Externalized() || !st.Resolved {
			t.Errorf("%s: present=%v externalized=%v resolved=%v, want a present literal", st.Key, st.Present, st.Externalized(), st.Resolved)
		}
	}
	if n, ok := rs.MaxRetries.Int(); !ok || n != 5 {
		t.Errorf("maxRetries Int = %d,%v, want 5", n, ok)
	}
	if rs.DeliveryState.Value != "REJECTED" {
		t.Errorf("deliveryState = %q", rs.DeliveryState.Value)
	}
	if len(m.ExceptionSubprocesses) != 0 {
		t.Errorf("exception subprocesses = %v, want none", m.ExceptionSubprocesses)
	}
	if _, ok := m.AMQPSender("MessageFlow_12"); ok {
		t.Error("MessageFlow_12 is a receiver but was returned as sender")
	}
}

// valueOffset returns the offset of the value text of key inside the message
// flow flowID, located by plain text search.
func valueOffset(t *testing.T, doc []byte, flowID, key string) int {
	t.Helper()
	start := bytes.Index(doc, []byte(`<bpmn2:messageFlow id="`+flowID+`"`))
	if start < 0 {
		t.Fatalf("flow %s not found", flowID)
	}
	end := start + bytes.Index(doc[start:], []byte("</bpmn2:messageFlow>"))
	k := bytes.Index(doc[start:end], []byte("<key>"+key+"</key>"))
	if k < 0 {
		t.Fatalf("key %s not found in %s", key, flowID)
	}
	v := bytes.Index(doc[start+k:end], []byte("<value>"))
	return start + k + v + len("<value>")
}

func TestPatchRealIflwChangesOnlyValueBytes(t *testing.T) {
	t.Parallel()
	in := realIflw(t)
	orig := append([]byte(nil), in...)
	out, err := iflow.PatchIflw(in, "MessageFlow_11", map[string]string{"maxRetries": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, orig) {
		t.Fatal("PatchIflw modified its input")
	}
	if len(out) != len(in) {
		t.Fatalf("length changed from %d to %d", len(in), len(out))
	}
	off := valueOffset(t, in, "MessageFlow_11", "maxRetries")
	var diffs []int
	for i := range in {
		if in[i] != out[i] {
			diffs = append(diffs, i)
		}
	}
	if len(diffs) != 1 || diffs[0] != off || in[off] != '5' || out[off] != '1' {
		t.Fatalf("differing offsets %v, want exactly [%d] (5 -> 1)", diffs, off)
	}
	m, err := iflow.ParseIflw(out)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := m.AMQPSender("MessageFlow_11")
	if s.Properties["maxRetries"] != "1" || s.Properties["queuePrefetch"] != "5" {
		t.Fatalf("after patch: %v", s.Properties)
	}
}

func TestPatchRealIflwLongerAndSelfClosingValues(t *testing.T) {
	t.Parallel()
	in := realIflw(t)
	changes := map[string]string{
		"maxRetries":                "12",
		"deliveryState":             "MODIFIED_FAILED_UNDELIVERABLE",
		"Description":               `retry <twice> & "log"`,
		"NumberConcurrentProcesses": "{{Concurrency}}",
	}
	out, err := iflow.PatchIflw(in, "MessageFlow_11", changes)
	if err != nil {
		t.Fatal(err)
	}
	m, err := iflow.ParseIflw(out)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := m.AMQPSender("MessageFlow_11")
	for k, v := range changes {
		if s.Properties[k] != v {
			t.Errorf("%s = %q, want %q", k, s.Properties[k], v)
		}
	}
	if got := s.Setting(iflow.KeyConcurrentProcesses, nil); got.Parameter != "Concurrency" || got.Resolved {
		t.Errorf("externalized setting = %+v", got)
	}
	// The expected document: the same bytes with the four values replaced
	// inside MessageFlow_11 only.
	flowStart := bytes.Index(in, []byte(`<bpmn2:messageFlow id="MessageFlow_11"`))
	flowEnd := flowStart + bytes.Index(in[flowStart:], []byte("</bpmn2:messageFlow>"))
	flow := string(in[flowStart:flowEnd])
	const sep = "</key>\n                    "
	for _, r := range [][2]string{
		{"<key>maxRetries" + sep + "<value>5</value>", "<key>maxRetries" + sep + "<value>12</value>"},
		{"<key>deliveryState" + sep + "<value>REJECTED</value>", "<key>deliveryState" + sep + "<value>MODIFIED_FAILED_UNDELIVERABLE</value>"},
		{"<key>Description" + sep + "<value/>", "<key>Description" + sep + "<value>retry &lt;twice&gt; &amp; \"log\"</value>"},
		{"<key>NumberConcurrentProcesses" + sep + "<value>1</value>", "<key>NumberConcurrentProcesses" + sep + "<value>{{Concurrency}}</value>"},
	} {
		if strings.Count(flow, r[0]) != 1 {
			t.Fatalf("reference text %q not found once in MessageFlow_11", r[0])
		}
		flow = strings.Replace(flow, r[0], r[1], 1)
	}
	want := string(in[:flowStart]) + flow + string(in[flowEnd:])
	if string(out) != want {
		t.Fatalf("patched document differs from the expected splice")
	}
}

func TestPatchIflwErrors(t *testing.T) {
	t.Parallel()
	doc := iflowbuild.Iflw(iflowbuild.Options{Senders: []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("a/b/c/q")}}})
	tests := []struct {
		name    string
		flow    string
		changes map[string]string
		is      error
		text    string
	}{
		{"unknown flow", "MessageFlow_9", map[string]string{"maxRetries": "1"}, iflow.ErrFlowNotFound, `"MessageFlow_1"`},
		{"missing key", "MessageFlow_1", map[string]string{"maxRetries": "1", "noSuchKey": "x"}, iflow.ErrPropertyNotFound, `"noSuchKey"`},
		{"empty flow id", " ", map[string]string{"maxRetries": "1"}, nil, "message flow id is empty"},
		{"control character", "MessageFlow_1", map[string]string{"maxRetries": "1\x00"}, nil, "U+0000"},
		{"invalid utf-8", "MessageFlow_1", map[string]string{"maxRetries": "\xff"}, nil, "UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := iflow.PatchIflw(doc, tc.flow, tc.changes)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.text) {
				t.Errorf("error %q does not mention %q", err, tc.text)
			}
		})
	}
}

func TestPatchIflwNoChangeKeepsBytes(t *testing.T) {
	t.Parallel()
	doc := iflowbuild.Iflw(iflowbuild.Options{Senders: []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("a/b/c/q")}}})
	out, err := iflow.PatchIflw(doc, "MessageFlow_1", map[string]string{"maxRetries": "5", "deliveryState": "REJECTED"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, doc) {
		t.Fatal("patching to the current values changed the document")
	}
	// Equal values written with references or CDATA keep their bytes.
	hand := []byte(`<definitions><messageFlow id="F"><property><key>maxRetries</key><value>&#53;</value></property>` +
		`<property><key>deliveryState</key><value><![CDATA[REJECTED]]></value></property>` +
		`<property><key>queuePrefetch</key><value>1</value></property></messageFlow></definitions>`)
	out, err = iflow.PatchIflw(hand, "F", map[string]string{"maxRetries": "5", "deliveryState": "REJECTED", "queuePrefetch": "2"})
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(hand, []byte("<value>1</value>"), []byte("<value>2</value>"), 1)
	if !bytes.Equal(out, want) {
		t.Fatalf("got %s\nwant %s", out, want)
	}
}

func TestPatchIflwMarkupValueRejected(t *testing.T) {
	t.Parallel()
	doc := []byte(`<definitions><messageFlow id="F"><property><key>k</key><value>a<b/>c</value></property></messageFlow></definitions>`)
	if _, err := iflow.PatchIflw(doc, "F", map[string]string{"k": "x"}); err == nil || !strings.Contains(err.Error(), "child elements") {
		t.Fatalf("error = %v, want a child elements error", err)
	}
}

func TestNamespaceTolerance(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"default namespace": `<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">
  <collaboration>
    <messageFlow id="F1" name="In">
      <extensionElements>
        <property><key> ComponentType </key><value>AMQP</value></property>
        <property><key>direction</key><value>Sender</value></property>
        <property><key>maxRetries</key><value><![CDATA[3]]></value></property>
        <property><key>deliveryState</key><value />
        </property>
      </extensionElements>
    </messageFlow>
  </collaboration>
</definitions>`,
		"other prefixes": `<b:definitions xmlns:b="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="http:///com.sap.ifl.model/Ifl.xsd">
  <b:messageFlow id="F1" name="In">
    <b:extensionElements>
      <x:property><x:key>ComponentType</x:key><x:value>AMQP</x:value></x:property>
      <x:property><x:value>Sender</x:value><x:key>direction</x:key></x:property>
      <x:property><x:key>maxRetries</x:key><x:value>3</x:value></x:property>
      <x:property><x:key>deliveryState</x:key><x:value/></x:property>
    </b:extensionElements>
  </b:messageFlow>
</b:definitions>`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m, err := iflow.ParseIflw([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			s, ok := m.AMQPSender("F1")
			if !ok || s.Properties["maxRetries"] != "3" {
				t.Fatalf("sender = %+v, %v", s, ok)
			}
			out, err := iflow.PatchIflw([]byte(doc), "F1", map[string]string{"maxRetries": "1", "deliveryState": "REJECTED"})
			if err != nil {
				t.Fatal(err)
			}
			m2, err := iflow.ParseIflw(out)
			if err != nil {
				t.Fatal(err)
			}
			s2, _ := m2.AMQPSender("F1")
			if s2.Properties["maxRetries"] != "1" || s2.Properties["deliveryState"] != "REJECTED" {
				t.Fatalf("after patch: %v\n%s", s2.Properties, out)
			}
		})
	}
}

func TestParseIflwErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":                                   "empty",
		"   ":                                "no root element",
		"<definitions>":                      "not well-formed",
		"<definitions></other>":              "not well-formed",
		"<html/>":                            "root element is <html>",
		"<definitions/><definitions/>":       "more than one root",
		`<?xml version="1.0" encoding="x"?>`: "not well-formed",
	}
	for doc, want := range tests {
		_, err := iflow.ParseIflw([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseIflw(%q) error = %v, want it to mention %q", doc, err, want)
		}
	}
}

func TestSendersOneAndTwoFoundByProperties(t *testing.T) {
	t.Parallel()
	one := iflowbuild.Build(iflowbuild.Options{Name: "One", Senders: []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("a/b/c/q1")}}})
	a, err := iflow.ReadZip(one)
	if err != nil {
		t.Fatal(err)
	}
	if a.IflwPath != "src/main/resources/scenarioflows/integrationflow/One.iflw" {
		t.Errorf("IflwPath = %q", a.IflwPath)
	}
	if s := a.AMQPSenders(); len(s) != 1 || s[0].ID != "MessageFlow_1" || iflow.QueueName(s[0].Properties["destinationName"]) != "a/b/c/q1" {
		t.Fatalf("senders = %+v", s)
	}
	if a.Manifest["Bundle-SymbolicName"] != "One; singleton:=true" {
		t.Errorf("manifest = %v", a.Manifest)
	}

	receiver := iflowbuild.DefaultSenderProperties("a/b/c/out")
	receiver["direction"] = "Receiver"
	https := map[string]string{"ComponentType": "HTTPS", "maxRetries": "9"}
	two := iflowbuild.Build(iflowbuild.Options{Senders: []iflowbuild.Sender{
		{ID: "Flow_Receiver", Properties: receiver},
		{ID: "Flow_A", Name: "Orders", Properties: iflowbuild.DefaultSenderProperties("a/b/c/orders")},
		{ID: "Flow_HTTPS", Properties: https},
		{ID: "Flow_B", Name: "Invoices", Properties: map[string]string{"destinationName": "invoices", "maxRetries": "2"}},
	}})
	a, err = iflow.ReadZip(two)
	if err != nil {
		t.Fatal(err)
	}
	senders := a.AMQPSenders()
	if len(senders) != 2 || senders[0].ID != "Flow_A" || senders[0].Name != "Orders" || senders[1].ID != "Flow_B" || senders[1].Name != "Invoices" {
		t.Fatalf("senders = %+v", senders)
	}
	if len(a.Model.MessageFlows) != 4 {
		t.Errorf("message flows = %d, want 4", len(a.Model.MessageFlows))
	}
	if got := senders[1].RetrySettings(nil).MaxRetries.Value; got != "2" {
		t.Errorf("Flow_B maxRetries = %q", got)
	}
	if st := senders[1].Setting(iflow.KeyQueuePrefetch, nil); st.Present || st.Value != "" {
		t.Errorf("absent queuePrefetch = %+v", st)
	}
}

func TestSettingsExternalizedVersusLiteral(t *testing.T) {
	t.Parallel()
	props := iflowbuild.DefaultSenderProperties("a/b/c/q")
	props["maxRetries"] = "{{MaxRetries}}"
	props["queuePrefetch"] = "{{Prefetch}}"
	props["destinationName"] = "queue:{{Namespace}}/orders"
	props["NumberConcurrentProcesses"] = "{{Missing}}"
	zipData := iflowbuild.Build(iflowbuild.Options{
		Senders:    []iflowbuild.Sender{{Properties: props}},
		Parameters: map[string]string{"MaxRetries": "3", "Prefetch": "10", "Namespace": "a/b/c", "Queue Label": "x=y"},
	})
	a, err := iflow.ReadZip(zipData)
	if err != nil {
		t.Fatal(err)
	}
	if a.Parameters["Queue Label"] != "x=y" || a.ParameterTypes["MaxRetries"] != "xsd:integer" || a.ParameterTypes["Namespace"] != "xsd:string" {
		t.Fatalf("parameters = %v types = %v", a.Parameters, a.ParameterTypes)
	}
	s := a.AMQPSenders()[0]
	rs := a.RetrySettings(s, nil)
	want := []iflow.Setting{
		{Key: "maxRetries", Present: true, Raw: "{{MaxRetries}}", Parameter: "MaxRetries", Value: "3", Resolved: true},
		{Key: "deliveryState", Present: true, Raw: "REJECTED", Value: "REJECTED", Resolved: true},
		{Key: "queuePrefetch", Present: true, Raw: "{{Prefetch}}", Parameter: "Prefetch", Value: "10", Resolved: true},
		{Key: "NumberConcurrentProcesses", Present: true, Raw: "{{Missing}}", Parameter: "Missing", Value: "", Resolved: false},
	}
	if !reflect.DeepEqual(rs.All(), want) {
		t.Fatalf("settings:\n got %+v\nwant %+v", rs.All(), want)
	}
	if _, ok := rs.ConcurrentProcesses.Int(); ok {
		t.Error("unresolved setting has an Int value")
	}
	// Configurations take precedence over parameters.prop.
	rs = a.RetrySettings(s, map[string]string{"MaxRetries": "1", "Missing": "2"})
	if rs.MaxRetries.Value != "1" || rs.ConcurrentProcesses.Value != "2" || !rs.ConcurrentProcesses.Resolved || rs.QueuePrefetch.Value != "10" {
		t.Fatalf("with configurations: %+v", rs)
	}
	dest := s.Setting(iflow.KeyDestinationName, a.ParameterValues(nil))
	if dest.Externalized() || dest.Value != "queue:a/b/c/orders" || iflow.QueueName(dest.Value) != "a/b/c/orders" {
		t.Fatalf("destination = %+v", dest)
	}
}

func TestParameterRefAndExpand(t *testing.T) {
	t.Parallel()
	refs := map[string]string{"{{A}}": "A", " {{Max Retries}} ": "Max Retries", "{{}}": "", "{{A}}x": "", "x{{A}}": "", "{{A}}{{B}}": "", "5": "", "{{A": ""}
	for in, want := range refs {
		got, ok := iflow.ParameterRef(in)
		if got != want || ok != (want != "") {
			t.Errorf("ParameterRef(%q) = %q,%v, want %q", in, got, ok, want)
		}
	}
	if v, ok := iflow.Expand("{{A}}-{{B}}-{{C", map[string]string{"A": "1", "B": "2"}); v != "1-2-{{C" || !ok {
		t.Errorf("Expand = %q,%v", v, ok)
	}
	if v, ok := iflow.Expand("x{{Z}}y", nil); v != "xy" || ok {
		t.Errorf("Expand missing = %q,%v", v, ok)
	}
}

func TestQueueName(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"queue:acme/crm/prod/orders": "acme/crm/prod/orders",
		"queue-CAP":                  "queue-CAP",
		" QUEUE: a/b/c/d ":           "a/b/c/d",
		"queue:":                     "",
		"":                           "",
		"queuename":                  "queuename",
	}
	for in, want := range cases {
		if got := iflow.QueueName(in); got != want {
			t.Errorf("QueueName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExceptionSubprocessKinds(t *testing.T) {
	t.Parallel()
	ends := [][]string{{"error"}, {"escalation"}, {"message"}, {"none"}, {"terminate"}, {"error", "message", "none"}, {}}
	a, err := iflow.ReadZip(iflowbuild.Build(iflowbuild.Options{ExceptionEnds: ends}))
	if err != nil {
		t.Fatal(err)
	}
	subs := a.ExceptionSubprocesses()
	want := [][]string{{"error"}, {"escalation"}, {"message"}, {"none"}, {"none"}, {"error", "message", "none"}, nil}
	if len(subs) != len(want) {
		t.Fatalf("subprocesses = %d, want %d", len(subs), len(want))
	}
	for i, s := range subs {
		if s.ID == "" || s.Name == "" || !reflect.DeepEqual(s.EndEvents, want[i]) {
			t.Errorf("subprocess %d = %+v, want end events %v", i, s, want[i])
		}
	}
	if kinds := []string{iflow.EndError, iflow.EndEscalation, iflow.EndMessage, iflow.EndNone}; strings.Join(kinds, ",") != "error,escalation,message,none" {
		t.Errorf("kind constants = %v", kinds)
	}
}

func TestExceptionSubprocessScoping(t *testing.T) {
	t.Parallel()
	doc := `<bpmn2:definitions xmlns:bpmn2="http://www.omg.org/spec/BPMN/20100524/MODEL">
<bpmn2:process id="P">
  <bpmn2:endEvent id="MainEnd"><bpmn2:messageEventDefinition/></bpmn2:endEvent>
  <bpmn2:subProcess id="Plain" name="Local"><bpmn2:endEvent id="E0"/></bpmn2:subProcess>
  <bpmn2:subProcess id="S1" name="Exception Subprocess 1" triggeredByEvent="true">
    <bpmn2:endEvent id="E1"><bpmn2:extensionElements/><bpmn2:escalationEventDefinition/><bpmn2:errorEventDefinition/></bpmn2:endEvent>
    <bpmn2:subProcess id="Inner"><bpmn2:endEvent id="E2"/></bpmn2:subProcess>
    <bpmn2:endEvent id="E3"><bpmn2:extensionElements><bpmn2:errorEventDefinition/></bpmn2:extensionElements></bpmn2:endEvent>
  </bpmn2:subProcess>
</bpmn2:process>
</bpmn2:definitions>`
	m, err := iflow.ParseIflw([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []iflow.ExceptionSubprocess{{ID: "S1", Name: "Exception Subprocess 1", EndEvents: []string{"error", "none"}}}
	if !reflect.DeepEqual(m.ExceptionSubprocesses, want) {
		t.Fatalf("subprocesses = %+v, want %+v", m.ExceptionSubprocesses, want)
	}
	none, err := iflow.ReadZip(iflowbuild.Build(iflowbuild.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(none.ExceptionSubprocesses()) != 0 || len(none.AMQPSenders()) != 0 {
		t.Fatalf("empty iFlow: %+v %+v", none.ExceptionSubprocesses(), none.AMQPSenders())
	}
}

type entry struct {
	name     string
	method   uint16
	modified int64
	raw      []byte
	content  []byte
}

func entries(t *testing.T, data []byte) ([]entry, string) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []entry
	for _, f := range zr.File {
		rr, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(rr)
		if err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		content, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, entry{f.Name, f.Method, f.Modified.Unix(), raw, content})
	}
	return out, zr.Comment
}

// mixedZip rewrites a built artifact with stored and deflated entries and a
// comment, as tools other than Go may write it.
func mixedZip(t *testing.T, built []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(built), int64(len(built)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, f := range zr.File {
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: f.Modified.Add(-60e9 * 60 * 24 * 30)}
		if i%2 == 1 {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		rc, _ := f.Open()
		if _, err := io.Copy(w, rc); err != nil {
			t.Fatal(err)
		}
		_ = rc.Close()
	}
	if err := zw.SetComment("iFlow export"); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPatchZipKeepsOtherEntries(t *testing.T) {
	t.Parallel()
	built := iflowbuild.Build(iflowbuild.Options{
		Name:       "Orders",
		Senders:    []iflowbuild.Sender{{ID: "MessageFlow_7", Properties: iflowbuild.DefaultSenderProperties("a/b/c/orders")}, {Properties: map[string]string{"maxRetries": "{{R}}"}}},
		Parameters: map[string]string{"R": "4"},
		Extra: map[string][]byte{
			"src/main/resources/script/retry.groovy": []byte("import com.sap.gateway.ip.core.customdev.util.Message\n"),
			"metainfo.prop":                          []byte("description=Orders\n"),
		},
	})
	for name, in := range map[string][]byte{"built": built, "mixed methods": mixedZip(t, built)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			before, comment := entries(t, in)
			out, err := iflow.PatchZip(in, "MessageFlow_7", map[string]string{"maxRetries": "1", "queuePrefetch": "1"})
			if err != nil {
				t.Fatal(err)
			}
			after, comment2 := entries(t, out)
			if comment != comment2 {
				t.Errorf("comment %q -> %q", comment, comment2)
			}
			if len(before) != len(after) {
				t.Fatalf("entries %d -> %d", len(before), len(after))
			}
			iflwName := iflowbuild.IflwPath("Orders")
			for i := range before {
				b, a := before[i], after[i]
				if b.name != a.name || b.method != a.method || b.modified != a.modified {
					t.Errorf("entry %d: %s/%d/%d -> %s/%d/%d", i, b.name, b.method, b.modified, a.name, a.method, a.modified)
				}
				if b.name == iflwName {
					want, err := iflow.PatchIflw(b.content, "MessageFlow_7", map[string]string{"maxRetries": "1", "queuePrefetch": "1"})
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(a.content, want) {
						t.Error(".iflw entry content is not the patched document")
					}
					continue
				}
				if !bytes.Equal(b.raw, a.raw) || !bytes.Equal(b.content, a.content) {
					t.Errorf("entry %s changed", b.name)
				}
			}
			art, err := iflow.ReadZip(out)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := art.Model.AMQPSender("MessageFlow_7")
			if s.Properties["maxRetries"] != "1" || s.Properties["queuePrefetch"] != "1" || art.Parameters["R"] != "4" {
				t.Fatalf("after PatchZip: %v %v", s.Properties, art.Parameters)
			}
		})
	}
}

func TestPatchZipNoChangeReturnsInput(t *testing.T) {
	t.Parallel()
	in := iflowbuild.Build(iflowbuild.Options{Senders: []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("a/b/c/q")}}})
	out, err := iflow.PatchZip(in, "MessageFlow_1", map[string]string{"maxRetries": "5"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, out) {
		t.Fatal("unchanged patch rewrote the zip")
	}
	if _, err := iflow.PatchZip(in, "MessageFlow_2", map[string]string{"maxRetries": "5"}); !errors.Is(err, iflow.ErrFlowNotFound) {
		t.Fatalf("error = %v, want ErrFlowNotFound", err)
	}
}

func TestSetParameters(t *testing.T) {
	t.Parallel()
	in := iflowbuild.Build(iflowbuild.Options{
		Senders:    []iflowbuild.Sender{{Properties: map[string]string{"maxRetries": "{{Max Retries}}"}}},
		Parameters: map[string]string{"Max Retries": "5", "Other": "keep me", "Url": "https://x:443/a=b"},
	})
	before, _ := entries(t, in)
	out, err := iflow.SetParameters(in, map[string]string{"Max Retries": "1", "New Param": " spaced", "Url": "https://x:443/a=b"})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := entries(t, out)
	for i := range before {
		if before[i].name != after[i].name {
			t.Fatalf("entry order changed at %d", i)
		}
		if before[i].name == iflowbuild.ParametersPath {
			continue
		}
		if !bytes.Equal(before[i].raw, after[i].raw) {
			t.Errorf("entry %s changed", before[i].name)
		}
	}
	var prop []byte
	for _, e := range after {
		if e.name == iflowbuild.ParametersPath {
			prop = e.content
		}
	}
	wantProp := "#Store parameters\n#Thu Jan 02 03:04:05 UTC 2025\nMax\\ Retries=1\nOther=keep me\nUrl=https\\://x\\:443/a\\=b\nNew\\ Param=\\ spaced\n"
	if string(prop) != wantProp {
		t.Fatalf("parameters.prop:\n%s\nwant:\n%s", prop, wantProp)
	}
	a, err := iflow.ReadZip(out)
	if err != nil {
		t.Fatal(err)
	}
	if a.Parameters["Max Retries"] != "1" || a.Parameters["New Param"] != " spaced" || a.Parameters["Other"] != "keep me" {
		t.Fatalf("parameters = %v", a.Parameters)
	}
	if st := a.RetrySettings(a.AMQPSenders()[0], nil).MaxRetries; st.Value != "1" || st.Parameter != "Max Retries" {
		t.Fatalf("maxRetries = %+v", st)
	}
	same, err := iflow.SetParameters(out, map[string]string{"Other": "keep me"})
	if err != nil || !bytes.Equal(same, out) {
		t.Fatalf("unchanged SetParameters rewrote the zip (err %v)", err)
	}
	if _, err := iflow.SetParameters(out, map[string]string{"": "x"}); err == nil {
		t.Fatal("empty key accepted")
	}
}

func TestSetParametersCreatesMissingFile(t *testing.T) {
	t.Parallel()
	built := iflowbuild.Build(iflowbuild.Options{Name: "P"})
	zr, _ := zip.NewReader(bytes.NewReader(built), int64(len(built)))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if f.Name != iflowbuild.ParametersPath {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := iflow.SetParameters(buf.Bytes(), map[string]string{"A": "1"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := entries(t, out)
	last := got[len(got)-1]
	if last.name != iflowbuild.ParametersPath || string(last.content) != "A=1\n" {
		t.Fatalf("last entry %s = %q", last.name, last.content)
	}
}

func TestReadZipErrors(t *testing.T) {
	t.Parallel()
	mk := func(files map[string]string) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, name := range []string{"a.iflw", "src/main/resources/scenarioflows/integrationflow/X.iflw", "src/main/resources/scenarioflows/integrationflow/Y.iflw", "readme.txt"} {
			if content, ok := files[name]; ok {
				w, _ := zw.Create(name)
				_, _ = w.Write([]byte(content))
			}
		}
		_ = zw.Close()
		return buf.Bytes()
	}
	valid := "<bpmn2:definitions xmlns:bpmn2=\"x\"/>"
	if _, err := iflow.ReadZip([]byte("not a zip")); err == nil || !strings.Contains(err.Error(), "not a readable zip") {
		t.Errorf("garbage: %v", err)
	}
	if _, err := iflow.ReadZip(mk(map[string]string{"readme.txt": "x"})); !errors.Is(err, iflow.ErrNoIflw) {
		t.Errorf("no iflw: %v", err)
	}
	if _, err := iflow.ReadZip(mk(map[string]string{
		"src/main/resources/scenarioflows/integrationflow/X.iflw": valid,
		"src/main/resources/scenarioflows/integrationflow/Y.iflw": valid,
	})); err == nil || !strings.Contains(err.Error(), "2 .iflw entries") {
		t.Errorf("two iflw: %v", err)
	}
	a, err := iflow.ReadZip(mk(map[string]string{"a.iflw": valid, "src/main/resources/scenarioflows/integrationflow/X.iflw": valid}))
	if err != nil || a.IflwPath != "src/main/resources/scenarioflows/integrationflow/X.iflw" {
		t.Errorf("preferred iflw: %v %v", a, err)
	}
	if a, err := iflow.ReadZip(mk(map[string]string{"a.iflw": valid})); err != nil || a.IflwPath != "a.iflw" || len(a.Parameters) != 0 {
		t.Errorf("lone iflw elsewhere: %v %v", a, err)
	}
	if _, err := iflow.ReadZip(mk(map[string]string{"a.iflw": "<definitions>"})); err == nil || !strings.Contains(err.Error(), "a.iflw") {
		t.Errorf("broken iflw: %v", err)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	t.Parallel()
	o := iflowbuild.Options{
		Senders:       []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("a/b/c/q")}},
		ExceptionEnds: [][]string{{"error"}},
		Parameters:    map[string]string{"A": "1", "B": "x"},
	}
	if !bytes.Equal(iflowbuild.Build(o), iflowbuild.Build(o)) {
		t.Fatal("Build is not deterministic")
	}
}

func TestPatchIflwCRLFAndBOM(t *testing.T) {
	t.Parallel()
	lf := realIflw(t)
	crlf := append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))...)
	out, err := iflow.PatchIflw(crlf, "MessageFlow_11", map[string]string{"queuePrefetch": "20", "Description": "x"})
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(crlf, []byte("<key>queuePrefetch</key>\r\n                    <value>5</value>"),
		[]byte("<key>queuePrefetch</key>\r\n                    <value>20</value>"), 1)
	i := bytes.Index(want, []byte(`id="MessageFlow_11"`))
	j := i + bytes.Index(want[i:], []byte("<key>Description</key>\r\n                    <value/>"))
	want = append(want[:j:j], append([]byte("<key>Description</key>\r\n                    <value>x</value>"), want[j+len("<key>Description</key>\r\n                    <value/>"):]...)...)
	if !bytes.Equal(out, want) {
		t.Fatal("CRLF document: patched bytes differ from the expected splice")
	}
}

// A property whose key is blank names no setting: it is not read, as the emulator's own reader
// does not read it (FuzzChannelPropertiesAgree found the difference).
func TestParseIflwSkipsBlankKeys(t *testing.T) {
	t.Parallel()
	doc := `<bpmn2:definitions xmlns:bpmn2="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:ifl="http:///com.sap.ifl.model/Ifl.xsd">
<bpmn2:collaboration><bpmn2:messageFlow id="MessageFlow_1" name="AMQP"><bpmn2:extensionElements>
<ifl:property><key> </key><value>0</value></ifl:property>
<ifl:property><key></key><value>1</value></ifl:property>
<ifl:property><key>maxRetries</key><value>5</value></ifl:property>
</bpmn2:extensionElements></bpmn2:messageFlow></bpmn2:collaboration></bpmn2:definitions>`
	m, err := iflow.ParseIflw([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.MessageFlows) != 1 {
		t.Fatalf("%d message flows, want 1", len(m.MessageFlows))
	}
	if got := m.MessageFlows[0].Properties; len(got) != 1 || got["maxRetries"] != "5" {
		t.Errorf("properties %q, want only maxRetries = 5", got)
	}
}

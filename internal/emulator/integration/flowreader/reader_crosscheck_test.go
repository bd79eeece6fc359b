package flowreader

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// The emulator's archive reader and the provider's (internal/iflow) are
// written apart; these tests hold them to the same reading of the same
// content, so that a property one of them misreads shows up here instead
// of being misread by both sides of every other test.

// sapReference returns a file of the SAP samples kept beside the repository
// (shared/reference/specs), or skips the test when it is not there (fails
// with CI set, as the Cloud Integration spec tests do).
func sapReference(t *testing.T, rel string) []byte {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "shared", "reference", "specs", filepath.FromSlash(rel)))
		if err == nil {
			return data
		}
		if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("the reference file %s is missing; copy SAP's specs to ../shared/reference/specs", rel)
	}
	t.Skipf("SKIPPED: the reference file %s is not in shared/reference/specs beside the repository", rel)
	return nil
}

func zipOf(t *testing.T, entries map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{ManifestPath, ParametersPath} {
		if b, ok := entries[name]; ok {
			w, _ := zw.Create(name)
			_, _ = w.Write(b)
		}
	}
	for name, b := range entries {
		if name == ManifestPath || name == ParametersPath {
			continue
		}
		w, _ := zw.Create(name)
		_, _ = w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compareReaders fails when the two readers read content differently.
func compareReaders(t *testing.T, name string, content []byte) {
	t.Helper()
	theirs, err1 := iflow.ReadZip(content)
	ours, err2 := ReadArchive(content)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%s: the provider's reader says %v, the emulator's %v", name, err1, err2)
	}
	if err1 != nil {
		return
	}
	if len(theirs.Model.MessageFlows) != len(ours.Model.Channels) {
		t.Fatalf("%s: %d message flows against %d channels", name, len(theirs.Model.MessageFlows), len(ours.Model.Channels))
	}
	for i, f := range theirs.Model.MessageFlows {
		c := ours.Model.Channels[i]
		if f.ID != c.ID || !reflect.DeepEqual(f.Properties, c.Props) {
			t.Errorf("%s: message flow %s reads\n  %q by the provider's reader,\n  %q by the emulator's", name, f.ID, f.Properties, c.Props)
		}
	}
	var theirEnds, ourEnds [][]string
	for _, s := range theirs.Model.ExceptionSubprocesses {
		theirEnds = append(theirEnds, s.EndEvents)
	}
	for _, s := range ours.Model.Subprocesses {
		ourEnds = append(ourEnds, s.Ends)
	}
	if !reflect.DeepEqual(theirEnds, ourEnds) {
		t.Errorf("%s: exception subprocess ends %q against %q", name, theirEnds, ourEnds)
	}
	if !reflect.DeepEqual(theirs.Parameters, ours.Params) || !reflect.DeepEqual(theirs.ParameterTypes, ours.ParamTypes) || !reflect.DeepEqual(theirs.Manifest, ours.Manifest) {
		t.Errorf("%s: parameters %q / %q, types %q / %q, manifest %q / %q", name, theirs.Parameters, ours.Params, theirs.ParameterTypes, ours.ParamTypes, theirs.Manifest, ours.Manifest)
	}
}

func TestFlowReaderAgreesWithProviderReader(t *testing.T) {
	t.Parallel()
	amqp := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	amqp["maxRetries"] = "{{Max Retries 'orders'}}"
	amqp["description"] = "  a & b < c \"d\" é  "
	amqp["empty"] = ""
	params := map[string]string{"Max Retries 'orders'": "3", "Delivery=State": "REJECTED", "Unicode": "Grüße ☃", "Spaces": " lead and trail "}
	cases := map[string][]byte{
		"AMQP and JMS channels with parameters": iflowbuild.Build(iflowbuild.Options{Name: "Mixed",
			Senders: []iflowbuild.Sender{{Properties: amqp}, {Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("Q1")},
				{Adapter: "JMSReceiver", Properties: map[string]string{"QueueName_outbound": "Q1", "ExpirationPeriod": "30"}}},
			ExceptionEnds: [][]string{{"error", "escalation"}, {"message"}, {"none", "terminate"}},
			Routers:       []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5", InException: 1}, {Condition: "${header.SAPJMSRetries} < 2", ConditionRetries: true, InException: 2}},
			Parameters:    params}),
		"no exception subprocess": iflowbuild.Build(iflowbuild.Options{Name: "Plain", Senders: []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("q")}}}),
		"not an archive":          []byte("not a zip"),
	}
	cases["SAP's EMIS_AMQP_Consumer"] = zipOf(t, map[string][]byte{
		ManifestPath: iflowbuild.Manifest("EMIS_AMQP_Consumer"), ParametersPath: iflowbuild.ParametersProp(nil),
		IflwDir + "EMIS_AMQP_Consumer.iflw": sapReference(t, "iflows/EMIS_AMQP_Consumer.iflw"),
	})
	for name, content := range cases {
		compareReaders(t, name, content)
	}
}

// FuzzParametersAgree holds the emulator's reading of parameters.prop to the
// provider's.
func FuzzParametersAgree(f *testing.F) {
	for _, seed := range []string{
		"#Store parameters\na=1\n", "Max\\ Retries\\ 'orders'=5\r\nb : 2\n", "long=a\\\n   b\\\\\nc\\=d=e\n",
		"uni=\\u00e9\\uD83D\\uDE00\n", "bad=\\u12\nx", "  ! comment\n\tkey\tvalue  \n", "k=v\\", "\xe9=\xff\n", "a\\:b:c=d\n",
	} {
		f.Add([]byte(seed))
	}
	iflw := iflowbuild.Iflw(iflowbuild.Options{Name: "F"})
	f.Fuzz(func(t *testing.T, props []byte) {
		content := zipOf(t, map[string][]byte{ParametersPath: props, IflwDir + "F.iflw": iflw})
		theirs, err := iflow.ReadZip(content)
		if err != nil {
			t.Skip()
		}
		ours, err := ReadArchive(content)
		if err != nil {
			t.Fatalf("the emulator cannot read what the provider reads: %v", err)
		}
		if !reflect.DeepEqual(theirs.Parameters, ours.Params) {
			t.Fatalf("parameters.prop %q reads %q by the provider's reader, %q by the emulator's", props, theirs.Parameters, ours.Params)
		}
	})
}

// FuzzChannelPropertiesAgree holds the emulator's reading of a channel's
// properties and parameters to the provider's.
func FuzzChannelPropertiesAgree(f *testing.F) {
	f.Add("maxRetries", "{{Max Retries}}", "Max Retries", "3")
	f.Add("description", "  a & b < c ]]> é  ", "x=y", " lead")
	f.Add("k", "", "", "")
	f.Fuzz(func(t *testing.T, key, value, param, paramValue string) {
		props := iflowbuild.DefaultSenderProperties("q")
		props[key] = value
		var params map[string]string
		if param != "" {
			params = map[string]string{param: paramValue}
		}
		compareReaders(t, "fuzzed", iflowbuild.Build(iflowbuild.Options{Name: "F", Senders: []iflowbuild.Sender{{Properties: props}}, Parameters: params}))
	})
}

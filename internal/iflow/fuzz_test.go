package iflow_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// fuzzSeedIflws returns .iflw documents for fuzz seeds; the SAP reference
// iFlow is included when present.
func fuzzSeedIflws() [][]byte {
	props := iflowbuild.DefaultSenderProperties("a/b/c/orders")
	props["maxRetries"] = "{{MaxRetries}}"
	seeds := [][]byte{
		iflowbuild.Iflw(iflowbuild.Options{}),
		iflowbuild.Iflw(iflowbuild.Options{
			Senders:       []iflowbuild.Sender{{Properties: props}, {ID: "Flow_B", Properties: map[string]string{"Description": ""}}},
			ExceptionEnds: [][]string{{"error", "message"}, {"none", "escalation", "terminate"}},
		}),
		[]byte(`<definitions><messageFlow id="F"><property><key>k</key><value/></property><property><value>a&amp;b</value><key>j</key></property></messageFlow></definitions>`),
		[]byte(`<d:definitions xmlns:d="x"><d:messageFlow id="F"><p><key>k</key><value><![CDATA[<x>]]></value></p><property><key>k</key><value>1<!-- c -->2</value></property></d:messageFlow></d:definitions>`),
	}
	if wd, err := os.Getwd(); err == nil {
		if b, err := os.ReadFile(filepath.Join(wd, "..", "..", "..", "shared", "reference", "specs", "iflows", "EMIS_AMQP_Consumer.iflw")); err == nil {
			seeds = append(seeds, b)
		}
	}
	return seeds
}

func checkErr(t *testing.T, err error, prefixes ...string) {
	t.Helper()
	msg := err.Error()
	for _, p := range prefixes {
		if strings.HasPrefix(msg, p) && len(msg) > len(p)+10 {
			return
		}
	}
	t.Fatalf("error %q does not start with one of %q and explain itself", msg, prefixes)
}

func FuzzParseIflw(f *testing.F) {
	for _, s := range fuzzSeedIflws() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := iflow.ParseIflw(data)
		if err != nil {
			checkErr(t, err, "parse iFlow: ")
			return
		}
		for _, s := range m.AMQPSenders() {
			_ = s.RetrySettings(map[string]string{"A": "1"})
			_ = iflow.QueueName(s.Properties[iflow.KeyDestinationName])
		}
		for _, e := range m.ExceptionSubprocesses {
			for _, k := range e.EndEvents {
				if k != iflow.EndError && k != iflow.EndEscalation && k != iflow.EndMessage && k != iflow.EndNone {
					t.Fatalf("unknown end event kind %q", k)
				}
			}
		}
		// Setting one property to a new value changes that value only.
		for _, fl := range m.MessageFlows {
			keys := make([]string, 0, len(fl.Properties))
			for k := range fl.Properties {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if len(keys) > 0 {
				checkPatch(t, data, m, fl.ID, keys[0], "patched-1")
			}
		}
	})
}

// checkPatch patches one property and checks the result against the model
// of the original document.
func checkPatch(t *testing.T, data []byte, before *iflow.Model, flowID, key, value string) {
	t.Helper()
	out, err := iflow.PatchIflw(data, flowID, map[string]string{key: value})
	if err != nil {
		checkErr(t, err, "patch iFlow: ", "parse iFlow: ")
		return
	}
	after, err := iflow.ParseIflw(out)
	if err != nil {
		t.Fatalf("patched document does not parse: %v", err)
	}
	if before == nil {
		t.Fatal("PatchIflw succeeded on a document ParseIflw rejects")
	}
	if len(after.MessageFlows) != len(before.MessageFlows) || !reflect.DeepEqual(after.ExceptionSubprocesses, before.ExceptionSubprocesses) {
		t.Fatal("patch changed the structure of the document")
	}
	for i, fa := range after.MessageFlows {
		fb := before.MessageFlows[i]
		if fa.ID != fb.ID || fa.Name != fb.Name {
			t.Fatalf("flow %d changed identity", i)
		}
		if fa.ID != flowID {
			if !reflect.DeepEqual(fa.Properties, fb.Properties) {
				t.Fatalf("flow %q changed although %q was patched", fa.ID, flowID)
			}
			continue
		}
		if fa.Properties[key] != value {
			t.Fatalf("flow %q: %q = %q after patch, want %q", flowID, key, fa.Properties[key], value)
		}
		for k, v := range fb.Properties {
			if k != key && fa.Properties[k] != v {
				t.Fatalf("flow %q: %q changed from %q to %q", flowID, k, v, fa.Properties[k])
			}
		}
	}
}

func FuzzPatchIflw(f *testing.F) {
	for _, s := range fuzzSeedIflws() {
		f.Add(s, "MessageFlow_11", "maxRetries", "1")
		f.Add(s, "MessageFlow_1", "Description", "a <b> & \"c\"\r\n")
		f.Add(s, "F", "k", "")
		f.Add(s, "Flow_B", "Description", "{{Param}}")
	}
	f.Fuzz(func(t *testing.T, data []byte, flowID, key, value string) {
		before, perr := iflow.ParseIflw(data)
		out, err := iflow.PatchIflw(data, flowID, map[string]string{key: value})
		if err != nil {
			checkErr(t, err, "patch iFlow: ", "parse iFlow: ")
			if perr == nil && errors.Is(err, iflow.ErrFlowNotFound) {
				for _, fl := range before.MessageFlows {
					if fl.ID == flowID {
						t.Fatalf("flow %q exists but was reported missing", flowID)
					}
				}
			}
			return
		}
		if perr != nil {
			t.Fatalf("PatchIflw succeeded on a document ParseIflw rejects: %v", perr)
		}
		if len(out) == 0 {
			t.Fatal("empty output")
		}
		checkPatch(t, data, before, flowID, key, value)
	})
}

func FuzzReadZip(f *testing.F) {
	props := iflowbuild.DefaultSenderProperties("a/b/c/q")
	props["queuePrefetch"] = "{{Prefetch}}"
	f.Add(iflowbuild.Build(iflowbuild.Options{}))
	f.Add(iflowbuild.Build(iflowbuild.Options{
		Senders:       []iflowbuild.Sender{{Properties: props}},
		ExceptionEnds: [][]string{{"error"}},
		Parameters:    map[string]string{"Prefetch": "3", "Spaced Key": " x=y"},
		Extra:         map[string][]byte{"src/main/resources/script/a.groovy": []byte("x")},
	}))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("not a zip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := iflow.ReadZip(data)
		if err != nil {
			checkErr(t, err, "read iFlow zip: ")
			return
		}
		for _, s := range a.AMQPSenders() {
			_ = a.RetrySettings(s, nil)
			if _, ok := s.Properties[iflow.KeyMaxRetries]; !ok {
				continue
			}
			out, err := iflow.PatchZip(data, s.ID, map[string]string{iflow.KeyMaxRetries: "7"})
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				continue
			}
			b, err := iflow.ReadZip(out)
			if err != nil {
				t.Fatalf("patched zip does not read: %v", err)
			}
			if got, _ := b.Model.AMQPSender(s.ID); got.Properties[iflow.KeyMaxRetries] != "7" {
				t.Fatalf("maxRetries = %q after PatchZip", got.Properties[iflow.KeyMaxRetries])
			}
		}
		values := map[string]string{"FuzzKey": "v 1"}
		for k := range a.Parameters {
			if k != "" {
				values[k] = "new:" + k
				break
			}
		}
		out, err := iflow.SetParameters(data, values)
		if err != nil {
			checkErr(t, err, "read iFlow zip: ", "write iFlow zip: ")
			return
		}
		b, err := iflow.ReadZip(out)
		if err != nil {
			t.Fatalf("zip after SetParameters does not read: %v", err)
		}
		for k, v := range values {
			if b.Parameters[k] != v {
				t.Fatalf("parameter %q = %q after SetParameters, want %q", k, b.Parameters[k], v)
			}
		}
		for k, v := range a.Parameters {
			if _, set := values[k]; !set && b.Parameters[k] != v {
				t.Fatalf("parameter %q changed from %q to %q", k, v, b.Parameters[k])
			}
		}
	})
}

func FuzzFindRetryGuards(f *testing.F) {
	for _, doc := range fuzzSeedIflws() {
		f.Add(doc, "${header.SAPJMSRetries} > '5'", "SAPJMSRetries")
	}
	f.Add(iflowbuild.Iflw(iflowbuild.Options{ExceptionEnds: [][]string{{"error"}},
		Routers: []iflowbuild.Router{{Condition: "{{Max}} <= ${header[SAPJMSRetries]}", InException: 1}},
		Scripts: []iflowbuild.Script{{File: "s.groovy", InException: 1}}}), "", "headers.SAPJMSRetries")
	f.Fuzz(func(t *testing.T, doc []byte, param, script string) {
		guards, err := iflow.FindRetryGuards(doc, map[string][]byte{"s.groovy": []byte(script)}, map[string]string{"Max": param})
		if _, perr := iflow.ParseIflw(doc); (err == nil) != (perr == nil) {
			t.Fatalf("FindRetryGuards error %v, ParseIflw error %v: they must agree on what parses", err, perr)
		}
		for _, g := range guards {
			switch g.Limit.Kind {
			case iflow.LimitLiteral, iflow.LimitParameter, iflow.LimitNotVisible:
			default:
				t.Fatalf("guard %+v has limit kind %q", g, g.Limit.Kind)
			}
			if g.Limit.Known && (g.Limit.Kind == iflow.LimitNotVisible || g.Limit.Value < 0) {
				t.Fatalf("guard %+v: a known limit must be a literal or parameter of 0 or more", g)
			}
		}
	})
}

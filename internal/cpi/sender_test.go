package cpi_test

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func i64(v int64) *int64 { return &v }

func intOrNil(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func strOrNil(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestReadSenderLiteral(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	props["maxRetries"] = "1"
	props["queuePrefetch"] = "10"
	props["NumberConcurrentProcesses"] = "2"
	content := iflowbuild.Build(iflowbuild.Options{Name: "Flow",
		Senders:       []iflowbuild.Sender{{ID: "MessageFlow_7", Name: "FromEventMesh", Properties: props}},
		ExceptionEnds: [][]string{{"error"}, {"escalation", "message"}, {"none", "terminate"}},
	})
	createFlow(t, s, content)
	s.ResetStats()
	got, err := c.ReadSender(t.Context(), "Flow", "", "")
	if err != nil {
		t.Fatalf("ReadSender: %v", err)
	}
	if got.FlowID != "MessageFlow_7" || got.Name != "FromEventMesh" || got.QueueName != "acme/crm/prod/orders" {
		t.Fatalf("channel %+v", got)
	}
	if intOrNil(got.MaxRetries) != int64(1) || intOrNil(got.Prefetch) != int64(10) || intOrNil(got.Concurrency) != int64(2) || strOrNil(got.DeliveryState) != "REJECTED" {
		t.Fatalf("values %v %v %v %v", intOrNil(got.MaxRetries), intOrNil(got.Prefetch), intOrNil(got.Concurrency), strOrNil(got.DeliveryState))
	}
	if len(got.Parameters) != 0 || !reflect.DeepEqual(got.Candidates, []string{"FromEventMesh"}) {
		t.Fatalf("parameters %v candidates %v", got.Parameters, got.Candidates)
	}
	want := []cpi.ExceptionSubprocess{
		{ID: "SubProcess_1", Name: "Exception Subprocess 1", EndEvents: []string{"error"}},
		{ID: "SubProcess_2", Name: "Exception Subprocess 2", EndEvents: []string{"escalation", "message"}},
		{ID: "SubProcess_3", Name: "Exception Subprocess 3", EndEvents: []string{"none", "none"}},
	}
	if !reflect.DeepEqual(got.ExceptionSubprocesses, want) {
		t.Fatalf("exception subprocesses %+v", got.ExceptionSubprocesses)
	}
	// Literal settings need no configurations call.
	if n := s.Stats().Routes["GET /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/Configurations"]; n != 0 {
		t.Fatalf("configurations read %d times", n)
	}
}

func TestReadSenderEndlessRetriesAndEmptyValues(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	props := iflowbuild.DefaultSenderProperties("queue-CAP")
	props["destinationName"] = "queue-CAP"
	props["maxRetries"] = ""
	props["deliveryState"] = ""
	createFlow(t, s, flowZip("Flow", nil, props))
	got, err := c.ReadSender(t.Context(), "Flow", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.MaxRetries != nil || got.DeliveryState != nil || got.QueueName != "queue-CAP" || intOrNil(got.Prefetch) != int64(5) {
		t.Fatalf("sender %+v", got)
	}
}

func TestReadSenderExternalized(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	props := iflowbuild.DefaultSenderProperties("ignored")
	props["destinationName"] = "queue:{{Queue}}"
	props["maxRetries"] = "{{Max Retries}}"
	props["deliveryState"] = "{{Delivery}}"
	props["queuePrefetch"] = "{{Prefetch}}"
	content := flowZip("Flow", map[string]string{"Queue": "acme/crm/prod/in", "Max Retries": "4", "Delivery": "REJECTED", "Prefetch": "1"}, props)
	createFlow(t, s, content)
	// The tenant's configuration wins over the archive's parameters.prop.
	if err := s.SetConfigurationValue("Flow", "Max Retries", "2"); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReadSender(t.Context(), "Flow", "active", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.QueueName != "acme/crm/prod/in" || intOrNil(got.MaxRetries) != int64(2) || strOrNil(got.DeliveryState) != "REJECTED" ||
		intOrNil(got.Prefetch) != int64(1) || intOrNil(got.Concurrency) != int64(1) {
		t.Fatalf("sender %+v", got)
	}
	wantParams := map[cpi.Setting]string{cpi.SettingMaxRetries: "Max Retries", cpi.SettingDeliveryState: "Delivery", cpi.SettingPrefetch: "Prefetch"}
	if !reflect.DeepEqual(got.Parameters, wantParams) {
		t.Fatalf("parameters %v", got.Parameters)
	}
}

func TestReadSenderChannelSelection(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	a := iflowbuild.DefaultSenderProperties("acme/crm/prod/a")
	b := iflowbuild.DefaultSenderProperties("acme/crm/prod/b")
	two := iflowbuild.Build(iflowbuild.Options{Name: "Two", Senders: []iflowbuild.Sender{
		{ID: "MessageFlow_1", Name: "Orders", Properties: a}, {ID: "MessageFlow_2", Name: "Returns", Properties: b},
	}})
	same := iflowbuild.Build(iflowbuild.Options{Name: "Same", Senders: []iflowbuild.Sender{
		{ID: "MessageFlow_1", Name: "AMQP", Properties: a}, {ID: "MessageFlow_2", Name: "AMQP", Properties: b},
	}})
	none := iflowbuild.Build(iflowbuild.Options{Name: "None"})
	for id, content := range map[string][]byte{"Two": two, "Same": same, "None": none} {
		if err := s.CreateIFlow(id, id, "Pkg", content); err != nil {
			t.Fatal(err)
		}
	}

	_, err := c.ReadSender(ctx, "Two", "", "")
	var amb *cpi.AmbiguousChannelError
	if !errors.As(err, &amb) || !reflect.DeepEqual(amb.Candidates, []string{"Orders", "Returns"}) ||
		!strings.Contains(err.Error(), "Orders") || !strings.Contains(err.Error(), "Returns") {
		t.Fatalf("ReadSender without channel: %v", err)
	}
	for channel, queue := range map[string]string{"Orders": "acme/crm/prod/a", "Returns": "acme/crm/prod/b", "MessageFlow_2": "acme/crm/prod/b"} {
		got, err := c.ReadSender(ctx, "Two", "", channel)
		if err != nil || got.QueueName != queue {
			t.Fatalf("channel %s: %+v, %v", channel, got, err)
		}
		if !reflect.DeepEqual(got.Candidates, []string{"Orders", "Returns"}) {
			t.Fatalf("candidates %v", got.Candidates)
		}
	}
	_, err = c.ReadSender(ctx, "Two", "", "Nope")
	var nf *cpi.ChannelNotFoundError
	if !errors.As(err, &nf) || errors.Is(err, cpi.ErrNotFound) || !strings.Contains(err.Error(), "Orders") {
		t.Fatalf("unknown channel: %v", err)
	}

	// Channels sharing a name are told apart by their message flow id.
	_, err = c.ReadSender(ctx, "Same", "", "AMQP")
	if !errors.As(err, &amb) || !reflect.DeepEqual(amb.Candidates, []string{"MessageFlow_1", "MessageFlow_2"}) {
		t.Fatalf("shared name: %v", err)
	}
	if got, err := c.ReadSender(ctx, "Same", "", "MessageFlow_2"); err != nil || got.QueueName != "acme/crm/prod/b" {
		t.Fatalf("by id: %+v, %v", got, err)
	}

	if _, err := c.ReadSender(ctx, "None", "", ""); !errors.Is(err, cpi.ErrNoAMQPSender) || errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("flow without AMQP sender: %v", err)
	}
	if _, err := c.ReadSender(ctx, "Missing", "", ""); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("missing flow: %v", err)
	}
}

// setValue sets the <value> of the single property key in an .iflw
// document, as an independent check of the patch.
func setValue(t *testing.T, doc, key, value string) string {
	t.Helper()
	re := regexp.MustCompile(`(<key>` + regexp.QuoteMeta(key) + `</key>\s*<value)(?:>[^<]*</value>|/>)`)
	locs := re.FindAllStringSubmatchIndex(doc, -1)
	if len(locs) != 1 {
		t.Fatalf("property %s occurs %d times in the document", key, len(locs))
	}
	loc := locs[0]
	return doc[:loc[0]] + doc[loc[2]:loc[3]] + ">" + value + "</value>" + doc[loc[1]:]
}

// checkOnlyIflwChanged compares two archives: every entry but the .iflw is
// identical (name, order, method, time, content), and the .iflw equals the
// old one with the given property values replaced.
func checkOnlyIflwChanged(t *testing.T, before, after []byte, iflwPath string, changes map[string]string) {
	t.Helper()
	oldEntries, oldNames := readEntries(t, before)
	newEntries, newNames := readEntries(t, after)
	if !reflect.DeepEqual(oldNames, newNames) {
		t.Fatalf("entries %v, want %v", newNames, oldNames)
	}
	for _, name := range oldNames {
		o, n := oldEntries[name], newEntries[name]
		if o.header.Method != n.header.Method || !o.header.Modified.Equal(n.header.Modified) {
			t.Errorf("entry %s: header changed", name)
		}
		if name == iflwPath {
			continue
		}
		if !bytes.Equal(o.content, n.content) || o.header.CRC32 != n.header.CRC32 {
			t.Errorf("entry %s changed", name)
		}
	}
	want := string(oldEntries[iflwPath].content)
	for _, k := range sortedKeys(changes) {
		want = setValue(t, want, k, changes[k])
	}
	if got := string(newEntries[iflwPath].content); got != want {
		t.Fatalf(".iflw differs beyond the changed values:\n%s", firstDiff(want, got))
	}
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return "want …" + a[lo:min(len(a), i+80)] + "…\n got …" + b[lo:min(len(b), i+80)] + "…"
}

func TestWriteSenderLiteralPatchesOnlyValues(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	props["maxRetries"] = ""
	content := iflowbuild.Build(iflowbuild.Options{Name: "Flow", Parameters: map[string]string{"Other": "x"},
		Senders: []iflowbuild.Sender{{Properties: props}}, Extra: map[string][]byte{"src/main/resources/script/a.groovy": []byte("println 'hi'\n")}})
	if err := s.CreateIFlow("Flow", "Orders Flow", "Pkg", content); err != nil {
		t.Fatal(err)
	}
	s.ResetStats()
	contentChanged, paramsChanged, err := c.WriteSender(ctx, "Flow", "", "", cpi.SenderSettings{
		MaxRetries: i64(1), Prefetch: i64(2), Concurrency: i64(1), DeliveryState: ptr("REJECTED"),
	})
	if err != nil || !contentChanged || paramsChanged {
		t.Fatalf("WriteSender = %v, %v, %v", contentChanged, paramsChanged, err)
	}
	after := s.IFlowContent("Flow")
	checkOnlyIflwChanged(t, content, after, iflowbuild.IflwPath("Flow"), map[string]string{"maxRetries": "1", "queuePrefetch": "2"})
	st := s.Stats()
	if st.Routes["PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)"] != 1 ||
		st.Routes["PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$links/Configurations(ParameterKey)"] != 0 {
		t.Fatalf("routes %v", st.Routes)
	}
	got, err := c.ReadSender(ctx, "Flow", "", "")
	if err != nil || intOrNil(got.MaxRetries) != int64(1) || intOrNil(got.Prefetch) != int64(2) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if a, _ := c.GetArtifact(ctx, "Flow", ""); a.Name != "Orders Flow" {
		t.Fatalf("the flow's name changed to %q", a.Name)
	}

	// Writing the same values again changes nothing and uploads nothing.
	s.ResetStats()
	contentChanged, paramsChanged, err = c.WriteSender(ctx, "Flow", "", "", cpi.SenderSettings{MaxRetries: i64(1), Prefetch: i64(2)})
	if err != nil || contentChanged || paramsChanged {
		t.Fatalf("second WriteSender = %v, %v, %v", contentChanged, paramsChanged, err)
	}
	if n := s.Stats().Routes["PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)"]; n != 0 {
		t.Fatalf("content uploaded %d times for no change", n)
	}
	if !bytes.Equal(s.IFlowContent("Flow"), after) {
		t.Fatal("content changed")
	}
	// Nothing to set means no call at all.
	s.ResetStats()
	if cc, pc, err := c.WriteSender(ctx, "Flow", "", "", cpi.SenderSettings{}); err != nil || cc || pc || s.Stats().CloudIntegrationCalls != 0 {
		t.Fatalf("empty WriteSender: %v %v %v, %d calls", cc, pc, err, s.Stats().CloudIntegrationCalls)
	}
}

func TestWriteSenderExternalizedSetsParameters(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	props["maxRetries"] = "{{Max Retries 'orders'}}"
	props["deliveryState"] = "{{Delivery}}"
	content := flowZip("Flow", map[string]string{"Max Retries 'orders'": "5", "Delivery": "MODIFIED_FAILED_UNDELIVERABLE"}, props)
	createFlow(t, s, content)
	s.ResetStats()
	contentChanged, paramsChanged, err := c.WriteSender(ctx, "Flow", "", "", cpi.SenderSettings{
		MaxRetries: i64(1), DeliveryState: ptr("REJECTED"), Prefetch: i64(1),
	})
	if err != nil || !contentChanged || !paramsChanged {
		t.Fatalf("WriteSender = %v, %v, %v", contentChanged, paramsChanged, err)
	}
	m, _ := s.IFlowConfigurations("Flow")
	if m["Max Retries 'orders'"] != "1" || m["Delivery"] != "REJECTED" {
		t.Fatalf("configurations %v", m)
	}
	list, _ := c.Configurations(ctx, "Flow", "")
	for _, cf := range list {
		want := map[string]string{"Max Retries 'orders'": "xsd:integer", "Delivery": "xsd:string"}[cf.Key]
		if cf.DataType != want {
			t.Errorf("%s has data type %s, want %s", cf.Key, cf.DataType, want)
		}
	}
	// The literal prefetch was patched; the externalized references stay.
	entries, _ := readEntries(t, s.IFlowContent("Flow"))
	doc := string(entries[iflowbuild.IflwPath("Flow")].content)
	if !strings.Contains(doc, "<value>{{Max Retries 'orders'}}</value>") || !strings.Contains(doc, "<value>{{Delivery}}</value>") {
		t.Fatal("the parameter references were replaced")
	}
	st := s.Stats()
	if st.Routes["PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$links/Configurations(ParameterKey)"] != 2 {
		t.Fatalf("routes %v", st.Routes)
	}
	got, err := c.ReadSender(ctx, "Flow", "", "")
	if err != nil || intOrNil(got.MaxRetries) != int64(1) || strOrNil(got.DeliveryState) != "REJECTED" || intOrNil(got.Prefetch) != int64(1) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	// Only the parameters changed: the content stays as it is.
	before := s.IFlowContent("Flow")
	contentChanged, paramsChanged, err = c.WriteSender(ctx, "Flow", "", "", cpi.SenderSettings{MaxRetries: i64(3)})
	if err != nil || contentChanged || !paramsChanged {
		t.Fatalf("WriteSender = %v, %v, %v", contentChanged, paramsChanged, err)
	}
	a, _ := readEntries(t, before)
	b, _ := readEntries(t, s.IFlowContent("Flow"))
	if !bytes.Equal(a[iflowbuild.IflwPath("Flow")].content, b[iflowbuild.IflwPath("Flow")].content) {
		t.Fatal("the .iflw changed for a parameter change")
	}
}

func TestWriteSenderErrors(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	mixed := iflowbuild.DefaultSenderProperties("q")
	mixed["queuePrefetch"] = "{{A}}{{B}}"
	shared := iflowbuild.DefaultSenderProperties("q")
	shared["queuePrefetch"] = "{{N}}"
	shared["NumberConcurrentProcesses"] = "{{N}}"
	missing := iflowbuild.DefaultSenderProperties("q")
	delete(missing, "queuePrefetch")
	for id, content := range map[string][]byte{
		"Mixed":   flowZip("Mixed", map[string]string{"A": "1", "B": "0"}, mixed),
		"Shared":  flowZip("Shared", map[string]string{"N": "1"}, shared),
		"Missing": flowZip("Missing", nil, missing),
	} {
		if err := s.CreateIFlow(id, id, "Pkg", content); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := c.WriteSender(ctx, "Mixed", "", "", cpi.SenderSettings{Prefetch: i64(1)}); err == nil || !strings.Contains(err.Error(), "mixes text") {
		t.Fatalf("mixed template: %v", err)
	}
	if _, _, err := c.WriteSender(ctx, "Shared", "", "", cpi.SenderSettings{Prefetch: i64(2), Concurrency: i64(3)}); err == nil || !strings.Contains(err.Error(), "share the parameter") {
		t.Fatalf("shared parameter: %v", err)
	}
	if _, _, err := c.WriteSender(ctx, "Shared", "", "", cpi.SenderSettings{Prefetch: i64(2), Concurrency: i64(2)}); err != nil {
		t.Fatalf("shared parameter, same value: %v", err)
	}
	if _, _, err := c.WriteSender(ctx, "Missing", "", "", cpi.SenderSettings{Prefetch: i64(1)}); err == nil || !strings.Contains(err.Error(), "no queuePrefetch property") {
		t.Fatalf("missing property: %v", err)
	}
	if _, _, err := c.WriteSender(ctx, "Nope", "", "", cpi.SenderSettings{Prefetch: i64(1)}); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("missing flow: %v", err)
	}
	if !bytes.Equal(s.IFlowContent("Missing"), flowZip("Missing", nil, missing)) {
		t.Fatal("a failed write changed the content")
	}
}

// sapIFlowZip wraps SAP's EMIS_AMQP_Consumer.iflw into an iFlow archive.
func sapIFlowZip(t *testing.T) ([]byte, string) {
	t.Helper()
	doc := readReference(t, "iflows/EMIS_AMQP_Consumer.iflw")
	iflwPath := iflowbuild.IflwPath("EMIS_AMQP_Consumer")
	return iflowbuild.Zip(
		iflowbuild.Entry{Name: iflow.ManifestPath, Content: iflowbuild.Manifest("EMIS_AMQP_Consumer")},
		iflowbuild.Entry{Name: iflwPath, Content: doc},
		iflowbuild.Entry{Name: iflow.ParametersPath, Content: iflowbuild.ParametersProp(nil)},
		iflowbuild.Entry{Name: "src/main/resources/script/script1.groovy", Content: []byte("import com.sap.gateway.ip.core.customdev.util.Message\n")},
	), iflwPath
}

func TestSAPSampleIFlow(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	content, iflwPath := sapIFlowZip(t)
	if err := s.CreateIFlow("EMIS_AMQP_Consumer", "EMIS AMQP Consumer", "EMIS", content); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReadSender(ctx, "EMIS_AMQP_Consumer", "", "")
	if err != nil {
		t.Fatalf("ReadSender: %v", err)
	}
	if got.FlowID != "MessageFlow_11" || got.QueueName != "queue-CAP" || intOrNil(got.Prefetch) != int64(5) ||
		intOrNil(got.MaxRetries) != int64(5) || strOrNil(got.DeliveryState) != "REJECTED" || intOrNil(got.Concurrency) != int64(1) {
		t.Fatalf("sender %+v retries %v prefetch %v concurrency %v state %v", got,
			intOrNil(got.MaxRetries), intOrNil(got.Prefetch), intOrNil(got.Concurrency), strOrNil(got.DeliveryState))
	}
	if _, err := c.ReadSender(ctx, "EMIS_AMQP_Consumer", "", "MessageFlow_11"); err != nil {
		t.Fatalf("ReadSender by flow id: %v", err)
	}
	contentChanged, _, err := c.WriteSender(ctx, "EMIS_AMQP_Consumer", "", "MessageFlow_11", cpi.SenderSettings{MaxRetries: i64(1), Prefetch: i64(1)})
	if err != nil || !contentChanged {
		t.Fatalf("WriteSender: %v, %v", contentChanged, err)
	}
	checkOnlyIflwChanged(t, content, s.IFlowContent("EMIS_AMQP_Consumer"), iflwPath, map[string]string{"maxRetries": "1", "queuePrefetch": "1"})
	got, err = c.ReadSender(ctx, "EMIS_AMQP_Consumer", "", "")
	if err != nil || intOrNil(got.MaxRetries) != int64(1) || intOrNil(got.Prefetch) != int64(1) || intOrNil(got.Concurrency) != int64(1) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	// The patched flow still deploys.
	if _, err := c.DeployAndWait(ctx, "EMIS_AMQP_Consumer", "", 5*time.Millisecond); err != nil {
		t.Fatalf("DeployAndWait: %v", err)
	}
}

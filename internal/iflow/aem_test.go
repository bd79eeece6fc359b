package iflow_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The fixtures under testdata/aem are tenant-written flows from SolaceLabs/solace-ep-codegen (Apache-2.0),
// commit d9e14883a8f0d6f087818d4e08974dbaa0e925a7, copied unchanged:
//   - inventory-service.iflw = src/test/resources/sap/iflow/Inventory Service.iflw: a sender of Solace's own
//     adapter MessageFlow_17 (SolacePubSubPlus 1.2.0, the same keys) on queue INVENTORY.PAYMENT.ACCEPTED with
//     AUTOMATIC_IMMEDIATE, an AdvancedEventMesh 1.3.0 sender MessageFlow_56 on queue MY_QUEUE and the receivers
//     of both adapters;
//   - shipping-service-exception-subflow.iflw = src/test/resources/sap/iflow/stack-tests/ShippingService-with-Exception-Subflow.iflw:
//     an AdvancedEventMesh sender MessageFlow_7 on CODEGEN.DEMO.SHIPPING with externalized connection keys and an
//     AdvancedEventMesh receiver MessageFlow_8.

func readAEMFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "aem", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// aemZip wraps an .iflw document in an artifact zip with a manifest and an empty parameters.prop.
func aemZip(iflw []byte) []byte {
	return iflowbuild.Zip(
		iflowbuild.Entry{Name: iflowbuild.ManifestPath, Content: iflowbuild.Manifest("AEMFlow")},
		iflowbuild.Entry{Name: iflowbuild.IflwPath("AEMFlow"), Content: iflw},
		iflowbuild.Entry{Name: iflowbuild.ParametersPath, Content: iflowbuild.ParametersProp(nil)},
	)
}

// aemView is what a test compares of an AEM sender channel: its effective values.
type aemView struct {
	queue, consumer, ack, outcome, version   string
	attempts, interval, maxInterval, workers int64
	multiplier                               float64
}

func aemViewOf(t *testing.T, s iflow.AEMSenderSettings) aemView {
	t.Helper()
	v := aemView{queue: s.QueueName.Value, version: s.Version}
	v.consumer, _ = s.Consumer()
	v.ack, _ = s.Acknowledgement()
	v.outcome, _ = s.Outcome()
	v.attempts, _ = s.Attempts()
	v.interval, _ = s.RetryInterval.Int()
	v.maxInterval, _ = s.MaxRetryInterval.Int()
	v.workers, _ = s.ParallelConsumers.Int()
	v.multiplier, _ = s.Multiplier()
	return v
}

func TestAEMSendersOfTenantWrittenFlows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, flowID, name string
		senders            []string
		receivers          []string
		want               aemView
	}{
		{"inventory-service.iflw", "MessageFlow_56", "AdvancedEventMesh", []string{"MessageFlow_17", "MessageFlow_56"}, []string{"MessageFlow_47", "MessageFlow_57"},
			aemView{"MY_QUEUE", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.3.0", 5, 1000, 30000, 1, 3.0}},
		{"shipping-service-exception-subflow.iflw", "MessageFlow_7", "From_AdvancedEventMesh_1", []string{"MessageFlow_7"}, []string{"MessageFlow_8"},
			aemView{"CODEGEN.DEMO.SHIPPING", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.3.0", 5, 1000, 30000, 1, 3.0}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			m, err := iflow.ParseIflw(readAEMFixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, snd := range m.AEMSenders() {
				ids = append(ids, snd.ID)
			}
			if !reflect.DeepEqual(ids, tt.senders) {
				t.Fatalf("AEM senders = %v, want %v", ids, tt.senders)
			}
			snd, ok := m.AEMSender(tt.flowID)
			if !ok || snd.Name != tt.name || snd.Adapter != iflow.ComponentTypeAEM {
				t.Fatalf("AEM sender %s = %+v, want one named %s of adapter %s", tt.flowID, snd, tt.name, iflow.ComponentTypeAEM)
			}
			senders := []iflow.AEMChannel{snd}
			var receivers []string
			for _, r := range m.AEMReceivers() {
				receivers = append(receivers, r.ID)
			}
			if !reflect.DeepEqual(receivers, tt.receivers) {
				t.Errorf("AEM receivers = %v, want %v", receivers, tt.receivers)
			}
			if len(m.AMQPSenders()) != 0 || len(m.JMSSenders()) != 0 {
				t.Errorf("AEM flow read as AMQP or JMS: %+v %+v", m.AMQPSenders(), m.JMSSenders())
			}
			s := senders[0].AEMSenderSettings(nil)
			if got := aemViewOf(t, s); got != tt.want {
				t.Errorf("settings = %+v, want %+v", got, tt.want)
			}
			if s.RetryMultiplier.Raw != "3.0" {
				t.Errorf("multiplier raw = %q, want 3.0 with the decimal point", s.RetryMultiplier.Raw)
			}
			if !s.Selector.Present || s.Selector.Value != "" {
				t.Errorf("selector = %+v, want present and empty", s.Selector)
			}
			if u := s.Unconfirmed(); len(u) != 0 {
				t.Errorf("unconfirmed = %+v, want none for a 1.3.0 channel with FAILED", u)
			}
			if _, ok := m.AEMSender(tt.flowID); !ok {
				t.Errorf("AEMSender(%s) not found", tt.flowID)
			}
		})
	}
}

// Solace's own adapter (ComponentType SolacePubSubPlus) consumes AEM queues with the same keys: its sender is read
// as an AEM sender naming its adapter, and what no source confirms about it (how it settles a message after its
// attempts and counts them) is listed by Unconfirmed, without the version check of the AdvancedEventMesh adapter.
func TestSolacePubSubPlusSenderIsRead(t *testing.T) {
	t.Parallel()
	m, err := iflow.ParseIflw(readAEMFixture(t, "inventory-service.iflw"))
	if err != nil {
		t.Fatal(err)
	}
	snd, ok := m.AEMSender("MessageFlow_17")
	if !ok {
		t.Fatal("the SolacePubSubPlus sender MessageFlow_17 is not read")
	}
	if snd.Adapter != iflow.ComponentTypeSolace || snd.Name != "From_SolacePubSubPlus_1" {
		t.Errorf("sender = %+v, want adapter %s named From_SolacePubSubPlus_1", snd, iflow.ComponentTypeSolace)
	}
	s := snd.AEMSenderSettings(nil)
	want := aemView{"INVENTORY.PAYMENT.ACCEPTED", "GUARANTEED", "AUTOMATIC_IMMEDIATE", "FAILED", "1.2.0", 5, 1000, 30000, 1, 3.0}
	if got := aemViewOf(t, s); got != want {
		t.Errorf("settings = %+v, want %+v", got, want)
	}
	if s.Adapter != iflow.ComponentTypeSolace {
		t.Errorf("settings adapter = %q", s.Adapter)
	}
	u := s.Unconfirmed()
	if len(u) != 1 || u[0].Key != "ComponentType" || u[0].Value != iflow.ComponentTypeSolace ||
		!strings.Contains(u[0].Reason, "settlement outcome") || !strings.Contains(u[0].Reason, "attempts") {
		t.Errorf("unconfirmed = %+v, want one entry for Solace's adapter naming the settlement outcome and the attempts", u)
	}
	if a, ok := m.AEMSender("MessageFlow_56"); !ok || a.Adapter != iflow.ComponentTypeAEM {
		t.Errorf("the AdvancedEventMesh sender = %+v", a)
	}
}

// aemFlow builds a flow with one AEM sender (props over the defaults), one AMQP sender and one AEM receiver.
func aemFlow(t *testing.T, props, params map[string]string) *iflow.Artifact {
	t.Helper()
	p := iflowbuild.DefaultAEMSenderProperties("orders")
	for k, v := range props {
		p[k] = v
	}
	a, err := iflow.ReadZip(iflowbuild.Build(iflowbuild.Options{
		Senders: []iflowbuild.Sender{
			{ID: "MessageFlow_AEM", Adapter: "AEM", Properties: p},
			{Properties: iflowbuild.DefaultSenderProperties("acme/orders")},
			{ID: "MessageFlow_Out", Adapter: "AEMReceiver", Properties: map[string]string{"destinationName": "orders/out"}},
		},
		Parameters: params,
	}))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAEMSenderBuiltAndRead(t *testing.T) {
	t.Parallel()
	a := aemFlow(t, nil, nil)
	senders := a.AEMSenders()
	if len(senders) != 1 || senders[0].ID != "MessageFlow_AEM" || senders[0].Name != "AdvancedEventMesh" {
		t.Fatalf("AEM senders = %+v", senders)
	}
	if amqp := a.AMQPSenders(); len(amqp) != 1 || amqp[0].ID != "MessageFlow_2" {
		t.Errorf("AMQP senders = %+v, want MessageFlow_2", amqp)
	}
	if r := a.Model.AEMReceivers(); len(r) != 1 || r[0].ID != "MessageFlow_Out" {
		t.Errorf("AEM receivers = %+v, want MessageFlow_Out", r)
	}
	want := aemView{"orders", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.3.0", 5, 1000, 30000, 1, 3.0}
	if got := aemViewOf(t, a.AEMSenderSettings(senders[0], nil)); got != want {
		t.Errorf("settings = %+v, want %+v", got, want)
	}
	// The builder writes what the tenant-written flow has for every key both carry.
	tenant, err := iflow.ParseIflw(readAEMFixture(t, "inventory-service.iflw"))
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := tenant.AEMSender("MessageFlow_56")
	for _, k := range append(iflow.AEMSenderKeys(), "ComponentType", "direction", "cmdVariantUri", "consumerMode", "componentVersion", "MessageProtocol", "TransportProtocol") {
		if got, want := senders[0].Properties[k], rs.Properties[k]; got != want {
			t.Errorf("built %s = %q, the tenant-written flow has %q", k, got, want)
		}
	}
}

func TestAEMSenderSettingsLenient(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		props, params map[string]string
		want          aemView
		unconfirmed   []string // keys; "" for the version
	}{
		{"rejected, immediate, direct, lower case", map[string]string{
			"failedMessageSettlementOutcome": "rejected", "ackMode": "automatic_immediate", "consumerMode": "Direct",
		}, nil, aemView{"orders", "DIRECT", "AUTOMATIC_IMMEDIATE", "REJECTED", "1.3.0", 5, 1000, 30000, 1, 3.0}, []string{"failedMessageSettlementOutcome"}},
		{"later adapter version", map[string]string{
			"cmdVariantUri": "ctype::AdapterVariant/cname::AdvancedEventMesh/vendor::SAP/tp::TCP/mp::SMF/direction::Sender/version::1.4.1",
		}, nil, aemView{"orders", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.4.1", 5, 1000, 30000, 1, 3.0}, []string{""}},
		{"version from componentVersion", map[string]string{"cmdVariantUri": "", "componentVersion": "1.3"},
			nil, aemView{"orders", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.3", 5, 1000, 30000, 1, 3.0}, nil},
		{"unknown values", map[string]string{"failedMessageSettlementOutcome": "DISCARD", "ackMode": "CLIENT", "consumerMode": "BROWSE"},
			nil, aemView{"orders", "", "", "", "1.3.0", 5, 1000, 30000, 1, 3.0}, []string{"consumerMode", "ackMode", "failedMessageSettlementOutcome"}},
		{"externalized, resolved", map[string]string{
			"queueName": "{{Queue}}", "maxMessageProcessingAttempts": "{{Attempts}}", "messageRetryDelayIntervalMultiplier": "{{Multiplier}}",
			"failedMessageSettlementOutcome": "{{Outcome}}",
		}, map[string]string{"Queue": "payments", "Attempts": "3", "Multiplier": "2", "Outcome": "FAILED"},
			aemView{"payments", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.3.0", 3, 1000, 30000, 1, 2}, nil},
		{"externalized, unresolved", map[string]string{"maxMessageProcessingAttempts": "{{Attempts}}", "failedMessageSettlementOutcome": "{{Outcome}}"},
			nil, aemView{"orders", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "", "1.3.0", 0, 1000, 30000, 1, 3.0}, nil},
		{"empty attempts and a fractional multiplier", map[string]string{"maxMessageProcessingAttempts": "", "messageRetryDelayIntervalMultiplier": "1.5"},
			nil, aemView{"orders", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.3.0", 0, 1000, 30000, 1, 1.5}, nil},
		{"non-numeric multiplier", map[string]string{"messageRetryDelayIntervalMultiplier": "NaN"},
			nil, aemView{"orders", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "FAILED", "1.3.0", 5, 1000, 30000, 1, 0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := aemFlow(t, tt.props, tt.params)
			s := a.AEMSenderSettings(a.AEMSenders()[0], nil)
			if got := aemViewOf(t, s); got != tt.want {
				t.Errorf("settings = %+v, want %+v", got, tt.want)
			}
			var keys []string
			for _, u := range s.Unconfirmed() {
				keys = append(keys, u.Key)
				if !strings.HasSuffix(u.Reason, ".") || u.Value == "" {
					t.Errorf("unconfirmed entry %+v: want a value and a sentence", u)
				}
			}
			if !reflect.DeepEqual(keys, tt.unconfirmed) {
				t.Errorf("unconfirmed keys = %q, want %q", keys, tt.unconfirmed)
			}
		})
	}
}

func TestAEMChannelFoundByVariantWithoutComponentType(t *testing.T) {
	t.Parallel()
	m := &iflow.Model{MessageFlows: []iflow.MessageFlow{
		{ID: "A", Properties: map[string]string{"cmdVariantUri": "ctype::AdapterVariant/cname::AdvancedEventMesh/vendor::SAP/tp::TCP/mp::SMF/direction::Sender/version::1.3.0"}},
		{ID: "B", Properties: map[string]string{"ComponentType": "AdvancedEventMesh", "direction": "Receiver"}},
		{ID: "C", Properties: map[string]string{"ComponentType": "SolacePubSubPlus", "direction": "Sender"}},
	}}
	if s := m.AEMSenders(); len(s) != 2 || s[0].ID != "A" || s[0].Adapter != iflow.ComponentTypeAEM || s[1].ID != "C" || s[1].Adapter != iflow.ComponentTypeSolace {
		t.Errorf("AEM senders = %+v, want A (AdvancedEventMesh) and C (SolacePubSubPlus)", s)
	}
	var nilModel *iflow.Model
	if nilModel.AEMSenders() != nil {
		t.Error("a nil model has AEM senders")
	}
}

func TestFormatAEMMultiplier(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{3: "3.0", 2.5: "2.5", 1: "1.0", 10: "10.0", 1.25: "1.25"} {
		if got := iflow.FormatAEMMultiplier(in); got != want {
			t.Errorf("FormatAEMMultiplier(%v) = %q, want %q", in, got, want)
		}
	}
}

func aemPtr[T any](v T) *T { return &v }

func TestPatchAEMSenderRealFlowKeepsEveryOtherByte(t *testing.T) {
	t.Parallel()
	doc := readAEMFixture(t, "inventory-service.iflw")
	artifact := aemZip(doc)
	out, err := iflow.PatchAEMSenderZip(artifact, "MessageFlow_56", iflow.AEMSenderChanges{
		MaxAttempts: aemPtr[int64](3), RetryMultiplier: aemPtr(2.0), SettlementOutcome: aemPtr("REJECTED"),
		RetryInterval: aemPtr[int64](1000), // unchanged: no splice
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := iflow.ReadZip(out)
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := a.Model.AEMSender("MessageFlow_56")
	got := aemViewOf(t, ch.AEMSenderSettings(nil))
	want := aemView{"MY_QUEUE", "GUARANTEED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "REJECTED", "1.3.0", 3, 1000, 30000, 1, 2}
	if got != want {
		t.Errorf("after patch = %+v, want %+v", got, want)
	}
	if ch.Properties["messageRetryDelayIntervalMultiplier"] != "2.0" {
		t.Errorf("multiplier written as %q, want 2.0", ch.Properties["messageRetryDelayIntervalMultiplier"])
	}
	// Only the three values changed: the document with them put back is the original.
	restored := bytes.Replace(a.Iflw, []byte("<value>3</value>"), []byte("<value>5</value>"), 1)
	restored = bytes.Replace(restored, []byte("<value>2.0</value>"), []byte("<value>3.0</value>"), 1)
	restored = bytes.Replace(restored, []byte("<value>REJECTED</value>"), []byte("<value>FAILED</value>"), 1)
	if !bytes.Equal(restored, doc) {
		t.Error("the patch changed bytes outside the three values")
	}
	// The other adapter's sender keeps its values.
	if v := a.Model.MessageFlows[0].Properties["maxMessageProcessingAttempts"]; v != "5" {
		t.Errorf("SolacePubSubPlus sender attempts = %q, want 5", v)
	}
	// No change at all returns the zip as it is.
	same, err := iflow.PatchAEMSenderZip(artifact, "MessageFlow_56", iflow.AEMSenderChanges{MaxAttempts: aemPtr[int64](5), SettlementOutcome: aemPtr("failed"), RetryMultiplier: aemPtr(3.0)})
	if err != nil || !bytes.Equal(same, artifact) {
		t.Errorf("a patch to the same values changed the zip (err %v)", err)
	}
}

func TestPatchAEMSenderExternalized(t *testing.T) {
	t.Parallel()
	p := iflowbuild.DefaultAEMSenderProperties("orders")
	p["maxMessageProcessingAttempts"] = "{{Attempts}}"
	p["messageRetryMaxDelayInterval"] = "{{MaxWait}}"
	artifact := iflowbuild.Build(iflowbuild.Options{Senders: []iflowbuild.Sender{{ID: "AEM_In", Adapter: "AEM", Properties: p}},
		Parameters: map[string]string{"Attempts": "5", "MaxWait": "30000"}})
	out, err := iflow.PatchAEMSenderZip(artifact, "AEM_In", iflow.AEMSenderChanges{MaxAttempts: aemPtr[int64](2), AckMode: aemPtr(iflow.AEMAckOnExchangeComplete), ParallelConsumers: aemPtr[int64](4)})
	if err != nil {
		t.Fatal(err)
	}
	a, err := iflow.ReadZip(out)
	if err != nil {
		t.Fatal(err)
	}
	ch := a.AEMSenders()[0]
	if ch.Properties["maxMessageProcessingAttempts"] != "{{Attempts}}" {
		t.Errorf("the parameter reference was overwritten: %q", ch.Properties["maxMessageProcessingAttempts"])
	}
	if a.Parameters["Attempts"] != "2" || a.Parameters["MaxWait"] != "30000" {
		t.Errorf("parameters = %v, want Attempts=2 and MaxWait unchanged", a.Parameters)
	}
	if got := aemViewOf(t, a.AEMSenderSettings(ch, nil)); got.attempts != 2 || got.workers != 4 {
		t.Errorf("after patch = %+v, want 2 attempts and 4 consumers", got)
	}
}

func TestPatchAEMSenderFailures(t *testing.T) {
	t.Parallel()
	p := iflowbuild.DefaultAEMSenderProperties("orders")
	p["messageRetryInitialDelayInterval"] = "{{Base}}000"
	delete(p, "parallelConsumers")
	artifact := iflowbuild.Build(iflowbuild.Options{Senders: []iflowbuild.Sender{
		{ID: "AEM_In", Adapter: "AEM", Properties: p},
		{ID: "AMQP_In", Properties: iflowbuild.DefaultSenderProperties("q")},
	}, Parameters: map[string]string{"Base": "1"}})
	if _, err := iflow.PatchAEMSenderZip(artifact, "AMQP_In", iflow.AEMSenderChanges{MaxAttempts: aemPtr[int64](2)}); !errors.Is(err, iflow.ErrNoAEMSender) ||
		!strings.Contains(err.Error(), `"AEM_In"`) {
		t.Errorf("patch of an AMQP channel: err = %v, want ErrNoAEMSender naming AEM_In", err)
	}
	if _, err := iflow.PatchAEMSenderZip(artifact, "AEM_In", iflow.AEMSenderChanges{RetryInterval: aemPtr[int64](2000)}); err == nil ||
		!strings.Contains(err.Error(), "mixes an externalized parameter") {
		t.Errorf("patch of a mixed value: err = %v", err)
	}
	if _, err := iflow.PatchAEMSenderZip(artifact, "AEM_In", iflow.AEMSenderChanges{ParallelConsumers: aemPtr[int64](2)}); !errors.Is(err, iflow.ErrPropertyNotFound) {
		t.Errorf("patch of a missing property: err = %v, want ErrPropertyNotFound", err)
	}
	if _, err := iflow.PatchAEMSenderZip([]byte("not a zip"), "AEM_In", iflow.AEMSenderChanges{}); err == nil {
		t.Error("a broken zip was accepted")
	}
}

func TestAEMSenderChangesValues(t *testing.T) {
	t.Parallel()
	got := iflow.AEMSenderChanges{MaxAttempts: aemPtr[int64](5), RetryInterval: aemPtr[int64](1000), MaxRetryInterval: aemPtr[int64](30000),
		RetryMultiplier: aemPtr(3.0), SettlementOutcome: aemPtr("rejected"), AckMode: aemPtr("AUTOMATIC_IMMEDIATE"), ParallelConsumers: aemPtr[int64](1)}.Values()
	want := map[string]string{"maxMessageProcessingAttempts": "5", "messageRetryInitialDelayInterval": "1000", "messageRetryMaxDelayInterval": "30000",
		"messageRetryDelayIntervalMultiplier": "3.0", "failedMessageSettlementOutcome": "REJECTED", "ackMode": "AUTOMATIC_IMMEDIATE", "parallelConsumers": "1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Values() = %v, want %v", got, want)
	}
	keys := iflow.AEMSenderKeys()
	for k := range want {
		found := false
		for _, kk := range keys {
			found = found || kk == k
		}
		if !found {
			t.Errorf("AEMSenderKeys() lacks %s", k)
		}
	}
	if len(iflow.AEMSenderChanges{}.Values()) != 0 {
		t.Error("empty changes have values")
	}
}

// The values the reader returns are the values the rules compare with.
func TestAEMValuesMatchRules(t *testing.T) {
	t.Parallel()
	pairs := [][2]string{
		{iflow.AEMConsumerGuaranteed, rules.AEMConsumerGuaranteed}, {iflow.AEMConsumerDirect, rules.AEMConsumerDirect},
		{iflow.AEMAckOnExchangeComplete, rules.AEMAckOnExchangeComplete}, {iflow.AEMAckImmediate, rules.AEMAckImmediate},
		{iflow.AEMOutcomeFailed, rules.AEMOutcomeFailed}, {iflow.AEMOutcomeRejected, rules.AEMOutcomeRejected},
	}
	for _, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("iflow reads %q where the rules expect %q", p[0], p[1])
		}
	}
	// The seed channel's stored waits are the rules' defaults for empty waits.
	p := iflowbuild.DefaultAEMSenderProperties("q")
	if p[iflow.KeyAEMRetryInterval] != "1000" || rules.AEMSenderDefaultRetryIntervalMs != 1000 ||
		p[iflow.KeyAEMMaxRetryInterval] != "30000" || rules.AEMSenderDefaultMaxRetryIntervalMs != 30000 ||
		p[iflow.KeyAEMRetryMultiplier] != iflow.FormatAEMMultiplier(rules.AEMSenderDefaultRetryMultiplier) {
		t.Errorf("builder defaults %v differ from the rules' defaults", p)
	}
}

// FuzzAEMSenderPatchRoundTrip patches the settings of a built AEM sender channel and reads them back.
func FuzzAEMSenderPatchRoundTrip(f *testing.F) {
	f.Add(int64(5), int64(1000), int64(30000), 3.0, "FAILED", int64(1))
	f.Add(int64(0), int64(-1), int64(1), 0.5, "rejected", int64(99))
	f.Add(int64(1), int64(9223372036854775807), int64(0), 1e-7, "", int64(-5))
	artifact := iflowbuild.Build(iflowbuild.Options{Senders: []iflowbuild.Sender{
		{ID: "AEM_In", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties("orders")}}})
	f.Fuzz(func(t *testing.T, attempts, interval, maxInterval int64, mult float64, outcome string, workers int64) {
		if math.IsNaN(mult) || math.IsInf(mult, 0) || strings.ContainsAny(outcome, "{}") {
			t.Skip()
		}
		changes := iflow.AEMSenderChanges{MaxAttempts: &attempts, RetryInterval: &interval, MaxRetryInterval: &maxInterval,
			RetryMultiplier: &mult, SettlementOutcome: &outcome, ParallelConsumers: &workers}
		out, err := iflow.PatchAEMSenderZip(artifact, "AEM_In", changes)
		if err != nil {
			return // A value XML cannot hold is refused.
		}
		a, err := iflow.ReadZip(out)
		if err != nil {
			t.Fatalf("the patched artifact does not read: %v", err)
		}
		s := a.AEMSenderSettings(a.AEMSenders()[0], nil)
		if n, ok := s.Attempts(); !ok || n != attempts {
			t.Errorf("attempts read back %d, %v; want %d", n, ok, attempts)
		}
		if n, ok := s.RetryInterval.Int(); !ok || n != interval {
			t.Errorf("interval read back %d, %v; want %d", n, ok, interval)
		}
		if n, ok := s.MaxRetryInterval.Int(); !ok || n != maxInterval {
			t.Errorf("max interval read back %d, %v; want %d", n, ok, maxInterval)
		}
		if x, ok := s.Multiplier(); !ok || x != mult {
			t.Errorf("multiplier read back %v, %v (raw %q); want %v", x, ok, s.RetryMultiplier.Raw, mult)
		}
		if !strings.Contains(s.RetryMultiplier.Raw, ".") {
			t.Errorf("multiplier written as %q, without a decimal point", s.RetryMultiplier.Raw)
		}
		if got, want := s.SettlementOutcome.Value, strings.TrimSpace(strings.ToUpper(strings.TrimSpace(outcome))); got != want {
			t.Errorf("outcome read back %q, want %q", got, want)
		}
		if n, ok := s.ParallelConsumers.Int(); !ok || n != workers {
			t.Errorf("consumers read back %d, %v; want %d", n, ok, workers)
		}
	})
}

package cpi_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// aemEdit is the change of a flow's only AEM sender.
func aemEdit(desired iflow.AEMSenderChanges, expected *iflow.AEMSenderChanges) cpi.Change {
	return cpi.Change{Edit: func(f *cpi.Flow) (*cpi.Edit, error) { return f.EditAEMSender("", desired, expected) }}
}

func readAEMSender(t *testing.T, c *cpi.Client, id, channel string) *cpi.AEMSender {
	t.Helper()
	f, err := c.ReadFlow(t.Context(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.AEMSender(channel)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestAEMSenderRead(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	createJMSFlow(t, s, iflowbuild.Options{Name: "Orders",
		Senders:       []iflowbuild.Sender{{Name: "AEM_Orders", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties("acme/orders")}},
		ExceptionEnds: [][]string{{"error"}}})
	got := readAEMSender(t, c, "Orders", "")
	if got.Name != "AEM_Orders" || got.QueueName != "acme/orders" || got.AdapterVersion != "1.3.0" || len(got.Unconfirmed) != 0 {
		t.Fatalf("channel %+v", got)
	}
	if intOrNil(got.MaxAttempts) != int64(5) || intOrNil(got.RetryInterval) != int64(1000) || intOrNil(got.MaxRetryInterval) != int64(30000) ||
		*got.RetryMultiplier != 3 || intOrNil(got.ParallelConsumers) != int64(1) || strOrNil(got.SettlementOutcome) != "FAILED" ||
		strOrNil(got.AckMode) != "AUTOMATIC_ON_EXCHANGE_COMPLETE" || strOrNil(got.ConsumerMode) != "GUARANTEED" {
		t.Fatalf("settings %+v", got)
	}
	if len(got.ExceptionSubprocesses) != 1 || !reflect.DeepEqual(got.Candidates, []string{"AEM_Orders"}) {
		t.Fatalf("subprocesses %+v candidates %v", got.ExceptionSubprocesses, got.Candidates)
	}
}

// A flow with a sender of Solace's own adapter beside an AdvancedEventMesh sender, as SolaceLabs/solace-ep-codegen's
// Inventory Service.iflw has: both are AEM senders, selected by name, each naming its adapter; Solace's lists its
// behaviour as unconfirmed, and an edit writes its keys as for SAP's adapter.
func TestAEMSenderSolaceAdapter(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	solace := iflowbuild.DefaultAEMSenderProperties("INVENTORY.PAYMENT.ACCEPTED")
	solace["ackMode"] = "AUTOMATIC_IMMEDIATE"
	createJMSFlow(t, s, iflowbuild.Options{Name: "Inventory", Senders: []iflowbuild.Sender{
		{Name: "From_SolacePubSubPlus_1", Adapter: "SolacePubSubPlus", Properties: solace},
		{Name: "AdvancedEventMesh", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties("MY_QUEUE")},
	}})
	got := readAEMSender(t, c, "Inventory", "From_SolacePubSubPlus_1")
	if got.Adapter != iflow.ComponentTypeSolace || got.QueueName != "INVENTORY.PAYMENT.ACCEPTED" || got.AdapterVersion != "1.2.0" ||
		strOrNil(got.AckMode) != "AUTOMATIC_IMMEDIATE" || len(got.Unconfirmed) != 1 || got.Unconfirmed[0].Value != iflow.ComponentTypeSolace {
		t.Fatalf("Solace channel %+v", got)
	}
	if a := readAEMSender(t, c, "Inventory", "AdvancedEventMesh"); a.Adapter != iflow.ComponentTypeAEM || len(a.Unconfirmed) != 0 {
		t.Fatalf("AdvancedEventMesh channel %+v", a)
	}
	f, err := c.ReadFlow(t.Context(), "Inventory", "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.AEMSenderChannels(), []string{"From_SolacePubSubPlus_1", "AdvancedEventMesh"}) {
		t.Errorf("channels %v", f.AEMSenderChannels())
	}
	edit, err := f.EditAEMSender("From_SolacePubSubPlus_1", iflow.AEMSenderChanges{AckMode: aemStr(iflow.AEMAckOnExchangeComplete)}, nil)
	if err != nil || edit.Empty() {
		t.Fatalf("edit of the Solace channel: %+v, %v", edit, err)
	}
	for id, props := range edit.Properties {
		if props[iflow.KeyAEMAckMode] != iflow.AEMAckOnExchangeComplete || len(props) != 1 {
			t.Errorf("edit of %s: %v, want only ackMode", id, props)
		}
	}
}

func aemStr(s string) *string { return &s }

// The Rejected outcome and an unknown acknowledgement mode are read as they are and reported as unconfirmed.
func TestAEMSenderReadsUnconfirmedLeniently(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	props := iflowbuild.DefaultAEMSenderProperties("q")
	props["failedMessageSettlementOutcome"] = "Reject"
	props["ackMode"] = "CLIENT"
	props["maxMessageProcessingAttempts"] = ""
	createJMSFlow(t, s, iflowbuild.Options{Name: "Odd", Senders: []iflowbuild.Sender{{Adapter: "AEM", Properties: props}}})
	got := readAEMSender(t, c, "Odd", "")
	if strOrNil(got.SettlementOutcome) != "REJECTED" || strOrNil(got.AckMode) != "CLIENT" || got.MaxAttempts != nil {
		t.Fatalf("settings %+v", got)
	}
	var keys []string
	for _, u := range got.Unconfirmed {
		keys = append(keys, u.Key)
	}
	if !reflect.DeepEqual(keys, []string{iflow.KeyAEMSettlementOutcome, iflow.KeyAEMAckMode}) {
		t.Fatalf("unconfirmed %+v", got.Unconfirmed)
	}
}

// Only the keys set are written, in the adapter's form; every other byte of the archive stays.
func TestEditAEMSenderLiteral(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	props := iflowbuild.DefaultAEMSenderProperties("q")
	props["failedMessageSettlementOutcome"] = "REJECT" // unconfirmed, and not set by the edit: left as it is
	createJMSFlow(t, s, iflowbuild.Options{Name: "Orders", Senders: []iflowbuild.Sender{{Adapter: "AEM", Properties: props}}})
	before := s.IFlowContent("Orders")
	two := 2.0
	immediate := "automatic_immediate"
	res, err := cpi.NewFlows(c).Change(t.Context(), "Orders", "", aemEdit(iflow.AEMSenderChanges{MaxAttempts: i64(3),
		RetryMultiplier: &two, AckMode: &immediate, RetryInterval: i64(1000)}, nil))
	if err != nil || !res.ContentChanged {
		t.Fatalf("change: %+v %v", res, err)
	}
	checkOnlyIflwChanged(t, before, s.IFlowContent("Orders"), iflowbuild.IflwPath("Orders"), map[string]string{
		"maxMessageProcessingAttempts": "3", "messageRetryDelayIntervalMultiplier": "2.0", "ackMode": "AUTOMATIC_IMMEDIATE"})

	// A value that already reads as wanted (3 for 3.0) writes nothing.
	after := s.IFlowContent("Orders")
	if _, err := cpi.NewFlows(c).Change(t.Context(), "Orders", "", aemEdit(iflow.AEMSenderChanges{RetryMultiplier: &two, MaxAttempts: i64(3)}, nil)); err != nil {
		t.Fatal(err)
	}
	if string(after) != string(s.IFlowContent("Orders")) {
		t.Fatal("an edit to the values read changed the flow")
	}

	// Planned from values the tenant no longer has: nothing is written.
	_, err = cpi.NewFlows(c).Change(t.Context(), "Orders", "", aemEdit(iflow.AEMSenderChanges{MaxAttempts: i64(7)},
		&iflow.AEMSenderChanges{MaxAttempts: i64(5)}))
	var changed *cpi.ChannelChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), "AEM sender channel") || !strings.Contains(err.Error(), "planned from 5, now 3") {
		t.Fatalf("change over an unseen edit: %v", err)
	}
}

func TestEditAEMSenderExternalized(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	props := iflowbuild.DefaultAEMSenderProperties("{{Queue}}")
	props["maxMessageProcessingAttempts"] = "{{Attempts}}"
	props["failedMessageSettlementOutcome"] = "{{Outcome}}"
	createJMSFlow(t, s, iflowbuild.Options{Name: "Orders", Parameters: map[string]string{"Queue": "acme/q", "Attempts": "5", "Outcome": "FAILED"},
		Senders: []iflowbuild.Sender{{Adapter: "AEM", Properties: props}}})
	before := s.IFlowContent("Orders")
	rejected := "REJECTED"
	if _, err := cpi.NewFlows(c).Change(t.Context(), "Orders", "", aemEdit(iflow.AEMSenderChanges{MaxAttempts: i64(2), SettlementOutcome: &rejected}, nil)); err != nil {
		t.Fatal(err)
	}
	a, _ := readEntries(t, before)
	b, _ := readEntries(t, s.IFlowContent("Orders"))
	if string(a[iflowbuild.IflwPath("Orders")].content) != string(b[iflowbuild.IflwPath("Orders")].content) {
		t.Error("externalized settings changed the .iflw")
	}
	params, _ := s.IFlowConfigurations("Orders")
	if params["Attempts"] != "2" || params["Outcome"] != "REJECTED" {
		t.Fatalf("parameters %v", params)
	}
	got := readAEMSender(t, c, "Orders", "")
	if got.QueueName != "acme/q" || intOrNil(got.MaxAttempts) != int64(2) || got.Parameters[cpi.Setting(iflow.KeyAEMMaxAttempts)] != "Attempts" {
		t.Fatalf("read back %+v", got)
	}
}

func TestAEMSenderSelection(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	createJMSFlow(t, s, iflowbuild.Options{Name: "Two", Senders: []iflowbuild.Sender{
		{Name: "AEM_A", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties("A")},
		{Name: "AEM_B", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties("B")},
		{Name: "Out", Adapter: "AEMReceiver", Properties: map[string]string{}},
	}})
	createJMSFlow(t, s, iflowbuild.Options{Name: "Amqp", Senders: []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("q")}}})
	f, err := c.ReadFlow(t.Context(), "Two", "")
	if err != nil {
		t.Fatal(err)
	}
	var ambiguous *cpi.AmbiguousChannelError
	if _, err := f.AEMSender(""); !errors.As(err, &ambiguous) || !strings.Contains(err.Error(), "2 AEM sender channels (AEM_A, AEM_B)") {
		t.Fatalf("two senders: %v", err)
	}
	if got, err := f.AEMSender("AEM_B"); err != nil || got.QueueName != "B" {
		t.Fatalf("AEM_B: %+v %v", got, err)
	}
	if !reflect.DeepEqual(f.AEMSenderChannels(), []string{"AEM_A", "AEM_B"}) {
		t.Fatalf("channels %v", f.AEMSenderChannels())
	}
	var notFound *cpi.ChannelNotFoundError
	if _, err := f.AEMSender("Out"); !errors.As(err, &notFound) || !strings.Contains(err.Error(), "no AEM sender channel named \"Out\"") {
		t.Fatalf("receiver selected: %v", err)
	}
	g, err := c.ReadFlow(t.Context(), "Amqp", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.AEMSender(""); !errors.Is(err, cpi.ErrNoAEMSender) {
		t.Fatalf("AMQP flow: %v", err)
	}
	if _, err := g.EditAEMSender("", iflow.AEMSenderChanges{MaxAttempts: i64(1)}, nil); !errors.Is(err, cpi.ErrNoAEMSender) {
		t.Fatalf("edit of an AMQP flow: %v", err)
	}
}

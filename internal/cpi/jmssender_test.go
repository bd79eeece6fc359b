package cpi_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func boolOrNil(p *bool) any {
	if p == nil {
		return nil
	}
	return *p
}

func createJMSFlow(t *testing.T, s *emulatortest.Emulator, o iflowbuild.Options) {
	t.Helper()
	if err := s.CreateIFlow(o.Name, o.Name, "Pkg", iflowbuild.Build(o)); err != nil {
		t.Fatal(err)
	}
}

func jmsEdit(channel string, desired cpi.JMSSenderSettings, expected *cpi.JMSSenderSettings) cpi.Change {
	return cpi.Change{Edit: func(f *cpi.Flow) (*cpi.Edit, error) { return f.EditJMSSender(channel, desired, expected) }}
}

func TestJMSSenderReadAndGuard(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	createJMSFlow(t, s, iflowbuild.Options{Name: "Retry",
		Senders:       []iflowbuild.Sender{{Name: "JMS_Orders", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("OrdersRetry")}},
		ExceptionEnds: [][]string{{"escalation", "error"}},
		Routers:       []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5", InException: 1}},
	})
	f, err := c.ReadFlow(t.Context(), "Retry", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.JMSSender("")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "JMS_Orders" || got.QueueName != "OrdersRetry" || got.AccessType != iflow.AccessNonExclusive {
		t.Fatalf("channel %+v", got)
	}
	if intOrNil(got.RetryInterval) != int64(1) || intOrNil(got.MaxRetryInterval) != int64(60) || intOrNil(got.Concurrency) != int64(1) ||
		boolOrNil(got.ExponentialBackoff) != true || boolOrNil(got.DeadLetterQueue) != true {
		t.Fatalf("settings %+v", got.Settings())
	}
	if len(got.Guards) != 1 || got.Guards[0].Kind != iflow.GuardExceptionSubprocess || !got.Guards[0].Limit.Known || got.Guards[0].Limit.Value != 5 {
		t.Fatalf("guards %+v", got.Guards)
	}
	if len(got.ExceptionSubprocesses) != 1 || !got.ExceptionSubprocesses[0].GuardsRetries {
		t.Fatalf("exception subprocesses %+v", got.ExceptionSubprocesses)
	}
	if _, err := f.Sender(""); !errors.Is(err, cpi.ErrNoAMQPSender) {
		t.Fatalf("AMQP sender of a JMS flow: %v", err)
	}
}

// Literal values are patched in the flow's own style (1/0 here) and nothing else changes.
func TestEditJMSSenderLiteral(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	createJMSFlow(t, s, iflowbuild.Options{Name: "Retry",
		Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("OrdersRetry")}}})
	before := s.IFlowContent("Retry")
	fs := cpi.NewFlows(c)
	off := false
	res, err := fs.Change(t.Context(), "Retry", "", jmsEdit("", cpi.JMSSenderSettings{RetryInterval: i64(5), ExponentialBackoff: &off,
		MaxRetryInterval: i64(60), DeadLetterQueue: ptr(true)}, nil))
	if err != nil || !res.ContentChanged {
		t.Fatalf("change: %+v %v", res, err)
	}
	checkOnlyIflwChanged(t, before, s.IFlowContent("Retry"), iflowbuild.IflwPath("Retry"), map[string]string{"RetryInterval": "5", "ExponentialBackoff": "0"})

	// Planned from values the tenant no longer has: nothing is written.
	_, err = cpi.NewFlows(c).Change(t.Context(), "Retry", "", jmsEdit("", cpi.JMSSenderSettings{RetryInterval: i64(7)},
		&cpi.JMSSenderSettings{RetryInterval: i64(1)}))
	var changed *cpi.ChannelChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), "JMS sender channel") {
		t.Fatalf("change over an unseen edit: %v", err)
	}
}

func TestEditJMSSenderExternalized(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	props := iflowbuild.DefaultJMSSenderProperties("OrdersRetry")
	props["RetryInterval"] = "{{Retry Interval}}"
	props["ExponentialBackoff"] = "{{Backoff}}"
	createJMSFlow(t, s, iflowbuild.Options{Name: "Retry", Parameters: map[string]string{"Retry Interval": "2", "Backoff": "true"},
		Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: props}},
		Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} >= {{Max JMS Retries}}"}}})
	if err := s.SetConfigurationValue("Retry", "Max JMS Retries", "3"); err != nil {
		t.Fatal(err)
	}
	before := s.IFlowContent("Retry")
	off := false
	if _, err := cpi.NewFlows(c).Change(t.Context(), "Retry", "", jmsEdit("", cpi.JMSSenderSettings{RetryInterval: i64(4), ExponentialBackoff: &off}, nil)); err != nil {
		t.Fatal(err)
	}
	a, _ := readEntries(t, before)
	b, _ := readEntries(t, s.IFlowContent("Retry"))
	if string(a[iflowbuild.IflwPath("Retry")].content) != string(b[iflowbuild.IflwPath("Retry")].content) {
		t.Error("externalized settings changed the .iflw")
	}
	params, _ := s.IFlowConfigurations("Retry")
	if params["Retry Interval"] != "4" || params["Backoff"] != "false" {
		t.Fatalf("parameters %v", params)
	}
	f, err := c.ReadFlow(t.Context(), "Retry", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.JMSSender("JMS")
	if err != nil {
		t.Fatal(err)
	}
	if intOrNil(got.RetryInterval) != int64(4) || boolOrNil(got.ExponentialBackoff) != false || got.Parameters[cpi.SettingJMSRetryInterval] != "Retry Interval" {
		t.Fatalf("read back %+v", got)
	}
	if len(got.Guards) != 1 || got.Guards[0].Limit.Kind != iflow.LimitParameter || got.Guards[0].Limit.Value != 3 || got.Guards[0].Operator != ">=" {
		t.Fatalf("guards %+v", got.Guards)
	}
}

func TestJMSSenderSelection(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	createJMSFlow(t, s, iflowbuild.Options{Name: "Two", Senders: []iflowbuild.Sender{
		{Name: "JMS_A", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("A")},
		{Name: "JMS_B", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("B")},
		{Name: "Out", Adapter: "JMSReceiver", Properties: map[string]string{"QueueName_outbound": "C"}},
	}})
	createJMSFlow(t, s, iflowbuild.Options{Name: "Amqp", Senders: []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("q")}}})
	f, err := c.ReadFlow(t.Context(), "Two", "")
	if err != nil {
		t.Fatal(err)
	}
	var ambiguous *cpi.AmbiguousChannelError
	if _, err := f.JMSSender(""); !errors.As(err, &ambiguous) || !strings.Contains(err.Error(), "2 JMS sender channels (JMS_A, JMS_B)") {
		t.Fatalf("two senders: %v", err)
	}
	if got, err := f.JMSSender("JMS_B"); err != nil || got.QueueName != "B" {
		t.Fatalf("JMS_B: %+v %v", got, err)
	}
	var notFound *cpi.ChannelNotFoundError
	if _, err := f.JMSSender("Out"); !errors.As(err, &notFound) || !strings.Contains(err.Error(), "no JMS sender channel named \"Out\"") {
		t.Fatalf("receiver selected: %v", err)
	}
	g, err := c.ReadFlow(t.Context(), "Amqp", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.JMSSender(""); !errors.Is(err, cpi.ErrNoJMSSender) {
		t.Fatalf("AMQP flow: %v", err)
	}
}

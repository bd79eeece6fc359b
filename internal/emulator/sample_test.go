package emulator_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowtest"
)

func TestLoadSampleContent(t *testing.T) {
	t.Parallel()
	srv := emulator.New(emulator.Options{})
	if srv.IFlowContent("Acme_Orders_Inbound") != nil {
		t.Fatal("a new emulator already holds a sample flow")
	}
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	for _, f := range emulator.SampleIFlows {
		art, err := iflow.ReadZip(srv.IFlowContent(f.ID))
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		if f.Adapter == "JMS" {
			jms := art.JMSSenders()
			if len(jms) != 1 || jms[0].Name != f.Channel || jms[0].Properties["QueueName_inbound"] != f.Queue {
				t.Fatalf("%s: JMS senders %+v, want one named %s reading %s", f.ID, jms, f.Channel, f.Queue)
			}
			guards, err := iflow.RetryGuards(srv.IFlowContent(f.ID), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g := iflow.SummarizeGuards(guards); !g.Present || g.Guard.Limit.Value != int64(f.RetryGuard) {
				t.Errorf("%s: retry guard %+v, want a limit of %d", f.ID, g, f.RetryGuard)
			}
			continue
		}
		senders := art.AMQPSenders()
		if len(senders) != 1 {
			t.Fatalf("%s has %d AMQP senders, want 1", f.ID, len(senders))
		}
		if senders[0].Name != f.Channel {
			t.Errorf("%s: channel %q, want %q", f.ID, senders[0].Name, f.Channel)
		}
		if got := senders[0].Properties["destinationName"]; got != "queue:"+f.Queue {
			t.Errorf("%s reads %q, want queue:%s", f.ID, got, f.Queue)
		}
	}
	// A flow that exists (for example from a state file) is kept as it is.
	own := iflowtest.Build(iflowtest.Options{Name: "OrdersInbound", Senders: []iflowtest.Sender{
		{Properties: iflowtest.DefaultSenderProperties("acme/crm/dev/orders")},
	}})
	if err := srv.CreateIFlow("OrdersInbound", "", "", own); err != nil {
		t.Fatal(err)
	}
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	if string(srv.IFlowContent("OrdersInbound")) != string(own) {
		t.Error("loading the sample content replaced a flow that already existed")
	}
}

// A state file that cannot be read is never rewritten by the sample content.
func TestLoadSampleContent_keepsUnreadableStateFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := emulator.New(emulator.Options{StateFile: path})
	if err := srv.LoadSampleContent(); err == nil {
		t.Error("sample content loaded over a state file that could not be read")
	}
	if b, _ := os.ReadFile(path); string(b) != "{not json" {
		t.Errorf("the unreadable state file was rewritten: %q", b)
	}
}

package emulator_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// Each AEM sample flow has one AdvancedEventMesh sender that reads a queue of the AEM sample landscape, with
// the acknowledgement mode its entry says.
func TestSampleAEMIFlows(t *testing.T) {
	t.Parallel()
	srv := emulatortest.NewServer(t, emulator.Options{})
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	queues := map[string]bool{}
	for _, q := range emulator.SampleAEMQueues {
		queues[q.Name] = true
	}
	solace := 0
	for _, f := range emulator.SampleAEMIFlows {
		art, err := iflow.ReadZip(srv.IFlowContent(f.ID))
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		senders := art.AEMSenders()
		adapter := f.Adapter
		if adapter == "" {
			adapter = iflow.ComponentTypeAEM
		}
		if len(senders) != 1 || senders[0].Name != f.Channel || senders[0].Adapter != adapter {
			t.Fatalf("%s: AEM senders %+v, want one named %s of adapter %s", f.ID, senders, f.Channel, adapter)
		}
		if adapter == iflow.ComponentTypeSolace {
			solace++
		}
		st := art.AEMSenderSettings(senders[0], nil)
		if st.QueueName.Value != f.Queue || !queues[f.Queue] {
			t.Errorf("%s reads %q, want %s, a queue of the AEM sample landscape", f.ID, st.QueueName.Value, f.Queue)
		}
		want := f.AckMode
		if want == "" {
			want = iflow.AEMAckOnExchangeComplete
		}
		// Solace's own adapter is read with the AEM sender's keys; what it does with them is unconfirmed.
		wantUnconfirmed := 0
		if adapter == iflow.ComponentTypeSolace {
			wantUnconfirmed = 1
		}
		if ack, _ := st.Acknowledgement(); ack != want || len(st.Unconfirmed()) != wantUnconfirmed {
			t.Errorf("%s: ackMode %q (unconfirmed %v), want %s", f.ID, ack, st.Unconfirmed(), want)
		}
	}
	if solace != 1 {
		t.Errorf("%d sample flows with a SolacePubSubPlus sender, want 1", solace)
	}
}

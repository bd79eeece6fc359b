package emulator_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// Each AEM sample flow has one AdvancedEventMesh sender that reads a queue of the AEM sample landscape, with
// the acknowledgement mode its entry says.
func TestSampleAEMIFlows(t *testing.T) {
	t.Parallel()
	srv := emulator.New(emulator.Options{})
	t.Cleanup(func() { _ = srv.Close() })
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	queues := map[string]bool{}
	for _, q := range emulator.SampleAEMQueues {
		queues[q.Name] = true
	}
	for _, f := range emulator.SampleAEMIFlows {
		art, err := iflow.ReadZip(srv.IFlowContent(f.ID))
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		senders := art.AEMSenders()
		if len(senders) != 1 || senders[0].Name != f.Channel {
			t.Fatalf("%s: AEM senders %+v, want one named %s", f.ID, senders, f.Channel)
		}
		st := art.AEMSenderSettings(senders[0], nil)
		if st.QueueName.Value != f.Queue || !queues[f.Queue] {
			t.Errorf("%s reads %q, want %s, a queue of the AEM sample landscape", f.ID, st.QueueName.Value, f.Queue)
		}
		want := f.AckMode
		if want == "" {
			want = iflow.AEMAckOnExchangeComplete
		}
		if ack, _ := st.Acknowledgement(); ack != want || len(st.Unconfirmed()) != 0 {
			t.Errorf("%s: ackMode %q (unconfirmed %v), want %s", f.ID, ack, st.Unconfirmed(), want)
		}
	}
}

package aem_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// The statistics count SEMP v2 requests (config, monitor and action) apart from REST messaging and the
// control endpoints, so that the bench can count a refresh's calls to the broker.
func TestAEMStatsCountSEMPCalls(t *testing.T) {
	t.Parallel()
	e := emulatortest.StartAEM(t, emulator.Options{})
	e.CreateQueue("orders", nil)                                                                    // 1 config
	e.OK(http.MethodGet, e.QueuesPath()+"?count=100", nil)                                          // 2 config
	e.OK(http.MethodGet, "/SEMP/v2/monitor/msgVpns/"+e.Creds.MsgVpnName+"/queues/orders/msgs", nil) // 3 monitor
	if got := e.Publish("orders", nil); got != http.StatusOK {                                      // REST messaging
		t.Fatalf("publish: %d", got)
	}
	resp, err := http.Get(e.Server.URL() + "/emulator/v1/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var st struct {
		SEMPCalls       int64 `json:"sempCalls"`
		ManagementCalls int64 `json:"managementCalls"`
		MessagingCalls  int64 `json:"messagingCalls"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	if st.SEMPCalls != 3 || st.ManagementCalls != 0 || st.MessagingCalls != 0 {
		t.Errorf("stats %+v, want 3 SEMP calls and no Event Mesh calls", st)
	}
}

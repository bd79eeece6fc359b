package emulator_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

func (e *aemEnv) monitorQueuesPath() string {
	return "/SEMP/v2/monitor/msgVpns/" + url.PathEscape(e.creds.MsgVpnName) + "/queues"
}

// The monitor API lists the queues with their configuration and counters, pages at most 100 with a cursor,
// applies select, and reads one queue; unknown queues and Message VPNs are NOT_FOUND.
func TestAEMMonitorQueues(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	for i := range 105 {
		e.ok(http.MethodPost, e.queuesPath(), map[string]any{"queueName": fmt.Sprintf("q%03d", i)})
	}
	e.aemQueueFor("acme/orders", map[string]any{"maxRedeliveryCount": 3})
	for range 3 {
		if st := e.publish("acme/orders", nil); st != http.StatusOK {
			t.Fatalf("publish: %d", st)
		}
	}
	sel := "?count=100&select=queueName,spooledMsgCount,msgSpoolUsage,bindCount,maxRedeliveryCount"
	a := e.ok(http.MethodGet, e.monitorQueuesPath()+sel, nil)
	var first []map[string]any
	_ = json.Unmarshal(a.Data, &first)
	if len(first) != 100 || a.Meta.Paging == nil {
		t.Fatalf("first page: %d queues, paging %v; want 100 with a cursor", len(first), a.Meta.Paging)
	}
	u, _ := url.Parse(a.Meta.Paging.NextPageURI)
	a = e.ok(http.MethodGet, u.RequestURI(), nil)
	var rest []map[string]any
	_ = json.Unmarshal(a.Data, &rest)
	if len(rest) != 6 || a.Meta.Paging != nil {
		t.Fatalf("second page: %d queues, paging %v; want the last 6", len(rest), a.Meta.Paging)
	}
	orders := first[0]
	if orders["queueName"] != "acme/orders" || len(orders) != 5 || orders["spooledMsgCount"] != 3.0 ||
		orders["msgSpoolUsage"] != float64(3*len("poison")) || orders["bindCount"] != 0.0 || orders["maxRedeliveryCount"] != 3.0 {
		t.Errorf("acme/orders in the list: %v", orders)
	}
	var one map[string]any
	_ = json.Unmarshal(e.ok(http.MethodGet, e.monitorQueuesPath()+"/"+url.PathEscape("acme/orders"), nil).Data, &one)
	if one["spooledMsgCount"] != 3.0 || one["deadMsgQueue"] != "#DEAD_MSG_QUEUE" || one["egressEnabled"] != true {
		t.Errorf("acme/orders: %v", one)
	}
	var empty map[string]any
	_ = json.Unmarshal(e.ok(http.MethodGet, e.monitorQueuesPath()+"/q000?select=spooledMsgCount,msgSpoolUsage", nil).Data, &empty)
	if len(empty) != 2 || empty["spooledMsgCount"] != 0.0 || empty["msgSpoolUsage"] != 0.0 {
		t.Errorf("q000: %v", empty)
	}
	wantSEMPError(t, e.semp(http.MethodGet, e.monitorQueuesPath()+"/gone", nil), 6, "NOT_FOUND")
	wantSEMPError(t, e.semp(http.MethodGet, "/SEMP/v2/monitor/msgVpns/other/queues", nil), 6, "NOT_FOUND")
	wantSEMPError(t, e.semp(http.MethodGet, e.monitorQueuesPath()+"?count=101", nil), 11, "INVALID_PARAMETER")
	if resp, _ := e.raw(http.MethodGet, e.monitorQueuesPath(), nil, http.Header{"Authorization": {"Basic eDp5"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong password: %d, want 401", resp.StatusCode)
	}
}

package aem_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// The monitor API lists the queues with their configuration and counters, pages at most 100 with a cursor,
// applies select, and reads one queue; unknown queues and Message VPNs are NOT_FOUND.
func TestAEMMonitorQueues(t *testing.T) {
	t.Parallel()
	e := emulatortest.StartAEM(t, emulator.Options{})
	for i := range 105 {
		e.OK(http.MethodPost, e.QueuesPath(), map[string]any{"queueName": fmt.Sprintf("q%03d", i)})
	}
	e.CreateQueue("acme/orders", map[string]any{"maxRedeliveryCount": 3})
	for range 3 {
		if st := e.Publish("acme/orders", nil); st != http.StatusOK {
			t.Fatalf("publish: %d", st)
		}
	}
	sel := "?count=100&select=queueName,spooledMsgCount,msgSpoolUsage,spooledByteCount,maxRedeliveryCount"
	a := e.OK(http.MethodGet, e.MonitorQueuesPath()+sel, nil)
	var first []map[string]any
	_ = json.Unmarshal(a.Data, &first)
	if len(first) != 100 || a.Meta.Paging == nil {
		t.Fatalf("first page: %d queues, paging %v; want 100 with a cursor", len(first), a.Meta.Paging)
	}
	u, _ := url.Parse(a.Meta.Paging.NextPageURI)
	a = e.OK(http.MethodGet, u.RequestURI(), nil)
	var rest []map[string]any
	_ = json.Unmarshal(a.Data, &rest)
	if len(rest) != 6 || a.Meta.Paging != nil {
		t.Fatalf("second page: %d queues, paging %v; want the last 6", len(rest), a.Meta.Paging)
	}
	orders := first[0]
	if orders["queueName"] != "acme/orders" || len(orders) != 5 || orders["spooledMsgCount"] != 3.0 ||
		orders["msgSpoolUsage"] != float64(3*len("poison")) || orders["spooledByteCount"] != float64(3*len("poison")) || orders["maxRedeliveryCount"] != 3.0 {
		t.Errorf("acme/orders in the list: %v", orders)
	}
	var one map[string]any
	_ = json.Unmarshal(e.OK(http.MethodGet, e.MonitorQueuesPath()+"/"+url.PathEscape("acme/orders"), nil).Data, &one)
	if one["spooledMsgCount"] != 3.0 || one["deadMsgQueue"] != "#DEAD_MSG_QUEUE" || one["egressEnabled"] != true {
		t.Errorf("acme/orders: %v", one)
	}
	var empty map[string]any
	_ = json.Unmarshal(e.OK(http.MethodGet, e.MonitorQueuesPath()+"/q000?select=spooledMsgCount,msgSpoolUsage", nil).Data, &empty)
	if len(empty) != 2 || empty["spooledMsgCount"] != 0.0 || empty["msgSpoolUsage"] != 0.0 {
		t.Errorf("q000: %v", empty)
	}
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.MonitorQueuesPath()+"/gone", nil), 6, "NOT_FOUND")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, "/SEMP/v2/monitor/msgVpns/other/queues", nil), 6, "NOT_FOUND")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.MonitorQueuesPath()+"?count=101", nil), 11, "INVALID_PARAMETER")
	if resp, _ := e.Raw(http.MethodGet, e.MonitorQueuesPath(), nil, http.Header{"Authorization": {"Basic eDp5"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong password: %d, want 401", resp.StatusCode)
	}
}

// The monitor object holds what SEMP 2.34's monitor MsgVpnQueue lists: no bindCount (a select of it is refused,
// as every name that matches no attribute), spooledMsgCount a running total that a consumed message does not
// lower, the current depth in the msgs collection, and the bound consumers in the txFlows collection.
func TestAEMMonitorCountersAsTheSpecSays(t *testing.T) {
	t.Parallel()
	e := emulatortest.StartAEM(t, emulator.Options{})
	e.CreateQueue("acme/orders", map[string]any{"maxRedeliveryCount": 3})
	for range 3 {
		e.Publish("acme/orders", nil)
	}
	d, ok := e.Server.AEMReceive("acme/orders")
	if !ok {
		t.Fatal("no delivery")
	}
	if _, err := e.Server.AEMSettle("acme/orders", d.MsgID, emulator.AEMAccepted); err != nil {
		t.Fatal(err)
	}
	one := e.MonitorQueuesPath() + "/" + url.PathEscape("acme/orders")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, one+"?select=queueName,bindCount", nil), 11, "INVALID_PARAMETER")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.MonitorQueuesPath()+"?select=bindCount", nil), 11, "INVALID_PARAMETER")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, one+"?select=-queueName,spooledMsgCount", nil), 11, "INVALID_PARAMETER")
	var q map[string]any
	_ = json.Unmarshal(e.OK(http.MethodGet, one, nil).Data, &q)
	if _, has := q["bindCount"]; has {
		t.Errorf("the monitor object has bindCount: %v", q)
	}
	if _, has := q["respectDmqEligibleEnabled"]; has {
		t.Errorf("the monitor object has respectDmqEligibleEnabled, which monitor 2.34 does not list")
	}
	if q["spooledMsgCount"] != 3.0 || q["msgSpoolUsage"] != float64(2*len("poison")) {
		t.Errorf("after 3 spooled and 1 consumed: spooledMsgCount %v (want 3, a running total), msgSpoolUsage %v", q["spooledMsgCount"], q["msgSpoolUsage"])
	}
	var msgs []map[string]any
	_ = json.Unmarshal(e.OK(http.MethodGet, one+"/msgs?select=msgId&count=100", nil).Data, &msgs)
	if len(msgs) != 2 {
		t.Errorf("msgs: %d, want the 2 left", len(msgs))
	}
	var flows []map[string]any
	a := e.OK(http.MethodGet, one+"/txFlows?select=flowId&count=100", nil)
	if err := json.Unmarshal(a.Data, &flows); err != nil || len(flows) != 0 {
		t.Errorf("txFlows: %s, want an empty list", a.Data)
	}
	// A name of the spec's object that the room does not answer is no error: the attribute "may not be returned".
	var some map[string]any
	_ = json.Unmarshal(e.OK(http.MethodGet, one+"?select=queueName,txUnackedMsgCount", nil).Data, &some)
	if len(some) != 1 || some["queueName"] != "acme/orders" {
		t.Errorf("select=queueName,txUnackedMsgCount: %v", some)
	}
	// select names with the wildcard match attributes.
	var w map[string]any
	_ = json.Unmarshal(e.OK(http.MethodGet, one+"?select=spooled*", nil).Data, &w)
	if len(w) != 2 {
		t.Errorf("select=spooled*: %v, want spooledMsgCount and spooledByteCount", w)
	}
}

package aem_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// What SEMP's specification refuses, the room refuses, in the error envelope: a deadMsgQueue outside the
// spec's pattern, threshold settings that break its requires and conflicts, a body with bytes after its JSON,
// and opaquePassword over plain HTTP or outside the config API.
func TestAEMRefusesWhatTheSpecRefuses(t *testing.T) {
	t.Parallel()
	e := emulatortest.StartAEM(t, emulator.Options{})
	e.OK(http.MethodPost, e.QueuesPath(), map[string]any{"queueName": "orders"})
	for _, dmq := range []string{"*", "orders.*", "a?b", "x;y"} {
		emulatortest.WantSEMPError(t, e.SEMP(http.MethodPatch, e.QueuePath("orders"), map[string]any{"deadMsgQueue": dmq}), 11, "INVALID_PARAMETER")
		emulatortest.WantSEMPError(t, e.SEMP(http.MethodPost, e.QueuesPath(), map[string]any{"queueName": "q-" + url.PathEscape(dmq), "deadMsgQueue": dmq}), 11, "INVALID_PARAMETER")
	}
	e.OK(http.MethodPatch, e.QueuePath("orders"), map[string]any{"deadMsgQueue": ""}) // minLength 0

	for _, th := range []map[string]any{
		{"clearPercent": 10}, // requires setPercent
		{"setValue": 10},     // requires clearValue
		{"clearPercent": 10, "setPercent": 20, "setValue": 30}, // percentages conflict with values
		{"clearValue": 1, "setValue": 2, "setPercent": 20},
	} {
		emulatortest.WantSEMPError(t, e.SEMP(http.MethodPatch, e.QueuePath("orders"), map[string]any{"eventBindCountThreshold": th}), 11, "INVALID_PARAMETER")
	}
	e.OK(http.MethodPatch, e.QueuePath("orders"), map[string]any{"eventMsgSpoolUsageThreshold": map[string]any{"clearValue": 10, "setValue": 20}})
	e.OK(http.MethodPatch, e.QueuePath("orders"), map[string]any{"eventMsgSpoolUsageThreshold": map[string]any{"clearPercent": 10, "setPercent": 20}})

	for _, body := range []string{`{"maxRedeliveryCount": 3} {"maxRedeliveryCount": 4}`, `{"maxRedeliveryCount": 3}x`, `{"maxRedeliveryCount": 3}]`} {
		emulatortest.WantSEMPError(t, e.SEMP(http.MethodPatch, e.QueuePath("orders"), []byte(body)), 27, "PARSE_ERROR")
	}
	e.OK(http.MethodPatch, e.QueuePath("orders"), []byte("{\"maxRedeliveryCount\": 3}\n  "))
	if q := e.Queue("orders"); q["maxRedeliveryCount"] != 3.0 {
		t.Errorf("maxRedeliveryCount %v after the refused bodies, want 3", q["maxRedeliveryCount"])
	}

	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.QueuePath("orders")+"?opaquePassword=secretsecret", nil), 11, "INVALID_PARAMETER")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodPatch, e.QueuePath("orders")+"?opaquePassword=secretsecret", map[string]any{"maxRedeliveryCount": 4}), 11, "INVALID_PARAMETER")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.MonitorQueuesPath()+"?opaquePassword=secretsecret", nil), 11, "INVALID_PARAMETER")
	if q := e.Queue("orders"); q["maxRedeliveryCount"] != 3.0 {
		t.Errorf("a PATCH with opaquePassword over http changed the queue: %v", q["maxRedeliveryCount"])
	}
}

// A path or method SEMP does not have is answered in the SEMP error envelope (404, 405 with Allow); the
// Message VPN object is served.
func TestAEMUnknownPathsAndTheMsgVpn(t *testing.T) {
	t.Parallel()
	e := emulatortest.StartAEM(t, emulator.Options{})
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/SEMP/v2/config/msgVpns/" + e.Creds.MsgVpnName + "/aclProfiles", http.StatusNotFound},
		{http.MethodGet, "/SEMP/v2/nothing", http.StatusNotFound},
		{http.MethodDelete, e.QueuesPath(), http.StatusMethodNotAllowed},
		{http.MethodPost, e.QueuePath("orders"), http.StatusMethodNotAllowed},
		{http.MethodPut, e.MonitorQueuesPath(), http.StatusMethodNotAllowed},
	} {
		resp, b := e.Raw(tc.method, tc.path, nil, nil)
		var a emulatortest.SEMPAnswer
		if err := json.Unmarshal(b, &a); err != nil || a.Meta.Error == nil || a.Meta.ResponseCode != tc.status || resp.StatusCode != tc.status {
			t.Errorf("%s %s: %d %q, want %d in the SEMP error envelope", tc.method, tc.path, resp.StatusCode, b, tc.status)
			continue
		}
		if tc.status == http.StatusMethodNotAllowed && resp.Header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", tc.method, tc.path)
		}
	}
	// Credentials first.
	if resp, _ := e.Raw(http.MethodGet, "/SEMP/v2/nothing", nil, http.Header{"Authorization": {"Basic eDp5"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unknown path with a wrong password: %d, want 401", resp.StatusCode)
	}

	a := e.OK(http.MethodGet, "/SEMP/v2/config/msgVpns/"+e.Creds.MsgVpnName, nil)
	var vpn map[string]any
	_ = json.Unmarshal(a.Data, &vpn)
	if vpn["msgVpnName"] != e.Creds.MsgVpnName || vpn["enabled"] != true {
		t.Errorf("Message VPN: %v", vpn)
	}
	if !strings.Contains(string(a.Links), "queuesUri") {
		t.Errorf("Message VPN links: %s", a.Links)
	}
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, "/SEMP/v2/config/msgVpns/other", nil), 6, "NOT_FOUND")
	var name map[string]any
	_ = json.Unmarshal(e.OK(http.MethodGet, "/SEMP/v2/config/msgVpns/"+e.Creds.MsgVpnName+"?select=msgVpnName", nil).Data, &name)
	if len(name) != 1 {
		t.Errorf("select=msgVpnName: %v", name)
	}
}

// where takes the six operators of the spec; < > <= >= compare numbers.
func TestAEMWhereOperators(t *testing.T) {
	t.Parallel()
	e := emulatortest.StartAEM(t, emulator.Options{})
	for _, q := range []struct {
		name string
		r    int
	}{{"a", 0}, {"b", 3}, {"c", 5}, {"d", 10}} {
		e.OK(http.MethodPost, e.QueuesPath(), map[string]any{"queueName": q.name, "maxRedeliveryCount": q.r})
	}
	names := func(where string) string {
		t.Helper()
		var qs []map[string]any
		_ = json.Unmarshal(e.OK(http.MethodGet, e.QueuesPath()+"?select=queueName&where="+url.QueryEscape(where), nil).Data, &qs)
		var out []string
		for _, q := range qs {
			name, _ := q["queueName"].(string)
			out = append(out, name)
		}
		return strings.Join(out, ",")
	}
	for where, want := range map[string]string{
		"maxRedeliveryCount==5":                         "c",
		"maxRedeliveryCount!=5":                         "a,b,d",
		"maxRedeliveryCount<5":                          "a,b",
		"maxRedeliveryCount>5":                          "d",
		"maxRedeliveryCount<=5":                         "a,b,c",
		"maxRedeliveryCount>=5":                         "c,d",
		"maxRedeliveryCount>0,maxRedeliveryCount<10":    "b,c",
		"queueName==*":                                  "a,b,c,d",
		"queueName!=[ab]":                               "a,b,c,d", // only * is a wildcard
		"deadMsgQueue==#DEAD_MSG_QUEUE,queueName==?":    "",
		"maxRedeliveryCount>=3,deadMsgQueue==#DEAD_MS*": "b,c,d",
	} {
		if got := names(where); got != want {
			t.Errorf("where=%s: %q, want %q", where, got, want)
		}
	}
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.QueuesPath()+"?where="+url.QueryEscape("queueName<b"), nil), 11, "INVALID_PARAMETER")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.QueuesPath()+"?where="+url.QueryEscape("bindCount==0"), nil), 11, "INVALID_PARAMETER")
	emulatortest.WantSEMPError(t, e.SEMP(http.MethodGet, e.QueuesPath()+"?where="+url.QueryEscape("queueName~a"), nil), 11, "INVALID_PARAMETER")
}

// rejectMsgToSenderOnDiscardBehavior decides whether a queue that discards a message tells the publisher: a NACK
// fails the whole publish to a topic (no queue keeps the message), a silent discard leaves the others theirs.
func TestAEMRejectMsgToSenderOnDiscard(t *testing.T) {
	t.Parallel()
	e := emulatortest.StartAEM(t, emulator.Options{})
	pub := func(topic string) int {
		t.Helper()
		resp, _ := e.Raw(http.MethodPost, "/TOPIC/"+topic, []byte("poison"), nil)
		return resp.StatusCode
	}
	sub := func(q, topic string) {
		t.Helper()
		e.OK(http.MethodPost, e.QueuePath(q)+"/subscriptions", map[string]any{"subscriptionTopic": topic})
	}
	e.CreateQueue("open", nil)
	sub("open", "t/>")
	// Ingress off, the default when-queue-enabled: an administratively disabled queue discards silently.
	e.OK(http.MethodPost, e.QueuesPath(), map[string]any{"queueName": "shut"})
	sub("shut", "t/shut")
	if st := pub("t/shut"); st != http.StatusOK || e.Server.AEMQueueDepth("open") != 1 {
		t.Errorf("when-queue-enabled, ingress off: %d, open holds %d; want 200 and 1", st, e.Server.AEMQueueDepth("open"))
	}
	// always: the disabled queue's discard is returned, and open does not get the message either.
	e.OK(http.MethodPatch, e.QueuePath("shut"), map[string]any{"rejectMsgToSenderOnDiscardBehavior": "always"})
	if st := pub("t/shut"); st == http.StatusOK || e.Server.AEMQueueDepth("open") != 1 {
		t.Errorf("always, ingress off: %d, open holds %d; want a refusal and still 1", st, e.Server.AEMQueueDepth("open"))
	}
	// A message too big for an enabled queue: when-queue-enabled returns it, never does not.
	e.CreateQueue("small", map[string]any{"maxMsgSize": 3})
	sub("small", "t/small")
	if st := pub("t/small"); st == http.StatusOK || e.Server.AEMQueueDepth("open") != 1 {
		t.Errorf("when-queue-enabled, too big: %d, open holds %d; want a refusal and still 1", st, e.Server.AEMQueueDepth("open"))
	}
	e.OK(http.MethodPatch, e.QueuePath("small"), map[string]any{"rejectMsgToSenderOnDiscardBehavior": "never"})
	if st := pub("t/small"); st != http.StatusOK || e.Server.AEMQueueDepth("open") != 2 || e.Server.AEMQueueDepth("small") != 0 {
		t.Errorf("never, too big: %d, open %d, small %d; want 200, 2, 0", st, e.Server.AEMQueueDepth("open"), e.Server.AEMQueueDepth("small"))
	}
	// Published to the queue itself: refused unless never.
	if st := e.Publish("small", nil); st != http.StatusOK {
		t.Errorf("never, direct publish too big: %d, want 200 (silent discard)", st)
	}
	if st := e.Publish("shut", nil); st == http.StatusOK {
		t.Errorf("always, direct publish to a queue with ingress off: 200")
	}
}

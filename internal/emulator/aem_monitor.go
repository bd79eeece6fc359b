package emulator

import (
	"net/http"
	"sort"
)

// The monitoring API of the Advanced Event Mesh room's queues: GET /SEMP/v2/monitor/msgVpns/{vpn}/queues (paged,
// select, where) and GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}. A monitor object of a queue holds its
// configuration (the same attributes as the config API) and its operational counters ([SOL]
// Admin/SEMP/Using-SEMP.htm: the monitoring API returns "the configuration and operational state" of an
// object; the paths and the counter names are those of the SEMP v2 monitor specification's MsgVpnQueue, which
// the fetched repository does not hold, so they are taken as Solace's monitoring tools read them).
//
//	| counter          | what the emulator answers                                                        | source |
//	|------------------|----------------------------------------------------------------------------------|--------|
//	| spooledMsgCount  | the messages on the queue now (after expiring those whose TTL has passed)        | monitor MsgVpnQueue.spooledMsgCount; the expiry on read as for the message list |
//	| msgSpoolUsage    | the bytes of their payloads                                                       | monitor MsgVpnQueue.msgSpoolUsage ("in bytes"); the payload without the broker's per-message overhead is assumed |
//	| bindCount        | 0: the room has no SMF consumers that bind to a queue (the poison run consumes without a bind) | monitor MsgVpnQueue.bindCount; 0 assumed for the reason given |
//
// Paging, select and where work as in the config API (aem.go: at most 100 per page, opaque cursor).

// mountAEMMonitor adds the monitor routes of queues (server.go calls it next to mountAdvancedEventMesh).
func (a *advancedEventMesh) mountAEMMonitor(mux *http.ServeMux) {
	m := func(method, rel string, h func(http.ResponseWriter, *http.Request) *sempError) {
		a.route(mux, method, rel, method+" "+rel, a.basicAuth(func(w http.ResponseWriter, r *http.Request) {
			if err := h(w, r); err != nil {
				respondSEMPError(w, r, err)
			}
		}))
	}
	mon := AEMMonitorBasePath + "/msgVpns/{vpn}/queues"
	m(http.MethodGet, mon, a.handleMonitorQueues)
	m(http.MethodGet, mon+"/{queue}", a.handleMonitorQueue)
}

// monitorObject is queue q's monitor object; the caller holds a.mu.
func (a *advancedEventMesh) monitorObject(q *aemQueue) map[string]any {
	a.expire(q, a.AEMNow())
	obj := a.queueObject(q)
	var usage int64
	for _, m := range q.msgs {
		usage += int64(len(m.payload))
	}
	obj["spooledMsgCount"] = int64(len(q.msgs))
	obj["msgSpoolUsage"] = usage
	obj["bindCount"] = int64(0)
	return obj
}

func (a *advancedEventMesh) monitorLinks(r *http.Request, q *aemQueue) map[string]any {
	uri := objectURI(r, AEMMonitorBasePath, "msgVpns", a.vpn, "queues", q.name)
	return map[string]any{"uri": uri, "msgsUri": uri + "/msgs"}
}

func (a *advancedEventMesh) handleMonitorQueues(w http.ResponseWriter, r *http.Request) *sempError {
	if err := a.checkVpn(r); err != nil {
		return err
	}
	pq, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	names := make([]string, 0, len(a.queues))
	objs := make(map[string]map[string]any, len(a.queues))
	for n, q := range a.queues {
		obj := a.monitorObject(q)
		keep := true
		for _, c := range pq.wheres {
			keep = keep && c.match(obj)
		}
		if keep {
			names = append(names, n)
			objs[n] = obj
		}
	}
	sort.Strings(names)
	names, paging := page(r, names, func(s string) string { return s }, pq)
	data := make([]map[string]any, 0, len(names))
	links := make([]map[string]any, 0, len(names))
	for _, n := range names {
		data = append(data, selectAttrs(objs[n], pq.sel))
		links = append(links, a.monitorLinks(r, a.queues[n]))
	}
	respondSEMP(w, r, data, links, paging)
	return nil
}

func (a *advancedEventMesh) handleMonitorQueue(w http.ResponseWriter, r *http.Request) *sempError {
	if err := a.checkVpn(r); err != nil {
		return err
	}
	pq, err := parsePageQuery(r, false)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	q, err := a.queue(r.PathValue("queue"))
	if err != nil {
		return err
	}
	respondSEMP(w, r, selectAttrs(a.monitorObject(q), pq.sel), a.monitorLinks(r, q), nil)
	return nil
}

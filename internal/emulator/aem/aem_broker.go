package aem

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// The broker runtime of the AEM room: REST messaging publish, deliveries with their count, redelivery with
// the configured delay on the AEM clock, removal at the redelivery limit, on TTL or on reject (to the DMQ or
// deleted), and the monitor and action APIs over the messages. Sources: aem.go.

// aemMsg is a message spooled on a queue.
type aemMsg struct {
	id          int64  // msgId: unique per message on a queue of this broker
	rgmid       string // replicationGroupMsgId
	payload     []byte
	dmqEligible bool
	published   time.Time // AEM clock
	spooled     time.Time // AEM clock: arrival on this queue
	msgTTL      time.Duration
	deliveries  int64     // deliveries so far
	availableAt time.Time // AEM clock: not delivered before
	inFlight    bool      // delivered and not settled
}

// expiry returns when m expires on q, or the zero time: only with respectTtlEnabled, the earlier of the
// publisher's TTL (from publish) and maxTtl (from arrival on the queue); 0 means none ([SPEC] maxTtl,
// respectTtlEnabled; [SOL] configuring-dmqs-broker-manager.htm).
func (q *aemQueue) expiry(m *aemMsg) time.Time {
	if !q.bool("respectTtlEnabled") {
		return time.Time{}
	}
	var at time.Time
	if m.msgTTL > 0 {
		at = m.published.Add(m.msgTTL)
	}
	if maxTTL := q.int("maxTtl"); maxTTL > 0 {
		if t := m.spooled.Add(time.Duration(maxTTL) * time.Second); at.IsZero() || t.Before(at) {
			at = t
		}
	}
	return at
}

// enqueue spools a copy of m on q; the caller holds a.mu.
func (a *AdvancedEventMesh) enqueue(q *aemQueue, m aemMsg, now time.Time) {
	a.nextMsg++
	m.id = a.nextMsg
	m.rgmid = fmt.Sprintf("rmid1:emu00-0000000000-%08x-%08x", a.nextMsg>>32, a.nextMsg&0xffffffff)
	m.spooled, m.availableAt, m.deliveries, m.inFlight = now, now, 0, false
	if q.int("maxMsgSpoolUsage") == 0 {
		// [SPEC] MsgVpnQueue.maxMsgSpoolUsage (config 10.25.11, monitor 2.34): "A value of 0 only allows spooling
		// of the last message received and disables quota checking": the messages spooled before are discarded.
		// Assumed: a message delivered and not yet settled (in flight) is kept until it is settled; no source
		// says what becomes of it. Other quotas are not modelled (the emulator holds few messages).
		kept := q.msgs[:0]
		for _, x := range q.msgs {
			if x.inFlight {
				kept = append(kept, x)
				continue
			}
			a.Logf("emulator: AEM: message %d on %s discarded: maxMsgSpoolUsage 0 keeps only the last message received", x.id, q.name)
		}
		q.msgs = kept
	}
	q.msgs = append(q.msgs, &m)
	q.spooledTotal++
	q.spooledBytes += int64(len(m.payload))
}

// remove takes m off q and moves it to q's DMQ when that exists and takes messages, and, with
// respectDmqEligibleEnabled, only when its publisher flagged it DMQ-eligible; otherwise it is deleted ([SOL]
// Setting-Dead-Msg-Queues.htm, 10.25.10 and later). It returns the DMQ's name or "" for a deletion. The caller
// holds a.mu.
func (a *AdvancedEventMesh) remove(q *aemQueue, m *aemMsg, now time.Time, why string) string {
	dmq := a.removeTo(q, m, now, why)
	if len(a.fates) > 100000 {
		a.fates = map[int64]string{}
	}
	a.fates[m.id] = dmq
	return dmq
}

// drop takes m off q.
func (q *aemQueue) drop(m *aemMsg) {
	for i, x := range q.msgs {
		if x == m {
			q.msgs = append(q.msgs[:i], q.msgs[i+1:]...)
			return
		}
	}
}

func (a *AdvancedEventMesh) removeTo(q *aemQueue, m *aemMsg, now time.Time, why string) string {
	q.drop(m)
	dmqName := q.string("deadMsgQueue")
	dmq, ok := a.queues[dmqName]
	switch {
	case !ok:
		a.Logf("emulator: AEM: message %d on %s removed (%s) and deleted: its DMQ %q does not exist", m.id, q.name, why, dmqName)
		return ""
	case q.bool("respectDmqEligibleEnabled") && !m.dmqEligible:
		a.Logf("emulator: AEM: message %d on %s removed (%s) and deleted: not DMQ-eligible", m.id, q.name, why)
		return ""
	case !dmq.bool("ingressEnabled"):
		// A DMQ with ingress off does not receive messages ([SPEC] MsgVpnQueue ingressEnabled: "Enable or
		// disable the reception of messages to the Queue", default false). Assumed: the broker then deletes
		// the removed message as for a missing DMQ ([SOL] Setting-Dead-Msg-Queues.htm says only that a message
		// without a DMQ to go to is deleted; nothing says the message stays on its queue).
		a.Logf("emulator: AEM: message %d on %s removed (%s) and deleted: the ingress of its DMQ %s is off", m.id, q.name, why, dmqName)
		return ""
	case int64(len(m.payload)) > dmq.int("maxMsgSize"):
		// The DMQ discards a message larger than its maxMsgSize as any queue does ([SPEC] maxMsgSize; [SPEC
		// monitor 2.34] MsgVpnQueue maxMsgSizeExceededDiscardedMsgCount, "discarded by the Queue due to the
		// maximum message size being exceeded"), and a removed message that fails to move to the DMQ is
		// discarded ([SPEC monitor 2.34] maxRedeliveryExceededToDmqFailedMsgCount, maxTtlExpiredToDmqFailedMsgCount:
		// "discarded by the Queue due to ... failing to move to the Dead Message Queue"). That the size refusal
		// is one way the move fails is assumed: no source names the cause of a failed move.
		a.Logf("emulator: AEM: message %d on %s removed (%s) and deleted: %d bytes, more than the maxMsgSize %d of its DMQ %s", m.id, q.name, why, len(m.payload), dmq.int("maxMsgSize"), dmqName)
		return ""
	}
	moved := *m
	// Assumed: the message keeps its publisher's TTL and DMQ eligibility; its delivery count starts again.
	a.enqueue(dmq, moved, now)
	a.Logf("emulator: AEM: message %d on %s removed (%s) and moved to %s", m.id, q.name, why, dmqName)
	return dmqName
}

// expire removes q's expired messages; the caller holds a.mu.
func (a *AdvancedEventMesh) expire(q *aemQueue, now time.Time) {
	var expired []*aemMsg
	for _, m := range q.msgs {
		if at := q.expiry(m); !at.IsZero() && !now.Before(at) && !m.inFlight {
			expired = append(expired, m)
		}
	}
	for _, m := range expired {
		a.remove(q, m, now, "TTL expired")
	}
}

// redeliveryDelay is the wait before redelivery k (k = 1 for the first redelivery): with the delay off none
// ([SPEC] "When false, messages are redelivered as soon as possible"), otherwise initial ×
// (multiplier/100)^(k-1), at most the maximum interval, in milliseconds ([SPEC] redeliveryDelay*; the
// initial interval before the first redelivery is assumed, see aem.go).
func (q *aemQueue) redeliveryDelay(k int64) time.Duration {
	if !q.bool("redeliveryDelayEnabled") {
		return 0
	}
	ms := float64(q.int("redeliveryDelayInitialInterval")) * math.Pow(float64(q.int("redeliveryDelayMultiplier"))/100, float64(k-1))
	if maxMs := float64(q.int("redeliveryDelayMaxInterval")); ms > maxMs {
		ms = maxMs
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// AEMReceive delivers the first message of queue that is available now on the AEM clock, as a bound
// consumer receives it: none when the queue does not exist, its egress is off, or no message is available.
func (a *AdvancedEventMesh) AEMReceive(queue string) (core.AEMDelivery, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	q, ok := a.queues[queue]
	if !ok || !q.bool("egressEnabled") {
		return core.AEMDelivery{}, false
	}
	now := a.AEMNow()
	a.expire(q, now)
	for _, m := range q.msgs {
		if m.inFlight || m.availableAt.After(now) {
			continue
		}
		m.inFlight = true
		m.deliveries++
		// The broker pushes a message to a bound consumer the moment it becomes available (on publish, or
		// when its redelivery delay ends); that the emulator's caller asks later is the emulator's polling,
		// not the broker's timing, so the delivery is dated when the message became available.
		return core.AEMDelivery{MsgID: m.id, Payload: append([]byte(nil), m.Payload()...), DeliveryCount: m.deliveries, At: m.availableAt}, true
	}
	return core.AEMDelivery{}, false
}

// Payload returns the message's content.
func (m *aemMsg) Payload() []byte { return m.payload }

// AEMSettle settles the delivery of message msgID on queue. Accepted deletes it. Failed redelivers it
// (after the redelivery delay) unless redelivery is off or the message has had maxRedeliveryCount + 1
// deliveries (R > 0), when it is removed; R = 0 redelivers for ever. Rejected removes it at once. It returns
// where a removed message went: the DMQ's name, "deleted", or "" while it stays on the queue.
func (a *AdvancedEventMesh) AEMSettle(queue string, msgID int64, outcome core.AEMOutcome) (string, error) {
	return a.settle(queue, msgID, outcome, time.Time{})
}

// settle is AEMSettle at time at of the AEM clock (now when at is zero).
func (a *AdvancedEventMesh) settle(queue string, msgID int64, outcome core.AEMOutcome, at time.Time) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	q, ok := a.queues[queue]
	if !ok {
		return "", fmt.Errorf("queue %s does not exist", queue)
	}
	var m *aemMsg
	for _, x := range q.msgs {
		if x.id == msgID && x.inFlight {
			m = x
		}
	}
	if m == nil {
		return "", fmt.Errorf("message %d of queue %s is not delivered", msgID, queue)
	}
	now := at
	if now.IsZero() {
		now = a.AEMNow()
	}
	m.inFlight = false
	gone := func(dmq string) string {
		if dmq == "" {
			return "deleted"
		}
		return dmq
	}
	switch outcome {
	case core.AEMAccepted:
		q.drop(m) // acknowledged: consumed, never dead-lettered
		return "deleted", nil
	case core.AEMRejected:
		return gone(a.remove(q, m, now, "rejected by the consumer")), nil
	}
	r := q.int("maxRedeliveryCount")
	switch {
	case !q.bool("redeliveryEnabled"):
		return gone(a.remove(q, m, now, "redelivery disabled")), nil
	case r > 0 && m.deliveries > r:
		return gone(a.remove(q, m, now, fmt.Sprintf("max redelivery count %d exceeded", r))), nil
	}
	m.availableAt = now.Add(q.redeliveryDelay(m.deliveries))
	return "", nil
}

// aemRelease gives back message msgID of queue that a consumer received and did not settle: it is available
// again at once, its delivery counted (assumed: the broker takes back what an unbound consumer did not
// settle, and the next delivery is a redelivery).
func (a *AdvancedEventMesh) aemRelease(queue string, msgID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if q, ok := a.queues[queue]; ok {
		for _, m := range q.msgs {
			if m.id == msgID && m.inFlight {
				m.inFlight = false
			}
		}
	}
}

// aemDiscard takes message msgID off queue without a DMQ: the emulator's stop of an endless redelivery.
func (a *AdvancedEventMesh) aemDiscard(queue string, msgID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if q, ok := a.queues[queue]; ok {
		for _, m := range q.msgs {
			if m.id == msgID {
				q.drop(m)
				return
			}
		}
	}
}

// aemRedeliversForever reports whether queue redelivers a failed message without limit: redelivery on and
// maxRedeliveryCount 0 ([SPEC] "A value of 0 means to retry forever").
func (a *AdvancedEventMesh) aemRedeliversForever(queue string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	q, ok := a.queues[queue]
	return ok && q.bool("redeliveryEnabled") && q.int("maxRedeliveryCount") == 0
}

// AEMPoisonRun is a consumer that fails every delivery of the first message of queue at once: it receives
// the message whenever the broker makes it available (waiting on the AEM clock) and settles it Failed at the
// time of the delivery, so that the deliveries' times follow the broker's schedule alone, until the
// message leaves the queue or maxDeliveries deliveries were made, or timeout passes in real time. It returns
// the deliveries and where the message went ("" while it is still on the queue).
func (a *AdvancedEventMesh) AEMPoisonRun(queue string, maxDeliveries int, timeout time.Duration) ([]core.AEMDelivery, string, error) {
	deadline := time.Now().Add(timeout)
	var out []core.AEMDelivery
	var first int64
	for len(out) < maxDeliveries {
		d, ok := a.AEMReceive(queue)
		if ok && first != 0 && d.MsgID != first {
			// Another message: put it back untouched (assumed harmless: the test publishes one).
			_, _ = a.AEMSettle(queue, d.MsgID, core.AEMFailed)
			ok = false
		}
		if !ok {
			wait, present, err := a.untilAvailable(queue, first)
			if err != nil {
				return out, "", err
			}
			if !present && first != 0 {
				return out, a.lastFate(queue, first), nil
			}
			if time.Now().After(deadline) {
				return out, "", fmt.Errorf("no delivery from %s within %v", queue, timeout)
			}
			time.Sleep(min(max(a.aemReal(wait), 50*time.Microsecond), 10*time.Millisecond))
			continue
		}
		first = d.MsgID
		out = append(out, d)
		// The consumer fails the message the moment it is delivered.
		where, err := a.settle(queue, d.MsgID, core.AEMFailed, d.At)
		if err != nil {
			return out, "", err
		}
		if where != "" {
			return out, where, nil
		}
	}
	return out, "", nil
}

// untilAvailable returns how long (AEM clock) until message id (or any message when id is 0) of queue is
// available, and whether it is still on the queue.
func (a *AdvancedEventMesh) untilAvailable(queue string, id int64) (time.Duration, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	q, ok := a.queues[queue]
	if !ok {
		return 0, false, fmt.Errorf("queue %s does not exist", queue)
	}
	now := a.AEMNow()
	a.expire(q, now)
	for _, m := range q.msgs {
		if id == 0 || m.id == id {
			return m.availableAt.Sub(now), true, nil
		}
	}
	return 0, false, nil
}

// lastFate says where message id went when the broker removed it: its DMQ's name or "deleted".
func (a *AdvancedEventMesh) lastFate(_ string, id int64) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if f := a.fates[id]; f != "" {
		return f
	}
	return "deleted"
}

// AEMQueueDepth returns the number of messages on queue (-1 when it does not exist).
func (a *AdvancedEventMesh) AEMQueueDepth(queue string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	q, ok := a.queues[queue]
	if !ok {
		return -1
	}
	a.expire(q, a.AEMNow())
	return len(q.msgs)
}

// --- REST messaging ---

// publishedMsg reads a REST message: its payload and the Solace headers the broker keeps ([SOL]
// Solace-REST-Message-Encoding.htm, "Solace REST Usage of HTTP Headers").
func (a *AdvancedEventMesh) publishedMsg(r *http.Request) (aemMsg, *sempError) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 30000001))
	if err != nil {
		return aemMsg{}, sempParse("The message could not be read: %v", err)
	}
	m := aemMsg{payload: body, published: a.AEMNow()}
	if v := r.Header.Get("Solace-Time-To-Live-In-ms"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return aemMsg{}, sempInvalid("Solace-Time-To-Live-In-ms %q is not a whole number of milliseconds", v)
		}
		m.msgTTL = time.Duration(n) * time.Millisecond
	}
	if v := r.Header.Get("Solace-DMQ-Eligible"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return aemMsg{}, sempInvalid("Solace-DMQ-Eligible %q is not true or false", v)
		}
		m.dmqEligible = b
	}
	return m, nil
}

// refusal says why q discards m, or nothing when q takes it: its ingress is shut down (the queue is
// administratively disabled for messages) or m is larger than the queue's maxMsgSize ([SPEC] ingressEnabled,
// maxMsgSize). The caller holds a.mu.
type refusal struct {
	status   int
	text     string
	disabled bool // discarded because the queue's ingress is administratively disabled
}

func (q *aemQueue) refuses(m *aemMsg) *refusal {
	if !q.bool("ingressEnabled") {
		// Assumed: the REST answer to a message a queue refuses (its ingress is shut down).
		return &refusal{http.StatusServiceUnavailable, "Queue Shutdown: the ingress of queue " + q.name + " is disabled", true}
	}
	if int64(len(m.payload)) > q.int("maxMsgSize") {
		return &refusal{http.StatusBadRequest, fmt.Sprintf("Message Too Big: %d bytes, queue %s takes at most %d", len(m.payload), q.name, q.int("maxMsgSize")), false}
	}
	return nil
}

// nacks reports whether q returns a discard to the publisher ([SPEC] rejectMsgToSenderOnDiscardBehavior:
// "never" - silently discard; "when-queue-enabled" - NACK each discard "except messages that are discarded
// because an endpoint is administratively disabled"; "always" - NACK each discard, those included).
func (q *aemQueue) nacks(f *refusal) bool {
	switch q.string("rejectMsgToSenderOnDiscardBehavior") {
	case "always":
		return true
	case "when-queue-enabled":
		return !f.disabled
	}
	return false
}

func (a *AdvancedEventMesh) handlePublishQueue(w http.ResponseWriter, r *http.Request) *sempError {
	m, err := a.publishedMsg(r)
	if err != nil {
		return err
	}
	a.mu.Lock()
	name := r.PathValue("queue")
	q, ok := a.queues[name]
	if !ok {
		a.mu.Unlock()
		respondText(w, http.StatusNotFound, "Unknown Queue: "+name) // assumed answer
		return nil
	}
	f := q.refuses(&m)
	switch {
	case f == nil:
		a.enqueue(q, m, a.AEMNow())
	case q.string("rejectMsgToSenderOnDiscardBehavior") == "never":
		// [SPEC] rejectMsgToSenderOnDiscardBehavior "never": the discard is silent, the publisher is answered OK.
		a.Logf("emulator: AEM: message to %s discarded silently (%s)", q.name, f.text)
		f = nil
	}
	a.mu.Unlock()
	if f != nil {
		// A message published to the queue itself has no other destination: assumed that a discard is
		// returned to the publisher under "when-queue-enabled" too (a shut-down queue answers "Queue Shutdown").
		respondText(w, f.status, f.text)
		return nil
	}
	respondText(w, http.StatusOK, "")
	return nil
}

// handlePublishTopic spools the message on every queue with a matching subscription. A queue that discards it
// and returns the discard to the publisher (nacks) fails the whole publish, and the message goes to no queue
// ([SPEC] rejectMsgToSenderOnDiscardBehavior: "NACKs cause the message to not be delivered to any
// destination"); a silent discard leaves the other queues their copy.
func (a *AdvancedEventMesh) handlePublishTopic(w http.ResponseWriter, r *http.Request) *sempError {
	m, err := a.publishedMsg(r)
	if err != nil {
		return err
	}
	topic := r.PathValue("topic")
	a.mu.Lock()
	now := a.AEMNow()
	var takers []*aemQueue
	for _, q := range a.queues {
		for _, s := range q.subs {
			if !solaceTopicMatches(s, topic) {
				continue
			}
			f := q.refuses(&m)
			switch {
			case f == nil:
				takers = append(takers, q)
			case q.nacks(f):
				a.mu.Unlock()
				respondText(w, f.status, f.text)
				return nil
			default:
				a.Logf("emulator: AEM: message on %s discarded silently by %s (%s)", topic, q.name, f.text)
			}
			break
		}
	}
	for _, q := range takers {
		a.enqueue(q, m, now)
	}
	a.mu.Unlock()
	respondText(w, http.StatusOK, "")
	return nil
}

func respondText(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, text)
}

// solaceTopicMatches reports whether the Solace subscription sub matches topic: levels split at "/", "*" alone
// is one level and after a prefix the rest of that level, ">" as the last level one or more levels ([SOL]
// Messaging/SMF-Topics.htm).
func solaceTopicMatches(sub, topic string) bool {
	s, t := strings.Split(sub, "/"), strings.Split(topic, "/")
	for i, level := range s {
		if level == ">" && i == len(s)-1 {
			return len(t) > i
		}
		if i >= len(t) {
			return false
		}
		switch {
		case level == "*":
		case strings.HasSuffix(level, "*"):
			if !strings.HasPrefix(t[i], strings.TrimSuffix(level, "*")) {
				return false
			}
		case level != t[i]:
			return false
		}
	}
	return len(s) == len(t)
}

// --- monitor and action APIs ---

// aemMsgAttrs are the attributes of [SPEC monitor 2.34] MsgVpnQueueMsg, which select and where names are
// checked against. The room answers a subset (msgObject): the others describe replication, partitions and
// priorities the room does not have, and "any non-identifying attribute may not be returned in a GET"
// ([SPEC monitor 2.34] info.description).
var aemMsgAttrs = []string{
	"attachmentSize", "contentSize", "deliveryEligibleTime", "dmqEligible", "expiryTime", "msgId",
	"msgVpnName", "partitionKey", "partitionKeyHash", "priority", "publisherId", "queueName",
	"redeliveryCount", "replicatedMateMsgId", "replicationGroupMsgId", "replicationState", "spooledTime", "undelivered",
}

func (a *AdvancedEventMesh) msgObject(q *aemQueue, m *aemMsg) map[string]any {
	obj := map[string]any{
		"msgVpnName": a.vpn, "queueName": q.name, "msgId": m.id, "replicationGroupMsgId": m.rgmid,
		"redeliveryCount": max(m.deliveries-1, 0), "dmqEligible": m.dmqEligible, "contentSize": len(m.payload),
		"attachmentSize": len(m.payload), "spooledTime": m.spooled.Unix(), "undelivered": m.deliveries == 0, "expiryTime": int64(0),
	}
	if at := q.expiry(m); !at.IsZero() {
		obj["expiryTime"] = at.Unix()
	}
	return obj
}

func (a *AdvancedEventMesh) handleListMsgs(w http.ResponseWriter, r *http.Request) *sempError {
	return a.onQueue(r, true, aemMsgAttrs, func(q *aemQueue, pq pageQuery) *sempError {
		a.expire(q, a.AEMNow())
		// Pages in msgId order; the cursor holds the last msgId, zero-padded so that the keys sort as numbers.
		es := make([]sempEntry, 0, len(q.msgs))
		for _, m := range q.msgs {
			id := strconv.FormatInt(m.id, 10)
			es = append(es, sempEntry{key: fmt.Sprintf("%020d", m.id), obj: a.msgObject(q, m),
				links: map[string]any{"uri": objectURI(r, AEMMonitorBasePath, "msgVpns", a.vpn, "queues", q.name, "msgs", id)}})
		}
		respondPage(w, r, pq, es)
		return nil
	})
}

// msg finds message msgId of the path on queue q; the caller holds a.mu.
func (a *AdvancedEventMesh) msg(r *http.Request, q *aemQueue) (*aemMsg, *sempError) {
	a.expire(q, a.AEMNow())
	id, perr := strconv.ParseInt(r.PathValue("msgId"), 10, 64)
	for _, m := range q.msgs {
		if perr == nil && m.id == id {
			return m, nil
		}
	}
	return nil, sempNotFound("Could not find match for msgId %s on Queue %s", r.PathValue("msgId"), q.name)
}

func (a *AdvancedEventMesh) handleGetMsg(w http.ResponseWriter, r *http.Request) *sempError {
	return a.onQueue(r, false, aemMsgAttrs, func(q *aemQueue, pq pageQuery) *sempError {
		m, err := a.msg(r, q)
		if err != nil {
			return err
		}
		respondSEMP(w, r, selectAttrs(a.msgObject(q, m), pq.sel), map[string]any{"uri": requestURI(r)}, nil)
		return nil
	})
}

func (a *AdvancedEventMesh) handleDeleteMsg(w http.ResponseWriter, r *http.Request) *sempError {
	if _, err := a.sempBody(r); err != nil {
		return err
	}
	return a.lockQueue(r.PathValue("queue"), func(q *aemQueue) *sempError {
		m, err := a.msg(r, q)
		if err != nil {
			return err
		}
		q.drop(m)
		respondSEMP(w, r, nil, nil, nil) // [SPEC action 2.34] an action answers SempMetaOnlyResponse
		return nil
	})
}

func (a *AdvancedEventMesh) handleCopyMsg(w http.ResponseWriter, r *http.Request) *sempError {
	body, err := a.sempBody(r)
	if err != nil {
		return err
	}
	rgmid, _ := body["replicationGroupMsgId"].(string)
	src, _ := body["sourceQueueName"].(string)
	if rgmid == "" || src == "" {
		return &sempError{http.StatusBadRequest, 228, "MISSING_PARAMETER", "replicationGroupMsgId and sourceQueueName are required to copy a message"}
	}
	for k := range body {
		if k != "replicationGroupMsgId" && k != "sourceQueueName" {
			return sempInvalid("Unexpected attribute %q in the copy request", k)
		}
	}
	return a.lockQueue(r.PathValue("queue"), func(dest *aemQueue) *sempError {
		sq, err := a.queue(src)
		if err != nil {
			return err
		}
		now := a.AEMNow()
		a.expire(sq, now)
		for _, m := range sq.msgs {
			if m.rgmid == rgmid {
				// Assumed: a copy spools the message onto dest as a publish does, so a destination whose ingress is
				// shut down, or whose maximum message size the message exceeds, refuses it and the source keeps it.
				if !dest.bool("ingressEnabled") {
					return sempNotAllowed("Queue %s is shut down for ingress: it takes no message", dest.name)
				}
				if int64(len(m.payload)) > dest.int("maxMsgSize") {
					return sempNotAllowed("Message Too Big: %d bytes, queue %s takes at most %d", len(m.payload), dest.name, dest.int("maxMsgSize"))
				}
				a.enqueue(dest, *m, now)
				respondSEMP(w, r, nil, nil, nil) // [SPEC action 2.34] an action answers SempMetaOnlyResponse
				return nil
			}
		}
		return sempNotFound("Could not find match for replicationGroupMsgId %s on Queue %s", rgmid, src)
	})
}

// MountControl serves the AEM room's control endpoint: POST /emulator/v1/aem/queues/{queue}/poison-run
// runs AEMPoisonRun on the queue's first message (?deliveries=N, at most 10000, default 1000) and answers
// {"deliveries": [{"deliveryCount", "afterMs"}], "where"}: each delivery with its time on the AEM clock
// since the first, and where the message went ("" while it is still on the queue).
func (a *AdvancedEventMesh) MountControl(mux *http.ServeMux) {
	mux.HandleFunc("POST "+core.ControlBasePath+"/aem/queues/{queue}/poison-run", func(w http.ResponseWriter, r *http.Request) {
		limit := 1000
		if v := r.URL.Query().Get("deliveries"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 10000 {
				core.RespondMessage(w, http.StatusBadRequest, "deliveries must be a whole number from 1 to 10000")
				return
			}
			limit = n
		}
		ds, where, err := a.AEMPoisonRun(r.PathValue("queue"), limit, time.Minute)
		if err != nil {
			core.RespondMessage(w, http.StatusConflict, err.Error())
			return
		}
		type delivery struct {
			DeliveryCount int64 `json:"deliveryCount"`
			AfterMs       int64 `json:"afterMs"`
		}
		out := make([]delivery, len(ds))
		for i, d := range ds {
			out[i] = delivery{DeliveryCount: d.DeliveryCount, AfterMs: d.At.Sub(ds[0].At).Milliseconds()}
		}
		core.RespondJSON(w, http.StatusOK, map[string]any{"deliveries": out, "where": where})
	})
}

// Broker returns the broker as Cloud Integration's runtime consumes it, the way a tenant's AdvancedEventMesh
// sender channels do (core.AEMBroker); the emulator wires it into the runtime.
func (a *AdvancedEventMesh) Broker() core.AEMBroker { return runtimeBroker{a} }

// runtimeBroker is AdvancedEventMesh seen through core.AEMBroker: AEMReceive, AEMQueueDepth and AEMNow are
// the broker's Go API, the rest the runtime's own operations.
type runtimeBroker struct{ *AdvancedEventMesh }

func (b runtimeBroker) AEMSettleAt(queue string, msgID int64, outcome core.AEMOutcome, at time.Time) (string, error) {
	return b.settleAt(queue, msgID, outcome, at)
}
func (b runtimeBroker) AEMRelease(queue string, msgID int64)   { b.aemRelease(queue, msgID) }
func (b runtimeBroker) AEMDiscard(queue string, msgID int64)   { b.aemDiscard(queue, msgID) }
func (b runtimeBroker) AEMRedeliversForever(queue string) bool { return b.aemRedeliversForever(queue) }
func (b runtimeBroker) AEMReal(d time.Duration) time.Duration  { return b.aemReal(d) }

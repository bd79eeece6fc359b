package eventmesh

import (
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// message is one message held by a queue.
type message struct {
	ID            string    `json:"id"`
	Body          []byte    `json:"body"`
	ContentType   string    `json:"contentType,omitempty"`
	Enqueued      time.Time `json:"enqueued"`
	DeliveryCount int64     `json:"deliveryCount"`
	InFlight      bool      `json:"inFlight"`
	DeadFrom      string    `json:"deadFrom,omitempty"`
	// Headers are the message properties the messaging REST API carries (messaging_consume.go).
	Headers map[string]string `json:"headers,omitempty"`
	// AckBy is the end of a QoS 1 delivery through the messaging REST API: unacknowledged
	// then, the message returns to its queue (messaging_consume.go).
	AckBy *time.Time `json:"ackBy,omitempty"`
}

func (m *message) view() core.Message {
	return core.Message{
		ID: m.ID, Body: string(m.Body), ContentType: m.ContentType, DeliveryCount: m.DeliveryCount,
		Unacknowledged: m.InFlight, Enqueued: m.Enqueued, DeadFrom: m.DeadFrom, Headers: maps.Clone(m.Headers),
	}
}

func (q *queue) find(id string) (int, *message) {
	for i, m := range q.msgs {
		if m.ID == id {
			return i, m
		}
	}
	return -1, nil
}

func (q *queue) remove(i int) {
	q.msgs = append(q.msgs[:i:i], q.msgs[i+1:]...)
}

// room reports whether q can take another message of size bytes.
func (q *queue) room(size int) error {
	var count, bytes int64
	for _, m := range q.msgs {
		count++
		bytes += int64(len(m.Body))
	}
	// 0 sets no limit of the queue's own: the management API shows maxQueueSizeInBytes 0 and
	// maxQueueMessageCount 0 on a queue created without them, and that queue held a message of 256 bytes
	// with both still 0 (SAP-archive/teched2020-developer-keynote, s4hana/event/README.md). The size is
	// then held to 1.5 GB, the maximum SAP documents (create-a-queue-95357fa.md step 5), so that the
	// emulator is never more lenient than SAP; the instance's own limits are not emulated.
	if n := q.settings.MaxQueueMessageCount; n != nil && *n > 0 && count >= *n {
		return core.ErrQueueFull
	}
	limit := q.settings.MaxQueueSizeInBytes
	if limit == 0 {
		limit = DefaultMaxQueueSizeInBytes
	}
	if bytes+int64(size) > limit {
		return core.ErrQueueFull
	}
	return nil
}

// deadLetterLocked moves m (already removed from its queue from) to from's dead
// message queue, or discards it. It returns the outcome and the DMQ name or the reason.
func (s *EventMesh) deadLetterLocked(from *queue, m *message) (core.RejectOutcome, string) {
	if from.settings.DeadMsgQueue == nil {
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.Discarded++ })
		return core.OutcomeDiscarded, fmt.Sprintf("Queue %q has no deadMsgQueue.", from.name)
	}
	name := *from.settings.DeadMsgQueue
	dmq, ok := s.queues[name]
	if !ok {
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.Discarded++ })
		return core.OutcomeDiscarded, fmt.Sprintf("The deadMsgQueue %q of queue %q does not exist.", name, from.name)
	}
	if err := dmq.room(len(m.Body)); err != nil {
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.Discarded++ })
		return core.OutcomeDiscarded, fmt.Sprintf("The deadMsgQueue %q of queue %q is full.", name, from.name)
	}
	dmq.msgs = append(dmq.msgs, &message{
		ID: m.ID, Body: m.Body, ContentType: m.ContentType, Enqueued: s.Now(), DeadFrom: from.name, Headers: m.Headers,
	})
	s.Counters.CountBroker(func(b *core.BrokerStats) { b.DeadLettered++ })
	return core.OutcomeDeadLettered, name
}

// sweepLocked moves messages whose TTL expired to the dead message queue (or
// discards them). TTL applies when the queue has respectTtl true and a maxTtl.
// It reports whether anything changed.
func (s *EventMesh) sweepLocked(q *queue) bool {
	st := q.settings
	if st.RespectTTL == nil || !*st.RespectTTL || st.MaxTTL == nil || *st.MaxTTL <= 0 {
		return false
	}
	ttl := time.Duration(*st.MaxTTL) * time.Second
	now := s.Now()
	changed := false
	kept := q.msgs[:0:0]
	for _, m := range q.msgs {
		if !m.InFlight && !now.Before(m.Enqueued.Add(ttl)) {
			changed = true
			s.Counters.CountBroker(func(b *core.BrokerStats) { b.Expired++ })
			s.deadLetterLocked(q, m)
			continue
		}
		kept = append(kept, m)
	}
	if changed {
		q.msgs = kept
	}
	return changed
}

// sweepAll sweeps every queue and reports whether anything changed.
func (s *EventMesh) sweepAll() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for _, q := range s.queues {
		if s.sweepLocked(q) {
			changed = true
		}
	}
	return changed
}

// Publish enqueues a message on queue name and returns its ID.
func (s *EventMesh) Publish(name string, body []byte, contentType string) (string, error) {
	return s.PublishWithHeaders(name, body, contentType, nil)
}

func (s *EventMesh) enqueueLocked(q *queue, body []byte, contentType string) (string, error) {
	// No message above 1 MB, whatever the queue holds: a queue seeded with a
	// default-plan size above it (DefaultPlanMaxMessageSizeInBytes) takes no
	// more than SAP documents (create-a-queue-95357fa.md step 6; message size
	// 1 MB, event-mesh-scope-4a89370.md as reference note
	// event-mesh-webhooks.md section 3 quotes it), so that the emulator is
	// never more lenient than SAP documents.
	if n := int64(len(body)); n > q.settings.MaxMessageSizeInBytes || n > MaxMaxMessageSizeInBytes {
		return "", core.ErrMessageTooLarge
	}
	if err := q.room(len(body)); err != nil {
		return "", err
	}
	m := &message{ID: core.RandomUUID(), Body: append([]byte(nil), body...), ContentType: contentType, Enqueued: s.Now()}
	q.msgs = append(q.msgs, m)
	s.Counters.CountBroker(func(b *core.BrokerStats) { b.Published++ })
	return m.ID, nil
}

// PublishTopic delivers a copy of the message to every queue subscribed to a
// matching topic pattern and returns the names of those queues.
func (s *EventMesh) PublishTopic(topic string, body []byte, contentType string) []string {
	s.mu.Lock()
	var delivered []string
	for _, q := range s.queues {
		for pattern := range q.subs {
			if topicMatches(pattern, topic) {
				s.sweepLocked(q)
				if _, err := s.enqueueLocked(q, body, contentType); err == nil {
					delivered = append(delivered, q.name)
				} else {
					s.Counters.CountBroker(func(b *core.BrokerStats) { b.Discarded++ })
				}
				break
			}
		}
	}
	s.mu.Unlock()
	if len(delivered) > 0 {
		s.SaveState()
	}
	return delivered
}

// topicMatches matches a topic against a subscription pattern: segments are
// separated by '/', a segment "*" matches any one segment and "abc*" any
// segment that starts with "abc".
func topicMatches(pattern, topic string) bool {
	ps, ts := strings.Split(pattern, "/"), strings.Split(topic, "/")
	if len(ps) != len(ts) {
		return false
	}
	for i, p := range ps {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			if !strings.HasPrefix(ts[i], prefix) {
				return false
			}
			continue
		}
		if p != ts[i] {
			return false
		}
	}
	return true
}

// Consume delivers the oldest available message of queue name. With qos 0 the
// message is removed at once; with qos 1 it stays unacknowledged until Ack or
// Reject. ok is false when no message is available.
func (s *EventMesh) Consume(name string, qos int) (msg core.Message, ok bool, err error) {
	s.mu.Lock()
	q, found := s.queues[name]
	if !found {
		s.mu.Unlock()
		return core.Message{}, false, core.ErrQueueNotFound
	}
	changed := s.returnUnacknowledgedLocked(q)
	changed = s.sweepLocked(q) || changed
	var inflight int64
	for _, m := range q.msgs {
		if m.InFlight {
			inflight++
		}
	}
	limit := q.settings.MaxDeliveredUnackedMsgsPerFlow
	if qos == 0 || limit == 0 || inflight < limit {
		for i, m := range q.msgs {
			if m.InFlight {
				continue
			}
			m.DeliveryCount++
			if m.DeliveryCount > 1 {
				s.Counters.CountBroker(func(b *core.BrokerStats) { b.Redelivered++ })
			}
			s.Counters.CountBroker(func(b *core.BrokerStats) { b.Delivered++ })
			if qos == 0 {
				q.remove(i)
			} else {
				m.InFlight = true
			}
			msg, ok, changed = m.view(), true, true
			break
		}
	}
	s.mu.Unlock()
	if changed {
		s.SaveState()
	}
	return msg, ok, nil
}

// Ack acknowledges the unacknowledged message id of queue name and removes it.
func (s *EventMesh) Ack(name, id string) error {
	s.mu.Lock()
	q, ok := s.queues[name]
	if !ok {
		s.mu.Unlock()
		return core.ErrQueueNotFound
	}
	i, m := q.find(id)
	if m == nil || !m.InFlight {
		s.mu.Unlock()
		return core.ErrMessageNotFound
	}
	q.remove(i)
	s.Counters.CountBroker(func(b *core.BrokerStats) { b.Acknowledged++ })
	s.mu.Unlock()
	s.SaveState()
	return nil
}

// Reject rejects (NACKs) the unacknowledged message id of queue name, as a
// consumer does with delivery status REJECTED. The message is redelivered
// while its delivery count is at most the queue's maxRedeliveryCount;
// otherwise it moves to the queue's deadMsgQueue, or is discarded without one.
// With maxRedeliveryCount 0 (unlimited) it is redelivered until
// Options.RedeliveryCap deliveries, then discarded with OutcomeRedeliveryCapReached.
func (s *EventMesh) Reject(name, id string) (core.RejectResult, error) {
	s.mu.Lock()
	q, ok := s.queues[name]
	if !ok {
		s.mu.Unlock()
		return core.RejectResult{}, core.ErrQueueNotFound
	}
	i, m := q.find(id)
	if m == nil || !m.InFlight {
		s.mu.Unlock()
		return core.RejectResult{}, core.ErrMessageNotFound
	}
	s.Counters.CountBroker(func(b *core.BrokerStats) { b.Rejected++ })
	res := s.rejectLocked(q, i, m, name)
	s.mu.Unlock()
	s.SaveState()
	return res, nil
}

// rejectLocked decides what becomes of the unacknowledged message m, at
// index i of queue q (named name), after a failed delivery: it is
// redelivered while its delivery count is within the queue's
// maxRedeliveryCount (or Options.RedeliveryCap when that is 0), otherwise
// it is discarded with OutcomeRedeliveryCapReached (unlimited queues) or
// dead-lettered. The caller holds s.mu and counts the failure itself.
func (s *EventMesh) rejectLocked(q *queue, i int, m *message, name string) core.RejectResult {
	res := core.RejectResult{Queue: name, MessageID: m.ID, DeliveryCount: m.DeliveryCount}
	limit := q.settings.MaxRedeliveryCount
	switch {
	case limit == 0 && m.DeliveryCount < s.Opts.RedeliveryCap, limit > 0 && m.DeliveryCount <= limit:
		m.InFlight = false
		res.Outcome = core.OutcomeRedelivered
	case limit == 0:
		q.remove(i)
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.RedeliveryCapReached++; b.Discarded++ })
		res.Outcome = core.OutcomeRedeliveryCapReached
		res.Reason = fmt.Sprintf("Queue %q has maxRedeliveryCount 0, which redelivers without limit; the emulator stopped after %d deliveries.", name, m.DeliveryCount)
	default:
		q.remove(i)
		outcome, detail := s.deadLetterLocked(q, m)
		res.Outcome = outcome
		if outcome == core.OutcomeDeadLettered {
			res.DeadMsgQueue = detail
		} else {
			res.Reason = detail
		}
	}
	return res
}

// Messages returns the messages of queue name in order, and whether the queue exists.
func (s *EventMesh) Messages(name string) ([]core.Message, bool) {
	s.mu.Lock()
	q, ok := s.queues[name]
	if !ok {
		s.mu.Unlock()
		return nil, false
	}
	changed := s.returnUnacknowledgedLocked(q)
	changed = s.sweepLocked(q) || changed
	out := make([]core.Message, 0, len(q.msgs))
	for _, m := range q.msgs {
		out = append(out, m.view())
	}
	s.mu.Unlock()
	if changed {
		s.SaveState()
	}
	return out, true
}

func (s *EventMesh) mountMessaging(mux *http.ServeMux) {
	// Every messaging API operation is a POST.
	post := func(rel string, h http.HandlerFunc) {
		s.Route(mux, http.MethodPost, core.MessagingBasePath+rel, http.MethodPost+" "+core.MessagingBasePath+rel, s.auth.RequireAuth(core.AudienceMessaging, h))
	}
	post("/queues/{queue}/messages", s.handlePublish) // messaging_consume.go
	post("/topics/{topic}/messages", s.handlePublishTopic)
	post("/queues/{queue}/messages/consumption", s.handleConsume)      // messaging_consume.go
	post("/queues/{queue}/messages/{id}/acknowledgement", s.handleAck) // messaging_consume.go
}

// parseQoS reads the mandatory x-qos header.
func parseQoS(r *http.Request) (int, error) {
	switch strings.TrimSpace(r.Header.Get("x-qos")) {
	case "0":
		return 0, nil
	case "1":
		return 1, nil
	}
	return 0, core.Msgf("x-qos is invalid. Set the header x-qos to 0 or 1.")
}

// maxPublishBody bounds what the messaging API reads; queues enforce their own size.
const maxPublishBody = MaxMaxMessageSizeInBytes + 1

func (s *EventMesh) readMessage(w http.ResponseWriter, r *http.Request) ([]byte, string, bool) {
	if _, err := parseQoS(r); err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return nil, "", false
	}
	if exp := r.Header.Get("x-message-expiration"); exp != "" {
		if _, err := strconv.ParseInt(exp, 10, 64); err != nil {
			core.RespondMessage(w, http.StatusBadRequest, "x-message-expiration is invalid. Set an integer or leave the header out.")
			return nil, "", false
		}
	}
	body, err := core.ReadBody(w, r, maxPublishBody)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return nil, "", false
	}
	return body, r.Header.Get("Content-Type"), true
}

func (s *EventMesh) handlePublishTopic(w http.ResponseWriter, r *http.Request) {
	body, ct, ok := s.readMessage(w, r)
	if !ok {
		return
	}
	topic := r.PathValue("topic")
	if err := validTopic(topic); err != nil || strings.Contains(topic, "*") {
		core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The topic %q is not valid. Use '/'-separated, non-empty segments without wildcards.", topic))
		return
	}
	s.PublishTopic(topic, body, ct)
	w.WriteHeader(http.StatusNoContent)
}

// countConsumer adds delta to the consumers of a queue that its consumerCount reports.
func (s *EventMesh) countConsumer(queue string, delta int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.consumers[queue] += delta; s.consumers[queue] <= 0 {
		delete(s.consumers, queue)
	}
}

// Broker operations of the runtime.

// releaseMessage hands an unacknowledged message back to its queue without
// counting a rejection, as a consumer that stops does.
func (s *EventMesh) releaseMessage(name, id string) {
	s.mu.Lock()
	changed := false
	if q := s.queues[name]; q != nil {
		if _, m := q.find(id); m != nil && m.InFlight {
			m.InFlight = false
			changed = true
		}
	}
	s.mu.Unlock()
	if changed {
		s.SaveState()
	}
}

// expireLock takes back an unacknowledged message whose redelivery lock ran
// out. The broker counts it as a failed delivery: it is delivered again
// while its delivery count is within maxRedeliveryCount (or the emulator's
// RedeliveryCap when unlimited), otherwise it moves to the dead message
// queue as a rejected message does. ok is false when the message is gone.
func (s *EventMesh) expireLock(name, id string) (res core.RejectResult, ok bool) {
	s.mu.Lock()
	q := s.queues[name]
	if q == nil {
		s.mu.Unlock()
		return core.RejectResult{}, false
	}
	i, m := q.find(id)
	if m == nil || !m.InFlight {
		s.mu.Unlock()
		return core.RejectResult{}, false
	}
	res = s.rejectLocked(q, i, m, name)
	s.mu.Unlock()
	s.SaveState()
	return res, true
}

// discardMessage removes an unacknowledged message without dead-lettering it.
func (s *EventMesh) discardMessage(name, id string) {
	s.mu.Lock()
	changed := false
	if q := s.queues[name]; q != nil {
		if i, m := q.find(id); m != nil && m.InFlight {
			q.remove(i)
			s.Counters.CountBroker(func(b *core.BrokerStats) { b.Discarded++ })
			changed = true
		}
	}
	s.mu.Unlock()
	if changed {
		s.SaveState()
	}
}

// Broker returns the broker as Cloud Integration's runtime consumes it, the
// way a tenant's AMQP sender channels do (core.EventMeshBroker); the emulator
// wires it into the runtime.
func (s *EventMesh) Broker() core.EventMeshBroker { return runtimeBroker{s} }

// runtimeBroker is EventMesh seen through core.EventMeshBroker: Consume, Ack
// and Reject are the broker's Go API, the rest the runtime's own operations.
type runtimeBroker struct{ *EventMesh }

func (b runtimeBroker) CountConsumer(queue string, delta int64) { b.countConsumer(queue, delta) }
func (b runtimeBroker) ReleaseMessage(name, id string)          { b.releaseMessage(name, id) }
func (b runtimeBroker) DiscardMessage(name, id string)          { b.discardMessage(name, id) }
func (b runtimeBroker) ExpireLock(name, id string) (core.RejectResult, bool) {
	return b.expireLock(name, id)
}

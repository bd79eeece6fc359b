package eventmesh

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// The messaging REST API's publish, consumption and acknowledgement, as
// specs/messaging.json (the community-written description of SAP's
// "messagingrest-api-spec") and SAP's "Publish and Consume Events"
// (SAP-docs btp-integration-suite ISuite/50-Development/publish-and-consume-events-8e296d9.md)
// describe them:
//
//   - POST /queues/{queue}/messages with x-qos 0 or 1 and the payload: 204. The
//     Content-Type is kept with the message and given back on consumption.
//   - POST /queues/{queue}/messages/consumption with x-qos: 200 with the oldest
//     available message, its X-Message-Id and Content-Type; 204 when none is
//     available; 404 for a missing queue. With x-qos 0 the message is deleted at
//     once ("At Most Once"); with x-qos 1 it stays in the queue, unacknowledged,
//     until the client acknowledges it ("At Least Once": Event Mesh "keeps
//     trying to redeliver the message" until it is acknowledged, 8e296d9).
//   - POST /queues/{queue}/messages/{id}/acknowledgement: removes the message
//     (200; the spec lists 202, the client accepts both); 400 when the queue
//     holds no unacknowledged message with that ID.
//
// Assumed, because SAP documents no number and no event for it:
//
//   - An unacknowledged QoS 1 delivery returns to the queue after
//     Options.MessagingAckTimeout (default DefaultMessagingAckTimeout), counted
//     as a failed delivery as an expired lock of an AMQP delivery is: the
//     message is delivered again while within the queue's maxRedeliveryCount,
//     and goes to its dead message queue after it. "At Least Once" means a
//     delivery nobody acknowledges cannot stay hidden for ever; the emulator
//     is not more lenient than that by giving the message back sooner.
//   - A restarted broker gives every unacknowledged message back to its queue
//     (releaseAtRestart): the consumers' sessions ended with it, and an
//     acknowledgement of a delivery from before the restart is answered 400.
//   - Message properties: the publish request's CloudEvents headers ("ce-*",
//     the HTTP binary binding's context attributes) are kept with the message
//     and given back as headers on consumption; no other request header is.
//     SAP documents no list of carried headers; the emulator carries this set
//     so that a client that drops what it was given shows, and carries nothing
//     the REST API does not name (AMQP properties the REST API does not expose
//     are not carried).

// DefaultMessagingAckTimeout is Options.MessagingAckTimeout when it is zero (assumed; see above).
const DefaultMessagingAckTimeout = 60 * time.Second

// maxMessageHeaders bounds the carried headers of one message (assumed: a bound of the emulator's own).
const maxMessageHeaders = 64

// messageHeaderPrefix names the request headers a publish keeps with the message (assumed; see above).
const messageHeaderPrefix = "ce-"

func (s *EventMesh) ackTimeout() time.Duration {
	if s.Opts.MessagingAckTimeout > 0 {
		return s.Opts.MessagingAckTimeout
	}
	return DefaultMessagingAckTimeout
}

// releaseAtRestart gives an unacknowledged message of a state file back to its queue:
// no consumer of the stopped broker can acknowledge it any more.
func releaseAtRestart(m *message) {
	m.InFlight = false
	m.AckBy = nil
}

// returnUnacknowledgedLocked returns the QoS 1 REST deliveries of q whose
// acknowledgement time has passed, as failed deliveries. The caller holds s.mu.
func (s *EventMesh) returnUnacknowledgedLocked(q *queue) bool {
	now := s.Now()
	var due []string
	for _, m := range q.msgs {
		if m.InFlight && m.AckBy != nil && !now.Before(*m.AckBy) {
			due = append(due, m.ID)
		}
	}
	for _, id := range due {
		i, m := q.find(id)
		if m == nil {
			continue
		}
		m.AckBy = nil
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.AckTimedOut++ })
		s.rejectLocked(q, i, m, q.name)
	}
	return len(due) > 0
}

// messageHeaders picks the request headers a publish keeps with the message.
func messageHeaders(r *http.Request) (map[string]string, error) {
	var out map[string]string
	for name, values := range r.Header {
		lower := strings.ToLower(name)
		if !strings.HasPrefix(lower, messageHeaderPrefix) || len(values) == 0 {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		if len(out) == maxMessageHeaders {
			return nil, fmt.Errorf("the message has more than %d %s headers. Send fewer headers", maxMessageHeaders, messageHeaderPrefix)
		}
		out[lower] = strings.Join(values, ", ")
	}
	return out, nil
}

// PublishWithHeaders enqueues a message with its carried headers on queue name and returns its ID.
func (s *EventMesh) PublishWithHeaders(name string, body []byte, contentType string, headers map[string]string) (string, error) {
	s.mu.Lock()
	q, ok := s.queues[name]
	if !ok {
		s.mu.Unlock()
		return "", core.ErrQueueNotFound
	}
	s.sweepLocked(q)
	id, err := s.enqueueLocked(q, body, contentType)
	if err == nil && len(headers) > 0 {
		m := q.msgs[len(q.msgs)-1]
		m.Headers = make(map[string]string, len(headers))
		for k, v := range headers {
			m.Headers[strings.ToLower(k)] = v
		}
	}
	s.mu.Unlock()
	if err == nil {
		s.SaveState()
	}
	return id, err
}

func (s *EventMesh) handlePublish(w http.ResponseWriter, r *http.Request) {
	body, ct, ok := s.readMessage(w, r)
	if !ok {
		return
	}
	headers, err := messageHeaders(r)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	name := r.PathValue("queue")
	_, err = s.PublishWithHeaders(name, body, ct, headers)
	switch {
	case errors.Is(err, core.ErrQueueNotFound):
		queueNotFound(w, name)
	case errors.Is(err, core.ErrMessageTooLarge):
		core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The message has %d bytes, more than the maxMessageSizeInBytes of queue %q. Send a smaller message.", len(body), name))
	case errors.Is(err, core.ErrQueueFull):
		core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("Queue %q is full. Consume messages or raise its limits.", name))
	case err != nil:
		core.RespondMessage(w, http.StatusInternalServerError, err.Error())
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// consumeREST delivers the next message of queue name to a REST client; a
// QoS 1 delivery must be acknowledged within the acknowledgement timeout.
func (s *EventMesh) consumeREST(name string, qos int) (core.Message, bool, error) {
	msg, ok, err := s.Consume(name, qos)
	if err != nil || !ok || qos == 0 {
		return msg, ok, err
	}
	s.mu.Lock()
	if q := s.queues[name]; q != nil {
		if _, m := q.find(msg.ID); m != nil && m.InFlight {
			by := s.Now().Add(s.ackTimeout())
			m.AckBy = &by
		}
	}
	s.mu.Unlock()
	s.SaveState()
	return msg, true, nil
}

func (s *EventMesh) handleConsume(w http.ResponseWriter, r *http.Request) {
	qos, err := parseQoS(r)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	name := r.PathValue("queue")
	msg, ok, err := s.consumeREST(name, qos)
	if errors.Is(err, core.ErrQueueNotFound) {
		queueNotFound(w, name)
		return
	}
	if !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	ct := msg.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	for k, v := range msg.Headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("X-Message-Id", msg.ID)
	w.Header().Set("x-qos", strconv.Itoa(qos))
	w.Header().Set("Content-Length", strconv.Itoa(len(msg.Body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(msg.Body))
}

// ackREST acknowledges a REST delivery: one whose acknowledgement time has
// passed is back in the queue and no longer acknowledgeable.
func (s *EventMesh) ackREST(name, id string) error {
	s.mu.Lock()
	changed := false
	if q := s.queues[name]; q != nil {
		changed = s.returnUnacknowledgedLocked(q)
	}
	s.mu.Unlock()
	if changed {
		s.SaveState()
	}
	return s.Ack(name, id)
}

func (s *EventMesh) handleAck(w http.ResponseWriter, r *http.Request) {
	name, id := r.PathValue("queue"), r.PathValue("id")
	switch err := s.ackREST(name, id); {
	case errors.Is(err, core.ErrQueueNotFound):
		queueNotFound(w, name)
	case errors.Is(err, core.ErrMessageNotFound):
		core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("Queue %q has no unacknowledged message %q. Acknowledge the X-Message-Id of a message consumed with x-qos 1, before its delivery returned to the queue.", name, id))
	default:
		w.WriteHeader(http.StatusOK)
	}
}

package eventmesh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// Queue defaults and limits of the emulated Event Mesh. Each one names its
// source; the table in doc.go lists them all.
const (
	// Default NON_EXCLUSIVE: the management API reference (help.sap.com
	// "rest-management-messaging", QueueP). The two values: SAP-docs
	// btp-integration-suite, ISuite_Event_Mesh/create-a-queue-95357fa.md, step 4.
	DefaultAccessType = "NON_EXCLUSIVE"
	// "The default and maximum supported queue size are 1.5 GB (in bytes)"
	// (create-a-queue-95357fa.md, step 5).
	DefaultMaxQueueSizeInBytes = 1572864000
	// "The default and maximum supported size are 1 MB (in bytes)"
	// (create-a-queue-95357fa.md, step 6). Read as 1000000 bytes, the smaller
	// reading of "1 MB", so that the emulator is never more lenient than SAP.
	DefaultMaxMessageSizeInBytes = 1000000
	MaxMaxMessageSizeInBytes     = DefaultMaxMessageSizeInBytes
	// A queue of the default plan of SAP Event Mesh was seen holding
	// maxMessageSizeInBytes 10000000 (reference note sap-apis.md, section 1),
	// above the documented maximum. The emulator holds it only on a queue
	// seeded as such a service holds it (SeedQueue, or a state file) and
	// takes it back unchanged on a PUT that replaces that queue's settings;
	// a PUT never sets it anew, and no message above 1 MB is taken (see
	// enqueueLocked).
	DefaultPlanMaxMessageSizeInBytes = 10000000
	// Assumed: SAP documents no default for maxDeliveredUnackedMsgsPerFlow;
	// the emulator needs one to show on read.
	DefaultMaxDeliveredUnackedMsgsPerFlow = 10000
	// "The maximum value that you can define is 255" (create-a-queue-95357fa.md, step 8).
	MaxRedeliveryCountLimit = 255
	// "The default and maximum supported duration are 7 days (in seconds)"
	// (create-a-queue-95357fa.md, step 10).
	MaxTTLLimit = 604800
	// "The queue name must be limited to 164 characters" (create-a-queue-95357fa.md).
	MaxQueueNameLength = 164
	// Assumed: SAP documents no length limit for topic patterns in the
	// management API; the emulator keeps a bound of its own.
	maxTopicLength = 150
)

// queueNamePattern is the management API's queue name pattern. Go's regexp
// package refuses its nested repeat counts, so validQueueName checks it by hand.
const queueNamePattern = `^[a-zA-Z0-9-_.]{1,111}(?:/[a-zA-Z0-9-_.]{1,109}){0,19}$`

// Queue is a queue as the management API serialises it. Unset optional
// settings are nil and serialise as JSON null, as the real service does.
type Queue struct {
	Name string `json:"name"`
	// The settings (their fields are Queue's, in JSON as in Go).
	queueSettings
	MessageCount               int64 `json:"messageCount"`
	UnacknowledgedMessageCount int64 `json:"unacknowledgedMessageCount"`
	QueueSizeInBytes           int64 `json:"queueSizeInBytes"`
	ConsumerCount              int64 `json:"consumerCount"`
}

// Subscription is a topic subscription of a queue.
type Subscription struct {
	QueueName    string `json:"queueName"`
	TopicPattern string `json:"topicPattern"`
}

// queueSettings are the writable settings of a queue (QueueP).
type queueSettings struct {
	AccessType                     string  `json:"accessType"`
	MaxQueueSizeInBytes            int64   `json:"maxQueueSizeInBytes"`
	MaxMessageSizeInBytes          int64   `json:"maxMessageSizeInBytes"`
	MaxQueueMessageCount           *int64  `json:"maxQueueMessageCount"`
	MaxDeliveredUnackedMsgsPerFlow int64   `json:"maxDeliveredUnackedMsgsPerFlow"`
	MaxRedeliveryCount             int64   `json:"maxRedeliveryCount"`
	DeadMsgQueue                   *string `json:"deadMsgQueue"`
	RespectTTL                     *bool   `json:"respectTtl"`
	MaxTTL                         *int64  `json:"maxTtl"`
}

func defaultSettings() queueSettings {
	return queueSettings{
		AccessType:                     DefaultAccessType,
		MaxQueueSizeInBytes:            DefaultMaxQueueSizeInBytes,
		MaxMessageSizeInBytes:          DefaultMaxMessageSizeInBytes,
		MaxDeliveredUnackedMsgsPerFlow: DefaultMaxDeliveredUnackedMsgsPerFlow,
	}
}

// queue is the emulator's state of one queue.
// EventMesh is the room of the Event Mesh instance: its queues with their
// messages and subscriptions under one lock, the management API, the
// messaging REST API with the broker behind it, and the readiness endpoint.
// The deployed flows of the Cloud Integration runtime consume its queues
// through the broker operations in broker.go.
type EventMesh struct {
	*core.Core
	auth *core.TokenService

	mu            sync.Mutex // guards queues, consumers, subscriptions, readiness
	queues        map[string]*queue
	consumers     map[string]int64 // queue name -> running flow consumers
	subscriptions int
	ready         bool
	readyAfter    time.Duration
}

func New(c *core.Core, auth *core.TokenService) *EventMesh {
	return &EventMesh{Core: c, auth: auth, queues: map[string]*queue{}, consumers: map[string]int64{}, ready: true}
}

type queue struct {
	name     string
	settings queueSettings
	subs     map[string]bool
	msgs     []*message // in enqueue order
}

// viewLocked is the service's view of q, with the consumers of the running integration flows
// that consume it. The caller holds s.mu.
func (s *EventMesh) viewLocked(q *queue) Queue {
	v := q.view()
	v.ConsumerCount = s.consumers[q.name]
	return v
}

func (q *queue) view() Queue {
	st := q.settings
	st.MaxQueueMessageCount = cloneInt(st.MaxQueueMessageCount)
	st.DeadMsgQueue = cloneString(st.DeadMsgQueue)
	st.RespectTTL = cloneBool(st.RespectTTL)
	st.MaxTTL = cloneInt(st.MaxTTL)
	v := Queue{Name: q.name, queueSettings: st}
	for _, m := range q.msgs {
		v.MessageCount++
		v.QueueSizeInBytes += int64(len(m.Body))
		if m.InFlight {
			v.UnacknowledgedMessageCount++
		}
	}
	return v
}

func cloneInt(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneString(p *string) *string {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneBool(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// queueBody is the PUT body. Every field is optional; null and absent alike
// mean the default. Unknown fields (such as the read-only counters) are ignored.
type queueBody struct {
	AccessType                     *string `json:"accessType"`
	MaxQueueSizeInBytes            *int64  `json:"maxQueueSizeInBytes"`
	MaxMessageSizeInBytes          *int64  `json:"maxMessageSizeInBytes"`
	MaxQueueMessageCount           *int64  `json:"maxQueueMessageCount"`
	MaxDeliveredUnackedMsgsPerFlow *int64  `json:"maxDeliveredUnackedMsgsPerFlow"`
	MaxRedeliveryCount             *int64  `json:"maxRedeliveryCount"`
	DeadMsgQueue                   *string `json:"deadMsgQueue"`
	RespectTTL                     *bool   `json:"respectTtl"`
	MaxTTL                         *int64  `json:"maxTtl"`
}

// parseQueueSettings turns a PUT body into the complete settings: PUT replaces
// the settings, so absent fields take their defaults. held is the
// maxMessageSizeInBytes that the queue being replaced holds (0 for a new
// queue): a value above MaxMaxMessageSizeInBytes passes only when it is held,
// so that a client that writes back the settings it read, changing another
// one, keeps a default-plan queue as it is (assumed: the service takes back a
// value it holds; SAP documents no refusal of it).
func parseQueueSettings(body []byte, held int64) (queueSettings, error) {
	st := defaultSettings()
	body = bytes.TrimSpace(body)
	if len(body) == 0 || string(body) == "null" {
		return st, nil
	}
	var b queueBody
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&b); err != nil {
		return st, core.Msgf("The request body is not a valid queue: %v. Send a JSON object with the queue settings.", err)
	}
	if dec.More() {
		return st, core.Msgf("The request body holds more than one JSON value. Send one JSON object with the queue settings.")
	}
	if b.AccessType != nil {
		switch *b.AccessType {
		case "EXCLUSIVE", "NON_EXCLUSIVE":
			st.AccessType = *b.AccessType
		default:
			return st, core.Msgf("accessType %q is not valid. Set EXCLUSIVE or NON_EXCLUSIVE.", *b.AccessType)
		}
	}
	checkRange := func(field string, v *int64, lo, hi int64) error {
		if field == "maxMessageSizeInBytes" && v != nil && *v > hi && *v == held {
			return nil
		}
		if v != nil && (*v < lo || *v > hi) {
			return core.Msgf("%s %d is out of range. Set a value between %d and %d.", field, *v, lo, hi)
		}
		return nil
	}
	const maxInt = int64(^uint64(0) >> 1)
	for _, c := range []struct {
		field  string
		v      *int64
		lo, hi int64
	}{
		// 0 for the queue size and message count: the service holds it on a queue created without
		// them (see queue.room). Not for the message size, the unacknowledged messages and the time
		// to live: SAP documents no meaning of 0 for them (create-a-queue-95357fa.md steps 6, 7 and
		// 10 describe a size a message may have, a threshold of unacknowledged messages and a time a
		// message may stay) and no queue holding 0 has been seen, so the emulator refuses it,
		// assumed, to be never more lenient than SAP documents.
		{"maxQueueSizeInBytes", b.MaxQueueSizeInBytes, 0, DefaultMaxQueueSizeInBytes},
		{"maxMessageSizeInBytes", b.MaxMessageSizeInBytes, 1, MaxMaxMessageSizeInBytes},
		{"maxQueueMessageCount", b.MaxQueueMessageCount, 0, maxInt},
		{"maxDeliveredUnackedMsgsPerFlow", b.MaxDeliveredUnackedMsgsPerFlow, 1, maxInt},
		{"maxRedeliveryCount", b.MaxRedeliveryCount, 0, MaxRedeliveryCountLimit},
		{"maxTtl", b.MaxTTL, 1, MaxTTLLimit},
	} {
		if err := checkRange(c.field, c.v, c.lo, c.hi); err != nil {
			return st, err
		}
	}
	if b.MaxQueueSizeInBytes != nil {
		st.MaxQueueSizeInBytes = *b.MaxQueueSizeInBytes
	}
	if b.MaxMessageSizeInBytes != nil {
		st.MaxMessageSizeInBytes = *b.MaxMessageSizeInBytes
	}
	if b.MaxDeliveredUnackedMsgsPerFlow != nil {
		st.MaxDeliveredUnackedMsgsPerFlow = *b.MaxDeliveredUnackedMsgsPerFlow
	}
	if b.MaxRedeliveryCount != nil {
		st.MaxRedeliveryCount = *b.MaxRedeliveryCount
	}
	st.MaxQueueMessageCount = b.MaxQueueMessageCount
	st.MaxTTL = b.MaxTTL
	st.RespectTTL = b.RespectTTL
	if b.DeadMsgQueue != nil && *b.DeadMsgQueue != "" {
		// Whether the dead message queue exists is checked by the caller under
		// the server lock (see handlePutQueue).
		if err := validQueueName(*b.DeadMsgQueue); err != nil {
			return st, core.Msgf("deadMsgQueue %q is not a valid queue name. Set the full name of an existing queue.", *b.DeadMsgQueue)
		}
		st.DeadMsgQueue = b.DeadMsgQueue
	}
	return st, nil
}

// validQueueName checks name against the management API's queue name pattern.
func validQueueName(name string) error {
	segs := strings.Split(name, "/")
	ok := len(segs) <= 20
	for i, seg := range segs {
		limit := 109
		if i == 0 {
			limit = 111
		}
		if !ok || len(seg) < 1 || len(seg) > limit {
			ok = false
			break
		}
		for _, c := range []byte(seg) {
			if !isQueueNameByte(c) {
				ok = false
				break
			}
		}
	}
	if !ok {
		return core.Msgf("The queue name %q does not match the pattern %s. Use letters, digits, '-', '_' and '.', with '/' between up to 20 segments.", name, queueNamePattern)
	}
	if len(name) > MaxQueueNameLength {
		return core.Msgf("The queue name %q is %d characters long. Use at most %d characters.", name, len(name), MaxQueueNameLength)
	}
	return nil
}

// isQueueNameByte reports whether c may appear inside a queue name segment.
func isQueueNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

func validTopic(topic string) error {
	if topic == "" || len(topic) > maxTopicLength || strings.HasPrefix(topic, "/") || strings.HasSuffix(topic, "/") ||
		strings.Contains(topic, "//") || strings.ContainsAny(topic, " \t\r\n") {
		return core.Msgf("The topic pattern %q is not valid. Use up to %d characters in '/'-separated, non-empty segments without spaces.", topic, maxTopicLength)
	}
	return nil
}

func (s *EventMesh) mountManagement(mux *http.ServeMux) {
	m := func(method, rel string, h http.HandlerFunc) {
		s.Route(mux, method, core.ManagementBasePath+rel, method+" "+rel, s.auth.RequireAuth(core.AudienceManagement, h))
	}
	m("GET", "/queues", s.handleListQueues)
	m("GET", "/queues/{queue}", s.handleGetQueue)
	m("PUT", "/queues/{queue}", s.HandlePutQueue)
	m("DELETE", "/queues/{queue}", s.handleDeleteQueue)
	m("GET", "/queues/{queue}/subscriptions", core.FoundJSON("queue", s.subscriptionList, queueMissing))
	m("PUT", "/queues/{queue}/subscriptions/{topic}", s.HandlePutSubscription)
	m("DELETE", "/queues/{queue}/subscriptions/{topic}", s.handleDeleteSubscription)
	m("GET", "/readinessCheck", s.handleReadiness)
}

// queueMissing is the message of a 404 for a queue that does not exist.
const queueMissing = "Queue %q does not exist."

func queueNotFound(w http.ResponseWriter, name string) {
	core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf(queueMissing, name))
}

// lockQueue locks s.mu and returns queue name; when there is none, it unlocks, answers 404 and returns false.
func (s *EventMesh) lockQueue(w http.ResponseWriter, name string) (*queue, bool) {
	s.mu.Lock()
	q, ok := s.queues[name]
	if !ok {
		s.mu.Unlock()
		queueNotFound(w, name)
	}
	return q, ok
}

func (s *EventMesh) handleListQueues(w http.ResponseWriter, _ *http.Request) {
	changed := s.sweepAll()
	qs := s.Queues()
	if changed {
		s.SaveState()
	}
	core.RespondJSON(w, http.StatusOK, qs)
}

func (s *EventMesh) handleGetQueue(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("queue")
	s.mu.Lock()
	q, ok := s.queues[name]
	var v Queue
	changed := false
	if ok {
		changed = s.sweepLocked(q)
		v = s.viewLocked(q)
	}
	s.mu.Unlock()
	if changed {
		s.SaveState()
	}
	if !ok {
		queueNotFound(w, name)
		return
	}
	core.RespondJSON(w, http.StatusOK, v)
}

func (s *EventMesh) HandlePutQueue(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("queue")
	if err := validQueueName(name); err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	body, err := core.ReadBody(w, r, 1<<20)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	var held int64
	if q, ok := s.queues[name]; ok {
		held = q.settings.MaxMessageSizeInBytes
	}
	st, err := parseQueueSettings(body, held)
	if err != nil {
		s.mu.Unlock()
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	v, created, err := s.putQueueLocked(name, st)
	s.mu.Unlock()
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	s.SaveState()
	if !created {
		core.RespondJSON(w, http.StatusOK, v)
		return
	}
	core.RespondJSON(w, http.StatusCreated, v)
}

// SeedQueue creates queue name, or replaces its settings, as a service that
// already holds it: body is a queue as PUT takes it, under the management
// API's rules, except that maxMessageSizeInBytes may be
// DefaultPlanMaxMessageSizeInBytes, which a queue of the default plan of SAP
// Event Mesh was seen holding (reference note sap-apis.md, section 1). Tests
// and sandboxes use it to stand for a queue made before the provider.
func (s *EventMesh) SeedQueue(name string, body []byte) error {
	if err := validQueueName(name); err != nil {
		return err
	}
	st, err := parseQueueSettings(body, DefaultPlanMaxMessageSizeInBytes)
	if err != nil {
		return err
	}
	s.mu.Lock()
	_, _, err = s.putQueueLocked(name, st)
	s.mu.Unlock()
	if err == nil {
		s.SaveState()
	}
	return err
}

// putQueueLocked creates queue name with settings st, or replaces its
// settings, and returns its view and whether it was created. The caller holds
// s.mu and saves the state.
func (s *EventMesh) putQueueLocked(name string, st queueSettings) (Queue, bool, error) {
	q, exists := s.queues[name]
	// "You must first create a queue to use it as a dead message queue"
	// (create-a-queue-95357fa.md, step 9). The status and body of the refusal
	// are assumed: SAP documents no management error responses, and 400 with a
	// message is how the management API answers other invalid settings.
	if d := st.DeadMsgQueue; d != nil {
		if _, ok := s.queues[*d]; !ok {
			return Queue{}, false, core.Msgf("The dead message queue %q does not exist. Create the queue %q first, then name it as deadMsgQueue of %q.", *d, *d, name)
		}
	}
	if !exists {
		if len(s.queues) >= s.Opts.MaxQueues {
			return Queue{}, false, core.Msgf("The instance already has %d queues, the maximum. Delete a queue before creating %q.", s.Opts.MaxQueues, name)
		}
		q = &queue{name: name, subs: map[string]bool{}}
		s.queues[name] = q
	}
	q.settings = st
	s.sweepLocked(q)
	return s.viewLocked(q), !exists, nil
}

func (s *EventMesh) handleDeleteQueue(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("queue")
	s.mu.Lock()
	q, ok := s.queues[name]
	if ok {
		s.subscriptions -= len(q.subs)
		delete(s.queues, name)
	}
	s.mu.Unlock()
	if !ok {
		queueNotFound(w, name)
		return
	}
	s.SaveState()
	w.WriteHeader(http.StatusNoContent)
}

// subscriptionList is the answer of GET .../queues/{queue}/subscriptions: the subscriptions of queue name.
func (s *EventMesh) subscriptionList(name string) ([]Subscription, bool) {
	subs, ok := s.Subscriptions(name)
	out := make([]Subscription, 0, len(subs))
	for _, t := range subs {
		out = append(out, Subscription{QueueName: name, TopicPattern: t})
	}
	return out, ok
}

func (s *EventMesh) HandlePutSubscription(w http.ResponseWriter, r *http.Request) {
	name, topic := r.PathValue("queue"), r.PathValue("topic")
	if err := validTopic(topic); err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	q, ok := s.lockQueue(w, name)
	if !ok {
		return
	}
	existed := q.subs[topic]
	if !existed {
		if s.subscriptions >= s.Opts.MaxSubscriptions {
			s.mu.Unlock()
			core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The instance already has %d subscriptions, the maximum. Delete a subscription before adding %q.", s.Opts.MaxSubscriptions, topic))
			return
		}
		q.subs[topic] = true
		s.subscriptions++
	}
	s.mu.Unlock()
	sub := Subscription{QueueName: name, TopicPattern: topic}
	if existed {
		core.RespondJSON(w, http.StatusOK, sub)
		return
	}
	s.SaveState()
	core.RespondJSON(w, http.StatusCreated, sub)
}

func (s *EventMesh) handleDeleteSubscription(w http.ResponseWriter, r *http.Request) {
	name, topic := r.PathValue("queue"), r.PathValue("topic")
	q, ok := s.lockQueue(w, name)
	if !ok {
		return
	}
	existed := q.subs[topic]
	if existed {
		delete(q.subs, topic)
		s.subscriptions--
	}
	s.mu.Unlock()
	if !existed {
		core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf("Queue %q has no subscription to %q.", name, topic))
		return
	}
	s.SaveState()
	w.WriteHeader(http.StatusNoContent)
}

func (s *EventMesh) handleReadiness(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	ready, after := s.ready, s.readyAfter
	s.mu.Unlock()
	if !ready {
		if after > 0 {
			w.Header().Set("Retry-After", strconv.FormatInt(core.CeilSeconds(after), 10))
		}
		core.RespondMessage(w, http.StatusServiceUnavailable, "The service instance is still being provisioned.")
		return
	}
	core.RespondJSON(w, http.StatusOK, map[string]string{"status": "UP"})
}

// SetReady sets what GET /readinessCheck answers: 200 when ready, otherwise
// 503 with a Retry-After of retryAfter (none when zero).
func (s *EventMesh) SetReady(ready bool, retryAfter time.Duration) {
	s.mu.Lock()
	s.ready, s.readyAfter = ready, retryAfter
	s.mu.Unlock()
}

// Queue returns the queue name as GET /queues/{queue} would, and whether it exists.
func (s *EventMesh) Queue(name string) (Queue, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.queues[name]
	if !ok {
		return Queue{}, false
	}
	s.sweepLocked(q)
	return s.viewLocked(q), true
}

// Queues returns all queues sorted by name.
func (s *EventMesh) Queues() []Queue {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Queue, 0, len(s.queues))
	for _, q := range s.queues {
		out = append(out, s.viewLocked(q))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Subscriptions returns the topic patterns of queue name, sorted, and whether the queue exists.
func (s *EventMesh) Subscriptions(name string) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.queues[name]
	if !ok {
		return nil, false
	}
	return slices.Sorted(maps.Keys(q.subs)), true
}

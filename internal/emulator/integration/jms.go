package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// The JMS message broker of the emulated Cloud Integration tenant: the
// queues that JMS receiver channels fill and JMS sender channels consume,
// the monitoring API over them, and a control endpoint to put messages.
//
// Sources are those of the project's reference note on the Cloud Integration
// JMS adapter (../shared/reference/cpi-jms.md beside the repository),
// which quotes SAP's documentation:
//
//   - Tenant limits [SAP "JMS Resource Limits and Optimizing Their Usage",
//     4857054]: 30 queues and 9.3 GB capacity by default (raised by self
//     service to 100 queues and 30 GB), 300 MB per queue, one queue at most
//     95% of the capacity, queues are never deleted automatically.
//   - Capacity status [SAP "Checking JMS Resources", 6a9c030]: Critical when
//     less than 20% is free, Exhausted at 95%; the queues count is Critical
//     when at most one more queue fits.
//   - Queue names [SAP "Configure the JMS Sender Adapter", 161791b]: letters,
//     digits and underscore, at most 80 characters.
//   - Expiration Period [SAP "Configure the JMS Receiver Adapter", 79edc04]:
//     default 30 days, at most 180; Retention Threshold for Alerting default
//     2 days, after which a message is Overdue.
//   - The API [SAP "JMS Resources: Example Requests", c6c00d5]:
//     GET /JmsBrokers('Broker1') with $expand=QueueStates (state per queue,
//     0 OK, 1 warning, 2 critical) or $expand=InactiveQueues (stopped
//     queues). GET /Queues and /Queues('<name>')/Messages are not documented
//     but are in the tenant's $metadata (community clients); their field
//     names follow that metadata.
//
// OData v2 JSON writes Edm.Int64 values as strings, so the Int64 fields
// (capacities, sizes, timestamps) are strings here as on a tenant.

// Defaults of the JMS broker options.
const (
	// DefaultJMSMaxQueues is the tenant's default queue limit [SAP 4857054].
	DefaultJMSMaxQueues = 30
	// DefaultJMSMaxCapacity is the tenant's default capacity, 9.3 GB
	// [SAP 4857054]. SAP does not say whether GB is 10^9 or 2^30 bytes;
	// assumed 10^9, the smaller, so the emulator is not more lenient.
	DefaultJMSMaxCapacity int64 = 9_300_000_000
	// JMSQueueMaxBytes is the capacity of one queue, 300 MB [SAP 4857054];
	// decimal megabytes assumed for the same reason.
	JMSQueueMaxBytes int64 = 300_000_000
	// DefaultJMSMinute is the real duration of one minute of the JMS
	// retry schedule: by default time is not scaled.
	DefaultJMSMinute = time.Minute
	// jmsBrokerKey is the only broker of a tenant [SAP c6c00d5].
	jmsBrokerKey = "Broker1"
	// jmsMaxQueueName is the longest queue name [SAP 161791b].
	jmsMaxQueueName = 80
	// jmsRetentionDays is the default Retention Threshold for Alerting [SAP 79edc04].
	jmsRetentionDays = 2
	// jmsMaxBodyBytes bounds a message put through the control endpoint. SAP
	// allows 1280 MB per message [SAP 4857054]; the emulator keeps its
	// messages in memory and accepts 16 MB (its own, stricter, bound).
	jmsMaxBodyBytes = 16 << 20
)

// Access types of a JMS queue [SAP 161791b].
const (
	JMSNonExclusive = "Non-Exclusive"
	JMSExclusive    = "Exclusive"
)

// Expiration bounds of a JMS message in days [SAP 79edc04].
const (
	DefaultJMSExpirationDays = 30
	MaxJMSExpirationDays     = 180
)

var jmsQueueNameRE = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// jmsState is the JMS broker.
type jmsState struct {
	mu     sync.Mutex
	queues map[string]*jmsQueue
	seq    int64
	// The JMS clock: virtual = startVirtual + (real since startReal) × scale.
	startReal, startVirtual time.Time
	minute                  time.Duration
	maxQueues               int
	maxCapacity             int64
}

// jmsQueue is one JMS queue.
type jmsQueue struct {
	name, access string
	stopped      bool
	consumers    int // running JMS sender channels that consume the queue
	msgs         []*jmsMessage
}

// jmsMessage is one stored message.
type jmsMessage struct {
	id, mplID string
	body      []byte
	created   time.Time
	overdue   time.Time
	expires   time.Time
	nextRetry time.Time // due time of the next execution (created for a new message)
	retries   int64     // failed executions so far: the number of the next retry and its SAPJMSRetries
	lastWait  int64     // minutes waited before the next retry (0 before the first failure)
	failed    bool
	lastFlow  string // the flow that executed it last
}

func newJMSState(opts core.Options, now time.Time) *jmsState {
	return &jmsState{queues: map[string]*jmsQueue{}, startReal: time.Now(), startVirtual: now,
		minute:      core.OrDefault(opts.JMSMinute, DefaultJMSMinute),
		maxQueues:   core.OrDefault(opts.JMSMaxQueues, DefaultJMSMaxQueues),
		maxCapacity: core.OrDefault(opts.JMSMaxCapacity, DefaultJMSMaxCapacity)}
}

// Now returns the JMS clock: real time scaled so that one JMS minute lasts
// Options.JMSMinute.
func (j *jmsState) Now() time.Time {
	elapsed := time.Since(j.startReal)
	scale := float64(time.Minute) / float64(j.minute)
	return j.startVirtual.Add(time.Duration(float64(elapsed) * scale))
}

// JMSNow returns the emulator's JMS clock (see Options.JMSMinute).
func (s *Runtime) JMSNow() time.Time { return s.jms.Now() }

func (j *jmsState) usedLocked() int64 {
	var n int64
	for _, q := range j.queues {
		n += q.size()
	}
	return n
}

func (q *jmsQueue) size() int64 {
	var n int64
	for _, m := range q.msgs {
		n += int64(len(m.body))
	}
	return n
}

// checkJMSQueueName explains a queue name SAP does not accept [SAP 161791b].
func checkJMSQueueName(name string) error {
	if name == "" || len(name) > jmsMaxQueueName || !jmsQueueNameRE.MatchString(name) {
		return core.Msgf("The queue name %q is not valid. Use 1 to %d letters, digits and underscores.", name, jmsMaxQueueName)
	}
	return nil
}

// ensureQueueLocked returns the queue name, creating it with access type
// access when it does not exist. It fails when the name is invalid, the
// tenant's queue limit is reached [SAP 4857054], or the queue exists with
// another access type, which SAP fixes once the queue exists [SAP 161791b].
func (j *jmsState) ensureQueueLocked(name, access string) (*jmsQueue, error) {
	if err := checkJMSQueueName(name); err != nil {
		return nil, err
	}
	if q := j.queues[name]; q != nil {
		if access != "" && q.access != access {
			return nil, core.Msgf("The queue %s exists with access type %s; the access type of a queue cannot change once it exists. Use access type %s or another queue.", name, q.access, q.access)
		}
		return q, nil
	}
	if len(j.queues) >= j.maxQueues {
		return nil, core.Msgf("The tenant already has %d JMS queues, its limit. Delete unused queues or raise the limit (up to 100 by self service) before using queue %s.", len(j.queues), name)
	}
	if access == "" {
		access = JMSNonExclusive
	}
	q := &jmsQueue{name: name, access: access}
	j.queues[name] = q
	return q, nil
}

// JMSMessageInput is a message put on a JMS queue through the control endpoint.
type JMSMessageInput struct {
	Body string `json:"body"`
	// ExpirationDays is the Expiration Period of the producing JMS receiver
	// (1 to 180, default 30) [SAP 79edc04].
	ExpirationDays int64 `json:"expiration_days"`
	// AccessType creates a missing queue as "Non-Exclusive" (default) or "Exclusive".
	AccessType string `json:"access_type"`
}

// PutJMSMessage stores a message on JMS queue name, as a JMS receiver
// channel does, and returns its id.
func (s *Runtime) PutJMSMessage(name string, in JMSMessageInput) (string, error) {
	if in.ExpirationDays == 0 {
		in.ExpirationDays = DefaultJMSExpirationDays
	}
	if in.ExpirationDays < 1 || in.ExpirationDays > MaxJMSExpirationDays {
		return "", core.Msgf("expiration_days is %d. Set a value from 1 to %d (the JMS receiver's Expiration Period).", in.ExpirationDays, MaxJMSExpirationDays)
	}
	switch in.AccessType {
	case "", JMSNonExclusive, JMSExclusive:
	default:
		return "", core.Msgf("access_type %q is not known. Set %q or %q.", in.AccessType, JMSNonExclusive, JMSExclusive)
	}
	j := s.jms
	now := j.Now()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.expireLocked(s, now)
	q, err := j.ensureQueueLocked(name, in.AccessType)
	if err != nil {
		return "", err
	}
	size := int64(len(in.Body))
	if q.size()+size > JMSQueueMaxBytes {
		return "", core.Msgf("The queue %s would exceed its capacity of %d bytes. Consume or delete its messages first.", name, JMSQueueMaxBytes)
	}
	// SAP: one queue may use at most 95% of the capacity, and the capacity is
	// Exhausted at 95% [SAP 4857054, 6a9c030]. What a tenant does with writes
	// when it is exhausted is not documented; assumed it refuses them, the
	// stricter choice.
	if used := j.usedLocked(); (used+size)*100 > j.maxCapacity*95 || (q.size()+size)*100 > j.maxCapacity*95 {
		return "", core.Msgf("The JMS capacity of the tenant would be exhausted (95%% of %d bytes). Consume or delete messages, or raise the capacity.", j.maxCapacity)
	}
	j.seq++
	m := &jmsMessage{id: fmt.Sprintf("ID:jms-%d", j.seq), mplID: newMPLID(), body: []byte(in.Body), created: now,
		overdue: now.Add(jmsRetentionDays * 24 * time.Hour), expires: now.Add(time.Duration(in.ExpirationDays) * 24 * time.Hour),
		nextRetry: now}
	q.msgs = append(q.msgs, m)
	return m.id, nil
}

// SetJMSQueueActive stops (active false) or starts a queue, as the monitor's
// Stop and Start do [SAP "Managing Queues", f116962]. A stopped queue keeps
// its messages and is not consumed.
func (s *Runtime) SetJMSQueueActive(name string, active bool) error {
	j := s.jms
	j.mu.Lock()
	defer j.mu.Unlock()
	q := j.queues[name]
	if q == nil {
		return fmt.Errorf("%w: %q", errJMSQueueNotFound, name)
	}
	q.stopped = !active
	return nil
}

var errJMSQueueNotFound = core.Msgf("there is no JMS queue with this name")

// jmsExpired is a message the broker deleted at its expiration.
type jmsExpired struct {
	flow, id, queue string
	at              time.Time
	retries         int64
}

// expireLocked deletes the messages past their expiration whose next
// execution falls after it (or that nothing consumes): SAP deletes a message automatically at its
// "Retain Until" date [SAP "Managing Messages Stored in Queues", 6733197].
func (j *jmsState) expireLocked(s *Runtime, now time.Time) {
	var gone []jmsExpired
	for _, q := range j.queues {
		keep := q.msgs[:0]
		for _, m := range q.msgs {
			// A retry due at or before the expiration still runs, even when
			// the consumer is late on the scaled clock; a message no consumer
			// reads, or whose next retry falls after its expiration, goes.
			if now.After(m.expires) && (m.nextRetry.After(m.expires) || q.consumers == 0) {
				gone = append(gone, jmsExpired{flow: m.lastFlow, id: m.id, queue: q.name, at: m.expires, retries: m.retries})
				continue
			}
			keep = append(keep, m)
		}
		for i := len(keep); i < len(q.msgs); i++ {
			q.msgs[i] = nil
		}
		q.msgs = keep
	}
	for _, g := range gone {
		if g.flow == "" {
			s.Logf("emulator: JMS message %s on queue %s expired unconsumed and was deleted", g.id, g.queue)
			continue
		}
		reason := fmt.Sprintf("The message failed %d times (the first execution and %d retries) and was deleted at its expiration (%s) without reaching any error queue; the JMS sender has no retry limit. Make the flow end the message when SAPJMSRetries reaches a limit.", g.retries, max(g.retries-1, 0), g.at.UTC().Format(time.RFC3339))
		s.Logf("emulator: JMS message %s on queue %s: %s", g.id, g.queue, reason)
		s.rt.mu.Lock()
		s.rt.settleLocked(g.flow, g.id, RunExpired, "", reason, g.at)
		s.rt.mu.Unlock()
	}
}

// Wire format of the JMS monitoring API.

type jmsMeta struct {
	ID   string `json:"id"`
	URI  string `json:"uri"`
	Type string `json:"type"`
}

// State values of queues and the broker [SAP c6c00d5].
const (
	jmsStateOK       = 0
	jmsStateWarning  = 1
	jmsStateCritical = 2
)

// fillState grades a fill ratio: Critical from 95% (Exhausted), warning from
// 80% (less than 20% free) [SAP 6a9c030]. Applying the capacity thresholds
// to a single queue is assumed: SAP documents the state values, not how a
// queue's state is derived.
func fillState(used, capacity int64) int {
	switch {
	case capacity <= 0:
		return jmsStateOK
	case used*100 >= capacity*95:
		return jmsStateCritical
	case used*100 >= capacity*80:
		return jmsStateWarning
	}
	return jmsStateOK
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *Runtime) jmsBrokerEntity(r *http.Request, expand map[string]bool) map[string]any {
	j := s.jms
	base := cpiBaseURI(r)
	uri := base + "/JmsBrokers('" + jmsBrokerKey + "')"
	j.mu.Lock()
	defer j.mu.Unlock()
	j.expireLocked(s, j.Now())
	used := j.usedLocked()
	st := fillState(used, j.maxCapacity)
	e := map[string]any{
		"__metadata":     jmsMeta{ID: uri, URI: uri, Type: "com.sap.hci.api.JmsBroker"},
		"Key":            jmsBrokerKey,
		"Capacity":       strconv.FormatInt(used, 10),
		"MaxCapacity":    strconv.FormatInt(j.maxCapacity, 10),
		"QueueNumber":    len(j.queues),
		"MaxQueueNumber": j.maxQueues,
		// CapacityOk/Warning/Error as 0/1 flags of the capacity status is
		// assumed: community clients list the fields without their meaning.
		"CapacityOk":               boolInt(st == jmsStateOK),
		"CapacityWarning":          boolInt(st == jmsStateWarning),
		"CapacityError":            boolInt(st == jmsStateCritical),
		"IsTransactedSessionsHigh": 0,
		"IsConsumersHigh":          0,
		"IsProducersHigh":          0,
		// Queues are Critical when at most one more fits [SAP 6a9c030].
		"IsQueuesHigh":       boolInt(len(j.queues) >= j.maxQueues-1),
		"IsMessageSpoolHigh": boolInt(st != jmsStateOK),
	}
	names := j.sortedQueueNamesLocked()
	if expand["QueueStates"] {
		states := []map[string]any{}
		for _, n := range names {
			q := j.queues[n]
			states = append(states, map[string]any{
				"__metadata": jmsMeta{ID: base + "/QueueStates('" + odataEscape(n) + "')", URI: base + "/QueueStates('" + odataEscape(n) + "')", Type: "com.sap.hci.api.QueueState"},
				"Name":       n, "State": fillState(q.size(), JMSQueueMaxBytes),
			})
		}
		e["QueueStates"] = map[string]any{"results": states}
	} else {
		e["QueueStates"] = cpiDeferred(uri + "/QueueStates")
	}
	if expand["InactiveQueues"] {
		inactive := []map[string]any{}
		for _, n := range names {
			if j.queues[n].stopped {
				inactive = append(inactive, map[string]any{
					"__metadata": jmsMeta{ID: base + "/InactiveQueues('" + odataEscape(n) + "')", URI: base + "/InactiveQueues('" + odataEscape(n) + "')", Type: "com.sap.hci.api.InactiveQueue"},
					"Name":       n,
				})
			}
		}
		e["InactiveQueues"] = map[string]any{"results": inactive}
	} else {
		e["InactiveQueues"] = cpiDeferred(uri + "/InactiveQueues")
	}
	return e
}

func (j *jmsState) sortedQueueNamesLocked() []string {
	names := slices.Sorted(maps.Keys(j.queues))
	return names
}

func (s *Runtime) jmsQueueEntityLocked(base string, q *jmsQueue) map[string]any {
	uri := base + "/Queues('" + odataEscape(q.name) + "')"
	size := q.size()
	return map[string]any{
		"__metadata": jmsMeta{ID: uri, URI: uri, Type: "com.sap.hci.api.Queue"},
		"Name":       q.name,
		"NumbOfMsgs": len(q.msgs),
		"Size":       strconv.FormatInt(size, 10),
		// Type as the access type is assumed; the metadata names the field only.
		"Type":      q.access,
		"State":     fillState(size, JMSQueueMaxBytes),
		"FillGrade": int(size * 100 / JMSQueueMaxBytes),
		"Active":    !q.stopped,
		"Messages":  cpiDeferred(uri + "/Messages"),
	}
}

func millis(t time.Time) string {
	if t.IsZero() {
		return "0"
	}
	return strconv.FormatInt(t.UnixMilli(), 10)
}

// Operations of the JMS monitoring API.
const (
	cpiOpJMSBroker cpiOp = 100 + iota
	cpiOpJMSQueues
	cpiOpJMSQueue
	cpiOpJMSMessages
)

// Entity sets of the JMS monitoring API.
const (
	jmsBrokerSet = "JmsBrokers"
	jmsQueueSet  = "Queues"
)

// matchJMS maps a path of the JMS monitoring API to an operation. Only GET
// is served; MERGE /Queues (a retry of all messages) is not emulated.
func matchJMS(segs []odataSegment) (cpiRequest, bool) {
	first := segs[0]
	switch {
	case first.Name == jmsBrokerSet && first.HasKey && len(segs) == 1:
		key, ok := first.keyValue("Key", true)
		if !ok {
			return cpiRequest{}, false
		}
		return cpiRequest{op: cpiOpJMSBroker, resource: jmsBrokerSet + "(Key)", key: key}, true
	case first.Name == jmsQueueSet && !first.HasKey && len(segs) == 1:
		return cpiRequest{op: cpiOpJMSQueues, resource: jmsQueueSet}, true
	case first.Name == jmsQueueSet && first.HasKey:
		name, ok := first.keyValue("Name", true)
		if !ok {
			return cpiRequest{}, false
		}
		switch {
		case len(segs) == 1:
			return cpiRequest{op: cpiOpJMSQueue, resource: jmsQueueSet + "(Name)", key: name}, true
		case len(segs) == 2 && segs[1].Name == "Messages" && !segs[1].HasKey:
			return cpiRequest{op: cpiOpJMSMessages, resource: jmsQueueSet + "(Name)/Messages", key: name}, true
		}
	}
	return cpiRequest{}, false
}

// serveJMS answers an operation of the JMS monitoring API; it reports
// false for other operations.
func (s *Runtime) serveJMS(w http.ResponseWriter, r *http.Request, req cpiRequest) bool {
	switch req.op {
	case cpiOpJMSBroker, cpiOpJMSQueues, cpiOpJMSQueue, cpiOpJMSMessages:
	default:
		return false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		respondODataError(w, http.StatusMethodNotAllowed, "The method "+r.Method+" is not allowed on "+req.resource+".")
		return true
	}
	switch req.op {
	case cpiOpJMSBroker:
		if req.key != jmsBrokerKey {
			respondODataError(w, http.StatusNotFound, "JMS broker '"+req.key+"' not found; the tenant's broker is '"+jmsBrokerKey+"'.")
			return true
		}
		expand := map[string]bool{}
		for _, e := range strings.Split(r.URL.Query().Get("$expand"), ",") {
			switch e = strings.TrimSpace(e); e {
			case "":
			case "QueueStates", "InactiveQueues":
				expand[e] = true
			default:
				respondODataError(w, http.StatusBadRequest, "Invalid $expand: the JmsBroker has no navigation property '"+e+"'; use QueueStates or InactiveQueues.")
				return true
			}
		}
		respondOData(w, http.StatusOK, s.jmsBrokerEntity(r, expand))
	case cpiOpJMSQueues:
		j := s.jms
		base := cpiBaseURI(r)
		j.mu.Lock()
		j.expireLocked(s, j.Now())
		out := []map[string]any{}
		for _, n := range j.sortedQueueNamesLocked() {
			out = append(out, s.jmsQueueEntityLocked(base, j.queues[n]))
		}
		j.mu.Unlock()
		respondOData(w, http.StatusOK, map[string]any{"results": out})
	case cpiOpJMSQueue, cpiOpJMSMessages:
		j := s.jms
		base := cpiBaseURI(r)
		j.mu.Lock()
		j.expireLocked(s, j.Now())
		q := j.queues[req.key]
		if q == nil {
			j.mu.Unlock()
			respondODataError(w, http.StatusNotFound, "Queue '"+req.key+"' not found.")
			return true
		}
		if req.op == cpiOpJMSQueue {
			e := s.jmsQueueEntityLocked(base, q)
			j.mu.Unlock()
			respondOData(w, http.StatusOK, e)
			return true
		}
		out := []map[string]any{}
		for _, m := range q.msgs {
			uri := base + "/JmsMessages(Msgid='" + odataEscape(m.id) + "',Name='" + odataEscape(q.name) + "',Failed=" + strconv.FormatBool(m.failed) + ")"
			e := map[string]any{
				"__metadata": jmsMeta{ID: uri, URI: uri, Type: "com.sap.hci.api.JmsMessage"},
				"Msgid":      m.id, "Name": q.name, "Failed": m.failed, "Mplid": m.mplID,
				"CreatedAt": millis(m.created), "RetryCount": m.retries, "OverdueAt": millis(m.overdue),
				"ExpirationDate": millis(m.expires), "NextRetry": "0",
			}
			if m.failed {
				e["NextRetry"] = millis(m.nextRetry)
			}
			out = append(out, e)
		}
		j.mu.Unlock()
		respondOData(w, http.StatusOK, map[string]any{"results": out})
	}
	return true
}

// Control endpoints of the JMS broker.

// JMSQueueView is a queue as the control endpoint lists it.
type JMSQueueView struct {
	Name       string `json:"name"`
	AccessType string `json:"accessType"`
	Active     bool   `json:"active"`
	Messages   int    `json:"messages"`
	Size       int64  `json:"size"`
}

// JMSQueues lists the JMS queues by name.
func (s *Runtime) JMSQueues() []JMSQueueView {
	j := s.jms
	j.mu.Lock()
	defer j.mu.Unlock()
	j.expireLocked(s, j.Now())
	out := []JMSQueueView{}
	for _, n := range j.sortedQueueNamesLocked() {
		q := j.queues[n]
		out = append(out, JMSQueueView{Name: n, AccessType: q.access, Active: !q.stopped, Messages: len(q.msgs), Size: q.size()})
	}
	return out
}

func (s *Runtime) mountJMSControl(mux *http.ServeMux) {
	c := core.ControlBasePath + "/jms"
	mux.HandleFunc("GET "+c+"/queues", func(w http.ResponseWriter, _ *http.Request) {
		core.RespondJSON(w, http.StatusOK, map[string]any{"now": s.JMSNow(), "queues": s.JMSQueues()})
	})
	mux.HandleFunc("POST "+c+"/queues/{queue}/messages", func(w http.ResponseWriter, r *http.Request) {
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, jmsMaxBodyBytes))
		var in JMSMessageInput
		if err == nil {
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			err = dec.Decode(&in)
		}
		if err != nil {
			core.RespondMessage(w, http.StatusBadRequest, `The body is not a JMS message: `+err.Error()+`. Send {"body": "...", "expiration_days": 30, "access_type": "Non-Exclusive"}.`)
			return
		}
		id, err := s.PutJMSMessage(r.PathValue("queue"), in)
		if err != nil {
			core.RespondMessage(w, http.StatusBadRequest, err.Error())
			return
		}
		core.RespondJSON(w, http.StatusCreated, map[string]string{"id": id})
	})
	mux.HandleFunc("PUT "+c+"/queues/{queue}/active", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Active *bool `json:"active"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&in); err != nil || in.Active == nil {
			core.RespondMessage(w, http.StatusBadRequest, `Send {"active": true} or {"active": false}.`)
			return
		}
		if err := s.SetJMSQueueActive(r.PathValue("queue"), *in.Active); err != nil {
			core.RespondMessage(w, http.StatusNotFound, err.Error())
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

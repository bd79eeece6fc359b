// Package eventmesh is a client of the SAP Event Mesh management REST API
// (queues and topic subscriptions) and of the messaging REST API (publish,
// consume and acknowledge messages, webhook subscriptions).
package eventmesh

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Queue is a queue as the management API returns it: its name, its settings and its read-only
// counters. Unset settings are nil whether the API sent null or left the field out.
type Queue struct {
	Name string `json:"name,omitempty"`
	QueueSettings

	// Read-only counters.
	MessageCount               *int64 `json:"messageCount,omitempty"`
	UnacknowledgedMessageCount *int64 `json:"unacknowledgedMessageCount,omitempty"`
	QueueSizeInBytes           *int64 `json:"queueSizeInBytes,omitempty"`
	ConsumerCount              *int64 `json:"consumerCount,omitempty"`
}

// QueueSettings are the writable settings of a queue and the body of a queue PUT (embedded in
// Queue, encoding/json writes its fields at the top level). PUT replaces the settings: a nil
// field is left out and takes the service default. A new queue setting is a field here, with
// its decoding in Queue.UnmarshalJSON.
type QueueSettings struct {
	AccessType                     *string `json:"accessType,omitempty"`
	MaxQueueSizeInBytes            *int64  `json:"maxQueueSizeInBytes,omitempty"`
	MaxMessageSizeInBytes          *int64  `json:"maxMessageSizeInBytes,omitempty"`
	MaxQueueMessageCount           *int64  `json:"maxQueueMessageCount,omitempty"`
	MaxDeliveredUnackedMsgsPerFlow *int64  `json:"maxDeliveredUnackedMsgsPerFlow,omitempty"`
	MaxRedeliveryCount             *int64  `json:"maxRedeliveryCount,omitempty"`
	DeadMsgQueue                   *string `json:"deadMsgQueue,omitempty"`
	RespectTTL                     *bool   `json:"respectTtl,omitempty"`
	MaxTTL                         *int64  `json:"maxTtl,omitempty"`
}

// Subscription is a topic subscription of a queue.
type Subscription struct {
	QueueName    string `json:"queueName"`
	TopicPattern string `json:"topicPattern"`
}

// Settings returns a copy of the writable settings of q.
func (q *Queue) Settings() QueueSettings {
	return q.QueueSettings.Clone()
}

// Clone returns a deep copy of s.
func (s QueueSettings) Clone() QueueSettings {
	return QueueSettings{
		AccessType:                     cloneP(s.AccessType),
		MaxQueueSizeInBytes:            cloneP(s.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          cloneP(s.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           cloneP(s.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: cloneP(s.MaxDeliveredUnackedMsgsPerFlow),
		MaxRedeliveryCount:             cloneP(s.MaxRedeliveryCount),
		DeadMsgQueue:                   cloneP(s.DeadMsgQueue),
		RespectTTL:                     cloneP(s.RespectTTL),
		MaxTTL:                         cloneP(s.MaxTTL),
	}
}

// Clone returns a deep copy of q.
func (q *Queue) Clone() *Queue {
	if q == nil {
		return nil
	}
	return &Queue{
		Name:                       q.Name,
		QueueSettings:              q.Settings(),
		MessageCount:               cloneP(q.MessageCount),
		UnacknowledgedMessageCount: cloneP(q.UnacknowledgedMessageCount),
		QueueSizeInBytes:           cloneP(q.QueueSizeInBytes),
		ConsumerCount:              cloneP(q.ConsumerCount),
	}
}

func cloneP[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// UnmarshalJSON decodes a queue tolerantly: null and absent fields stay nil,
// an empty accessType or deadMsgQueue counts as unset, and numbers and
// booleans sent as strings are accepted.
func (q *Queue) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("a queue must be a JSON object: %w", err)
	}
	var out Queue
	var err error
	str := func(key string, dst **string) {
		if err == nil {
			*dst, err = decodeString(key, raw[key])
		}
	}
	num := func(key string, dst **int64) {
		if err == nil {
			*dst, err = decodeInt(key, raw[key])
		}
	}
	var name *string
	str("name", &name)
	if name != nil {
		out.Name = *name
	}
	str("accessType", &out.AccessType)
	str("deadMsgQueue", &out.DeadMsgQueue)
	num("maxQueueSizeInBytes", &out.MaxQueueSizeInBytes)
	num("maxMessageSizeInBytes", &out.MaxMessageSizeInBytes)
	num("maxQueueMessageCount", &out.MaxQueueMessageCount)
	num("maxDeliveredUnackedMsgsPerFlow", &out.MaxDeliveredUnackedMsgsPerFlow)
	num("maxRedeliveryCount", &out.MaxRedeliveryCount)
	num("maxTtl", &out.MaxTTL)
	num("messageCount", &out.MessageCount)
	num("unacknowledgedMessageCount", &out.UnacknowledgedMessageCount)
	num("queueSizeInBytes", &out.QueueSizeInBytes)
	num("consumerCount", &out.ConsumerCount)
	if err == nil {
		out.RespectTTL, err = decodeBool("respectTtl", raw["respectTtl"])
	}
	if err != nil {
		return err
	}
	*q = out
	return nil
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// The field decoders below read the common form of each field (a JSON string without escapes, a
// number, true or false) directly from its bytes and leave any other form to encoding/json: a
// list of 250 queues has 3,500 fields, and a json.Unmarshal per field made decoding it cost
// about 20 µs and 95 allocations per queue (BenchmarkDecodeQueues250). The map the fields come
// from was decoded by encoding/json, so each field is valid JSON.

// plainString returns the text of raw when raw is a JSON string without escapes and in valid
// UTF-8, which encoding/json would decode to exactly these bytes.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') >= 0 || bytes.IndexByte(body, '"') >= 0 || !utf8.Valid(body) {
		return "", false
	}
	for _, c := range body {
		if c < 0x20 {
			return "", false
		}
	}
	return string(body), true
}

// unmarshalString decodes raw as a JSON string.
func unmarshalString(raw json.RawMessage) (string, error) {
	if s, ok := plainString(raw); ok {
		return s, nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

func decodeString(key string, raw json.RawMessage) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	s, err := unmarshalString(raw)
	if err != nil {
		return nil, fmt.Errorf("queue field %q must be a string", key)
	}
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	return &s, nil
}

func decodeInt(key string, raw json.RawMessage) (*int64, error) {
	if isNull(raw) {
		return nil, nil
	}
	text := string(bytes.TrimSpace(raw))
	if len(text) > 0 && text[0] == '"' {
		// A number sent as a string.
		if s, err := unmarshalString(raw); err == nil {
			text = strings.TrimSpace(s)
			if text == "" {
				return nil, nil
			}
		}
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return &n, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return nil, fmt.Errorf("queue field %q must be an integer", key)
	}
	n := int64(f)
	return &n, nil
}

func decodeBool(key string, raw json.RawMessage) (*bool, error) {
	if isNull(raw) {
		return nil, nil
	}
	var b bool
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		b = true
		return &b, nil
	case "false":
		return &b, nil
	}
	if s, err := unmarshalString(raw); err == nil {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "":
			return nil, nil
		case "true":
			b = true
			return &b, nil
		case "false":
			return &b, nil
		}
	}
	return nil, fmt.Errorf("queue field %q must be a boolean", key)
}

// DecodeQueue decodes one queue answer of the management API.
func DecodeQueue(data []byte) (*Queue, error) {
	if isNull(data) {
		return nil, errors.New("the queue answer is empty")
	}
	var q Queue
	if err := json.Unmarshal(data, &q); err != nil {
		return nil, fmt.Errorf("decoding the queue answer: %w", err)
	}
	return &q, nil
}

// DecodeQueues decodes a queue list answer: a JSON array of queues, or an
// object holding the array under "queues", "value" or "results". Entries
// without a name are dropped.
func DecodeQueues(data []byte) ([]Queue, error) {
	data = bytes.TrimSpace(data)
	if isNull(data) {
		return []Queue{}, nil
	}
	var list []Queue
	if data[0] == '{' {
		var wrapped map[string]json.RawMessage
		if err := json.Unmarshal(data, &wrapped); err != nil {
			return nil, fmt.Errorf("decoding the queue list: %w", err)
		}
		for _, key := range []string{"queues", "value", "results"} {
			if v, ok := wrapped[key]; ok {
				data = bytes.TrimSpace(v)
				break
			}
		}
		if len(data) > 0 && data[0] == '{' {
			return nil, errors.New("decoding the queue list: the answer is an object without a queue array")
		}
	}
	if isNull(data) {
		return []Queue{}, nil
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("decoding the queue list: %w", err)
	}
	out := list[:0]
	for _, q := range list {
		if q.Name != "" {
			out = append(out, q)
		}
	}
	return out, nil
}

// DecodeSubscriptions decodes a subscription list answer.
func DecodeSubscriptions(data []byte, queue string) ([]Subscription, error) {
	if isNull(data) {
		return []Subscription{}, nil
	}
	var list []Subscription
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("decoding the subscription list: %w", err)
	}
	out := list[:0]
	for _, s := range list {
		if s.TopicPattern == "" {
			continue
		}
		if s.QueueName == "" {
			s.QueueName = queue
		}
		out = append(out, s)
	}
	return out, nil
}

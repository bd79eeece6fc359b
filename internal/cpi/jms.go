package cpi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The JMS monitoring API of Cloud Integration. Sources: the project's
// reference note on the Cloud Integration JMS adapter, section 5.
//
//   - GET /JmsBrokers('Broker1')?$expand=QueueStates lists the state of
//     every queue (0 OK, 1 warning, 2 critical); $expand=InactiveQueues the
//     stopped queues [SAP "JMS Resources: Example Requests", c6c00d5]. The
//     broker's fields come from clients generated from SAP's API
//     specification: Capacity and MaxCapacity are Int64, which OData v2 JSON
//     writes as strings, and some tenants send other numbers as strings too,
//     so every number is read from a number or a string.
//   - GET /Queues (Name, NumbOfMsgs, Size, Type, State, FillGrade, Active)
//     and GET /Queues('<name>')/Messages are not documented but are in the
//     tenant's $metadata. A tenant without them answers 404, which matches
//     ErrNotFound.

// JMSBrokerKey is the key of the tenant's only JMS broker.
const JMSBrokerKey = "Broker1"

// JMS queue states of QueueStates and Queues [SAP c6c00d5].
const (
	JMSStateOK       = 0
	JMSStateWarning  = 1
	JMSStateCritical = 2
)

// JMSBroker is the tenant's JMS broker with the state of its queues.
type JMSBroker struct {
	Key string
	// Capacity is the storage in use and MaxCapacity the tenant's limit
	// (bytes, as community clients read them; SAP does not state the unit).
	Capacity, MaxCapacity int64
	// QueueNumber is the number of queues and MaxQueueNumber the limit.
	QueueNumber, MaxQueueNumber int64
	// CapacityOk, CapacityWarning and CapacityError are the tenant's own
	// values, passed on as read.
	CapacityOk, CapacityWarning, CapacityError int64
	// The high-usage flags (0/1 on the wire).
	IsTransactedSessionsHigh, IsConsumersHigh, IsProducersHigh, IsQueuesHigh, IsMessageSpoolHigh bool
	// QueueStates holds one state per queue; InactiveQueues the names of
	// stopped queues.
	QueueStates    []JMSQueueState
	InactiveQueues []string
}

// JMSQueueState is the state of one queue.
type JMSQueueState struct {
	Name  string
	State int64
}

// JMSQueue is one queue of the undocumented Queues entity set.
type JMSQueue struct {
	Name string
	// Messages is NumbOfMsgs; Size the bytes stored.
	Messages, Size int64
	// Type is the tenant's queue type text (the access type on the emulator).
	Type string
	// State is 0 OK, 1 warning, 2 critical; FillGrade a percentage.
	State, FillGrade int64
	Active           bool
}

// JMSMessage is one message of a queue.
type JMSMessage struct {
	ID, Queue, MPLID string
	Failed           bool
	RetryCount       int64
	// The zero time means the tenant sent none (or 0).
	CreatedAt, NextRetry, OverdueAt, ExpirationDate time.Time
}

// flexInt is a JSON number read from a number, a numeric string, a boolean
// (1/0) or null (0).
type flexInt int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *flexInt) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	s := string(b)
	switch {
	case s == "null" || s == "":
		*n = 0
		return nil
	case s == "true":
		*n = 1
		return nil
	case s == "false":
		*n = 0
		return nil
	case b[0] == '"':
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*n = 0
			return nil
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		*n = flexInt(v)
		return nil
	}
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || f > math.MaxInt64 || f < math.MinInt64 {
		return fmt.Errorf("expected a whole number, got %.40s", b)
	}
	*n = flexInt(f)
	return nil
}

// flexBool is a JSON boolean read from true/false, 1/0 or their strings.
type flexBool bool

// UnmarshalJSON implements json.Unmarshaler.
func (v *flexBool) UnmarshalJSON(b []byte) error {
	var t text
	if err := t.UnmarshalJSON(b); err != nil {
		return err
	}
	switch strings.ToLower(strings.TrimSpace(string(t))) {
	case "true", "1":
		*v = true
	case "false", "0", "":
		*v = false
	default:
		return fmt.Errorf("expected a boolean, got %.40s", b)
	}
	return nil
}

// Wire shapes of the JMS entities.
type jmsQueueStateWire struct {
	Name  text    `json:"Name"`
	State flexInt `json:"State"`
}

type jmsQueueWire struct {
	Name       text     `json:"Name"`
	NumbOfMsgs flexInt  `json:"NumbOfMsgs"`
	Size       flexInt  `json:"Size"`
	Type       text     `json:"Type"`
	State      flexInt  `json:"State"`
	FillGrade  flexInt  `json:"FillGrade"`
	Active     flexBool `json:"Active"`
}

type jmsMessageWire struct {
	Msgid          text     `json:"Msgid"`
	Name           text     `json:"Name"`
	Failed         flexBool `json:"Failed"`
	Mplid          text     `json:"Mplid"`
	RetryCount     flexInt  `json:"RetryCount"`
	CreatedAt      flexInt  `json:"CreatedAt"`
	NextRetry      flexInt  `json:"NextRetry"`
	OverdueAt      flexInt  `json:"OverdueAt"`
	ExpirationDate flexInt  `json:"ExpirationDate"`
}

// expandedList reads an expanded navigation property: {"results":[...]} or
// a bare array; a deferred link or null is no list (nil, false).
func expandedList[T any](raw json.RawMessage) ([]T, bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false, nil
	}
	if raw[0] == '{' {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, false, err
		}
		r, ok := obj["results"]
		if !ok {
			return nil, false, nil // {"__deferred": ...}
		}
		raw = r
	}
	var out []T
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// JMSBroker reads the tenant's JMS broker with the states of its queues
// and its stopped queues.
func (c *Client) JMSBroker(ctx context.Context) (*JMSBroker, error) {
	p := BasePath + "/JmsBrokers(" + KeyLiteral(JMSBrokerKey) + ")?$expand=QueueStates,InactiveQueues"
	resp, err := c.call(ctx, http.MethodGet, p, nil, http.Header{"Accept": {"application/json"}}, http.StatusOK)
	if err != nil {
		return nil, err
	}
	return decodeJMSBroker(resp.Body, p)
}

func decodeJMSBroker(body []byte, p string) (*JMSBroker, error) {
	payload, err := entityPayload(body)
	if err != nil {
		return nil, decodeError(p, err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(payload, &fields); err != nil {
		return nil, decodeError(p, fmt.Errorf("%w: %v", errNotOData, err))
	}
	num := func(name string) (int64, error) {
		var n flexInt
		if raw, ok := fields[name]; ok {
			if err := n.UnmarshalJSON(raw); err != nil {
				return 0, fmt.Errorf("%s: %w", name, err)
			}
		}
		return int64(n), nil
	}
	flag := func(name string) (bool, error) {
		var v flexBool
		if raw, ok := fields[name]; ok {
			if err := v.UnmarshalJSON(raw); err != nil {
				return false, fmt.Errorf("%s: %w", name, err)
			}
		}
		return bool(v), nil
	}
	var b JMSBroker
	var key text
	if raw, ok := fields["Key"]; ok {
		if err := key.UnmarshalJSON(raw); err != nil {
			return nil, decodeError(p, fmt.Errorf("the Key field: %w", err))
		}
	}
	b.Key = string(key)
	for name, dst := range map[string]*int64{"Capacity": &b.Capacity, "MaxCapacity": &b.MaxCapacity,
		"QueueNumber": &b.QueueNumber, "MaxQueueNumber": &b.MaxQueueNumber, "CapacityOk": &b.CapacityOk,
		"CapacityWarning": &b.CapacityWarning, "CapacityError": &b.CapacityError} {
		if *dst, err = num(name); err != nil {
			return nil, decodeError(p, err)
		}
	}
	for name, dst := range map[string]*bool{"IsTransactedSessionsHigh": &b.IsTransactedSessionsHigh,
		"IsConsumersHigh": &b.IsConsumersHigh, "IsProducersHigh": &b.IsProducersHigh,
		"IsQueuesHigh": &b.IsQueuesHigh, "IsMessageSpoolHigh": &b.IsMessageSpoolHigh} {
		if *dst, err = flag(name); err != nil {
			return nil, decodeError(p, err)
		}
	}
	states, _, err := expandedList[jmsQueueStateWire](fields["QueueStates"])
	if err != nil {
		return nil, decodeError(p, fmt.Errorf("QueueStates: %w", err))
	}
	b.QueueStates = make([]JMSQueueState, 0, len(states))
	for _, s := range states {
		b.QueueStates = append(b.QueueStates, JMSQueueState{Name: string(s.Name), State: int64(s.State)})
	}
	inactive, _, err := expandedList[jmsQueueStateWire](fields["InactiveQueues"])
	if err != nil {
		return nil, decodeError(p, fmt.Errorf("InactiveQueues: %w", err))
	}
	b.InactiveQueues = make([]string, 0, len(inactive))
	for _, s := range inactive {
		b.InactiveQueues = append(b.InactiveQueues, string(s.Name))
	}
	return &b, nil
}

// JMSQueues lists the queues with their message counts through the
// undocumented Queues entity set. A tenant that does not offer it answers
// with an error matching ErrNotFound.
func (c *Client) JMSQueues(ctx context.Context) ([]JMSQueue, error) {
	p := BasePath + "/Queues"
	resp, err := c.call(ctx, http.MethodGet, p, nil, http.Header{"Accept": {"application/json"}}, http.StatusOK)
	if err != nil {
		return nil, err
	}
	ws, err := decodeList[jmsQueueWire](resp.Body)
	if err != nil {
		return nil, decodeError(p, err)
	}
	out := make([]JMSQueue, 0, len(ws))
	for _, w := range ws {
		out = append(out, JMSQueue{Name: string(w.Name), Messages: int64(w.NumbOfMsgs), Size: int64(w.Size),
			Type: string(w.Type), State: int64(w.State), FillGrade: int64(w.FillGrade), Active: bool(w.Active)})
	}
	return out, nil
}

// JMSQueueMessages lists the messages of queue name (undocumented API).
func (c *Client) JMSQueueMessages(ctx context.Context, name string) ([]JMSMessage, error) {
	p := BasePath + "/Queues(" + KeyLiteral(name) + ")/Messages"
	resp, err := c.call(ctx, http.MethodGet, p, nil, http.Header{"Accept": {"application/json"}}, http.StatusOK)
	if err != nil {
		return nil, err
	}
	ws, err := decodeList[jmsMessageWire](resp.Body)
	if err != nil {
		return nil, decodeError(p, err)
	}
	ms := func(v flexInt) time.Time {
		if v <= 0 {
			return time.Time{}
		}
		return time.UnixMilli(int64(v)).UTC()
	}
	out := make([]JMSMessage, 0, len(ws))
	for _, w := range ws {
		out = append(out, JMSMessage{ID: string(w.Msgid), Queue: string(w.Name), MPLID: string(w.Mplid), Failed: bool(w.Failed),
			RetryCount: int64(w.RetryCount), CreatedAt: ms(w.CreatedAt), NextRetry: ms(w.NextRetry),
			OverdueAt: ms(w.OverdueAt), ExpirationDate: ms(w.ExpirationDate)})
	}
	return out, nil
}

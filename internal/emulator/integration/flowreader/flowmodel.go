package flowreader

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The emulator's reader of an .iflw document (BPMN2 with SAP's ifl
// extensions), written from SAP's description of the model, not from the
// provider's reader [reference note cpi-jms.md, sections 1, 2 and 6; the
// real EMIS_AMQP_Consumer.iflw in specs/iflows]:
//
//   - A channel is a bpmn2:messageFlow; its settings are ifl:property
//     elements (a <key> and a <value>) in its bpmn2:extensionElements. The
//     adapter is the property ComponentType (AMQP, JMS), the side the property
//     direction (Sender, Receiver). A value "{{Name}}" is an externalized
//     parameter.
//   - An exception subprocess is a bpmn2:subProcess with
//     triggeredByEvent="true"; how it ends is the kind of its bpmn2:endEvent
//     (the event definition it holds: error, escalation, message, or none).
//   - A router is a bpmn2:exclusiveGateway whose routes are bpmn2:sequenceFlow
//     elements with sourceRef the gateway; a route's condition is the text of
//     its bpmn2:conditionExpression, a Camel Simple expression when the route's
//     property expressionType is NonXML (or absent), an XPath when XML; the
//     gateway's default attribute names the route taken when no condition
//     holds.
//   - A script step is a bpmn2:callActivity with the property
//     activityType=Script.
//
// Elements are matched by local name, so any namespace prefix is read.

// End event kinds.
const (
	EndKindError      = "error"
	EndKindEscalation = "escalation"
	EndKindMessage    = "message"
	EndKindNone       = "none"
)

// Model is what the emulator reads of an .iflw document.
type Model struct {
	Channels     []Channel
	Subprocesses []Subprocess
	// Routes are all sequence flows; a route of a router carries a condition.
	Routes []Route
	// EndEvents maps the id of every end event to its kind.
	EndEvents map[string]string
	// Defaults maps a gateway id to the id of its default route.
	Defaults map[string]string
	// Scripts are the ids of the script steps.
	Scripts []string
}

// Channel is one message flow with its properties (first occurrence of
// a key wins).
type Channel struct {
	ID, Name string
	Props    map[string]string
}

// Subprocess is an exception subprocess and the kinds of its end events.
type Subprocess struct {
	ID   string
	Ends []string
}

// Route is a sequence flow with its condition ("" for none).
type Route struct {
	ID, Name, Source, Target string
	Condition                string
	ExpressionType           string
	// Subprocess is the id of the exception subprocess that holds the
	// route, "" in the integration process.
	Subprocess string
}

// is reports whether the channel is of adapter adapter on side direction.
func (c Channel) is(adapter, direction string) bool {
	return strings.EqualFold(strings.TrimSpace(c.Props["ComponentType"]), adapter) &&
		strings.EqualFold(strings.TrimSpace(c.Props["direction"]), direction)
}

// channels returns the channels of an adapter and side in document order.
func (m *Model) ChannelsOf(adapter, direction string) []Channel {
	var out []Channel
	for _, c := range m.Channels {
		if c.is(adapter, direction) {
			out = append(out, c)
		}
	}
	return out
}

// ChannelSetting is one property of a channel with its parameters resolved.
type ChannelSetting struct {
	Key, Raw string
	// Present is false when the channel has no such property.
	Present bool
	// Value is the trimmed value with every {{Name}} replaced by the
	// parameter's value; resolved is false when a parameter has none.
	Value    string
	Resolved bool
}

// Setting returns property key of the channel, parameters resolved from params.
func (c Channel) Setting(key string, params map[string]string) ChannelSetting {
	raw, ok := c.Props[key]
	v, resolved := ExpandParameters(strings.TrimSpace(raw), params)
	return ChannelSetting{Key: key, Raw: raw, Present: ok, Value: strings.TrimSpace(v), Resolved: resolved}
}

// Empty reports whether the setting is absent or empty.
func (s ChannelSetting) Empty() bool { return !s.Present || s.Value == "" }

// Whole returns the value as a whole number.
func (s ChannelSetting) Whole() (int64, bool) {
	if !s.Resolved || s.Value == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s.Value, 10, 64)
	return n, err == nil
}

// Flag returns the value of a check box: exports write 1/0, generated
// content true/false [reference note cpi-jms.md, section 1].
func (s ChannelSetting) Flag() (value, ok bool) {
	if !s.Resolved {
		return false, false
	}
	switch strings.ToLower(s.Value) {
	case "1", "true":
		return true, true
	case "0", "false":
		return false, true
	}
	return false, false
}

// ExpandParameters replaces every {{Name}} in s with params[Name]; resolved
// is false when a name has no value.
func ExpandParameters(s string, params map[string]string) (string, bool) {
	var b strings.Builder
	resolved := true
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		if v, ok := params[s[i+2:i+2+j]]; ok {
			b.WriteString(v)
		} else {
			resolved = false
		}
		s = s[i+2+j+2:]
	}
	b.WriteString(s)
	return b.String(), resolved
}

// ExceptionEnd returns the end kind of the first exception subprocess that
// decides what a failed execution does: error when it has an Error End,
// else escalation, else message, else none; "" without an exception
// subprocess.
func (m *Model) ExceptionEnd() string {
	if len(m.Subprocesses) == 0 {
		return ""
	}
	rank := map[string]int{EndKindNone: 0, EndKindMessage: 1, EndKindEscalation: 2, EndKindError: 3}
	best := EndKindNone
	for _, k := range m.Subprocesses[0].Ends {
		if rank[k] > rank[best] {
			best = k
		}
	}
	return best
}

// parseFlowModel reads an .iflw document.
func parseFlowModel(data []byte) (*Model, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the .iflw document is empty")
	}
	if len(data) > maxFlowDocumentLen {
		return nil, fmt.Errorf("the .iflw document is %d bytes, more than the %d the emulator accepts", len(data), maxFlowDocumentLen)
	}
	type frame struct {
		local      string
		channel    int // enclosing message flow, -1 if none
		route      int // enclosing sequence flow, -1 if none
		end        int // index into ends of the enclosing end event, -1 if none
		script     int // enclosing call activity, -1 if none
		subprocess string
		inSub      int // index of the enclosing exception subprocess, -1 if none
		prop       *[2]strings.Builder
		part       int // 1 key, 2 value of prop
		cond       bool
	}
	m := &Model{EndEvents: map[string]string{}, Defaults: map[string]string{}}
	type endRef struct {
		id   string
		kind string
		sub  int
	}
	var ends []endRef
	type call struct {
		id, activityType string
	}
	var calls []call
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var stack []frame
	root := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the .iflw document is not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			parent := frame{channel: -1, route: -1, end: -1, script: -1, inSub: -1}
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			} else {
				if root {
					return nil, errors.New("the .iflw document has more than one root element")
				}
				root = true
				if t.Name.Local != "definitions" {
					return nil, fmt.Errorf("the root element is <%s>, but an .iflw document is a bpmn2:definitions", t.Name.Local)
				}
			}
			f := frame{local: t.Name.Local, channel: parent.channel, route: parent.route, end: parent.end, script: parent.script,
				subprocess: parent.subprocess, inSub: parent.inSub}
			switch t.Name.Local {
			case "messageFlow":
				m.Channels = append(m.Channels, Channel{ID: xmlAttr(t, "id"), Name: xmlAttr(t, "name"), Props: map[string]string{}})
				f.channel, f.route, f.script = len(m.Channels)-1, -1, -1
			case "subProcess":
				if v := strings.TrimSpace(xmlAttr(t, "triggeredByEvent")); v == "true" || v == "1" {
					m.Subprocesses = append(m.Subprocesses, Subprocess{ID: xmlAttr(t, "id")})
					f.inSub, f.subprocess = len(m.Subprocesses)-1, xmlAttr(t, "id")
				} else {
					f.inSub, f.subprocess = -1, ""
				}
			case "sequenceFlow":
				m.Routes = append(m.Routes, Route{ID: xmlAttr(t, "id"), Name: xmlAttr(t, "name"),
					Source: xmlAttr(t, "sourceRef"), Target: xmlAttr(t, "targetRef"), Subprocess: f.subprocess})
				f.route, f.channel, f.script = len(m.Routes)-1, -1, -1
			case "conditionExpression":
				f.cond = parent.route >= 0
			case "exclusiveGateway":
				if def := xmlAttr(t, "default"); def != "" {
					m.Defaults[xmlAttr(t, "id")] = def
				}
			case "endEvent":
				ends = append(ends, endRef{id: xmlAttr(t, "id"), kind: EndKindNone, sub: f.inSub})
				f.end = len(ends) - 1
			case "errorEventDefinition", "escalationEventDefinition", "messageEventDefinition":
				if parent.local == "endEvent" && parent.end >= 0 {
					kind := strings.TrimSuffix(t.Name.Local, "EventDefinition")
					rank := map[string]int{EndKindNone: 0, EndKindMessage: 1, EndKindEscalation: 2, EndKindError: 3}
					if rank[kind] > rank[ends[parent.end].kind] {
						ends[parent.end].kind = kind
					}
				}
			case "callActivity":
				calls = append(calls, call{id: xmlAttr(t, "id")})
				f.script, f.channel, f.route = len(calls)-1, -1, -1
			case "property":
				if parent.local == "extensionElements" && (f.channel >= 0 || f.route >= 0 || f.script >= 0) {
					f.prop = &[2]strings.Builder{}
				}
			case "key":
				if parent.prop != nil {
					f.prop, f.part = parent.prop, 1
				}
			case "value":
				if parent.prop != nil {
					f.prop, f.part = parent.prop, 2
				}
			}
			stack = append(stack, f)
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			switch {
			case top.cond:
				m.Routes[top.route].Condition += string(t)
			case top.prop != nil && top.part > 0:
				top.prop[top.part-1].Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, fmt.Errorf("unexpected end element </%s>", t.Name.Local)
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.local != "property" || top.prop == nil {
				continue
			}
			key, value := strings.TrimSpace(top.prop[0].String()), top.prop[1].String()
			switch {
			case top.channel >= 0:
				if _, dup := m.Channels[top.channel].Props[key]; !dup && key != "" {
					m.Channels[top.channel].Props[key] = value
				}
			case top.route >= 0:
				if key == "expressionType" {
					m.Routes[top.route].ExpressionType = strings.TrimSpace(value)
				}
			case top.script >= 0:
				if key == "activityType" {
					calls[top.script].activityType = strings.TrimSpace(value)
				}
			}
		}
	}
	if !root {
		return nil, errors.New("the .iflw document has no root element")
	}
	if len(stack) != 0 {
		return nil, errors.New("the .iflw document ends before its root element is closed")
	}
	for _, e := range ends {
		m.EndEvents[e.id] = e.kind
		if e.sub >= 0 {
			m.Subprocesses[e.sub].Ends = append(m.Subprocesses[e.sub].Ends, e.kind)
		}
	}
	for _, c := range calls {
		if strings.EqualFold(c.activityType, "Script") {
			m.Scripts = append(m.Scripts, c.id)
		}
	}
	return m, nil
}

// xmlAttr returns the attribute with the local name, preferring one
// without a namespace prefix.
func xmlAttr(t xml.StartElement, local string) string {
	val, found := "", false
	for _, a := range t.Attr {
		if a.Name.Local != local {
			continue
		}
		if a.Name.Space == "" {
			return a.Value
		}
		if !found {
			val, found = a.Value, true
		}
	}
	return val
}

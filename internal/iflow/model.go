package iflow

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// End event kinds of an exception subprocess. The values match the kinds the
// retry rules use.
const (
	EndError      = "error"
	EndEscalation = "escalation"
	EndMessage    = "message"
	EndNone       = "none"
)

// MessageFlow is one bpmn2:messageFlow of the iFlow with its ifl:property
// key/value pairs.
type MessageFlow struct {
	ID, Name             string
	SourceRef, TargetRef string
	// Properties maps each property key to its raw value. When a key occurs
	// more than once, the first occurrence wins.
	Properties map[string]string
}

// channelName is the name of the channel the message flow is: its name attribute, else its Name property.
func (f MessageFlow) channelName() string {
	if f.Name != "" {
		return f.Name
	}
	return f.Properties["Name"]
}

// AMQPSender is an AMQP sender channel: a message flow with ComponentType=AMQP
// and direction=Sender.
type AMQPSender struct {
	// ID and Name are the id and name of the message flow.
	ID, Name string
	// Properties holds the raw values, including "{{Param}}" references.
	Properties map[string]string
}

// ExceptionSubprocess is a bpmn2:subProcess with triggeredByEvent="true" and
// the kinds of its end events ("error", "escalation", "message" or "none").
type ExceptionSubprocess struct {
	ID, Name  string
	EndEvents []string
}

// Model is what ParseIflw reads from an .iflw document.
type Model struct {
	MessageFlows          []MessageFlow
	ExceptionSubprocesses []ExceptionSubprocess
}

// AMQPSenders returns the AMQP sender channels in document order.
func (m *Model) AMQPSenders() []AMQPSender {
	if m == nil {
		return nil
	}
	var out []AMQPSender
	for _, f := range m.MessageFlows {
		if !isAMQPSender(f.Properties) {
			continue
		}
		out = append(out, AMQPSender{ID: f.ID, Name: f.channelName(), Properties: f.Properties})
	}
	return out
}

// AMQPSender returns the AMQP sender channel with message flow id flowID.
func (m *Model) AMQPSender(flowID string) (AMQPSender, bool) {
	for _, s := range m.AMQPSenders() {
		if s.ID == flowID {
			return s, true
		}
	}
	return AMQPSender{}, false
}

func isAMQPSender(p map[string]string) bool {
	return strings.EqualFold(strings.TrimSpace(p[KeyComponentType]), ComponentTypeAMQP) &&
		strings.EqualFold(strings.TrimSpace(p[KeyDirection]), DirectionSender)
}

// ParseIflw reads the message flows and exception subprocesses of an .iflw
// document. Elements are matched by local name, so any namespace prefix is
// accepted.
func ParseIflw(data []byte) (*Model, error) {
	doc, err := scan(data)
	if err != nil {
		return nil, err
	}
	m := &Model{}
	for _, f := range doc.flows {
		props := make(map[string]string, len(f.props))
		for _, p := range f.props {
			// A property without a key, or whose key is blank, names no setting.
			if !p.hasKey || p.key == "" {
				continue
			}
			if _, dup := props[p.key]; dup {
				continue
			}
			props[p.key] = p.value.String()
		}
		m.MessageFlows = append(m.MessageFlows, MessageFlow{
			ID: f.id, Name: f.name, SourceRef: f.sourceRef, TargetRef: f.targetRef, Properties: props,
		})
	}
	for _, s := range doc.subs {
		es := ExceptionSubprocess{ID: s.id, Name: s.name}
		for _, rank := range s.ends {
			es.EndEvents = append(es.EndEvents, kindNames[rank])
		}
		m.ExceptionSubprocesses = append(m.ExceptionSubprocesses, es)
	}
	return m, nil
}

// kindNames maps an end event rank to its kind; a higher rank wins when an
// end event carries several definitions.
var kindNames = [...]string{EndNone, EndMessage, EndEscalation, EndError}

var definitionRank = map[string]int{
	"messageEventDefinition":    1,
	"escalationEventDefinition": 2,
	"errorEventDefinition":      3,
}

// scanned is the raw result of one pass over an .iflw document.
type scanned struct {
	flows []*rawFlow
	subs  []*rawSub
}

type rawFlow struct {
	id, name, sourceRef, targetRef string
	props                          []*rawProp
}

// rawProp is one ifl:property with the byte positions of its first <value>.
type rawProp struct {
	key      string
	keyText  strings.Builder
	hasKey   bool
	value    strings.Builder
	hasValue bool
	// markup is true when the <value> element has child elements.
	markup bool
	// tagStart and tagEnd delimit the <value> start tag; contentEnd is the
	// offset of its end tag. selfClosing is true for <value/>.
	tagStart, tagEnd, contentEnd int64
	selfClosing                  bool
}

type rawSub struct {
	id, name string
	ends     []int
}

type role uint8

const (
	roleOther role = iota
	roleFlow
	roleProp
	roleKey
	roleValue
	roleEnd
)

type frame struct {
	role role
	flow int // index of the enclosing message flow, -1 if none
	prop int // property index within flow for roleProp, roleKey, roleValue
	sub  int // index of the enclosing event subprocess, -1 if none
	end  int // end event index within sub for roleEnd
}

// maxDocumentSize bounds the size of an .iflw document.
const maxDocumentSize = 64 << 20

// scan walks the document once, recording message flow properties with
// their byte offsets and the end events of event subprocesses.
func scan(data []byte) (*scanned, error) {
	if len(data) == 0 {
		return nil, errors.New("parse iFlow: the .iflw document is empty; it must be a BPMN2 XML document with a bpmn2:definitions root element")
	}
	if len(data) > maxDocumentSize {
		return nil, fmt.Errorf("parse iFlow: the .iflw document is %d bytes, more than the %d bytes this reader accepts", len(data), maxDocumentSize)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	doc := &scanned{}
	stack := make([]frame, 0, 32)
	seenRoot := false
	for {
		before := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parse iFlow: the .iflw document is not well-formed XML: %w", err)
		}
		after := d.InputOffset()
		switch t := tok.(type) {
		case xml.StartElement:
			parent := frame{flow: -1, prop: -1, sub: -1, end: -1}
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			} else {
				if seenRoot {
					return nil, errors.New("parse iFlow: the .iflw document has more than one root element")
				}
				seenRoot = true
				if t.Name.Local != "definitions" {
					return nil, fmt.Errorf("parse iFlow: the root element is <%s>, but an .iflw document has a bpmn2:definitions root element", t.Name.Local)
				}
			}
			fr := frame{flow: parent.flow, prop: -1, sub: parent.sub, end: -1}
			if parent.role == roleValue {
				doc.flows[parent.flow].props[parent.prop].markup = true
			}
			switch t.Name.Local {
			case "messageFlow":
				doc.flows = append(doc.flows, &rawFlow{
					id: attr(t, "id"), name: attr(t, "name"),
					sourceRef: attr(t, "sourceRef"), targetRef: attr(t, "targetRef"),
				})
				fr.role, fr.flow = roleFlow, len(doc.flows)-1
			case "property":
				if fr.flow >= 0 {
					f := doc.flows[fr.flow]
					f.props = append(f.props, &rawProp{})
					fr.role, fr.prop = roleProp, len(f.props)-1
				}
			case "key":
				if parent.role == roleProp {
					p := doc.flows[parent.flow].props[parent.prop]
					if !p.hasKey {
						p.hasKey = true
						fr.role, fr.prop = roleKey, parent.prop
					}
				}
			case "value":
				if parent.role == roleProp {
					p := doc.flows[parent.flow].props[parent.prop]
					if !p.hasValue {
						p.hasValue = true
						p.tagStart, p.tagEnd = before, after
						fr.role, fr.prop = roleValue, parent.prop
					}
				}
			case "subProcess":
				fr.sub = -1
				if v := strings.TrimSpace(attr(t, "triggeredByEvent")); v == "true" || v == "1" {
					doc.subs = append(doc.subs, &rawSub{id: attr(t, "id"), name: attr(t, "name")})
					fr.sub = len(doc.subs) - 1
				}
			case "endEvent":
				if fr.sub >= 0 {
					s := doc.subs[fr.sub]
					s.ends = append(s.ends, 0)
					fr.role, fr.end = roleEnd, len(s.ends)-1
				}
			default:
				if rank, ok := definitionRank[t.Name.Local]; ok && parent.role == roleEnd {
					s := doc.subs[parent.sub]
					if rank > s.ends[parent.end] {
						s.ends[parent.end] = rank
					}
				}
			}
			stack = append(stack, fr)
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			switch top.role {
			case roleKey:
				doc.flows[top.flow].props[top.prop].keyText.Write(t)
			case roleValue:
				doc.flows[top.flow].props[top.prop].value.Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, fmt.Errorf("parse iFlow: unexpected end element </%s>", t.Name.Local)
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch top.role {
			case roleKey:
				p := doc.flows[top.flow].props[top.prop]
				p.key = strings.TrimSpace(p.keyText.String())
			case roleValue:
				p := doc.flows[top.flow].props[top.prop]
				p.contentEnd = before
				p.selfClosing = before == after
			}
		}
	}
	if !seenRoot {
		return nil, errors.New("parse iFlow: the .iflw document has no root element; it must be a BPMN2 XML document with a bpmn2:definitions root element")
	}
	if len(stack) != 0 {
		return nil, errors.New("parse iFlow: the .iflw document ends before its root element is closed")
	}
	return doc, nil
}

// attr returns the value of the attribute with the given local name,
// preferring an attribute without namespace prefix.
func attr(t xml.StartElement, local string) string {
	found, val := false, ""
	for _, a := range t.Attr {
		if a.Name.Local != local {
			continue
		}
		if a.Name.Space == "" {
			return a.Value
		}
		if !found {
			found, val = true, a.Value
		}
	}
	return val
}

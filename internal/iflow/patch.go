package iflow

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// ErrFlowNotFound is returned when no message flow has the requested id.
var ErrFlowNotFound = errors.New("message flow not found")

// ErrPropertyNotFound is returned when a message flow lacks a property that
// a patch changes.
var ErrPropertyNotFound = errors.New("property not found")

type splice struct {
	start, end int64
	text       []byte
}

// PatchIflw sets the values of the named ifl:property keys of the message
// flow with id flowID. Only the text of each <value> element is replaced (a
// self-closing <value/> gains content and an end tag); every other byte of
// the document stays identical. A value that already equals the new value is
// left untouched. Every key in changes must exist in the message flow.
func PatchIflw(data []byte, flowID string, changes map[string]string) ([]byte, error) {
	if strings.TrimSpace(flowID) == "" {
		return nil, errors.New("patch iFlow: the message flow id is empty; set the id of the sender message flow, for example MessageFlow_11")
	}
	for _, k := range sortedKeys(changes) {
		if err := checkXMLText(changes[k]); err != nil {
			return nil, fmt.Errorf("patch iFlow: the new value of %q %v", k, err)
		}
	}
	doc, err := scan(data)
	if err != nil {
		return nil, err
	}
	var flows []*rawFlow
	for _, f := range doc.flows {
		if f.id == flowID {
			flows = append(flows, f)
		}
	}
	if len(flows) == 0 {
		ids := make([]string, 0, len(doc.flows))
		for _, f := range doc.flows {
			ids = append(ids, f.id)
		}
		return nil, fmt.Errorf("patch iFlow: %w: the iFlow has no message flow with id %q (message flows: %s); set the id of an existing message flow",
			ErrFlowNotFound, flowID, listOrNone(ids))
	}
	if len(flows) > 1 {
		return nil, fmt.Errorf("patch iFlow: the iFlow has %d message flows with id %q, so the flow to change is ambiguous; message flow ids must be unique", len(flows), flowID)
	}
	found := make(map[string]bool, len(changes))
	var splices []splice
	for _, f := range flows {
		for _, p := range f.props {
			if !p.hasKey {
				continue
			}
			newValue, ok := changes[p.key]
			if !ok {
				continue
			}
			found[p.key] = true
			if !p.hasValue {
				return nil, fmt.Errorf("patch iFlow: property %q of message flow %q has no <value> element, so its value cannot be replaced in place", p.key, flowID)
			}
			if p.markup {
				return nil, fmt.Errorf("patch iFlow: the <value> of property %q of message flow %q holds child elements, so it is not a plain value and is left unchanged", p.key, flowID)
			}
			if p.value.String() == newValue {
				continue
			}
			sp, err := valueSplice(data, p, newValue)
			if err != nil {
				return nil, fmt.Errorf("patch iFlow: property %q of message flow %q: %w", p.key, flowID, err)
			}
			splices = append(splices, sp)
		}
	}
	var missing []string
	for _, k := range sortedKeys(changes) {
		if !found[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("patch iFlow: %w: message flow %q has no property %s; only existing properties are changed, so add them in the Cloud Integration editor first",
			ErrPropertyNotFound, flowID, quoteList(missing))
	}
	out := applySplices(data, splices)
	if err := verifyPatch(out, flowID, changes); err != nil {
		return nil, err
	}
	return out, nil
}

// valueSplice returns the splice that gives the <value> element p the text v.
func valueSplice(data []byte, p *rawProp, v string) (splice, error) {
	n := int64(len(data))
	if p.tagStart < 0 || p.tagEnd > n || p.tagStart >= p.tagEnd || data[p.tagStart] != '<' {
		return splice{}, errors.New("the position of the <value> element could not be determined")
	}
	esc := EscapeXMLText(v)
	if !p.selfClosing {
		if p.contentEnd < p.tagEnd || p.contentEnd > n {
			return splice{}, errors.New("the position of the <value> content could not be determined")
		}
		return splice{start: p.tagEnd, end: p.contentEnd, text: esc}, nil
	}
	if p.tagEnd-p.tagStart < 4 || !bytes.Equal(data[p.tagEnd-2:p.tagEnd], []byte("/>")) {
		return splice{}, errors.New("the self-closing <value/> element could not be located")
	}
	name := rawTagName(data[p.tagStart+1 : p.tagEnd-2])
	if name == "" {
		return splice{}, errors.New("the name of the <value/> element could not be read")
	}
	var b bytes.Buffer
	b.WriteByte('>')
	b.Write(esc)
	b.WriteString("</")
	b.WriteString(name)
	b.WriteByte('>')
	return splice{start: p.tagEnd - 2, end: p.tagEnd, text: b.Bytes()}, nil
}

// rawTagName returns the element name at the start of a tag body.
func rawTagName(b []byte) string {
	i := bytes.IndexAny(b, " \t\r\n/>")
	if i < 0 {
		i = len(b)
	}
	return string(b[:i])
}

func applySplices(data []byte, splices []splice) []byte {
	sort.Slice(splices, func(i, j int) bool { return splices[i].start < splices[j].start })
	var b bytes.Buffer
	b.Grow(len(data) + 64)
	var pos int64
	for _, s := range splices {
		b.Write(data[pos:s.start])
		b.Write(s.text)
		pos = s.end
	}
	b.Write(data[pos:])
	return b.Bytes()
}

// verifyPatch reads the patched document back and checks the new values.
func verifyPatch(out []byte, flowID string, changes map[string]string) error {
	doc, err := scan(out)
	if err != nil {
		return fmt.Errorf("patch iFlow: the patched document does not parse: %w", err)
	}
	for _, f := range doc.flows {
		if f.id != flowID {
			continue
		}
		for _, p := range f.props {
			if want, ok := changes[p.key]; ok && p.hasKey && p.value.String() != want {
				return fmt.Errorf("patch iFlow: property %q of message flow %q reads back as %q after the patch, not %q", p.key, flowID, p.value.String(), want)
			}
		}
	}
	return nil
}

// checkXMLText reports an error when s cannot be written as XML text.
func checkXMLText(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("is not valid UTF-8; set a UTF-8 text")
	}
	for _, r := range s {
		if !isXMLChar(r) {
			return fmt.Errorf("contains the character %U, which XML 1.0 does not allow; remove it", r)
		}
	}
	return nil
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) ||
		(r >= 0x10000 && r <= 0x10FFFF)
}

// EscapeXMLText escapes s for use as element content. A carriage return is
// written as a character reference so that it survives line-end
// normalisation.
func EscapeXMLText(s string) []byte {
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\r':
			b.WriteString("&#xD;")
		default:
			b.WriteByte(c)
		}
	}
	return b.Bytes()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func listOrNone(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	const maxShown = 20
	if len(items) > maxShown {
		return quoteList(items[:maxShown]) + fmt.Sprintf(" and %d more", len(items)-maxShown)
	}
	return quoteList(items)
}

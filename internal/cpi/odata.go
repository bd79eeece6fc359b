package cpi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// KeyLiteral returns v as a quoted OData string literal for a URL: each
// quote is doubled, then every byte except the RFC 3986 unreserved
// characters is percent-encoded. The enclosing quotes stay literal.
func KeyLiteral(v string) string {
	return "'" + escape(strings.ReplaceAll(v, "'", "''")) + "'"
}

// escape percent-encodes every byte except A-Z a-z 0-9 - . _ ~, which is
// safe in a path segment and in a query value alike.
func escape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// errNotOData is returned for answers that are not OData v2 JSON.
var errNotOData = errors.New("the answer is not an OData JSON document")

// entityPayload returns the entity object of a single-entity answer. It
// accepts {"d":{...}}, {"d":{"results":{...}}} and a bare object.
func entityPayload(body []byte) (json.RawMessage, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, errNotOData
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(body, &outer); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotOData, err)
	}
	d, ok := outer["d"]
	if !ok {
		return body, nil
	}
	d = bytes.TrimSpace(d)
	if len(d) == 0 || d[0] != '{' {
		return nil, fmt.Errorf("%w: \"d\" is not an object", errNotOData)
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(d, &inner); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotOData, err)
	}
	if r, ok := inner["results"]; ok && len(inner) == 1 {
		r = bytes.TrimSpace(r)
		if len(r) > 0 && r[0] == '{' {
			return r, nil
		}
	}
	return d, nil
}

// listPayload returns the entries of a collection answer. It accepts
// {"d":{"results":[...]}}, {"d":[...]}, {"value":[...]} and a bare array;
// null and absent results are an empty list.
func listPayload(body []byte) ([]json.RawMessage, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, errNotOData
	}
	var list []json.RawMessage
	if body[0] == '[' {
		if err := json.Unmarshal(body, &list); err != nil {
			return nil, fmt.Errorf("%w: %v", errNotOData, err)
		}
		return list, nil
	}
	if body[0] != '{' {
		return nil, errNotOData
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(body, &outer); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotOData, err)
	}
	raw, ok := outer["d"]
	if !ok {
		if raw, ok = outer["value"]; !ok {
			return nil, fmt.Errorf("%w: neither \"d\" nor \"value\" is present", errNotOData)
		}
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(raw, &inner); err != nil {
			return nil, fmt.Errorf("%w: %v", errNotOData, err)
		}
		if raw, ok = inner["results"]; !ok {
			return nil, nil
		}
		raw = bytes.TrimSpace(raw)
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '[' {
		return nil, fmt.Errorf("%w: the results are not an array", errNotOData)
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotOData, err)
	}
	return list, nil
}

// decodeEntity decodes a single-entity answer into v.
func decodeEntity(body []byte, v any) error {
	p, err := entityPayload(body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(p, v); err != nil {
		return fmt.Errorf("%w: %v", errNotOData, err)
	}
	return nil
}

// decodeList decodes the entries of a collection answer into a slice.
func decodeList[T any](body []byte) ([]T, error) {
	items, err := listPayload(body)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(items))
	for _, raw := range items {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("%w: %v", errNotOData, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// text is a JSON value read as text: strings as they are, numbers and
// booleans as written, null and absent as "". Objects and arrays are
// errors.
type text string

// UnmarshalJSON implements json.Unmarshaler.
func (t *text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*t = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = text(s)
	case string(b) == "true" || string(b) == "false":
		*t = text(b)
	default:
		if _, err := strconv.ParseFloat(string(b), 64); err != nil {
			return fmt.Errorf("expected a string, number, boolean or null, got %.40s", b)
		}
		*t = text(b)
	}
	return nil
}

// Wire shapes of the entities; only the members the client reads.
type artifactWire struct {
	ID          text `json:"Id"`
	Version     text `json:"Version"`
	PackageID   text `json:"PackageId"`
	Name        text `json:"Name"`
	Description text `json:"Description"`
}

type configurationWire struct {
	ParameterKey   text `json:"ParameterKey"`
	ParameterValue text `json:"ParameterValue"`
	DataType       text `json:"DataType"`
}

type statusWire struct {
	TaskID text `json:"TaskId"`
	Status text `json:"Status"`
}

type runtimeWire struct {
	ID         text `json:"Id"`
	Version    text `json:"Version"`
	Name       text `json:"Name"`
	Type       text `json:"Type"`
	DeployedBy text `json:"DeployedBy"`
	DeployedOn text `json:"DeployedOn"`
	Status     text `json:"Status"`
}

// errorInformationWire is the document of IntegrationRuntimeArtifacts('X')/ErrorInformation/$value.
type errorInformationWire struct {
	Message *struct {
		MessageText text `json:"messageText"`
	} `json:"message"`
	Parameter []text `json:"parameter"`
}

// errorText extracts the error text of an ErrorInformation document: the
// parameters, else the message text, else the body as text.
func errorText(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	var w errorInformationWire
	if body[0] == '{' && json.Unmarshal(body, &w) == nil {
		var parts []string
		for _, p := range w.Parameter {
			if s := strings.TrimSpace(string(p)); s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			return oneLine(strings.Join(parts, "; "))
		}
		if w.Message != nil && strings.TrimSpace(string(w.Message.MessageText)) != "" {
			return oneLine(string(w.Message.MessageText))
		}
	}
	return oneLine(string(body))
}

// oneLine collapses white space and bounds the length of a tenant message.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	const maxRunes = 1000
	if r := []rune(s); len(r) > maxRunes {
		s = string(r[:maxRunes]) + "…"
	}
	return s
}

// parseTaskID reads the task id from a deploy answer: plain text, a JSON
// string, or an entity with TaskId.
func parseTaskID(body []byte) string {
	t := strings.TrimSpace(string(body))
	switch {
	case strings.HasPrefix(t, `"`):
		var s string
		if json.Unmarshal([]byte(t), &s) == nil {
			return strings.TrimSpace(s)
		}
	case strings.HasPrefix(t, "{"):
		var w statusWire
		if decodeEntity([]byte(t), &w) == nil {
			return strings.TrimSpace(string(w.TaskID))
		}
		return ""
	}
	return t
}

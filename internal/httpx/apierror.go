package httpx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxMessageRunes bounds the message taken from an error body.
const maxMessageRunes = 500

// APIError is a non-2xx answer of an SAP API.
type APIError struct {
	Method     string
	Path       string
	StatusCode int
	Message    string
}

// Error returns e.g. "PUT /queues/x: 409 Conflict: queue exists".
func (e *APIError) Error() string {
	s := fmt.Sprintf("%s %s: %s", e.Method, e.Path, statusText(e.StatusCode))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// NewAPIError builds an APIError from a response, taking the message from a
// {"message": "..."} body, an OData {"error": {"message": {"value": "..."}}}
// body, or the body text truncated to 500 characters. The query of path is
// dropped.
func NewAPIError(method, path string, r *Response) *APIError {
	e := &APIError{Method: method, Path: logPath(path)}
	if r != nil {
		e.StatusCode = r.StatusCode
		e.Message = ErrorMessage(r.Body)
	}
	return e
}

// ErrorMessage extracts a one-line message from an error response body.
func ErrorMessage(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	if body[0] == '{' {
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) == nil {
			if m := messageFromObject(obj); m != "" {
				return clean(m)
			}
		}
	}
	return clean(string(body))
}

func messageFromObject(obj map[string]json.RawMessage) string {
	if m := textOf(obj["message"]); m != "" {
		return m
	}
	if raw, ok := obj["error"]; ok {
		var inner map[string]json.RawMessage
		if json.Unmarshal(raw, &inner) == nil {
			if m := textOf(inner["message"]); m != "" {
				return m
			}
			if m := textOf(inner["code"]); m != "" {
				return m
			}
		}
		if code := textOf(raw); code != "" {
			if d := textOf(obj["error_description"]); d != "" {
				return code + ": " + d
			}
			return code
		}
	}
	if d := textOf(obj["error_description"]); d != "" {
		return d
	}
	if d := textOf(obj["description"]); d != "" {
		return d
	}
	return ""
}

// textOf returns a JSON string, or the "value" string of a JSON object.
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var v struct {
		Value string `json:"value"`
	}
	if json.Unmarshal(raw, &v) == nil {
		return strings.TrimSpace(v.Value)
	}
	return ""
}

// clean makes s valid UTF-8 on one line without control characters and
// truncates it to maxMessageRunes.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return truncate(s, maxMessageRunes)
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

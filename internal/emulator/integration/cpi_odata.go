package integration

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// odataSegment is one segment of an OData resource path, for example
// IntegrationDesigntimeArtifacts(Id='X',Version='active') or $value.
type odataSegment struct {
	// Name is the entity set, navigation property or $-keyword.
	Name string
	// HasKey is true when the segment carries a key predicate in parentheses.
	HasKey bool
	// Key is the value of an unnamed key predicate such as ('X').
	Key string
	// Keys holds the values of a named key predicate such as (Id='X',Version='1').
	Keys map[string]string
}

// keyValue returns the value of the named key, or of the unnamed key when
// the predicate has no names and name is the entity's only key.
func (g odataSegment) keyValue(name string, single bool) (string, bool) {
	if !g.HasKey {
		return "", false
	}
	if g.Keys != nil {
		v, ok := g.Keys[name]
		return v, ok
	}
	if single {
		return g.Key, true
	}
	return "", false
}

// errODataSyntax marks a resource path or key predicate that cannot be parsed.
var errODataSyntax = errors.New("invalid OData resource path")

// parseODataPath splits a decoded resource path (relative to the service
// root) into segments. Slashes inside quoted key values do not split.
func parseODataPath(p string) ([]odataSegment, error) {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil, nil
	}
	parts, err := splitODataPath(p)
	if err != nil {
		return nil, err
	}
	segs := make([]odataSegment, 0, len(parts))
	for i, part := range parts {
		if part == "" {
			if i == len(parts)-1 {
				break // a trailing slash
			}
			return nil, fmt.Errorf("%w: the path has an empty segment", errODataSyntax)
		}
		seg, err := parseODataSegment(part)
		if err != nil {
			return nil, err
		}
		segs = append(segs, seg)
	}
	return segs, nil
}

// splitODataPath splits p at every '/' outside single-quoted strings.
func splitODataPath(p string) ([]string, error) {
	var parts []string
	inQuote := false
	start := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\'':
			// A doubled quote inside a string toggles twice and so stays inside.
			inQuote = !inQuote
		case '/':
			if !inQuote {
				parts = append(parts, p[start:i])
				start = i + 1
			}
		}
	}
	if inQuote {
		return nil, fmt.Errorf("%w: a quoted key value is not closed", errODataSyntax)
	}
	return append(parts, p[start:]), nil
}

// parseODataSegment parses Name or Name(keyPredicate).
func parseODataSegment(s string) (odataSegment, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if strings.ContainsAny(s, ")'") {
			return odataSegment{}, fmt.Errorf("%w: the segment %q is malformed", errODataSyntax, s)
		}
		return odataSegment{Name: s}, nil
	}
	name := s[:open]
	if name == "" || !strings.HasSuffix(s, ")") {
		return odataSegment{}, fmt.Errorf("%w: the segment %q is malformed", errODataSyntax, s)
	}
	seg := odataSegment{Name: name, HasKey: true}
	single, named, err := parseODataKeyPredicate(s[open+1 : len(s)-1])
	if err != nil {
		return odataSegment{}, err
	}
	seg.Key, seg.Keys = single, named
	return seg, nil
}

// parseODataKeyPredicate parses the text between the parentheses of a key
// predicate: either one value ('X', 42) or name=value pairs separated by
// commas. String values are single-quoted; a quote inside is written twice.
func parseODataKeyPredicate(s string) (single string, named map[string]string, err error) {
	rest := strings.TrimSpace(s)
	if rest == "" {
		return "", nil, fmt.Errorf("%w: the key predicate is empty", errODataSyntax)
	}
	first := true
	for {
		var name string
		if !strings.HasPrefix(rest, "'") {
			if eq := indexOutsideQuotes(rest, '='); eq >= 0 {
				name = strings.TrimSpace(rest[:eq])
				if name == "" || strings.ContainsAny(name, "',()") {
					return "", nil, fmt.Errorf("%w: the key name %q is malformed", errODataSyntax, name)
				}
				rest = strings.TrimSpace(rest[eq+1:])
			}
		}
		value, after, err := parseODataValue(rest)
		if err != nil {
			return "", nil, err
		}
		after = strings.TrimSpace(after)
		if name == "" {
			if !first || after != "" {
				return "", nil, fmt.Errorf("%w: a key predicate with several values must name each of them", errODataSyntax)
			}
			return value, nil, nil
		}
		if named == nil {
			named = map[string]string{}
		}
		if _, dup := named[name]; dup {
			return "", nil, fmt.Errorf("%w: the key %q is given twice", errODataSyntax, name)
		}
		named[name] = value
		if after == "" {
			return "", named, nil
		}
		if after[0] != ',' {
			return "", nil, fmt.Errorf("%w: expected ',' after the value of key %q", errODataSyntax, name)
		}
		rest = strings.TrimSpace(after[1:])
		first = false
	}
}

// parseODataValue reads one literal at the start of s: a quoted string or an
// unquoted token up to the next ',' or the end.
func parseODataValue(s string) (value, rest string, err error) {
	if strings.HasPrefix(s, "'") {
		return parseODataString(s)
	}
	end := strings.IndexByte(s, ',')
	if end < 0 {
		end = len(s)
	}
	v := strings.TrimSpace(s[:end])
	if v == "" || strings.ContainsAny(v, "'()=") {
		return "", "", fmt.Errorf("%w: the key value %q is malformed", errODataSyntax, v)
	}
	return v, s[end:], nil
}

// parseODataString reads a single-quoted string at the start of s.
func parseODataString(s string) (value, rest string, err error) {
	if !strings.HasPrefix(s, "'") {
		return "", "", fmt.Errorf("%w: expected a quoted string", errODataSyntax)
	}
	v, n, ok := scanQuoted(s)
	if !ok {
		return "", "", fmt.Errorf("%w: a quoted key value is not closed", errODataSyntax)
	}
	return v, s[n:], nil
}

// scanQuoted reads the single-quoted literal at the start of s, whose first
// byte is the opening quote; a doubled quote stands for one. It returns the
// value and the length of the literal, or ok false when it is not closed.
func scanQuoted(s string) (value string, n int, ok bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), i + 1, true
	}
	return "", 0, false
}

// parseODataQuoted parses a whole query option value that must be one quoted
// string, such as Id='X' in DeployIntegrationDesigntimeArtifact?Id='X'.
func parseODataQuoted(s string) (string, error) {
	v, rest, err := parseODataString(strings.TrimSpace(s))
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(rest) != "" {
		return "", fmt.Errorf("%w: unexpected text after the quoted value", errODataSyntax)
	}
	return v, nil
}

func indexOutsideQuotes(s string, c byte) int {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			inQuote = !inQuote
		case c:
			if !inQuote {
				return i
			}
		}
	}
	return -1
}

// odataLiteral returns v as a quoted OData string literal for a URL path:
// quotes doubled, then everything but unreserved characters percent-encoded.
func odataLiteral(v string) string {
	return "'" + odataEscape(strings.ReplaceAll(v, "'", "''")) + "'"
}

// odataEscape percent-encodes every byte except RFC 3986 unreserved characters.
func odataEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
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

// odataErrorBody is the OData v2 error document.
type odataErrorBody struct {
	Error odataErrorMain `json:"error"`
}

type odataErrorMain struct {
	Code    string           `json:"code"`
	Message odataErrorDetail `json:"message"`
}

type odataErrorDetail struct {
	Lang  string `json:"lang"`
	Value string `json:"value"`
}

// respondODataError writes {"error":{"code","message":{"lang","value"}}}.
func respondODataError(w http.ResponseWriter, status int, msg string) {
	code := http.StatusText(status)
	if code == "" {
		code = fmt.Sprint(status)
	}
	body, _ := json.Marshal(odataErrorBody{Error: odataErrorMain{Code: code, Message: odataErrorDetail{Lang: "en", Value: msg}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// respondOData writes v inside the OData v2 envelope {"d": v}.
func respondOData(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(map[string]any{"d": v})
	if err != nil {
		respondODataError(w, http.StatusInternalServerError, "The answer could not be encoded.")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("DataServiceVersion", "2.0")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

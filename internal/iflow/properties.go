package iflow

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// propEntry is one logical line of a Java properties file with byte offsets
// into the file.
type propEntry struct {
	key, value string
	// valueStart is where the value begins, lineEnd where the logical line
	// ends (before its line terminator).
	valueStart, lineEnd int
	// hasSep is false for a line that is only a key.
	hasSep bool
}

func isPropSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

// parseProperties reads a Java properties file as java.util.Properties.load
// does. Each key and value is read as UTF-8 when it is valid UTF-8 and as
// ISO-8859-1 otherwise, so that changing one line never changes how another
// reads. It never fails: malformed escapes are kept as written.
func parseProperties(data []byte) []propEntry {
	var entries []propEntry
	n := len(data)
	i := 0
	for i < n {
		// Start of a natural line: skip leading white space.
		for i < n && isPropSpace(data[i]) {
			i++
		}
		if i >= n {
			break
		}
		if data[i] == '\n' || data[i] == '\r' {
			i = skipEOL(data, i)
			continue
		}
		if data[i] == '#' || data[i] == '!' {
			i = skipEOL(data, lineEndAt(data, i))
			continue
		}
		// Collect the logical line with the offset of each byte.
		var logical []byte
		var pos []int
		lineEnd := i
		for {
			end := lineEndAt(data, i)
			seg := data[i:end]
			bs := 0
			for k := len(seg) - 1; k >= 0 && seg[k] == '\\'; k-- {
				bs++
			}
			cont := bs%2 == 1
			if cont {
				seg = seg[:len(seg)-1]
			}
			for k := range seg {
				logical = append(logical, seg[k])
				pos = append(pos, i+k)
			}
			lineEnd = end
			next := skipEOL(data, end)
			i = next
			if !cont || next == end {
				break
			}
			for i < n && isPropSpace(data[i]) {
				i++
			}
		}
		e := splitPropLine(logical, pos, lineEnd)
		entries = append(entries, e)
	}
	return entries
}

// splitPropLine separates key and value of a logical line.
func splitPropLine(logical []byte, pos []int, lineEnd int) propEntry {
	keyLen, valueStart := 0, len(logical)
	hasSep, precedingBackslash := false, false
	for keyLen < len(logical) {
		c := logical[keyLen]
		if (c == '=' || c == ':') && !precedingBackslash {
			valueStart = keyLen + 1
			hasSep = true
			break
		}
		if isPropSpace(c) && !precedingBackslash {
			valueStart = keyLen + 1
			hasSep = true
			break
		}
		if c == '\\' {
			precedingBackslash = !precedingBackslash
		} else {
			precedingBackslash = false
		}
		keyLen++
	}
	sepSeen := hasSep && (logical[keyLen] == '=' || logical[keyLen] == ':')
	for valueStart < len(logical) {
		c := logical[valueStart]
		if !isPropSpace(c) {
			if !sepSeen && (c == '=' || c == ':') {
				sepSeen = true
			} else {
				break
			}
		}
		valueStart++
	}
	e := propEntry{
		key:     unescapeProp(decodeProp(logical[:keyLen])),
		value:   unescapeProp(decodeProp(logical[valueStart:])),
		lineEnd: lineEnd,
		hasSep:  hasSep,
	}
	if valueStart < len(pos) {
		e.valueStart = pos[valueStart]
	} else {
		e.valueStart = lineEnd
	}
	return e
}

// lineEndAt returns the offset of the next line terminator at or after i.
func lineEndAt(data []byte, i int) int {
	for i < len(data) && data[i] != '\n' && data[i] != '\r' {
		i++
	}
	return i
}

// skipEOL skips one line terminator (\n, \r or \r\n) at i.
func skipEOL(data []byte, i int) int {
	if i < len(data) && data[i] == '\r' {
		i++
	}
	if i < len(data) && data[i] == '\n' {
		i++
	}
	return i
}

func decodeProp(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// unescapeProp resolves the escapes of a properties key or value.
func unescapeProp(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			if c != '\\' {
				b.WriteByte(c)
			}
			continue
		}
		i++
		switch c = s[i]; c {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if r, ok := hex4(s[i+1:]); ok {
				if r >= 0xD800 && r <= 0xDBFF && i+10 < len(s) && s[i+5] == '\\' && s[i+6] == 'u' {
					if lo, ok := hex4(s[i+7:]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						b.WriteRune((r-0xD800)<<10 + (lo - 0xDC00) + 0x10000)
						i += 10
						continue
					}
				}
				b.WriteRune(r)
				i += 4
			} else {
				b.WriteString(`\u`)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// escapeProp escapes a key (all spaces escaped) or a value (only a leading
// space escaped) as java.util.Properties.store does; characters outside
// printable ASCII are written as \uXXXX.
// PropertyLine returns the line key=value of a properties file, escaped as
// java.util.Properties.store escapes it, without the line end.
func PropertyLine(key, value string) string {
	return escapeProp(key, true) + "=" + escapeProp(value, false)
}

func escapeProp(s string, isKey bool) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case ' ':
			if i == 0 || isKey {
				b.WriteByte('\\')
			}
			b.WriteByte(' ')
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '=', ':', '#', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			if r < 0x20 || r > 0x7e {
				if r == utf8.RuneError {
					r = 0xFFFD
				}
				if r > 0xFFFF {
					r -= 0x10000
					fmt.Fprintf(&b, `\u%04X\u%04X`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
				} else {
					fmt.Fprintf(&b, `\u%04X`, r)
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// propertiesMap returns the key/value pairs of a properties file; a later
// line wins over an earlier one with the same key.
func propertiesMap(data []byte) map[string]string {
	m := make(map[string]string)
	for _, e := range parseProperties(data) {
		m[e.key] = e.value
	}
	return m
}

// setProperties updates the values of existing keys in place and appends
// lines for new keys, keeping every other byte.
func setProperties(data []byte, values map[string]string) []byte {
	entries := parseProperties(data)
	present := make(map[string]bool)
	var splices []splice
	for _, e := range entries {
		v, ok := values[e.key]
		if !ok {
			continue
		}
		present[e.key] = true
		if e.value == v {
			continue
		}
		text := escapeProp(v, false)
		if !e.hasSep {
			text = "=" + text
		}
		splices = append(splices, splice{start: int64(e.valueStart), end: int64(e.lineEnd), text: []byte(text)})
	}
	out := applySplices(data, splices)
	var add []string
	for k := range values {
		if !present[k] {
			add = append(add, k)
		}
	}
	if len(add) == 0 {
		return out
	}
	sort.Strings(add)
	eol := []byte("\n")
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			eol = []byte("\r\n")
		} else {
			eol = data[i : i+1]
		}
	}
	var b bytes.Buffer
	b.Write(out)
	if len(out) > 0 && out[len(out)-1] != '\n' && out[len(out)-1] != '\r' {
		b.Write(eol)
	}
	if lastLineContinues(out) {
		// An empty line ends the continuation, so the new lines stay separate.
		b.Write(eol)
	}
	for _, k := range add {
		b.WriteString(PropertyLine(k, values[k]))
		b.Write(eol)
	}
	return b.Bytes()
}

// lastLineContinues reports whether the last line of data ends with an odd
// number of backslashes, which would continue it onto an appended line.
func lastLineContinues(data []byte) bool {
	end := len(data)
	if end > 0 && data[end-1] == '\n' {
		end--
	}
	if end > 0 && data[end-1] == '\r' {
		end--
	}
	n := 0
	for i := end - 1; i >= 0 && data[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

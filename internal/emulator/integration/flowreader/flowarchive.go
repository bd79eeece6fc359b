package flowreader

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"
)

// The emulator's own reader of integration flow archives. It shares no code
// with the provider's reader (internal/iflow): the emulator checks that
// reader, so it reads the archive from SAP's description of it.
//
// An integration flow artifact is a bundle (zip) with META-INF/MANIFEST.MF,
// its model src/main/resources/scenarioflows/integrationflow/<name>.iflw (a
// BPMN2 document), the values of its externalized parameters in
// src/main/resources/parameters.prop (a Java properties file) and their
// definitions in src/main/resources/parameters.propdef [the project's
// reference note sap-apis.md, Cloud Integration section; the real archive
// of SAP's EMIS_AMQP_Consumer flow, specs/iflows, SOURCES.md].

// Entry names of an integration flow archive.
const (
	ManifestPath          = "META-INF/MANIFEST.MF"
	IflwDir               = "src/main/resources/scenarioflows/integrationflow/"
	ParametersPath        = "src/main/resources/parameters.prop"
	flowParameterDefsPath = "src/main/resources/parameters.propdef"
)

// Bounds of what the reader accepts from an archive (the emulator's own, so
// that a hostile upload cannot exhaust its memory; assumed).
const (
	maxFlowEntrySize   = 64 << 20
	maxFlowEntries     = 100000
	maxFlowDocumentLen = 64 << 20
)

// Archive is what the emulator reads of an integration flow archive.
type Archive struct {
	IflwPath string
	Model    *Model
	// Params are the values of parameters.prop; paramTypes the declared
	// types of parameters.propdef (key → type, e.g. "xsd:integer").
	Params     map[string]string
	ParamTypes map[string]string
	// Manifest holds the main attributes of META-INF/MANIFEST.MF.
	Manifest map[string]string
}

// ParameterValues merges parameters.prop with the tenant's configurations,
// which win.
func (a *Archive) ParameterValues(configurations map[string]string) map[string]string {
	m := make(map[string]string, len(a.Params)+len(configurations))
	for k, v := range a.Params {
		m[k] = v
	}
	for k, v := range configurations {
		m[k] = v
	}
	return m
}

// ReadArchive reads an integration flow archive and its one .iflw.
func ReadArchive(data []byte) (*Archive, error) {
	zr, err := openFlowZip(data)
	if err != nil {
		return nil, err
	}
	var iflws, preferred []*zip.File
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") || !strings.EqualFold(path.Ext(f.Name), ".iflw") {
			continue
		}
		iflws = append(iflws, f)
		if strings.HasPrefix(f.Name, IflwDir) {
			preferred = append(preferred, f)
		}
	}
	if len(preferred) > 0 {
		iflws = preferred
	}
	switch len(iflws) {
	case 0:
		return nil, fmt.Errorf("the archive has no .iflw entry under %s, so it is not an integration flow", IflwDir)
	case 1:
	default:
		return nil, fmt.Errorf("the archive has %d .iflw entries, so its integration flow is ambiguous; an artifact holds exactly one", len(iflws))
	}
	doc, err := readFlowEntry(iflws[0])
	if err != nil {
		return nil, err
	}
	model, err := parseFlowModel(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", iflws[0].Name, err)
	}
	a := &Archive{IflwPath: iflws[0].Name, Model: model, Params: map[string]string{}, ParamTypes: map[string]string{}, Manifest: map[string]string{}}
	if b, ok, err := readNamedEntry(zr, ParametersPath); err != nil {
		return nil, err
	} else if ok {
		for _, l := range javaPropertyLines(b) {
			a.Params[l.key] = l.value
		}
	}
	if b, ok, err := readNamedEntry(zr, flowParameterDefsPath); err == nil && ok {
		a.ParamTypes = readParameterDefs(b)
	}
	if b, ok, err := readNamedEntry(zr, ManifestPath); err == nil && ok {
		a.Manifest = readManifest(b)
	}
	return a, nil
}

func openFlowZip(data []byte) (*zip.Reader, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	// An insecure entry name comes with a usable reader; names are never used as paths here.
	if err != nil && (!errors.Is(err, zip.ErrInsecurePath) || zr == nil) {
		return nil, fmt.Errorf("the content is not a readable zip archive: %w", err)
	}
	if len(zr.File) > maxFlowEntries {
		return nil, fmt.Errorf("the archive has %d entries, more than the %d the emulator accepts", len(zr.File), maxFlowEntries)
	}
	return zr, nil
}

// readNamedEntry reads the entry with exactly this name; ok is false when absent.
func readNamedEntry(zr *zip.Reader, name string) ([]byte, bool, error) {
	var found *zip.File
	for _, f := range zr.File {
		if f.Name == name {
			if found != nil {
				return nil, false, fmt.Errorf("the archive has more than one entry %s", name)
			}
			found = f
		}
	}
	if found == nil {
		return nil, false, nil
	}
	b, err := readFlowEntry(found)
	return b, err == nil, err
}

func readFlowEntry(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > maxFlowEntrySize {
		return nil, fmt.Errorf("entry %s is %d bytes, more than the %d the emulator accepts", f.Name, f.UncompressedSize64, maxFlowEntrySize)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("entry %s cannot be opened: %w", f.Name, err)
	}
	defer func() { _ = rc.Close() }()
	b, err := io.ReadAll(io.LimitReader(rc, maxFlowEntrySize+1))
	if err != nil {
		return nil, fmt.Errorf("entry %s cannot be read: %w", f.Name, err)
	}
	if len(b) > maxFlowEntrySize {
		return nil, fmt.Errorf("entry %s is more than the %d bytes the emulator accepts", f.Name, maxFlowEntrySize)
	}
	return b, nil
}

// SetParameters returns the archive with parameters.prop holding value
// for key: the line of an existing key gets the new value, a new key is
// appended, an archive without the file gains it. Every other entry is
// copied unchanged.
func SetParameters(data []byte, key, value string) ([]byte, error) {
	if key == "" {
		return nil, errors.New("the parameter key is empty")
	}
	zr, err := openFlowZip(data)
	if err != nil {
		return nil, err
	}
	old, found, err := readNamedEntry(zr, ParametersPath)
	if err != nil {
		return nil, err
	}
	updated := setJavaProperty(old, key, value)
	if found && bytes.Equal(updated, old) {
		return data, nil
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	write := func(h *zip.FileHeader) error {
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write(updated)
		}
		return err
	}
	for _, f := range zr.File {
		if f.Name != ParametersPath {
			if err := zw.Copy(f); err != nil {
				return nil, fmt.Errorf("entry %s cannot be copied: %w", f.Name, err)
			}
			continue
		}
		h := &zip.FileHeader{Name: f.Name, Method: f.Method, Modified: f.Modified, Comment: f.Comment}
		if err := write(h); err != nil {
			return nil, err
		}
	}
	if !found {
		h := &zip.FileHeader{Name: ParametersPath, Method: zip.Deflate}
		if n := len(zr.File); n > 0 {
			h.Modified = zr.File[n-1].Modified
		}
		if err := write(h); err != nil {
			return nil, err
		}
	}
	if err := zw.SetComment(zr.Comment); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readManifest reads the main section of a JAR manifest: "Name: value"
// lines, a line starting with a space continuing the previous value, the
// section ending at the first empty line (the JAR file specification).
func readManifest(data []byte) map[string]string {
	m := map[string]string{}
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	last := ""
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			break
		}
		if line[0] == ' ' {
			if last != "" {
				m[last] += line[1:]
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			last = ""
			continue
		}
		last = strings.TrimSpace(k)
		m[last] = strings.TrimPrefix(v, " ")
	}
	return m
}

// javaPropertyLine is one key/value of a properties file with the byte
// range of its logical line.
type javaPropertyLine struct {
	key, value string
	start, end int
}

// javaPropertyLines reads a properties file as java.util.Properties.load
// describes the format: natural lines end in \n, \r or \r\n; blank lines and
// lines whose first non-blank character is # or ! are comments; a line
// ending in an odd number of backslashes continues on the next (whose
// leading blanks are dropped); the key ends at the first unescaped '=', ':'
// or blank, which with the blanks around it separates it from the value;
// \t \n \r \f \uXXXX are escapes and a backslash before any other character
// stands for that character. Bytes that are not UTF-8 are read as
// ISO-8859-1.
func javaPropertyLines(data []byte) []javaPropertyLine {
	var out []javaPropertyLine
	i, n := 0, len(data)
	isBlank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }
	lineEnd := func(i int) int {
		for i < n && data[i] != '\n' && data[i] != '\r' {
			i++
		}
		return i
	}
	skipEOL := func(i int) int {
		if i < n && data[i] == '\r' {
			i++
		}
		if i < n && data[i] == '\n' {
			i++
		}
		return i
	}
	for i < n {
		for i < n && isBlank(data[i]) {
			i++
		}
		if i >= n {
			break
		}
		if data[i] == '\n' || data[i] == '\r' {
			i = skipEOL(i)
			continue
		}
		if data[i] == '#' || data[i] == '!' {
			i = skipEOL(lineEnd(i))
			continue
		}
		start := i
		var logical []byte
		end := i
		for {
			e := lineEnd(i)
			seg := data[i:e]
			bs := 0
			for k := len(seg) - 1; k >= 0 && seg[k] == '\\'; k-- {
				bs++
			}
			cont := bs%2 == 1
			if cont {
				seg = seg[:len(seg)-1]
			}
			logical = append(logical, seg...)
			end = e
			next := skipEOL(e)
			i = next
			if !cont || next == e {
				break
			}
			for i < n && isBlank(data[i]) {
				i++
			}
		}
		// Split key and value at the first unescaped separator.
		k := 0
		for k < len(logical) {
			c := logical[k]
			if c == '\\' {
				k += 2
				continue
			}
			if c == '=' || c == ':' || isBlank(c) {
				break
			}
			k++
		}
		key := logical[:min(k, len(logical))]
		rest := logical[min(k, len(logical)):]
		j := 0
		for j < len(rest) && isBlank(rest[j]) {
			j++
		}
		if j < len(rest) && (rest[j] == '=' || rest[j] == ':') {
			j++
			for j < len(rest) && isBlank(rest[j]) {
				j++
			}
		}
		out = append(out, javaPropertyLine{key: unescapeJavaProperty(key), value: unescapeJavaProperty(rest[j:]), start: start, end: end})
	}
	return out
}

func unescapeJavaProperty(b []byte) string {
	s := string(b)
	if !utf8.Valid(b) {
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		s = string(r)
	}
	if !strings.Contains(s, `\`) {
		return s
	}
	var out []rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if rs[i] != '\\' || i+1 >= len(rs) {
			if rs[i] != '\\' {
				out = append(out, rs[i])
			}
			continue
		}
		i++
		switch rs[i] {
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 'f':
			out = append(out, '\f')
		case 'u':
			var v rune
			ok := i+4 < len(rs)
			for k := 1; ok && k <= 4; k++ {
				c := rs[i+k]
				switch {
				case c >= '0' && c <= '9':
					v = v*16 + c - '0'
				case c >= 'a' && c <= 'f':
					v = v*16 + c - 'a' + 10
				case c >= 'A' && c <= 'F':
					v = v*16 + c - 'A' + 10
				default:
					ok = false
				}
			}
			if !ok {
				// java.util.Properties.load refuses a malformed \uXXXX; the
				// emulator keeps it as written (assumed: SAP documents
				// nothing for a file the tenant would not write).
				out = append(out, '\\', 'u')
				continue
			}
			out = append(out, v)
			i += 4
		default:
			out = append(out, rs[i])
		}
	}
	// Surrogate pairs written as two \u escapes become one character.
	return string(utf16Join(out))
}

func utf16Join(rs []rune) []rune {
	out := rs[:0:0]
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r >= 0xD800 && r < 0xDC00 && i+1 < len(rs) && rs[i+1] >= 0xDC00 && rs[i+1] < 0xE000 {
			out = append(out, 0x10000+(r-0xD800)<<10+(rs[i+1]-0xDC00))
			i++
			continue
		}
		out = append(out, r)
	}
	return out
}

// escapeJavaProperty writes s as java.util.Properties.store does: every
// blank of a key and a leading blank of a value as "\ ", the characters
// \ = : # ! escaped, control and non-ASCII characters as \uXXXX.
func escapeJavaProperty(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == ' ':
			if key || i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(' ')
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\f':
			b.WriteString(`\f`)
		case strings.ContainsRune(`\=:#!`, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			if r > 0xFFFF {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04X\u%04X`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
				continue
			}
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// setJavaProperty replaces the logical line(s) of key with key=value, or
// appends the line; every other byte stays.
func setJavaProperty(data []byte, key, value string) []byte {
	line := escapeJavaProperty(key, true) + "=" + escapeJavaProperty(value, false)
	lines := javaPropertyLines(data)
	var last *javaPropertyLine
	for i := range lines {
		if lines[i].key == key {
			last = &lines[i]
		}
	}
	if last != nil {
		if lines := javaPropertyLines(data[last.start:last.end]); len(lines) == 1 && lines[0].value == value {
			return data
		}
		out := append([]byte{}, data[:last.start]...)
		out = append(out, line...)
		return append(out, data[last.end:]...)
	}
	out := append([]byte{}, data...)
	body := bytes.TrimRight(out, "\r\n")
	bs := len(body) - len(bytes.TrimRight(body, `\`))
	if len(out) > 0 && out[len(out)-1] != '\n' && out[len(out)-1] != '\r' {
		out = append(out, '\n')
	}
	if bs%2 == 1 {
		// The last line continues on the next: end it with an empty line first.
		out = append(out, '\n')
	}
	return append(append(out, line...), '\n')
}

// readParameterDefs reads parameters.propdef: <parameters> with one
// <parameter> per externalized parameter, its <key> (or <name>) and <type>.
// A file that cannot be read declares nothing.
func readParameterDefs(data []byte) map[string]string {
	var doc struct {
		Parameters []struct {
			Key  string `xml:"key"`
			Name string `xml:"name"`
			Type string `xml:"type"`
		} `xml:"parameter"`
	}
	out := map[string]string{}
	if xml.Unmarshal(data, &doc) != nil {
		return out
	}
	for _, p := range doc.Parameters {
		k := strings.TrimSpace(p.Key)
		if k == "" {
			k = strings.TrimSpace(p.Name)
		}
		if k != "" {
			out[k] = strings.TrimSpace(p.Type)
		}
	}
	return out
}

package iflow

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// Entry names inside an iFlow artifact.
const (
	ManifestPath      = "META-INF/MANIFEST.MF"
	IflwDir           = "src/main/resources/scenarioflows/integrationflow/"
	ParametersPath    = "src/main/resources/parameters.prop"
	ParameterDefsPath = "src/main/resources/parameters.propdef"
)

// Limits that keep a hostile archive from exhausting memory.
const (
	maxEntrySize       = 64 << 20
	maxArtifactEntries = 100000
)

// ErrNoIflw is returned when an artifact holds no .iflw entry.
var ErrNoIflw = errors.New("no .iflw file")

// Artifact is a parsed iFlow artifact.
type Artifact struct {
	// IflwPath is the zip entry name of the .iflw document.
	IflwPath string
	// Iflw is the .iflw document.
	Iflw []byte
	// Model is the parsed .iflw document.
	Model *Model
	// Parameters holds the externalized parameter values of parameters.prop;
	// it is empty when the artifact has none.
	Parameters map[string]string
	// ParameterTypes maps parameter keys to their declared type (for example
	// "xsd:integer") from parameters.propdef; it is empty when the file is
	// absent or cannot be read.
	ParameterTypes map[string]string
	// Manifest holds the main attributes of META-INF/MANIFEST.MF.
	Manifest map[string]string
}

// AMQPSenders returns the AMQP sender channels of the iFlow.
func (a *Artifact) AMQPSenders() []AMQPSender { return a.Model.AMQPSenders() }

// ExceptionSubprocesses returns the exception subprocesses of the iFlow.
func (a *Artifact) ExceptionSubprocesses() []ExceptionSubprocess {
	if a.Model == nil {
		return nil
	}
	return a.Model.ExceptionSubprocesses
}

// ParameterValues merges the values of parameters.prop with configurations
// (the tenant's Configurations, which take precedence). Either may be nil.
func (a *Artifact) ParameterValues(configurations map[string]string) map[string]string {
	m := make(map[string]string, len(a.Parameters)+len(configurations))
	for k, v := range a.Parameters {
		m[k] = v
	}
	for k, v := range configurations {
		m[k] = v
	}
	return m
}

// RetrySettings returns the retry settings of s with externalized parameters
// resolved from configurations first and parameters.prop second.
func (a *Artifact) RetrySettings(s AMQPSender, configurations map[string]string) RetrySettings {
	return s.RetrySettings(a.ParameterValues(configurations))
}

// ReadZip reads an iFlow artifact zip and parses its single .iflw document.
func ReadZip(data []byte) (*Artifact, error) {
	zr, f, doc, err := openIflw(data)
	if err != nil {
		return nil, err
	}
	model, err := ParseIflw(doc)
	if err != nil {
		return nil, fmt.Errorf("read iFlow zip: %s: %w", f.Name, err)
	}
	a := &Artifact{IflwPath: f.Name, Iflw: doc, Model: model,
		Parameters: map[string]string{}, ParameterTypes: map[string]string{}, Manifest: map[string]string{}}
	if pf, err := findEntry(zr, ParametersPath); err != nil {
		return nil, err
	} else if pf != nil {
		b, err := readEntry(pf)
		if err != nil {
			return nil, err
		}
		a.Parameters = propertiesMap(b)
	}
	if df, err := findEntry(zr, ParameterDefsPath); err == nil && df != nil {
		if b, err := readEntry(df); err == nil {
			a.ParameterTypes = parameterTypes(b)
		}
	}
	if mf, err := findEntry(zr, ManifestPath); err == nil && mf != nil {
		if b, err := readEntry(mf); err == nil {
			a.Manifest = parseManifest(b)
		}
	}
	return a, nil
}

// PatchZip applies PatchIflw to the .iflw entry of an artifact zip. Only that
// entry is rewritten (same name, method, time and position); every other
// entry is copied unchanged. When nothing changes, data is returned as is.
func PatchZip(data []byte, flowID string, changes map[string]string) ([]byte, error) {
	zr, f, doc, err := openIflw(data)
	if err != nil {
		return nil, err
	}
	patched, err := PatchIflw(doc, flowID, changes)
	if err != nil {
		return nil, fmt.Errorf("patch iFlow zip entry %s: %w", f.Name, err)
	}
	if bytes.Equal(patched, doc) {
		return data, nil
	}
	return rewriteZip(zr, f, patched, "")
}

// SetParameters sets externalized parameter values in parameters.prop.
// Lines of existing keys get the new value in place; keys not yet in the
// file are appended. Every other line, comment and zip entry stays byte for
// byte. A zip without parameters.prop gains one. When nothing changes, data
// is returned as is.
func SetParameters(data []byte, values map[string]string) ([]byte, error) {
	for k := range values {
		if k == "" {
			return nil, errors.New("set iFlow parameters: a parameter key is empty; set the key of an externalized parameter")
		}
	}
	zr, err := openZip(data)
	if err != nil {
		return nil, err
	}
	pf, err := findEntry(zr, ParametersPath)
	if err != nil {
		return nil, err
	}
	var old []byte
	if pf != nil {
		if old, err = readEntry(pf); err != nil {
			return nil, err
		}
	}
	updated := setProperties(old, values)
	if pf != nil && bytes.Equal(updated, old) {
		return data, nil
	}
	if pf == nil && len(values) == 0 {
		return data, nil
	}
	if pf == nil {
		return rewriteZip(zr, nil, updated, ParametersPath)
	}
	return rewriteZip(zr, pf, updated, "")
}

func openZip(data []byte) (*zip.Reader, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	// ErrInsecurePath comes with a usable reader: entry names are kept as they
	// are, never used as file system paths.
	if err != nil && (!errors.Is(err, zip.ErrInsecurePath) || zr == nil) {
		return nil, fmt.Errorf("read iFlow zip: the content is not a readable zip archive: %w", err)
	}
	if len(zr.File) > maxArtifactEntries {
		return nil, fmt.Errorf("read iFlow zip: the archive has %d entries, more than the %d this reader accepts", len(zr.File), maxArtifactEntries)
	}
	return zr, nil
}

// openIflw opens an artifact zip and reads its single .iflw entry: the archive, the entry and its
// content.
func openIflw(data []byte) (*zip.Reader, *zip.File, []byte, error) {
	zr, err := openZip(data)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := findIflw(zr)
	if err != nil {
		return nil, nil, nil, err
	}
	doc, err := readEntry(f)
	if err != nil {
		return nil, nil, nil, err
	}
	return zr, f, doc, nil
}

// findIflw returns the single .iflw entry, preferring entries in IflwDir.
func findIflw(zr *zip.Reader) (*zip.File, error) {
	var all, preferred []*zip.File
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") || !strings.EqualFold(path.Ext(f.Name), ".iflw") {
			continue
		}
		all = append(all, f)
		if strings.HasPrefix(f.Name, IflwDir) {
			preferred = append(preferred, f)
		}
	}
	candidates := preferred
	if len(candidates) == 0 {
		candidates = all
	}
	switch len(candidates) {
	case 0:
		return nil, fmt.Errorf("read iFlow zip: %w: the archive has no .iflw entry under %s; it is not an integration flow artifact", ErrNoIflw, IflwDir)
	case 1:
		return candidates[0], nil
	default:
		names := make([]string, len(candidates))
		for i, f := range candidates {
			names[i] = f.Name
		}
		return nil, fmt.Errorf("read iFlow zip: the archive has %d .iflw entries (%s), so the integration flow is ambiguous; an artifact holds exactly one", len(names), listOrNone(names))
	}
}

// findEntry returns the entry with the exact name, nil if absent.
func findEntry(zr *zip.Reader, name string) (*zip.File, error) {
	var found *zip.File
	for _, f := range zr.File {
		if f.Name != name {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("read iFlow zip: the archive has more than one entry named %s, so its content is ambiguous", name)
		}
		found = f
	}
	return found, nil
}

func readEntry(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > maxEntrySize {
		return nil, fmt.Errorf("read iFlow zip: entry %s is %d bytes, more than the %d bytes this reader accepts", f.Name, f.UncompressedSize64, maxEntrySize)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("read iFlow zip: entry %s cannot be opened: %w", f.Name, err)
	}
	// Close only repeats an error that the read below already returns.
	defer func() { _ = rc.Close() }()
	b, err := io.ReadAll(io.LimitReader(rc, maxEntrySize+1))
	if err != nil {
		return nil, fmt.Errorf("read iFlow zip: entry %s cannot be read: %w", f.Name, err)
	}
	if len(b) > maxEntrySize {
		return nil, fmt.Errorf("read iFlow zip: entry %s is more than the %d bytes this reader accepts", f.Name, maxEntrySize)
	}
	return b, nil
}

// rewriteZip writes a copy of the archive in which target gets content.
// With target nil, a new entry named appendName is added at the end.
func rewriteZip(zr *zip.Reader, target *zip.File, content []byte, appendName string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	writeNew := func(h *zip.FileHeader) error {
		w, err := zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("write iFlow zip: entry %s: %w", h.Name, err)
		}
		if _, err := w.Write(content); err != nil {
			return fmt.Errorf("write iFlow zip: entry %s: %w", h.Name, err)
		}
		return nil
	}
	for _, f := range zr.File {
		if f != target {
			if err := zw.Copy(f); err != nil {
				return nil, fmt.Errorf("write iFlow zip: entry %s cannot be copied: %w", f.Name, err)
			}
			continue
		}
		h := f.FileHeader
		// The old checksum and sizes do not describe the new content. zip.Writer
		// derives the deprecated 32-bit sizes from the 64-bit ones when the entry
		// is closed (and writes zeros to the local header until then), so those
		// need no reset.
		h.CRC32 = 0
		h.CompressedSize64, h.UncompressedSize64 = 0, 0
		h.Extra = stripExtra(h.Extra)
		if err := writeNew(&h); err != nil {
			return nil, err
		}
	}
	if target == nil {
		h := &zip.FileHeader{Name: appendName, Method: zip.Deflate}
		if len(zr.File) > 0 {
			h.Modified = zr.File[len(zr.File)-1].Modified
		}
		if err := writeNew(h); err != nil {
			return nil, err
		}
	}
	if err := zw.SetComment(zr.Comment); err != nil {
		return nil, fmt.Errorf("write iFlow zip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("write iFlow zip: %w", err)
	}
	return buf.Bytes(), nil
}

// stripExtra drops the zip64 and extended timestamp extra fields, which the
// zip writer adds itself for a rewritten entry.
func stripExtra(extra []byte) []byte {
	var out []byte
	for len(extra) >= 4 {
		id := binary.LittleEndian.Uint16(extra[0:2])
		size := int(binary.LittleEndian.Uint16(extra[2:4]))
		if 4+size > len(extra) {
			break
		}
		if id != 0x0001 && id != 0x5455 {
			out = append(out, extra[:4+size]...)
		}
		extra = extra[4+size:]
	}
	return out
}

// parameterTypes reads parameter key → type from parameters.propdef.
func parameterTypes(data []byte) map[string]string {
	types := map[string]string{}
	d := xml.NewDecoder(bytes.NewReader(data))
	var (
		inParam       bool
		field         string
		key, name, tp strings.Builder
	)
	for {
		tok, err := d.Token()
		if err != nil {
			return types
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == "parameter":
				inParam = true
				key.Reset()
				name.Reset()
				tp.Reset()
			case inParam:
				field = t.Name.Local
			}
		case xml.CharData:
			if !inParam {
				continue
			}
			switch field {
			case "key":
				key.Write(t)
			case "name":
				name.Write(t)
			case "type":
				tp.Write(t)
			}
		case xml.EndElement:
			if t.Name.Local == "parameter" && inParam {
				inParam = false
				k := strings.TrimSpace(key.String())
				if k == "" {
					k = strings.TrimSpace(name.String())
				}
				if k != "" {
					types[k] = strings.TrimSpace(tp.String())
				}
			}
			field = ""
		}
	}
}

// parseManifest reads the main section of a JAR manifest.
func parseManifest(data []byte) map[string]string {
	m := map[string]string{}
	text := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	var last string
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			break
		}
		if strings.HasPrefix(line, " ") {
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

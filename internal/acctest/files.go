package acctest

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"regexp"
	"sort"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

// ReadFile returns the content of the file at path; it fails the test when the file cannot be read.
func ReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// CloudIntegration returns a Cloud Integration API client that talks to the emulator out of band, as a release
// pipeline or the tenant's web UI would.
func (e *TestEnv) CloudIntegration(t *testing.T) *cpi.Client {
	t.Helper()
	return cpi.New(e.Srv.CloudIntegrationClient(t))
}

// ArchiveEdit changes the entries of an iFlow archive, as a release pipeline or a team member would: Version
// replaces the manifest's Bundle-Version (when not empty), Set replaces or adds entries, Drop removes them, and
// Edit rewrites the content of every entry.
type ArchiveEdit struct {
	Version string
	Set     map[string][]byte
	Drop    []string
	Edit    func(name string, data []byte) []byte
}

// ReadArchiveEntry returns the content of an archive's entry.
func ReadArchiveEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(rc)
	if cerr := rc.Close(); err == nil {
		err = cerr
	}
	return data, err
}

// RewriteArchive returns archive changed by e; the entries keep their order, the added ones follow by name.
func RewriteArchive(t *testing.T, archive []byte, e ArchiveEdit) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	put := func(name string, data []byte) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	done := map[string]bool{}
	for _, f := range zr.File {
		dropped := false
		for _, d := range e.Drop {
			dropped = dropped || f.Name == d
		}
		if dropped {
			continue
		}
		data, err := ReadArchiveEntry(f)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == "META-INF/MANIFEST.MF" && e.Version != "" {
			data = regexp.MustCompile(`(?m)^Bundle-Version: .*$`).ReplaceAll(data, []byte("Bundle-Version: "+e.Version+"\r"))
		}
		if v, ok := e.Set[f.Name]; ok {
			data = v
		}
		if e.Edit != nil {
			data = e.Edit(f.Name, data)
		}
		done[f.Name] = true
		put(f.Name, data)
	}
	names := make([]string, 0, len(e.Set))
	for n := range e.Set {
		if !done[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		put(n, e.Set[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

package emulator_test

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/sapmessaging/terraform-provider-sapmessaging/"

// emulatorPackages returns every package directory under internal/emulator
// (relative, "." for the assembler) with its non-test imports of the
// project, module prefix cut. emulatortest, the test helper, is left out:
// it may use the clients.
func emulatorPackages(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path == "emulatortest" || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		pkg, err := build.ImportDir(abs, 0)
		if err != nil {
			var noGo *build.NoGoError
			if errors.As(err, &noGo) {
				return nil
			}
			return err
		}
		if len(pkg.GoFiles) == 0 {
			t.Fatalf("package %s has no non-test files; the checks would pass without looking", path)
		}
		var imps []string
		for _, imp := range pkg.Imports {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				imps = append(imps, rel)
			}
		}
		out[filepath.ToSlash(path)] = imps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The emulator is the oracle the provider is checked against, so its code
// must not be the provider's: the non-test files of every package under
// internal/emulator (the assembler, its core, each product's room and
// emulatorcontrol, which the commands use to drive it) import none of the
// clients, the provider, its rules or its iFlow reader. Building sample
// content with internal/iflow/iflowbuild is allowed. The test helper
// emulatortest may use the clients. DESIGN.md, "Layers and imports".
func TestEmulatorImportsNoCodeItChecks(t *testing.T) {
	t.Parallel()
	forbidden := []string{"internal/rules", "internal/iflow", "internal/httpx", "internal/servicekey",
		"internal/eventmesh", "internal/cpi", "internal/provider", "internal/jms", "internal/aem"}
	allowed := []string{"internal/iflow/iflowbuild"}
	pkgs := emulatorPackages(t)
	for _, want := range []string{".", "core", "eventmesh", "integration", "integration/flowreader", "aem", "emulatorcontrol"} {
		if _, ok := pkgs[want]; !ok {
			t.Errorf("package internal/emulator/%s not found; the check would pass without looking", want)
		}
	}
	for dir, imps := range pkgs {
		for _, rel := range imps {
			if slices.Contains(allowed, rel) {
				continue
			}
			for _, f := range forbidden {
				if rel == f || strings.HasPrefix(rel, f+"/") {
					t.Errorf("internal/emulator/%s imports %s: the emulator must not share code with what it checks; write the behaviour from SAP's documentation in the emulator", dir, module+rel)
				}
			}
		}
	}
}

// The rooms of the emulator (DESIGN.md, "The emulator"): the core imports no
// room; a product's room imports the core and its own packages, never another
// product's room; Cloud Integration's runtime reaches the brokers over the
// core's interfaces. Only the assembler (this package) and emulatorcontrol
// above it import the rooms. A new package under internal/emulator must be
// given its place here.
func TestRoomImports(t *testing.T) {
	t.Parallel()
	const emu = "internal/emulator"
	products := []string{"eventmesh", "integration", "aem"}
	room := func(dir string) string { // the product a package belongs to, "" if none
		for _, p := range products {
			if dir == p || strings.HasPrefix(dir, p+"/") {
				return p
			}
		}
		return ""
	}
	for dir, imps := range emulatorPackages(t) {
		var own []string // imports of emulator packages, relative to internal/emulator
		for _, rel := range imps {
			if r, ok := strings.CutPrefix(rel, emu+"/"); ok {
				own = append(own, r)
			} else if rel == emu {
				own = append(own, ".")
			}
		}
		switch p := room(dir); {
		case dir == "core":
			for _, r := range own {
				t.Errorf("internal/emulator/core imports internal/emulator/%s: the core imports no room; move what both need into the core", r)
			}
		case p != "":
			for _, r := range own {
				if r == "core" || room(r) == p {
					continue
				}
				t.Errorf("internal/emulator/%s (room %s) imports internal/emulator/%s: a room imports only the core and its own packages; reach another product over an interface of the core that the assembler wires", dir, p, r)
			}
		case dir == "." || dir == "emulatorcontrol":
			// The assembler wires the rooms; emulatorcontrol drives the assembled server.
		default:
			t.Errorf("internal/emulator/%s has no place among the rooms; add it to a product's room or to the core, and to this test", dir)
		}
	}
}

// No package of the emulator grows past 6,000 lines of non-test Go, so that
// each room stays small enough to know one's way in (issue 40's target).
func TestRoomSizes(t *testing.T) {
	t.Parallel()
	const limit = 6000
	for dir := range emulatorPackages(t) {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines += strings.Count(string(b), "\n")
		}
		if lines > limit {
			t.Errorf("internal/emulator/%s has %d non-test lines, more than %d; split it along its product's parts", dir, lines, limit)
		}
	}
}

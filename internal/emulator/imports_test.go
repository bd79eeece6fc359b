package emulator_test

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The emulator is the oracle the provider is checked against, so its code
// must not be the provider's: the non-test files of internal/emulator (and
// of emulatorcontrol, which the commands use to drive it) import none of the
// clients, the provider, its rules or its iFlow reader. Building sample
// content with internal/iflow/iflowbuild is allowed. The test helper
// emulatortest may use the clients. DESIGN.md, "Layers and imports".
func TestEmulatorImportsNoCodeItChecks(t *testing.T) {
	t.Parallel()
	const module = "github.com/sapmessaging/terraform-provider-sapmessaging/"
	forbidden := []string{"internal/rules", "internal/iflow", "internal/httpx", "internal/servicekey",
		"internal/eventmesh", "internal/cpi", "internal/provider", "internal/jms", "internal/aem"}
	allowed := []string{"internal/iflow/iflowbuild"}
	for _, dir := range []string{".", "emulatorcontrol"} {
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := build.ImportDir(abs, 0)
		if err != nil {
			t.Fatalf("reading package %s: %v", dir, err)
		}
		if len(pkg.GoFiles) == 0 {
			t.Fatalf("package %s has no non-test files; the check would pass without looking", dir)
		}
		for _, imp := range pkg.Imports {
			rel, ok := strings.CutPrefix(imp, module)
			if !ok || slices.Contains(allowed, rel) {
				continue
			}
			for _, f := range forbidden {
				if rel == f || strings.HasPrefix(rel, f+"/") {
					t.Errorf("internal/emulator/%s imports %s: the emulator must not share code with what it checks; write the behaviour from SAP's documentation in the emulator", dir, imp)
				}
			}
		}
	}
}

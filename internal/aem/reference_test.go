package aem_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// referenceDir is where the SEMP specifications are kept beside the repository: the folder
// shared/reference/specs next to the repository root (../shared/reference/specs from the root). A checkout in
// a nested folder (a worktree) finds it in the nearest ancestor that has one.
const referenceDir = "shared/reference/specs"

// readReference returns the file rel below the reference folder. When the folder or file is missing, the
// test fails if the environment variable CI is set (the contract must be checked there), and is skipped with a
// message that says where the file was looked for otherwise.
func readReference(t *testing.T, rel string) []byte {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var tried []string
	for dir := wd; ; {
		p := filepath.Join(dir, referenceDir, filepath.FromSlash(rel))
		data, err := os.ReadFile(p)
		if err == nil {
			return data
		}
		if !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("reading %s: %v", p, err)
		}
		tried = append(tried, p)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	msg := "the reference file " + rel + " was not found in " + referenceDir + " beside the repository or in any parent folder (looked at " + tried[0] + " and up)"
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; CI is set, so this check must run: copy the SEMP specs to ../%s/semp next to the repository root", msg, referenceDir)
	}
	skip := fmt.Sprintf("SKIPPED (contract not checked): %s: %s; set up ../%s next to the repository root to run it", t.Name(), msg, referenceDir)
	fmt.Fprintln(os.Stderr, skip)
	t.Skip(skip)
	return nil
}

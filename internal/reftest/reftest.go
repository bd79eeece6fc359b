// Package reftest finds the reference files (SAP's and Solace's specifications, SAP's sample iFlows) that the
// contract tests check the clients and the emulator against. They are kept beside the repository, in
// shared/reference/specs next to the repository root; a checkout in a nested folder (a worktree) finds them in
// the nearest ancestor that has one.
package reftest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir is the reference folder, relative to the folder beside the repository.
const Dir = "shared/reference/specs"

// Read returns the file rel below the reference folder. When the folder or file is missing, the test fails if
// the environment variable CI is set (the contract must be checked there), and is skipped otherwise with a
// message that says where the file was looked for; what names the files to copy, for that message.
func Read(t testing.TB, rel, what string) []byte {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var tried []string
	for dir := wd; ; {
		p := filepath.Join(dir, Dir, filepath.FromSlash(rel))
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
	msg := "the reference file " + rel + " was not found in " + Dir + " beside the repository or in any parent folder (looked at " + tried[0] + " and up)"
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; CI is set, so this check must run: copy %s next to the repository root", msg, what)
	}
	skip := fmt.Sprintf("SKIPPED (contract not checked): %s: %s; set up ../%s next to the repository root to run it", t.Name(), msg, Dir)
	// Printed to stderr as well, so that a run without -v shows it too.
	fmt.Fprintln(os.Stderr, skip)
	t.Skip(skip)
	return nil
}

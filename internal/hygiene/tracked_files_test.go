// Package hygiene tests the repository's scripts: the check-tracked-files phase of
// `make test`, what `make terraform114` and `make sandbox` print, and what the scripts cite.
package hygiene

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// script is the absolute path of scripts/check-tracked-files.sh.
func script(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "scripts", "check-tracked-files.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gitRepo makes a git repository in a temporary directory that tracks the given files
// (path → content; a path ending in "*" is written with mode 0755, without the star).
func gitRepo(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	for name, content := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, "*") {
			name, mode = strings.TrimSuffix(name, "*"), 0o755
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, content, mode); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	return dir
}

func runCheck(t *testing.T, dir string) (string, int) {
	t.Helper()
	cmd := exec.Command(script(t), dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		return out.String(), 0
	}
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("running %s: %v", script(t), err)
	}
	return out.String(), ee.ExitCode()
}

// The check passes a repository of sources and scripts, and fails, naming the file and why,
// for each kind of file that must not be tracked: an executable binary (by its content, whatever
// its mode), a file over 1 MiB, and a file tracked as executable that is not a script.
func TestCheckTrackedFiles(t *testing.T) {
	t.Parallel()
	clean := map[string][]byte{
		"main.go":            []byte("package main\n"),
		"scripts/run.sh*":    []byte("#!/usr/bin/env bash\necho hi\n"),
		"docs/exactly-1MiB":  bytes.Repeat([]byte("a"), 1<<20),
		"testdata/empty.txt": nil,
	}
	if out, code := runCheck(t, gitRepo(t, clean)); code != 0 || !strings.Contains(out, "4 tracked files") {
		t.Fatalf("a clean repository fails the check (exit %d):\n%s", code, out)
	}

	elf := append([]byte("\x7fELF\x02\x01\x01\x00"), bytes.Repeat([]byte{0}, 64)...)
	for _, tc := range []struct {
		name, path string
		content    []byte
		want       string
	}{
		{"ELF binary", "internal/cmd/bench/bench*", elf, "internal/cmd/bench/bench: an ELF executable or library"},
		{"ELF binary without the executable bit", "tools/helper", elf, "tools/helper: an ELF executable or library"},
		{"Mach-O binary", "bin/tool*", []byte("\xcf\xfa\xed\xfe\x07\x00\x00\x01"), "bin/tool: a Mach-O executable or library"},
		{"Windows executable", "dist/provider.exe", []byte("MZ\x90\x00\x03\x00\x00\x00"), "dist/provider.exe: a Windows executable (MZ)"},
		{"file over 1 MiB", "testdata/big.json", bytes.Repeat([]byte("b"), 1<<20+1), "testdata/big.json: 1048577 bytes, more than 1 MiB"},
		{"executable that is not a script", "notes.txt*", []byte("plain text\n"), "notes.txt: tracked as executable (mode 100755) but not a script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string][]byte{tc.path: tc.content}
			for k, v := range clean {
				files[k] = v
			}
			out, code := runCheck(t, gitRepo(t, files))
			if code != 1 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want 1 and %q:\n%s", code, tc.want, out)
			}
			if strings.Contains(out, "main.go") || strings.Contains(out, "run.sh") || strings.Contains(out, "exactly-1MiB") {
				t.Errorf("the check names a file that may be tracked:\n%s", out)
			}
		})
	}
}

// The repository itself passes its own check: no tracked binary, no file over 1 MiB.
func TestRepositoryTracksNoBinary(t *testing.T) {
	t.Parallel()
	if out, code := runCheck(t, filepath.Join("..", "..")); code != 0 {
		t.Fatalf("scripts/check-tracked-files.sh fails on this repository (exit %d):\n%s", code, out)
	}
}

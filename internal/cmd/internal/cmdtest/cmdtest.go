// Package cmdtest is the test support of the programs under internal/cmd
// that replay a scenario against a running emulator: it starts the emulator
// with its service keys in files, runs a program and checks what it printed.
// Only the programs' tests import it.
package cmdtest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// Start starts an emulator with opts and a deploy delay of 5 ms, writes its
// service keys into a temporary directory and returns the emulator and the
// directory.
func Start(t *testing.T, opts emulator.Options) (*emulatortest.Emulator, string) {
	t.Helper()
	s := emulatortest.Start(t, opts)
	s.SetDeployDelay(5 * time.Millisecond)
	dir := t.TempDir()
	if err := s.WriteKeys(dir); err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// Exec runs run with args and returns its exit code, standard output and
// standard error.
func Exec(run cmdkit.Run, args []string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// Run runs run with args and stops the test, showing both outputs, unless it
// exits with want. It returns the standard output.
func Run(t *testing.T, run cmdkit.Run, want int, args ...string) string {
	t.Helper()
	code, out, errOut := Exec(run, args)
	if code != want {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, want, out, errOut)
	}
	return out
}

// Contains fails the test for each of wants that out, named what in the
// message, lacks.
func Contains(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, out)
		}
	}
}

// Refuses fails the test for each argument list with which run does not exit
// with 2, the code of invalid arguments.
func Refuses(t *testing.T, run cmdkit.Run, argLists ...[]string) {
	t.Helper()
	for _, args := range argLists {
		if code, _, errOut := Exec(run, args); code != 2 {
			t.Errorf("run(%q) = %d, want 2; stderr: %s", args, code, errOut)
		}
	}
}

// WriteFile writes text to the file name in dir (a test's temporary directory) and returns its path.
func WriteFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

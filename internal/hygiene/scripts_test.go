package hygiene

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeGo writes a stand-in for the go command into dir and returns its path: `go mod download
// -json` reports moduleDir as the module's directory, and `go build -o OUT` waits buildSeconds
// and writes OUT as a program that prints "Terraform v1.14.3" (or "emulator ran" for a build of
// ./internal/cmd/emulator), so that the scripts can be run without building anything. With
// FAKE_GO_OUT_LOG set, each build appends its OUT to that file.
func fakeGo(t *testing.T, dir, moduleDir, buildSeconds string) string {
	t.Helper()
	script := `#!/usr/bin/env bash
set -euo pipefail
case "$1" in
mod)
  printf '{\n\t"Path": "github.com/hashicorp/terraform",\n\t"Dir": "%s",\n}\n' "` + moduleDir + `"
  ;;
build)
  out=""; pkg=""
  while (($#)); do
    case "$1" in -o) out="$2"; shift ;; -*) ;; *) pkg="$1" ;; esac
    shift
  done
  [[ -n "${FAKE_GO_OUT_LOG:-}" ]] && echo "${out}" >>"${FAKE_GO_OUT_LOG}"
  sleep ` + buildSeconds + `
  msg="Terraform v1.14.3"
  [[ "${pkg}" == ./internal/cmd/emulator ]] && msg="emulator ran"
  printf '#!/bin/sh\necho "%s"\n' "${msg}" >"${out}"
  chmod +x "${out}"
  ;;
env)
  case "$2" in GOOS) echo linux ;; GOARCH) echo amd64 ;; *) echo "fake go: unexpected $*" >&2; exit 2 ;; esac
  ;;
*) echo "fake go: unexpected $*" >&2; exit 2 ;;
esac
`
	p := filepath.Join(dir, "go")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func runScript(t *testing.T, name string, env ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "scripts", name))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(p)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out.String())
	}
	return out.String()
}

// `make terraform114` says up front what it builds, where and how long that usually takes, names
// each step, says every PROGRESS_SECONDS that the compiler is still running, and ends with the
// path of the CLI; the next run finds the build and says where it is. The module is a stand-in
// with one of the remote-state backends the script removes.
func TestBuildTerraformSaysWhatItDoes(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	module := filepath.Join(work, "module")
	initDir := filepath.Join(module, "internal", "backend", "init")
	if err := os.MkdirAll(initDir, 0o755); err != nil {
		t.Fatal(err)
	}
	goMod := "module github.com/hashicorp/terraform\n\nreplace github.com/hashicorp/terraform/internal/backend/remote-state/s3 => ./internal/backend/remote-state/s3\n"
	initGo := "package init\n\nimport (\n\tbackendS3 \"github.com/hashicorp/terraform/internal/backend/remote-state/s3\"\n)\n\nvar b = map[string]any{\n\t\"s3\": backendS3.New,\n}\n"
	if err := os.WriteFile(filepath.Join(module, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(initDir, "init.go"), []byte(initGo), 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd := fakeGo(t, work, module, "2.5")
	dir := filepath.Join(work, "terraform-1.14.3")
	env := []string{"GO=" + goCmd, "TERRAFORM_DIR=" + dir, "TERRAFORM_VERSION=1.14.3", "PROGRESS_SECONDS=1", "TMPDIR=" + work}

	out := runScript(t, "build-terraform.sh", env...)
	bin := filepath.Join(dir, "terraform")
	for _, want := range []string{
		"building Terraform 1.14.3 from its Go module into " + dir,
		"usually takes about 10 minutes on 2 cores",
		"[1/3] downloading github.com/hashicorp/terraform@v1.14.3",
		"[2/3] copying the module and removing the remote-state backends",
		"[3/3] downloading the dependencies and compiling terraform",
		"still compiling terraform 1.14.3, 0m0",
		"built in 0m0",
		": " + bin + "\n",
		"Terraform v1.14.3",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the build does not say %q:\n%s", want, out)
		}
	}
	if out := runScript(t, "build-terraform.sh", env...); !strings.Contains(out, "already built: "+bin) {
		t.Errorf("a second run does not say where the build is:\n%s", out)
	}
}

// Two builds of the Terraform 1.14 CLI at the same time (`make generate` while `make test` builds it)
// each write their own file and move it into place, so neither moves away the file the other is
// writing; a build leaves nothing but the CLI in its directory.
func TestBuildTerraformWritesItsOwnFile(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	module := filepath.Join(work, "module")
	if err := os.MkdirAll(filepath.Join(module, "internal", "backend", "init"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "go.mod"), []byte("module github.com/hashicorp/terraform\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "internal", "backend", "init", "init.go"), []byte("package init\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "terraform-1.14.3")
	outs := filepath.Join(work, "outs")
	env := []string{"GO=" + fakeGo(t, work, module, "0"), "TERRAFORM_DIR=" + dir, "TERRAFORM_VERSION=1.14.3",
		"PROGRESS_SECONDS=1", "TMPDIR=" + work, "FAKE_GO_OUT_LOG=" + outs}
	bin := filepath.Join(dir, "terraform")
	for range 2 {
		runScript(t, "build-terraform.sh", env...)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Name() != "terraform" {
			t.Errorf("the build left more than the CLI in %s: %v", dir, entries)
		}
		if err := os.Remove(bin); err != nil { // the next run builds again
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(outs)
	if err != nil {
		t.Fatal(err)
	}
	written := strings.Fields(string(raw))
	if len(written) != 2 || written[0] == written[1] {
		t.Errorf("two builds wrote %q: each build must write a file of its own", written)
	}
}

// `make sandbox` prints the path of the Terraform 1.14 CLI when it is built, and how to build
// it when it is not.
func TestSandboxPrintsTerraform114(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	goCmd := fakeGo(t, work, work, "0")
	built := filepath.Join(work, "terraform-1.14.3", "terraform")
	if err := os.MkdirAll(filepath.Dir(built), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(built, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := runScript(t, "sandbox.sh", "GO="+goCmd, "SANDBOX_DIR="+filepath.Join(work, "sandbox"), "TERRAFORM114="+built)
	if want := "(sapmessaging_redrive): " + built + "\n"; !strings.Contains(out, want) {
		t.Errorf("the sandbox does not print the Terraform 1.14 CLI %q:\n%s", want, out)
	}
	if !strings.Contains(out, "emulator ran") {
		t.Errorf("the sandbox did not run the emulator:\n%s", out)
	}

	missing := filepath.Join(work, "nowhere", "terraform")
	out = runScript(t, "sandbox.sh", "GO="+goCmd, "SANDBOX_DIR="+filepath.Join(work, "sandbox"), "TERRAFORM114="+missing)
	if want := "is not built yet: `make terraform114` builds it into\n" + missing + " (once, about 10 minutes on 2 cores)"; !strings.Contains(out, want) {
		t.Errorf("without the build the sandbox does not say %q:\n%s", want, out)
	}
}

// upward finds a relative path that leaves the repository ("../shared/...") in a script.
var upward = regexp.MustCompile(`(^|[\s"'(=])\.\./[^\s"')]+`)

// The scripts and the GNUmakefile cite only what a clone of the repository has: no path above
// the repository root (such as a reference file next to a developer's checkout).
func TestScriptsCiteNothingOutsideTheRepository(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "..", "scripts", "*.sh"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts found: %v", err)
	}
	files = append(files, filepath.Join("..", "..", "GNUmakefile"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := upward.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q, outside the repository: cite the source itself (an upstream URL) or a file of the repository", filepath.Base(f), i+1, strings.TrimSpace(m))
			}
		}
	}
}

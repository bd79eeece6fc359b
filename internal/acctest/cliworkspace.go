package acctest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ActionCLI returns the Terraform CLI of a test that invokes the redrive actions, and lets the test run in
// parallel. It skips without TF_ACC, and with a CLI that has no actions (before Terraform 1.14, and OpenTofu).
func ActionCLI(t *testing.T) string {
	t.Helper()
	return NewerCLI(t, 14, "has no actions: the redrive needs Terraform 1.14 or later (make testacc-tf114)")
}

// NewerCLI returns the Terraform CLI of a test and lets the test run in parallel. It skips without TF_ACC, and with
// a CLI older than Terraform 1.minor (or OpenTofu), saying why: the CLI's path, then lacks.
func NewerCLI(t *testing.T, minor int, lacks string) string {
	t.Helper()
	tf := TerraformCLI(t)
	if !TerraformAtLeast(t, tf, minor) {
		t.Skipf("%s %s", tf, lacks)
	}
	t.Parallel()
	return tf
}

// ParallelCLI returns the Terraform CLI of a test and lets the test run in parallel; it skips without TF_ACC.
func ParallelCLI(t *testing.T) string {
	t.Helper()
	tf := TerraformCLI(t)
	t.Parallel()
	return tf
}

// NewWorkspace builds the provider from this tree and returns a CLI workspace in a new directory that holds files
// (by name), configured from the environment with the service keys of the emulator of env.
func NewWorkspace(t *testing.T, tf string, env *TestEnv, files map[string]string) *CLIWorkspace {
	t.Helper()
	plugins := filepath.Join(t.TempDir(), "plugins")
	BuildProvider(t, plugins)
	dir := t.TempDir()
	for name, content := range files {
		WriteFile(t, filepath.Join(dir, name), content)
	}
	return NewCLIWorkspace(t, tf, plugins, dir, env)
}

// NewExampleWorkspace is NewWorkspace on a copy of the directory examples/<example>, with files added.
func NewExampleWorkspace(t *testing.T, tf string, env *TestEnv, example string, files map[string]string) *CLIWorkspace {
	t.Helper()
	w := NewWorkspace(t, tf, env, files)
	CopyTree(t, filepath.Join(RepoRoot(), "examples", filepath.FromSlash(example)), w.dir)
	return w
}

// Invoke runs terraform apply -invoke=action.<action> (with args added), which must exit with want.
func (w *CLIWorkspace) Invoke(want int, action string, args ...string) CLIRun {
	w.t.Helper()
	return w.MustRun(want, append([]string{"apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action." + action}, args...)...)
}

// RemoveFile removes the file name of the workspace's directory.
func (w *CLIWorkspace) RemoveFile(name string) {
	w.t.Helper()
	if err := os.Remove(filepath.Join(w.dir, name)); err != nil {
		w.t.Fatal(err)
	}
}

// Plugins is the directory of the provider binary the workspace's CLI configuration names.
func (w *CLIWorkspace) Plugins() string { return w.plugins }

// Dir is the directory the workspace runs the CLI in.
func (w *CLIWorkspace) Dir() string { return w.dir }

// Sibling returns a workspace in a new directory that holds main.tf (main) and the query file name (query), with
// the provider, the CLI configuration and the environment of w.
func (w *CLIWorkspace) Sibling(main, name, query string) *CLIWorkspace {
	w.t.Helper()
	dir := w.t.TempDir()
	WriteFile(w.t, filepath.Join(dir, "main.tf"), main)
	WriteFile(w.t, filepath.Join(dir, name), query)
	return &CLIWorkspace{t: w.t, tf: w.tf, dir: dir, plugins: w.plugins, CliConfig: w.CliConfig, Creds: slices.Clone(w.Creds)}
}

// WriteFile writes the file name of the workspace's directory.
func (w *CLIWorkspace) WriteFile(name, content string) {
	w.t.Helper()
	WriteFile(w.t, filepath.Join(w.dir, name), content)
}

// ReadFile returns the text of the file name of the workspace's directory.
func (w *CLIWorkspace) ReadFile(name string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// ExpectPlanDiagnostics runs terraform plan -json in the workspace and fails the test for each pattern of want that
// none of its diagnostics (PlanDiagnostics: "severity: summary: detail") matches; it returns the diagnostics.
func (w *CLIWorkspace) ExpectPlanDiagnostics(want ...*regexp.Regexp) []string {
	w.t.Helper()
	diags := PlanDiagnostics(w.t, w)
	for _, re := range want {
		if !slices.ContainsFunc(diags, re.MatchString) {
			w.t.Errorf("no plan diagnostic matches %s; diagnostics:\n%s", re, strings.Join(diags, "\n"))
		}
	}
	return diags
}

// ExpectContains fails the test for each string of wants that text (what says what it is) does not hold.
func ExpectContains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, s := range wants {
		if !strings.Contains(text, s) {
			t.Errorf("%s does not show %q:\n%s", what, s, text)
		}
	}
}

// ExpectFlatContains is ExpectContains on the CLI's output with its diagnostics' frames and line wrapping folded
// into single spaces.
func ExpectFlatContains(t *testing.T, what, output string, wants ...string) {
	t.Helper()
	flat := Flat(output)
	for _, s := range wants {
		if !strings.Contains(flat, s) {
			t.Errorf("%s does not show %q:\n%s", what, s, output)
		}
	}
}

// Flat is the CLI's output with its diagnostics' frames (│) and line wrapping folded into single spaces.
func Flat(output string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(output, "│", " ")), " ")
}

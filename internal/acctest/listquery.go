package acctest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// ParallelTest runs the steps of an acceptance test with the provider in process, in parallel with other tests.
func ParallelTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: TestAccProtoV6ProviderFactories, Steps: steps})
}

// QueryTest runs the steps of a list resource test with the provider in process, in parallel with other
// tests; Terraform before 1.14, which has no list resources, skips it.
func QueryTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: TestAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// ListHCL is the list block label of the list resource typ for the provider sapmessaging, with the arguments args,
// one a line (include_resource = true, limit = 2), and, unless config is empty, a config block that holds config
// (its arguments, one a line).
func ListHCL(typ, label, config string, args ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nlist %q %q {\n  provider = sapmessaging\n", typ, label)
	for _, a := range args {
		fmt.Fprintf(&b, "  %s\n", a)
	}
	if config != "" {
		b.WriteString("  config {\n")
		for _, line := range strings.Split(config, "\n") {
			fmt.Fprintf(&b, "    %s\n", line)
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// QueryStep is a step that runs the list blocks of config and checks their results.
func QueryStep(config string, checks ...querycheck.QueryResultCheck) resource.TestStep {
	return resource.TestStep{Query: true, Config: config, QueryResultChecks: checks}
}

// CountedQueryStep is a QueryStep that resets the emulator's call statistics first, so that its checks can count
// the calls of the query.
func (e *TestEnv) CountedQueryStep(config string, checks ...querycheck.QueryResultCheck) resource.TestStep {
	step := QueryStep(config, checks...)
	step.PreConfig = e.Srv.ResetStats
	return step
}

// QueryErrorStep is a step whose query of config fails with a diagnostic matching wantErr (see Wrapped).
func QueryErrorStep(config, wantErr string) resource.TestStep {
	return resource.TestStep{Query: true, Config: config, ExpectError: Wrapped(wantErr)}
}

// QueryCLI returns the Terraform CLI of a test that runs terraform query, and lets the test run in parallel. It
// skips without TF_ACC, and with a CLI that has no terraform query (before Terraform 1.14, and OpenTofu).
func QueryCLI(t *testing.T) string {
	t.Helper()
	return NewerCLI(t, 14, "has no terraform query: list resources need Terraform 1.14 or later")
}

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

// NewQueryWorkspace builds the provider from this tree and returns a CLI workspace in a new directory that holds
// main.tf (main) and the query file name (query), configured from the environment with the service keys of the
// emulator of env.
func NewQueryWorkspace(t *testing.T, tf string, env *TestEnv, main, name, query string) *CLIWorkspace {
	t.Helper()
	return NewWorkspace(t, tf, env, map[string]string{"main.tf": main, name: query})
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

// Generate runs terraform query -generate-config-out=out and returns the run and the configuration it wrote.
func (w *CLIWorkspace) Generate(out string) (CLIRun, string) {
	w.t.Helper()
	r := w.MustRun(0, "query", "-generate-config-out="+out, "-no-color")
	return r, w.ReadFile(out)
}

// PlanImportsOnly runs a plan that must import imports objects and change nothing else, and show every string of
// shows (warnings, for one).
func (w *CLIWorkspace) PlanImportsOnly(imports int, shows ...string) CLIRun {
	w.t.Helper()
	r := w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	ExpectContains(w.t, "the plan of the generated configuration", r.Output,
		append([]string{fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", imports)}, shows...)...)
	return r
}

// ApplyImports applies, which must import imports objects and change nothing else.
func (w *CLIWorkspace) ApplyImports(imports int) CLIRun {
	w.t.Helper()
	r := w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	ExpectContains(w.t, "the apply", r.Output, fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", imports))
	return r
}

// PlanEmpty runs a plan that must change nothing and still show every string of shows.
func (w *CLIWorkspace) PlanEmpty(shows ...string) CLIRun {
	w.t.Helper()
	r := w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	ExpectContains(w.t, "the plan after the import", r.Output, shows...)
	return r
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

// ExpectCountTrue fails the test unless want blocks of the generated configuration set attribute to true (CountTrue).
func ExpectCountTrue(t *testing.T, generated, attribute string, want int) {
	t.Helper()
	if n := CountTrue(generated, attribute); n != want {
		t.Errorf("generated.tf has %d %s = true, want %d:\n%s", n, attribute, want, generated)
	}
}

package provider_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// The guides under templates/guides are run as a reader runs them (TestAccGuides): every fenced
// block in order, in an empty directory outside the repository, against an emulator of its own
// with the sample content of `make sandbox`, in one shell session whose environment is the one
// the sandbox prints (TF_CLI_CONFIG_FILE with the filesystem mirror of the provider just built,
// the service key variables) and whose `terraform` is the CLI under test. Nothing else is there:
// no examples, no terraform block the test writes; a guide declares the provider and runs
// `terraform init` as a reader of a registry release does.
//
// A block is run by its language:
//
//   - shell, sh, bash: each command in turn, in one bash session (so `cd` and variables carry
//     over to the next block); a command that exits other than 0 fails the guide. `terraform
//     apply` and `terraform destroy` are confirmed as a reader would (TF_CLI_ARGS_apply and
//     TF_CLI_ARGS_destroy hold -auto-approve). In a console block, the lines starting with "$ ".
//   - terraform, hcl: written to the file its mark names (`file: NAME`), in the session's current
//     directory, replacing what was there; then the mark's `run:` commands, as in a shell block.
//   - text and mermaid are shown, not run: output, formulas, diagrams (TestDocsMermaidParses
//     checks the diagrams).
//
// Marks are HTML comments in the template between the previous block and this one, which the
// rendered page keeps but no reader sees:
//
//	<!-- guide-test: file: main.tf; run: terraform apply -->
//	<!-- guide-test: skip: REASON -->         not run, and why: a block this machine cannot run (the
//	                                          rest of the mark is the reason)
//	<!-- guide-test: terraform 1.14 -->       run only with Terraform 1.14 or later
//	<!-- guide-test: expect: TEXT -->         the output of the block's commands holds TEXT (what the
//	                                          guide says the reader sees)
//
// Any other block (json, yaml, …), a terraform block without `file:`, and a block with an unknown
// mark fail TestGuideBlocksMarked, which runs without TF_ACC.

// guidesTestedElsewhere are guides with a test of their own, by template name.
var guidesTestedElsewhere = map[string]string{
	"adopting-an-existing-landscape": "TestAccGuideAdoptingALandscape_query",
}

// guideSetups put what a guide assumes the reader has into the emulator or the starting
// directory, by template name.
var guideSetups = map[string]func(t *testing.T, env *acctest.TestEnv, start string){
	// The reader has a configuration directory with the provider's key files in keys/.
	"btp-service-keys": func(t *testing.T, env *acctest.TestEnv, start string) {
		if err := env.Srv.WriteKeys(filepath.Join(start, "keys")); err != nil {
			t.Fatal(err)
		}
	},
	// "In a clone of the repository": the reader starts in the clone, whose examples the guide copies.
	"try-it-locally": func(t *testing.T, env *acctest.TestEnv, start string) {
		acctest.CopyTree(t, filepath.Join("..", "..", "examples"), filepath.Join(start, "examples"))
	},
}

// guideShellLangs, guideConfigLangs and guideShownLangs are the block languages the guide test
// runs as commands, writes as configuration, and leaves alone.
var (
	guideShellLangs  = map[string]bool{"shell": true, "sh": true, "bash": true, "console": true}
	guideConfigLangs = map[string]bool{"terraform": true, "hcl": true}
	guideShownLangs  = map[string]bool{"text": true, "mermaid": true}
)

// guideStep is one block of a guide as the test runs it.
type guideStep struct {
	line     int    // the line of its opening fence in the rendered guide
	lang     string // the block's language
	skip     string // why it is not run; empty: it is run
	file     string // for a configuration block: the file it is written to
	body     string // the block
	commands []string
	expect   []string // what the output of the block's commands must hold
	tf114    bool     // needs Terraform 1.14 or later
}

// renderGuide renders a guide's template as tfplugindocs does for the functions the guides use:
// tffile and codefile put an example file into a fenced block.
func renderGuide(t *testing.T, path string) string {
	t.Helper()
	root := filepath.Join("..", "..")
	read := func(rel string) (string, error) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		return strings.TrimRight(string(b), "\n") + "\n", err
	}
	funcs := template.FuncMap{
		"tffile": func(rel string) (string, error) {
			s, err := read(rel)
			return "```terraform\n" + s + "```", err
		},
		"codefile": func(lang, rel string) (string, error) {
			s, err := read(rel)
			return "```" + lang + "\n" + s + "```", err
		},
	}
	src := acctest.ReadFile(t, path)
	tmpl, err := template.New(filepath.Base(path)).Funcs(funcs).Parse(string(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, nil); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out.String()
}

// shellCommands splits a shell block into its commands: lines ending in a backslash continue on
// the next; blank lines and comments are dropped. In a console block only the lines starting
// with "$ " are commands.
func shellCommands(lang, body string) []string {
	var cmds []string
	var cur strings.Builder
	for _, line := range strings.Split(body, "\n") {
		if lang == "console" && cur.Len() == 0 {
			if !strings.HasPrefix(line, "$ ") {
				continue
			}
			line = strings.TrimPrefix(line, "$ ")
		}
		if cur.Len() == 0 && (strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#")) {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			cur.WriteString(line + "\n")
			continue
		}
		cur.WriteString(line)
		cmds = append(cmds, cur.String())
		cur.Reset()
	}
	if cur.Len() > 0 {
		cmds = append(cmds, cur.String())
	}
	return cmds
}

// guideSteps reads the blocks of a rendered guide with their marks, and reports every block the
// test cannot run that is not marked so.
func guideSteps(page string) ([]guideStep, error) {
	var steps []guideStep
	var errs []error
	for _, b := range fencedBlocks(page) {
		s := guideStep{line: b.line, lang: b.lang, body: b.body}
		var runs []string
		for _, m := range b.marks {
			if reason, ok := strings.CutPrefix(m, "skip:"); ok {
				// The reason is the rest of the mark, semicolons included.
				m = "skip:" + strings.ReplaceAll(reason, ";", ",")
			}
			for _, clause := range strings.Split(m, ";") {
				clause = strings.TrimSpace(clause)
				key, value, _ := strings.Cut(clause, ":")
				value = strings.TrimSpace(value)
				switch {
				case clause == "terraform 1.14":
					s.tf114 = true
				case key == "skip" && value != "":
					s.skip = value
				case key == "file" && value != "" && !strings.ContainsAny(value, " '\"$/"):
					s.file = value
				case key == "run" && value != "":
					runs = append(runs, value)
				case key == "expect" && value != "":
					s.expect = append(s.expect, value)
				default:
					errs = append(errs, fmt.Errorf("line %d: unknown mark %q: use `file: NAME`, `run: COMMAND`, `expect: TEXT`, `skip: REASON` or `terraform 1.14`", b.line, clause))
				}
			}
		}
		switch {
		case s.skip != "":
		case guideShownLangs[b.lang]:
			if len(b.marks) > 0 {
				errs = append(errs, fmt.Errorf("line %d: a %s block is shown, not run: it takes no mark", b.line, b.lang))
			}
		case guideShellLangs[b.lang]:
			if s.file != "" || len(runs) > 0 {
				errs = append(errs, fmt.Errorf("line %d: a %s block runs as it is: `file:` and `run:` are for configuration blocks", b.line, b.lang))
			}
			s.commands = shellCommands(b.lang, b.body)
			if len(s.commands) == 0 {
				errs = append(errs, fmt.Errorf("line %d: a %s block without a command", b.line, b.lang))
			}
		case guideConfigLangs[b.lang]:
			if s.file == "" {
				errs = append(errs, fmt.Errorf("line %d: a %s block without a mark: name the file it goes to (<!-- guide-test: file: NAME -->) or say why it cannot run here (<!-- guide-test: skip: REASON -->)", b.line, b.lang))
			}
			s.commands = runs
		default:
			errs = append(errs, fmt.Errorf("line %d: the test cannot run a %q block: mark it <!-- guide-test: skip: REASON -->", b.line, b.lang))
		}
		steps = append(steps, s)
	}
	return steps, errors.Join(errs...)
}

// guideTemplates returns the guide templates by name (the file name without .md.tmpl).
func guideTemplates(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "templates", "guides", "*.md.tmpl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no guide templates: %v", err)
	}
	guides := map[string]string{}
	for _, p := range paths {
		guides[strings.TrimSuffix(filepath.Base(p), ".md.tmpl")] = p
	}
	return guides
}

// terraform114Path is where `make terraform114` builds the Terraform 1.14 CLI, as the guides
// that need it name it.
func terraform114Path(t *testing.T) string {
	t.Helper()
	b := acctest.ReadFile(t, filepath.Join("..", "..", "GNUmakefile"))
	m := regexp.MustCompile(`(?m)^TERRAFORM114_VERSION\s*:=\s*(\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no TERRAFORM114_VERSION in GNUmakefile")
	}
	return "~/.cache/sapmessaging/terraform-" + string(m[1]) + "/terraform"
}

// Every block of every guide is run by TestAccGuides or marked with the reason it cannot run
// here, a guide with steps for Terraform 1.14 says where `make terraform114` puts that CLI, and
// docs/guides holds what the templates render.
func TestGuideBlocksMarked(t *testing.T) {
	t.Parallel()
	cli114 := terraform114Path(t)
	for name, path := range guideTemplates(t) {
		if _, ok := guidesTestedElsewhere[name]; ok {
			continue
		}
		page := renderGuide(t, path)
		// The test runs what a reader reads: the page `make generate` renders from the template.
		if doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "guides", name+".md")); err != nil || string(doc) != page {
			t.Errorf("docs/guides/%s.md is not the rendering of its template (%v): run `make generate`", name, err)
		}
		steps, err := guideSteps(page)
		if err != nil {
			t.Errorf("templates/guides/%s.md.tmpl (lines of the rendered guide):\n%v", name, err)
		}
		run, tf114 := 0, false
		for _, s := range steps {
			if s.skip == "" && len(s.commands)+len(s.file) > 0 {
				run++
			}
			tf114 = tf114 || s.tf114 && s.skip == ""
		}
		if run == 0 && len(steps) > 0 {
			t.Errorf("templates/guides/%s.md.tmpl: no block of the guide is run", name)
		}
		if tf114 && !strings.Contains(page, cli114) {
			t.Errorf("templates/guides/%s.md.tmpl has steps for Terraform 1.14 but does not say where `make terraform114` puts it (%s)", name, cli114)
		}
	}
}

// terraformCommand finds a Terraform command in a shell command line, with its subcommand.
var terraformCommand = regexp.MustCompile(`(?:^|[;&|(\s])terraform\s+(\w+)`)

// A guide declares the provider before its first Terraform command that needs it: a configuration
// block of the guide (not a file the test writes) holds `required_providers` with
// sapmessaging/sapmessaging, and `terraform init` runs before any other command, as with a
// release from the registry. Copied as written into an empty directory, the guide then installs
// sapmessaging/sapmessaging and not hashicorp/sapmessaging. A guide that copies a whole example
// directory (which holds its versions.tf) declares it with the copy.
func TestGuidesDeclareProvider(t *testing.T) {
	t.Parallel()
	for name, path := range guideTemplates(t) {
		if _, ok := guidesTestedElsewhere[name]; ok {
			// Its blocks are not run here, but its reader runs its shell blocks in order all the same:
			// `terraform init` comes first there too, in a command the guide shows.
			checkInitFirst(t, name, renderGuide(t, path))
			continue
		}
		steps, err := guideSteps(renderGuide(t, path))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		declared, initialised := false, false
	steps:
		for _, s := range steps {
			if s.skip != "" {
				continue
			}
			if s.file != "" && strings.Contains(s.body, "required_providers") && strings.Contains(s.body, `"sapmessaging/sapmessaging"`) {
				declared = true
			}
			for _, c := range s.commands {
				if strings.Contains(c, "cp -r") && strings.Contains(c, "examples/") {
					declared = true
				}
				for _, m := range terraformCommand.FindAllStringSubmatch(c, -1) {
					switch sub := m[1]; {
					case sub == "version" || sub == "fmt":
					case !declared:
						t.Errorf("templates/guides/%s.md.tmpl, line %d: `terraform %s` runs before the guide declares the provider: "+
							"give a configuration block with required_providers { sapmessaging = { source = \"sapmessaging/sapmessaging\" } } first",
							name, s.line, sub)
						break steps
					case sub == "init":
						initialised = true
					case !initialised:
						t.Errorf("templates/guides/%s.md.tmpl, line %d: `terraform %s` runs before `terraform init`", name, s.line, sub)
						break steps
					}
				}
			}
		}
	}
}

// checkInitFirst fails when a Terraform command other than init, version or fmt appears in a shell
// block of the page before `terraform init` does, or the page has no `terraform init` block at all.
func checkInitFirst(t *testing.T, name, page string) {
	t.Helper()
	for _, b := range fencedBlocks(page) {
		if !guideShellLangs[b.lang] {
			continue
		}
		for _, m := range terraformCommand.FindAllStringSubmatch(b.body, -1) {
			switch m[1] {
			case "version", "fmt":
			case "init":
				return
			default:
				t.Errorf("templates/guides/%s.md.tmpl, line %d: `terraform %s` runs before `terraform init`", name, b.line, m[1])
				return
			}
		}
	}
	t.Errorf("templates/guides/%s.md.tmpl: no shell block runs `terraform init`", name)
}

// The modules a guide calls are found where the reader puts the configuration: a local source
// starts with ./ (a copy the guide tells the reader to make beside it), never ../, which only
// resolves inside the repository.
func TestGuideModuleSources(t *testing.T) {
	t.Parallel()
	source := regexp.MustCompile(`(?m)^\s*source\s*=\s*"(\.\.[^"]*)"`)
	for name, path := range guideTemplates(t) {
		for _, b := range fencedBlocks(renderGuide(t, path)) {
			if !guideConfigLangs[b.lang] {
				continue
			}
			for _, m := range source.FindAllStringSubmatch(b.body, -1) {
				t.Errorf("templates/guides/%s.md.tmpl, line %d: module source %q is found only inside the repository: "+
					"tell the reader what to copy and use a path beside the configuration (./modules/...)", name, b.line, m[1])
			}
		}
	}
}

func TestGuideSteps(t *testing.T) {
	t.Parallel()
	page := "<!-- guide-test: skip: needs SAP BTP -->\n```shell\nbtp login\n```\n\n" +
		"<!-- guide-test: file: main.tf; run: terraform apply -->\n<!-- guide-test: terraform 1.14 -->\n```terraform\nresource \"a\" \"b\" {}\n```\n\n" +
		"```shell\n# a comment\ncd /tmp && \\\n  terraform plan\n\nterraform apply\n```\n\n" +
		"<!-- guide-test: expect: Terraform v1 -->\n```console\n$ terraform version\nTerraform v1.14.3\n```\n\n```text\noutput\n```\n"
	steps, err := guideSteps(page)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 5 || steps[0].skip != "needs SAP BTP" || steps[1].file != "main.tf" || !steps[1].tf114 ||
		!slicesEqual(steps[1].commands, []string{"terraform apply"}) ||
		!slicesEqual(steps[2].commands, []string{"cd /tmp && \\\n  terraform plan", "terraform apply"}) ||
		!slicesEqual(steps[3].commands, []string{"terraform version"}) || !slicesEqual(steps[3].expect, []string{"Terraform v1"}) ||
		steps[4].commands != nil {
		t.Errorf("steps = %+v", steps)
	}
	for _, bad := range []struct{ page, want string }{
		{"```terraform\nx = 1\n```\n", "a terraform block without a mark"},
		{"```json\n{}\n```\n", `cannot run a "json" block`},
		{"```yaml\na: b\n```\n", `cannot run a "yaml" block`},
		{"<!-- guide-test: fiel: main.tf -->\n```terraform\nx = 1\n```\n", `unknown mark "fiel: main.tf"`},
		{"<!-- guide-test: file: main.tf -->\n```shell\nls\n```\n", "runs as it is"},
		{"<!-- guide-test: file: main.tf -->\n```text\nls\n```\n", "takes no mark"},
	} {
		if _, err := guideSteps(bad.page); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("guideSteps(%q) = %v; want an error with %q", bad.page, err, bad.want)
		}
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var ansiRe = regexp.MustCompile("\x1b\\[[0-9;]*m")

// Every guide runs, block by block, as a reader runs it (see the top of this file).
func TestAccGuides(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	// The sandbox's build and CLI configuration, as `make sandbox` writes them: the provider in a
	// filesystem mirror, installed by `terraform init`.
	sandbox := t.TempDir()
	plugins := filepath.Join(sandbox, "plugins")
	var build sync.Once
	guides := guideTemplates(t)
	names := make([]string, 0, len(guides))
	for n := range guides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if other, ok := guidesTestedElsewhere[name]; ok {
				t.Skipf("the guide has a test of its own: %s", other)
			}
			t.Parallel()
			steps, err := guideSteps(renderGuide(t, guides[name]))
			if err != nil {
				t.Fatalf("unmarked blocks (TestGuideBlocksMarked):\n%v", err)
			}
			build.Do(func() {
				acctest.BuildProvider(t, plugins)
				writeSandboxCLIConfig(t, sandbox)
			})
			if _, err := os.Stat(filepath.Join(sandbox, "cli.tfrc")); err != nil {
				t.Fatalf("the provider build failed in another subtest: %v", err)
			}
			runGuide(t, tf, sandbox, name, steps)
		})
	}
}

// writeSandboxCLIConfig lays the provider built into dir/plugins out in a filesystem mirror and
// writes dir/cli.tfrc with the script `make sandbox` runs for the same (scripts/sandbox-cli-config.sh).
func writeSandboxCLIConfig(t *testing.T, dir string) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "sandbox-cli-config.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("bash", script, dir).CombinedOutput(); err != nil {
		t.Fatalf("scripts/sandbox-cli-config.sh: %v\n%s", err, out)
	}
	return filepath.Join(dir, "cli.tfrc")
}

// writeSolaceMirrorCLIConfig writes a CLI configuration under which `terraform init` installs both
// providers and writes a lock file: solacebroker v1.3.0 from a filesystem mirror of the binary in
// solace, sapmessaging from the sandbox's mirror in sandboxBuild/mirror (writeSandboxCLIConfig).
func writeSolaceMirrorCLIConfig(t *testing.T, solace, sandboxBuild string) string {
	t.Helper()
	mirror := filepath.Join(t.TempDir(), "mirror")
	b := acctest.ReadFile(t, filepath.Join(solace, "terraform-provider-solacebroker"))
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		target := filepath.Join(mirror, host, "solaceproducts", "solacebroker", "1.3.0", runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(target, "terraform-provider-solacebroker_v1.3.0"), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), "cli.tfrc")
	acctest.WriteFile(t, p, fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/sapmessaging/sapmessaging", "registry.opentofu.org/sapmessaging/sapmessaging"]
  }
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/solaceproducts/solacebroker", "registry.opentofu.org/solaceproducts/solacebroker"]
  }
  direct {
    exclude = ["registry.terraform.io/sapmessaging/sapmessaging", "registry.terraform.io/solaceproducts/solacebroker",
      "registry.opentofu.org/sapmessaging/sapmessaging", "registry.opentofu.org/solaceproducts/solacebroker"]
  }
}
`, filepath.Join(sandboxBuild, "mirror"), mirror))
	return p
}

// readerEnv is the environment of a reader's shell before the sandbox's variables: the test's own
// with nothing of Terraform's, the provider's or the test's (TF_*, SAPMESSAGING_*, CHECKPOINT_*).
func readerEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TF_") || strings.HasPrefix(k, "SAPMESSAGING_") || strings.HasPrefix(k, "CHECKPOINT_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// runGuide runs the steps of one guide in one bash session, as a reader runs it: in an empty
// directory outside the repository, against a sandbox of its own (the emulator with the sample
// content, nothing another guide left), with the environment the sandbox prints.
func runGuide(t *testing.T, tf, sandboxBuild, name string, steps []guideStep) {
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// The sandbox's directory: the CLI configuration it prints and the service keys.
	sandbox := filepath.Join(home, "sandbox")
	if err := env.Srv.WriteKeys(filepath.Join(sandbox, "keys")); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(sandboxBuild, "cli.tfrc")
	if name == "migrating-from-solacebroker" {
		if !acctest.TerraformAtLeast(t, tf, 8) {
			t.Skipf("the guide moves state across providers, which it says needs Terraform 1.8 or later; %s is older or OpenTofu", tf)
		}
		// The reader installs solacebroker with `terraform init` from the registry; here a filesystem
		// mirror of its local build stands in for the registry, beside the sandbox's mirror of this provider.
		cliConfig = writeSolaceMirrorCLIConfig(t, acctest.SolacebrokerDir(t), sandboxBuild) // aem_solace_test.go
	}
	// Where the reader starts: an empty directory of their own, which holds only what the guide
	// says to create (or, for a guide that says so, what it says the reader has).
	start := filepath.Join(home, "work")
	if err := os.MkdirAll(start, 0o755); err != nil {
		t.Fatal(err)
	}
	if setup := guideSetups[name]; setup != nil {
		setup(t, env, start)
	}
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tf, filepath.Join(bin, "terraform")); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(home, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}

	tf114 := acctest.TerraformAtLeast(t, tf, 14)
	var script strings.Builder
	script.WriteString("guide_fail() { echo \"guide-test: $1\" >&2; exit 90; }\n")
	fmt.Fprintf(&script, "cd %s || exit 91\n", shellQuote(start))
	// Each command runs in the session itself (a `cd` or a variable carries over); its output
	// is shown and kept for the block's expect marks.
	check := func(s guideStep, cmd string) {
		fmt.Fprintf(&script, "{\n%s\n} > \"$GUIDE_TEST_OUT.cmd\" 2>&1\n", cmd)
		script.WriteString("__rc=$?; cat \"$GUIDE_TEST_OUT.cmd\"; cat \"$GUIDE_TEST_OUT.cmd\" >> \"$GUIDE_TEST_OUT\"\n")
		fmt.Fprintf(&script, "[ \"$__rc\" -eq 0 ] || guide_fail %s\"$__rc\"\n",
			shellQuote(fmt.Sprintf("the command of the block at line %d exited ", s.line)))
	}
	for _, s := range steps {
		switch {
		case s.skip != "":
			t.Logf("line %d: %s block not run: %s", s.line, s.lang, s.skip)
			continue
		case s.tf114 && !tf114:
			t.Logf("line %d: %s block not run: it needs Terraform 1.14 or later, and %s is older or OpenTofu", s.line, s.lang, tf)
			continue
		case s.file == "" && len(s.commands) == 0:
			continue
		}
		fmt.Fprintf(&script, "echo %s\n", shellQuote(fmt.Sprintf("guide-test: the %s block at line %d", s.lang, s.line)))
		if s.file != "" {
			fmt.Fprintf(&script, "cat > %s <<'GUIDE_TEST_EOF'\n%sGUIDE_TEST_EOF\n", shellQuote(s.file), s.body)
		}
		script.WriteString(": > \"$GUIDE_TEST_OUT\"\n")
		for _, c := range s.commands {
			fmt.Fprintf(&script, "echo %s\n", shellQuote("$ "+c))
			check(s, c)
		}
		for _, e := range s.expect {
			// Without the CLI's colours, as a reader sees the text.
			fmt.Fprintf(&script, "sed 's/\\x1b\\[[0-9;]*m//g' \"$GUIDE_TEST_OUT\" | grep -qF -- %s || guide_fail %s\n", shellQuote(e),
				shellQuote(fmt.Sprintf("the output of the block at line %d does not show %q", s.line, e)))
		}
	}
	script.WriteString("echo 'guide-test: done'\n")
	scriptPath := filepath.Join(home, "guide.sh")
	acctest.WriteFile(t, scriptPath, script.String())

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", scriptPath)
	cmd.Env = append(readerEnv(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home,
		"TMPDIR="+tmp,
		"TF_CLI_CONFIG_FILE="+cliConfig,
		framework.EnvEventMeshServiceKey+"="+filepath.Join(sandbox, "keys", "event-mesh.json"),
		framework.EnvCloudIntegrationServiceKey+"="+filepath.Join(sandbox, "keys", "cloud-integration.json"),
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"CHECKPOINT_DISABLE=1",
		"TF_CLI_ARGS_apply=-auto-approve",
		"TF_CLI_ARGS_destroy=-auto-approve",
		"GUIDE_TEST_OUT="+filepath.Join(home, "block-output"),
	)
	// The Advanced Event Mesh variables the sandbox prints from keys/advanced-event-mesh.json.
	aemCreds := env.Srv.AdvancedEventMeshCredentials()
	cmd.Env = append(cmd.Env, framework.EnvAEMSEMPURL+"="+aemCreds.SEMPURL, framework.EnvAEMMsgVpnName+"="+aemCreds.MsgVpnName,
		framework.EnvAEMUsername+"="+aemCreds.Username, framework.EnvAEMPassword+"="+aemCreds.Password)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	output := ansiRe.ReplaceAllString(out.String(), "")
	if err != nil || !strings.HasSuffix(output, "guide-test: done\n") {
		t.Fatalf("templates/guides/%s.md.tmpl does not run as written (%v):\n%s", name, err, output)
	}
	t.Logf("templates/guides/%s.md.tmpl:\n%s", name, output)
}

// shellQuote quotes s for bash.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// The first screen a reader sees names every product the provider manages: the README's first
// paragraph and the docs index's front matter (the registry's summary) name Advanced Event Mesh;
// the README says that `make demo` skips the redrive without Terraform 1.14, and the demo's
// message where it skips says how to get that CLI.
func TestShopWindowNamesEverything(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	read := func(rel string) string {
		b := acctest.ReadFile(t, filepath.Join(root, rel))
		return string(b)
	}
	readme := read("README.md")
	// The first paragraph: the first block of prose after the title.
	body := strings.SplitN(readme, "\n\n", 3)
	if len(body) < 2 {
		t.Fatal("README.md has no first paragraph")
	}
	first := strings.Join(strings.Fields(body[1]), " ")
	index := read(filepath.Join("templates", "index.md.tmpl"))
	front := ""
	if parts := strings.SplitN(index, "---", 3); len(parts) == 3 {
		front = strings.Join(strings.Fields(parts[1]), " ")
	}
	for where, text := range map[string]string{"README.md's first paragraph": first, "the front matter of templates/index.md.tmpl": front} {
		for _, product := range []string{"SAP Event Mesh", "SAP Cloud Integration", "SAP NetWeaver", "Advanced Event Mesh"} {
			if !strings.Contains(strings.ToLower(text), strings.ToLower(product)) {
				t.Errorf("%s does not name %s:\n%s", where, product, text)
			}
		}
	}
	flat := strings.Join(strings.Fields(readme), " ")
	if !regexp.MustCompile("`make demo`[^.]*skips the redrive[^.]*Terraform 1\\.14[^.]*`make terraform114`").MatchString(flat) {
		t.Error("README.md does not say that `make demo` skips the redrive without Terraform 1.14, and that `make terraform114` builds it")
	}
	redrive := read(filepath.Join("scripts", "demo-redrive.sh"))
	skip := strings.ReplaceAll(regexp.MustCompile(`(?m)^.*redrive skipped.*$`).FindString(redrive), "\\`", "`")
	if !strings.Contains(skip, "run `make terraform114`") || !strings.Contains(skip, "make demo") {
		t.Errorf("the demo's message where it skips the redrive does not say how to get Terraform 1.14 (run `make terraform114`, then `make demo` again): %s", skip)
	}
}

// guidesOwnLandscape are the guides whose reader starts from a landscape of their own, not from
// the sandbox's sample content (their test builds it: guideSetups, or a solacebroker state), and
// the guide that starts the sandbox.
var guidesOwnLandscape = map[string]bool{
	"try-it-locally": true, "migrating-existing-queues": true, "migrating-from-solacebroker": true,
}

// A guide stands alone: each guide that runs against the sandbox's sample content says to start
// from a fresh sandbox (its test starts from one: runGuide), so that its outputs do not hold what
// another guide changed; the redrive has a guide of its own, which Dead Message Queues links to.
func TestGuidesStandAlone(t *testing.T) {
	t.Parallel()
	guides := guideTemplates(t)
	for name, path := range guides {
		page := renderGuide(t, path)
		steps, err := guideSteps(page)
		if err != nil && guidesTestedElsewhere[name] == "" {
			t.Fatalf("%s: %v", name, err)
		}
		onSandbox := guidesTestedElsewhere[name] != ""
		for _, s := range steps {
			if s.skip != "" {
				continue
			}
			for _, c := range s.commands {
				for _, m := range terraformCommand.FindAllStringSubmatch(c, -1) {
					switch m[1] {
					case "init", "validate", "version", "fmt":
					default:
						onSandbox = true
					}
				}
			}
		}
		if onSandbox && !guidesOwnLandscape[name] && (!strings.Contains(page, "fresh sandbox") || !strings.Contains(page, "(try-it-locally.md)")) {
			t.Errorf("templates/guides/%s.md.tmpl runs against the sandbox but does not say to start from a fresh one "+
				"(a fresh sandbox of [Try It Locally](try-it-locally.md)): its outputs would hold what another guide changed", name)
		}
	}
	redrive, ok := guides["redriving-dead-messages"]
	if !ok {
		t.Fatal("no guide templates/guides/redriving-dead-messages.md.tmpl: the redrive has a guide of its own")
	}
	if page := renderGuide(t, redrive); !strings.Contains(page, "terraform apply -invoke=action.sapmessaging_redrive.") {
		t.Error("the guide Redriving Dead Messages does not invoke the action sapmessaging_redrive")
	}
	dmq := renderGuide(t, guides["dead-message-queues"])
	if strings.Contains(dmq, "apply -invoke") || !strings.Contains(dmq, "(redriving-dead-messages.md)") {
		t.Error("the guide Dead Message Queues still walks through the redrive, or does not link to Redriving Dead Messages")
	}
}

// The drift of Try It Locally: the text names every line the plan changes, and the test checks
// that the plan shows each of them (expect marks).
func TestGuideDriftNamesEveryChange(t *testing.T) {
	t.Parallel()
	page := renderGuide(t, guideTemplates(t)["try-it-locally"])
	steps, err := guideSteps(page)
	if err != nil {
		t.Fatal(err)
	}
	changes := []struct {
		shown   *regexp.Regexp
		expects []string
	}{
		{regexp.MustCompile(`~ max_redelivery_count\s+= 0 -> 3`), []string{"max_redelivery_count", "0 -> 3"}},
		{regexp.MustCompile(`\+ max_ttl\s+= 86400`), []string{"+ max_ttl", "= 86400"}},
		{regexp.MustCompile(`~ respect_ttl\s+= false -> true`), []string{"respect_ttl", "false -> true"}},
	}
	var drift *guideStep
	for i, s := range steps {
		if slices.Contains(s.expect, "exit code 2") {
			drift = &steps[i]
		}
	}
	if drift == nil {
		t.Fatal("no block of Try It Locally expects the drift's exit code 2")
	}
	for _, c := range changes {
		if !c.shown.MatchString(page) {
			t.Errorf("the guide Try It Locally does not name the plan's line %s", c.shown)
		}
		for _, e := range c.expects {
			if !slices.Contains(drift.expect, e) {
				t.Errorf("the drift block of Try It Locally does not expect %q in the plan", e)
			}
		}
	}
}

// Redriving Dead Messages replaces main.tf (the queue example) with the action's example, which
// "declares the two queues of main.tf, under the same addresses": its resource blocks are those of
// main.tf, so the apply after the swap changes no queue.
func TestGuideRedriveKeepsQueues(t *testing.T) {
	t.Parallel()
	block := regexp.MustCompile(`(?ms)^resource "[^"]+" "[^"]+" \{\n.*?^\}`)
	comment := regexp.MustCompile(`\s*#[^\n]*`)
	blocks := func(rel string) map[string]string {
		b := acctest.ReadFile(t, filepath.Join("..", "..", filepath.FromSlash(rel)))
		out := map[string]string{}
		for _, m := range block.FindAllString(string(b), -1) {
			m = comment.ReplaceAllString(m, "")
			out[strings.SplitN(m, "{", 2)[0]] = strings.Join(strings.Fields(m), " ")
		}
		return out
	}
	queues := blocks("examples/resources/sapmessaging_queue/resource.tf")
	action := blocks("examples/actions/sapmessaging_redrive/action.tf")
	if len(action) != len(queues) {
		t.Errorf("the action's example declares %d resources, main.tf of the guide %d", len(action), len(queues))
	}
	for addr, want := range queues {
		if action[addr] != want {
			t.Errorf("examples/actions/sapmessaging_redrive/action.tf declares %s as\n%s\nbut main.tf of the guide as\n%s", addr, action[addr], want)
		}
	}
}

// The docs index opens with every kind of thing the provider manages, Advanced Event Mesh included,
// before its table.
func TestIndexOpeningNamesAEM(t *testing.T) {
	t.Parallel()
	b := acctest.ReadFile(t, filepath.Join("..", "..", "templates", "index.md.tmpl"))
	_, body, _ := strings.Cut(string(b), "\n# ")
	opening, _, _ := strings.Cut(body, "\n## ")
	for _, want := range []string{"Event Mesh", "Advanced Event Mesh", "AEM sender", "AMQP sender", "JMS sender", "NetWeaver"} {
		if !strings.Contains(opening, want) {
			t.Errorf("templates/index.md.tmpl: the opening before the first section does not name %q:\n%s", want, opening)
		}
	}
	if strings.Contains(opening, "two products") {
		t.Errorf("templates/index.md.tmpl: the opening says the settings are spread over two products; they are spread over more")
	}
}

// The landscapes README stands alone: a team that copies the folder copies the module it calls
// along, and the README names the case its wrong-environment guard cannot see (a working directory
// moved with TF_DATA_DIR, where the guard does not find the backend's settings).
func TestLandscapesReadmeCopyAndGuardLimit(t *testing.T) {
	t.Parallel()
	b := acctest.ReadFile(t, filepath.Join("..", "..", "examples", "landscapes", "README.md"))
	readme := strings.Join(strings.Fields(string(b)), " ")
	if !regexp.MustCompile(`(?i)\bcopy\b[^.]*\bmodules/retry-policy\b[^.]*\balong\b`).MatchString(readme) {
		t.Errorf("examples/landscapes/README.md does not say to copy ../modules/retry-policy along with the folder")
	}
	if !strings.Contains(readme, "TF_DATA_DIR") {
		t.Errorf("examples/landscapes/README.md promises the wrong-environment guard without naming its limit (TF_DATA_DIR)")
	}
}

// Migrating Existing Queues does not call a plan safe to apply while it may still import a queue
// that retries for ever: the sentence that says when a plan is safe names the warnings.
func TestGuideMigratingSafePlanNamesWarnings(t *testing.T) {
	t.Parallel()
	page := strings.Join(strings.Fields(renderGuide(t, filepath.Join("..", "..", "templates", "guides", "migrating-existing-queues.md.tmpl"))), " ")
	sentence := regexp.MustCompile(`[^.]*safe to apply[^.]*\.`)
	for _, s := range sentence.FindAllString(page, -1) {
		if !strings.Contains(s, "Unlimited Redelivery Allowed") {
			t.Errorf("migrating-existing-queues: %q calls a plan safe to apply without excluding the warning Unlimited Redelivery Allowed", strings.TrimSpace(s))
		}
	}
}

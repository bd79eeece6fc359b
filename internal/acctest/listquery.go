package acctest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// QueryTest runs the steps of a list resource test with the provider in process, in parallel with other
// tests; Terraform before 1.14, which has no list resources, skips it.
func QueryTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	parallelTestSkipping(t, tfversion.SkipBelow(tfversion.Version1_14_0), steps)
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

// Identity is the checks of a resource identity whose attributes hold exactly the strings of parts, by name.
func Identity(parts map[string]string) map[string]knownvalue.Check {
	checks := make(map[string]knownvalue.Check, len(parts))
	for name, value := range parts {
		checks[name] = knownvalue.StringExact(value)
	}
	return checks
}

// ByIdentity filters list results by their identity: its attributes hold exactly the strings of parts.
func ByIdentity(parts map[string]string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(Identity(parts))
}

// ExpectIdentity checks that the list block addr returns a result whose identity holds exactly the strings of
// parts.
func ExpectIdentity(addr string, parts map[string]string) querycheck.QueryResultCheck {
	return querycheck.ExpectIdentity(addr, Identity(parts))
}

// ExpectResults checks that the list block addr returns n results.
func ExpectResults(addr string, n int) querycheck.QueryResultCheck {
	return querycheck.ExpectLength(addr, n)
}

// ExpectDisplayName checks that the result of the list block addr that filter selects has the display name name.
func ExpectDisplayName(addr string, filter queryfilter.QueryFilter, name string) querycheck.QueryResultCheck {
	return querycheck.ExpectResourceDisplayName(addr, filter, knownvalue.StringExact(name))
}

// ExpectResultValues checks that the resource of the result of the list block addr that filter selects holds values
// (KnownValues: by attribute, in dotted form).
func ExpectResultValues(addr string, filter queryfilter.QueryFilter, values map[string]knownvalue.Check) querycheck.QueryResultCheck {
	return querycheck.ExpectResourceKnownValues(addr, filter, KnownValues(values))
}

// SenderIdentity is the checks of the identity of a Cloud Integration sender channel: the flow iflowID and the
// channel's name, or a null channel when channel is "" (the flow has one sender channel).
func SenderIdentity(iflowID, channel string) map[string]knownvalue.Check {
	var ch knownvalue.Check = knownvalue.Null()
	if channel != "" {
		ch = knownvalue.StringExact(channel)
	}
	return map[string]knownvalue.Check{"iflow_id": knownvalue.StringExact(iflowID), "channel": ch}
}

// BySender filters list results by the sender channel of their identity (SenderIdentity).
func BySender(iflowID, channel string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(SenderIdentity(iflowID, channel))
}

// ExpectSender checks that the list block addr returns the sender channel of the identity SenderIdentity.
func ExpectSender(addr, iflowID, channel string) querycheck.QueryResultCheck {
	return querycheck.ExpectIdentity(addr, SenderIdentity(iflowID, channel))
}

// KnownValues is the checks of a list result's resource, by attribute (in dotted form, Path: "retry_guard.limit")
// and in the order of the attributes.
func KnownValues(values map[string]knownvalue.Check) []querycheck.KnownValueCheck {
	out := make([]querycheck.KnownValueCheck, 0, len(values))
	for _, name := range sortedNames(values) {
		out = append(out, querycheck.KnownValueCheck{Path: Path(name), KnownValue: values[name]})
	}
	return out
}

// PlannedValues is the plan checks of the values the plan shows for the resource addr, by attribute (in dotted
// form, Path) and in the order of the attributes.
func PlannedValues(addr string, values map[string]knownvalue.Check) []plancheck.PlanCheck {
	out := make([]plancheck.PlanCheck, 0, len(values))
	for _, name := range sortedNames(values) {
		out = append(out, plancheck.ExpectKnownValue(addr, Path(name), values[name]))
	}
	return out
}

// ExpectCalls is a query check of the emulator's call statistics since the step's ResetStats (CountedQueryStep):
// calls returns an error unless the query made the calls the test expects.
func (e *TestEnv) ExpectCalls(calls func(st emulator.Stats) error) querycheck.QueryResultCheck {
	return callsCheck{env: e, calls: calls}
}

// ExpectCloudIntegrationCalls is a query check of the Cloud Integration calls by route (as the emulator names them,
// "GET /api/v1/IntegrationRuntimeArtifacts") since the step's ResetStats: want calls of each route named, and none of
// a route not named.
func (e *TestEnv) ExpectCloudIntegrationCalls(want map[string]int64) querycheck.QueryResultCheck {
	return e.ExpectCalls(func(st emulator.Stats) error {
		var total int64
		for route, n := range want {
			if st.Routes[route] != n {
				return fmt.Errorf("the query made %d calls of %s, want %d; all routes: %v", st.Routes[route], route, n, st.Routes)
			}
			total += n
		}
		if st.CloudIntegrationCalls != total {
			return fmt.Errorf("the query made %d Cloud Integration calls, want %d: %v", st.CloudIntegrationCalls, total, st.Routes)
		}
		return nil
	})
}

type callsCheck struct {
	env   *TestEnv
	calls func(emulator.Stats) error
}

func (c callsCheck) CheckQuery(_ context.Context, _ querycheck.CheckQueryRequest, resp *querycheck.CheckQueryResponse) {
	resp.Error = c.calls(c.env.Srv.Stats())
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

// NewQueryWorkspace builds the provider from this tree and returns a CLI workspace in a new directory that holds
// main.tf (main) and the query file name (query), configured from the environment with the service keys of the
// emulator of env.
func NewQueryWorkspace(t *testing.T, tf string, env *TestEnv, main, name, query string) *CLIWorkspace {
	t.Helper()
	return NewWorkspace(t, tf, env, map[string]string{"main.tf": main, name: query})
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

// ExpectCountTrue fails the test unless want blocks of the generated configuration set attribute to true (CountTrue).
func ExpectCountTrue(t *testing.T, generated, attribute string, want int) {
	t.Helper()
	if n := CountTrue(generated, attribute); n != want {
		t.Errorf("generated.tf has %d %s = true, want %d:\n%s", n, attribute, want, generated)
	}
}

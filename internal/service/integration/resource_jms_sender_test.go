package integration_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/integration"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func checkJMSProperty(env *acctest.TestEnv, id, key, want string) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		got, err := env.JMSProperty(id, key)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s of %s on the tenant = %q, want %q", key, id, got, want)
		}
		return nil
	})
}

func TestAccJMSSender_guarded(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddJMSFlow(t, acctest.JMSGuardedFlow, false, acctest.GuardedOptions())
	first := env.Config(acctest.JMSHCL(acctest.JMSGuardedFlow, `
  retry_interval       = 2
  max_retry_interval   = 120
  concurrent_processes = 1
  dead_letter_queue    = true
  max_retries          = 5
`))
	second := env.Config(acctest.JMSHCL(acctest.JMSGuardedFlow, `
  retry_interval       = 15
  exponential_backoff  = false
  concurrent_processes = 2
  dead_letter_queue    = true
  max_retries          = 5
`))
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: first,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: acctest.PlannedValues(acctest.JMSAddr, map[string]knownvalue.Check{
					// SAPJMSRetries > 5 ends the message on retry 6: waits 2+4+8+16+32+64 = 126 minutes.
					"give_up_after_minutes":  knownvalue.Int64Exact(126),
					"attempts_before_expiry": knownvalue.Null(),
					"access_type":            knownvalue.StringExact("Non-Exclusive"),
					"queue_name":             knownvalue.StringExact("Retry_JmsGuarded"),
					"retry_guard": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"present":    knownvalue.Bool(true),
						"kind":       knownvalue.StringExact("exception_subprocess"),
						"places":     acctest.StringList("exception_subprocess"),
						"condition":  knownvalue.StringExact("${header.SAPJMSRetries} > 5"),
						"operator":   knownvalue.StringExact(">"),
						"limit_kind": knownvalue.StringExact("literal"),
						"limit":      knownvalue.Int64Exact(5),
					}),
				}),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.JMSAddr, "runtime_status", "STARTED"),
				acctest.ExpectBool(acctest.JMSAddr, "exponential_backoff", true),
				acctest.ExpectInt(acctest.JMSAddr, "queue_expiration_days", 30),
				acctest.ExpectString(acctest.JMSAddr, "id", acctest.JMSGuardedFlow),
			},
			Check: resource.ComposeTestCheckFunc(
				checkJMSProperty(env, acctest.JMSGuardedFlow, "RetryInterval", "2"),
				checkJMSProperty(env, acctest.JMSGuardedFlow, "MaxRetryInterval", "120"),
				checkJMSProperty(env, acctest.JMSGuardedFlow, "ExponentialBackoff", "1"),
				acctest.CheckEmulator(func() error {
					if d, ok := env.Srv.Deployed(acctest.JMSGuardedFlow); !ok || d.Status != "STARTED" {
						return fmt.Errorf("flow not running after apply: %+v", d)
					}
					return nil
				}),
			),
		},
		{
			// Backoff off: 6 retries × 15 minutes. The flow writes booleans as 1/0 and keeps doing so.
			Config: second,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(acctest.JMSAddr, plancheck.ResourceActionUpdate,
				acctest.PlannedInt(acctest.JMSAddr, "give_up_after_minutes", 90)),
			Check: resource.ComposeTestCheckFunc(
				checkJMSProperty(env, acctest.JMSGuardedFlow, "RetryInterval", "15"),
				checkJMSProperty(env, acctest.JMSGuardedFlow, "ExponentialBackoff", "0"),
				checkJMSProperty(env, acctest.JMSGuardedFlow, "NumberConcurrentProcesses", "2"),
				checkJMSProperty(env, acctest.JMSGuardedFlow, "MaxRetryInterval", "120"),
			),
		},
		// max_retries is the configuration's declaration; with it the guard's visible limit gives the same give-up time.
		acctest.ImportFlowStep(acctest.JMSAddr, acctest.JMSGuardedFlow, "max_retries", "timeouts", "revision"),
		{
			// Someone sets the interval to 3 in the Web UI: the plan shows it and the apply restores 15.
			PreConfig: func() {
				zip, err := iflow.PatchZip(env.Srv.IFlowContent(acctest.JMSGuardedFlow), "MessageFlow_JMS", map[string]string{"RetryInterval": "3"})
				if err != nil {
					t.Fatal(err)
				}
				if err := env.Srv.CreateIFlow(acctest.JMSGuardedFlow, acctest.JMSGuardedFlow, "Retry", zip); err != nil {
					t.Fatal(err)
				}
			},
			Config:           second,
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(acctest.JMSAddr),
			Check:            checkJMSProperty(env, acctest.JMSGuardedFlow, "RetryInterval", "15"),
		},
	})
}

// Without a guard nothing limits the retries: the plan shows the executions until the queue deletes
// the message. An exclusive queue has no SAPJMSRetries at all.
func TestAccJMSSender_unbounded(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddJMSFlow(t, acctest.JMSUnguardedFlow, false, iflowbuild.Options{ExceptionEnds: [][]string{{"error"}}})
	env.AddJMSFlow(t, acctest.JMSExclusiveFlow, true, iflowbuild.Options{})
	cfg := env.Config(acctest.JMSHCL(acctest.JMSUnguardedFlow, "") + `
resource "sapmessaging_jms_sender" "exclusive" {
  iflow_id              = "` + acctest.JMSExclusiveFlow + `"
  retry_interval        = 5
  queue_expiration_days = 7
}
`)
	const exclusiveAddr = "sapmessaging_jms_sender.exclusive"
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: slices.Concat(
					acctest.PlannedValues(acctest.JMSAddr, map[string]knownvalue.Check{
						// 1, 2, 4, …, 32 (63 minutes), then every 60 minutes: 6 + 718 retries in 30 days, 725 executions.
						"attempts_before_expiry": knownvalue.Int64Exact(725),
						"give_up_after_minutes":  knownvalue.Null(),
						"retry_interval":         knownvalue.Int64Exact(1),
					}),
					[]plancheck.PlanCheck{acctest.PlannedBool(acctest.JMSAddr, "retry_guard.present", false)},
					acctest.PlannedValues(exclusiveAddr, map[string]knownvalue.Check{
						// 5, 10, 20, 40 (75 minutes), then every 60 minutes: 4 + 166 retries in 7 days, 171 executions.
						"attempts_before_expiry": knownvalue.Int64Exact(171),
						"access_type":            knownvalue.StringExact("Exclusive"),
						"concurrent_processes":   knownvalue.Null(),
					}),
				),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			Check: resource.ComposeTestCheckFunc(
				checkJMSProperty(env, acctest.JMSExclusiveFlow, "RetryInterval", "5"),
				checkJMSProperty(env, acctest.JMSUnguardedFlow, "RetryInterval", "1"),
			),
		},
		// The import reads the channel; the expiration period is an input of the configuration.
		acctest.ImportFlowStep(exclusiveAddr, acctest.JMSExclusiveFlow+",JMS_In", "timeouts", "channel", "id", "queue_expiration_days", "attempts_before_expiry"),
		{ResourceName: acctest.JMSAddr, ImportState: true, ImportStateId: acctest.JMSUnguardedFlow + ",", ExpectError: acctest.Wrapped(`Invalid Import ID`)},
		{ResourceName: acctest.JMSAddr, ImportState: true, ImportStateId: ",JMS_In", ExpectError: acctest.Wrapped(`Invalid Import ID`)},
	})
}

// Each rule's error stops the plan, scoped to its attribute.
func TestAccJMSSender_rules(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddJMSFlow(t, acctest.JMSGuardedFlow, false, acctest.GuardedOptions())
	env.AddJMSFlow(t, acctest.JMSUnguardedFlow, false, iflowbuild.Options{})
	env.AddJMSFlow(t, acctest.JMSExclusiveFlow, true, iflowbuild.Options{})
	env.AddJMSFlow(t, "JmsTwo", false, iflowbuild.Options{Senders: []iflowbuild.Sender{
		{ID: "MessageFlow_2", Name: "JMS_Other", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("Other")}}})
	env.AddFlow(t, "AmqpOnly", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	steps := []struct{ id, body, want string }{
		{acctest.JMSUnguardedFlow, `max_retries = 5`,
			`Retry Limit Without Guard.*max_retries = 5 is not enforced.*retried about 724 times over 30 days, then deleted: 725 executions`},
		{acctest.JMSExclusiveFlow, `max_retries = 3`, `Retry Limit on Exclusive Queue.*only for non-exclusive queues`},
		{acctest.JMSExclusiveFlow, `retry_interval = 61`, `Invalid Retry Interval.*exclusive queue accepts 1 to 60 minutes`},
		{acctest.JMSUnguardedFlow, `retry_interval = 10081`, `Invalid Retry Interval.*non-exclusive queue accepts 1 to 10080 minutes`},
		{acctest.JMSExclusiveFlow, `max_retry_interval = 181`, `Invalid Max Retry Interval.*10 to 180 minutes`},
		{acctest.JMSUnguardedFlow, `max_retry_interval = 5`, `Invalid Max Retry Interval.*10 to 43200 minutes`},
		{acctest.JMSExclusiveFlow, `dead_letter_queue = true`, `Dead-Letter Queue on Exclusive Queue`},
		// The property an exclusive sender lacks cannot be patched in: refused at plan, not at apply.
		{acctest.JMSExclusiveFlow, `concurrent_processes = 1`, `Setting Not In The Channel.*concurrent_processes = 1 cannot be applied.*no NumberConcurrentProcesses property`},
		{acctest.JMSExclusiveFlow, `concurrent_processes = 2`, `Concurrent Processes on Exclusive Queue`},
		{acctest.JMSUnguardedFlow, `concurrent_processes = 0`, `Invalid Concurrent Processes`},
		{acctest.JMSUnguardedFlow, `queue_expiration_days = 181`, `Invalid Expiration Period.*1 to 180 days`},
		{acctest.JMSGuardedFlow, `max_retries = 0`, `Invalid Max Retries`},
		// 6 retries every 10080 minutes (60480) outlive the 30 days (43200 minutes) of the queue.
		{acctest.JMSGuardedFlow, "retry_interval = 10080\nexponential_backoff = false",
			`Give-Up After Expiration.*ended on retry 6.*60480 minutes.*30 days \(43200 minutes\).*at most 3`},
		{acctest.JMSGuardedFlow, "max_retries = 5\nqueue_expiration_days = 1\nretry_interval = 600\nexponential_backoff = false",
			`Give-Up After Expiration.*3600 minutes`},
		{"AmqpOnly", ``, `No JMS Sender Channel`},
		{"JmsTwo", ``, `Ambiguous JMS Sender Channel.*JMS_In, JMS_Other`},
		{"JmsTwo", `channel = "JMS_Nope"`, `JMS Sender Channel Not Found.*JMS_In, JMS_Other`},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		ts = append(ts, resource.TestStep{Config: env.Config(acctest.JMSHCL(s.id, s.body)), PlanOnly: true, ExpectError: acctest.Wrapped(s.want)})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: ts})
}

// A JMS sender and an AMQP sender of one flow, applied together, are both written: neither undoes the other.
func TestAccJMSSender_sharedFlowWithAMQPSender(t *testing.T) {
	env := acctest.NewTestEnv(t)
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	env.AddJMSFlow(t, "Mixed", false, iflowbuild.Options{Senders: []iflowbuild.Sender{{ID: "MessageFlow_AMQP", Name: "AMQP_In", Properties: props}},
		ExceptionEnds: [][]string{{"error"}}, Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5", InException: 1}}})
	cfg := env.Config(acctest.JMSHCL("Mixed", "retry_interval = 4\nmax_retries = 5") + `
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "Mixed"
  max_number_of_retries = 1
}
`)
	acctest.ParallelTest(t, []resource.TestStep{{
		PreConfig:        env.Srv.ResetStats,
		Config:           cfg,
		ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		Check: resource.ComposeTestCheckFunc(
			checkJMSProperty(env, "Mixed", "RetryInterval", "4"),
			acctest.CheckEmulator(func() error {
				// Both changes reach the writer together: one upload, one deploy.
				if n := env.Srv.Stats().Routes[acctest.DeployRoute]; n != 1 {
					return fmt.Errorf("the flow was deployed %d times, want once", n)
				}
				return nil
			}),
			acctest.CheckEmulator(func() error {
				art, err := iflow.ReadZip(env.Srv.IFlowContent("Mixed"))
				if err != nil {
					return err
				}
				if got := art.AMQPSenders()[0].Properties["maxRetries"]; got != "1" {
					return fmt.Errorf("maxRetries of the AMQP sender = %q, want 1: a write was lost", got)
				}
				return nil
			}),
		),
	}})
}

// The warnings of the plan, with the real CLI: the missing retry limit in numbers, constant retries,
// the dead-letter option and an exception subprocess that ends the message.
func TestAccJMSSender_planWarnings(t *testing.T) {
	tf := acctest.ParallelCLI(t)
	env := acctest.NewTestEnv(t)
	env.AddJMSFlow(t, acctest.JMSGuardedFlow, false, acctest.GuardedOptions())
	env.AddJMSFlow(t, acctest.JMSUnguardedFlow, false, iflowbuild.Options{ExceptionEnds: [][]string{{"message"}}})
	env.AddJMSFlow(t, acctest.JMSExclusiveFlow, true, iflowbuild.Options{})
	env.AddJMSFlow(t, "JmsBusy", false, acctest.GuardedOptions())
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.RequiredProviders + `
resource "sapmessaging_jms_sender" "unguarded" {
  iflow_id = "` + acctest.JMSUnguardedFlow + `"
}

resource "sapmessaging_jms_sender" "exclusive" {
  iflow_id              = "` + acctest.JMSExclusiveFlow + `"
  queue_expiration_days = 7
}

resource "sapmessaging_jms_sender" "guarded" {
  iflow_id            = "` + acctest.JMSGuardedFlow + `"
  retry_interval      = 2
  exponential_backoff = false
  dead_letter_queue   = false
  max_retries         = 4
}

resource "sapmessaging_jms_sender" "busy" {
  iflow_id             = "JmsBusy"
  retry_interval       = 30
  max_retry_interval   = 20
  concurrent_processes = 6
}
`})
	diags := w.ExpectPlanDiagnostics(
		regexp.MustCompile(`^warning: No Retry Limit: .*compares SAPJMSRetries nowhere.*retried about 724 times over 30 days, then deleted: 725 executions`),
		regexp.MustCompile(`^warning: No Retry Limit: .*only for non-exclusive queues.*retried about 172 times over 7 days, then deleted: 173 executions`),
		regexp.MustCompile(acctest.BacktickTolerant(`^warning: Constant Retries: exponential_backoff = false with retry_interval = 2 retries a failing message every 2 minutes.*30 times an hour`)),
		regexp.MustCompile(`^warning: Dead-Letter Queue Off: .*moves nothing`),
		regexp.MustCompile(acctest.BacktickTolerant(`^warning: Retry Limit Differs From Guard: max_retries = 4, but the flow's guard compares SAPJMSRetries with 5`)),
		regexp.MustCompile(`^warning: Exception Subprocess Acknowledges Failures: .*ends with a Message End Event`),
		regexp.MustCompile(acctest.BacktickTolerant(`^warning: Max Retry Interval Below Retry Interval: max_retry_interval = 20 is shorter than retry_interval = 30.*retried every 20 minutes`)),
		regexp.MustCompile(acctest.BacktickTolerant(`^warning: Many Concurrent Processes: concurrent_processes = 6 runs that many consumers on every worker node`)),
	)
	for _, d := range diags {
		if strings.HasPrefix(d, "error") {
			t.Errorf("unexpected error: %s", d)
		}
		// The guarded flow's subprocess is SAP's retry pattern: its Escalation End ends the retries on purpose.
		if strings.Contains(d, "ends with an Escalation End Event") {
			t.Errorf("SAP's retry pattern draws a warning: %s", d)
		}
	}
}

// Externalized settings are set through the flow's configuration, an externalized guard limit is read from
// it, and a setting changed on the tenant between plan and apply fails the apply without writing.
func TestAccJMSSender_externalized(t *testing.T) {
	env := acctest.NewTestEnv(t)
	props := iflowbuild.DefaultJMSSenderProperties("Retry_Ext")
	props["RetryInterval"] = "{{Retry Interval}}"
	props["ExponentialBackoff"] = "{{Backoff}}"
	o := iflowbuild.Options{Name: "JmsExt", Senders: []iflowbuild.Sender{{ID: "MessageFlow_JMS", Name: "JMS_In", Adapter: "JMS", Properties: props}},
		Parameters:    map[string]string{"Retry Interval": "1", "Backoff": "true", "Max JMS Retries": "3"},
		ExceptionEnds: [][]string{{"error"}},
		Routers:       []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} >= {{Max JMS Retries}}"}}}
	if err := env.Srv.CreateIFlow("JmsExt", "JmsExt", "Retry", iflowbuild.Build(o)); err != nil {
		t.Fatal(err)
	}
	cfg := func(interval int) string {
		return env.Config(acctest.JMSHCL("JmsExt", fmt.Sprintf("retry_interval = %d\nexponential_backoff = true\nmax_retries = 3", interval)))
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: cfg(10),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					// ">= 3" ends the message on retry 3: 10 + 20 + 40 minutes.
					acctest.PlannedInt(acctest.JMSAddr, "give_up_after_minutes", 70),
					acctest.PlannedString(acctest.JMSAddr, "retry_guard.limit_kind", "parameter"),
					acctest.PlannedString(acctest.JMSAddr, "retry_guard.kind", "router"),
					acctest.PlannedInt(acctest.JMSAddr, "retry_guard.limit", 3),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			Check: acctest.CheckEmulator(func() error {
				cfg, _ := env.Srv.IFlowConfigurations("JmsExt")
				if cfg["Retry Interval"] != "10" || cfg["Backoff"] != "true" {
					return fmt.Errorf("parameters %v, want Retry Interval 10 and Backoff true", cfg)
				}
				if got, _ := env.JMSProperty("JmsExt", "RetryInterval"); got != "{{Retry Interval}}" {
					return fmt.Errorf("RetryInterval in the content = %q, want the parameter reference", got)
				}
				return nil
			}),
		},
		{
			// The guard's limit raised on the tenant: the plan shows the new limit and the later give-up.
			PreConfig: func() {
				if err := env.Srv.SetConfigurationValue("JmsExt", "Max JMS Retries", "8"); err != nil {
					t.Fatal(err)
				}
			},
			Config: cfg(10),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				// 10, 20, 40, then 60 five times.
				acctest.PlannedInt(acctest.JMSAddr, "give_up_after_minutes", 370),
				acctest.PlannedInt(acctest.JMSAddr, "retry_guard.limit", 8),
			}},
		},
		{
			Config: cfg(20),
			ConfigPlanChecks: acctest.ChangeBeforeApply(func() error {
				return env.Srv.SetConfigurationValue("JmsExt", "Retry Interval", "30")
			}),
			ExpectError: acctest.Wrapped(`JMS Sender Changed Since Plan.*RetryInterval: planned from 10, now 30.*plan again`),
		},
		{
			// The change made on the tenant is kept until a new plan is applied.
			PreConfig: func() {
				if cfg, _ := env.Srv.IFlowConfigurations("JmsExt"); cfg["Retry Interval"] != "30" {
					t.Errorf("Retry Interval on the tenant = %q, want the change made there (30)", cfg["Retry Interval"])
				}
			},
			Config: cfg(20),
			Check: acctest.CheckEmulator(func() error {
				if cfg, _ := env.Srv.IFlowConfigurations("JmsExt"); cfg["Retry Interval"] != "20" {
					return fmt.Errorf("Retry Interval = %q, want 20", cfg["Retry Interval"])
				}
				return nil
			}),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}

// Moving the resource to another flow replaces it, and the settings the configuration leaves out keep the
// new flow's values instead of taking the old flow's.
func TestAccJMSSender_replaceKeepsNewFlowSettings(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddJMSFlow(t, "JmsOld", false, acctest.GuardedOptions())
	env.AddJMSFlow(t, "JmsNew", false, acctest.GuardedOptions())
	zip, err := iflow.PatchZip(env.Srv.IFlowContent("JmsNew"), "MessageFlow_JMS", map[string]string{"RetryInterval": "9", "useDeadLetterQueue": "0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := env.Srv.CreateIFlow("JmsNew", "JmsNew", "Retry", zip); err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: env.Config(acctest.JMSHCL("JmsOld", "max_retry_interval = 60"))},
		{
			Config: env.Config(acctest.JMSHCL("JmsNew", "max_retry_interval = 60")),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(acctest.JMSAddr, plancheck.ResourceActionReplace,
				acctest.PlannedInt(acctest.JMSAddr, "retry_interval", 9)),
			Check: resource.ComposeTestCheckFunc(
				checkJMSProperty(env, "JmsNew", "RetryInterval", "9"),
				checkJMSProperty(env, "JmsNew", "useDeadLetterQueue", "0"),
			),
		},
	})
}

// A guard in a script shows no limit: max_retries declares it, and the give-up time assumes the later retry.
func TestAccJMSSender_scriptGuard(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddJMSFlow(t, "JmsScript", false, iflowbuild.Options{ExceptionEnds: [][]string{{"error"}},
		Scripts: []iflowbuild.Script{{File: "limit.groovy", Content: "def n = message.getHeaders().get('SAPJMSRetries')", InException: 1}}})
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: env.Config(acctest.JMSHCL("JmsScript", "max_retries = 4")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.PlannedString(acctest.JMSAddr, "retry_guard.kind", "script"),
					acctest.PlannedString(acctest.JMSAddr, "retry_guard.limit_kind", "not_visible"),
					acctest.PlannedNull(acctest.JMSAddr, "retry_guard.limit"),
					// Retry 5 at the latest: 1 + 2 + 4 + 8 + 16 minutes.
					acctest.PlannedInt(acctest.JMSAddr, "give_up_after_minutes", 31),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
		},
		{
			// Without max_retries the limit is unknown: neither number is claimed.
			Config: env.Config(acctest.JMSHCL("JmsScript", "")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.PlannedNull(acctest.JMSAddr, "give_up_after_minutes"),
					acctest.PlannedNull(acctest.JMSAddr, "attempts_before_expiry"),
				},
			},
		},
	})
}

// derive computes give_up_after_minutes and attempts_before_expiry from the settings and what the flow shows.
func TestJMSSenderDerive(t *testing.T) {
	t.Parallel()
	guard := func(limit int64, known bool, op string) []iflow.RetryGuard {
		return []iflow.RetryGuard{{Kind: iflow.GuardRouter, Operator: op, Limit: iflow.GuardLimit{Kind: iflow.LimitLiteral, Value: limit, Known: known}}}
	}
	nonExclusive := func(g []iflow.RetryGuard) integration.FlowFacts {
		return integration.FactsOf(&cpi.JMSSender{AccessType: iflow.AccessNonExclusive, Guards: g})
	}
	base := func() integration.JMSSenderModel {
		return integration.JMSSenderModel{RetryInterval: types.Int64Value(1), ExponentialBackoff: types.BoolValue(true), MaxRetryInterval: types.Int64Value(60),
			MaxRetries: types.Int64Null(), QueueExpirationDays: types.Int64Value(30)}
	}
	tests := []struct {
		name             string
		edit             func(*integration.JMSSenderModel)
		facts            integration.FlowFacts
		giveUp, attempts types.Int64
	}{
		{"guard > 9: retry 10 after 303 minutes", nil, nonExclusive(guard(9, true, ">")), types.Int64Value(303), types.Int64Null()},
		{"guard >= 10: the same retry", nil, nonExclusive(guard(10, true, ">=")), types.Int64Value(303), types.Int64Null()},
		{"no guard: executions until 30 days", nil, nonExclusive(nil), types.Int64Null(), types.Int64Value(725)},
		{"no guard, 180 days", func(m *integration.JMSSenderModel) { m.QueueExpirationDays = types.Int64Value(180) }, nonExclusive(nil), types.Int64Null(), types.Int64Value(4325)},
		{"exclusive with a guard still unbounded", nil, integration.FactsOf(&cpi.JMSSender{AccessType: iflow.AccessExclusive, Guards: guard(5, true, ">")}),
			types.Int64Null(), types.Int64Value(725)},
		{"backoff off", func(m *integration.JMSSenderModel) {
			m.ExponentialBackoff = types.BoolValue(false)
			m.RetryInterval = types.Int64Value(5)
		},
			nonExclusive(guard(9, true, ">")), types.Int64Value(50), types.Int64Null()},
		{"limit not visible, max_retries declared", func(m *integration.JMSSenderModel) { m.MaxRetries = types.Int64Value(4) },
			nonExclusive(guard(0, false, "")), types.Int64Value(31), types.Int64Null()},
		{"limit not visible, nothing declared", nil, nonExclusive(guard(0, false, "")), types.Int64Null(), types.Int64Null()},
		{"limit not visible, max_retries unknown", func(m *integration.JMSSenderModel) { m.MaxRetries = types.Int64Unknown() },
			nonExclusive(guard(0, false, "")), types.Int64Unknown(), types.Int64Null()},
		{"flow not read", nil, integration.UnknownFlowFacts(), types.Int64Unknown(), types.Int64Unknown()},
		{"interval unknown", func(m *integration.JMSSenderModel) { m.RetryInterval = types.Int64Unknown() }, nonExclusive(nil), types.Int64Unknown(), types.Int64Unknown()},
		{"interval 0 is no schedule", func(m *integration.JMSSenderModel) { m.RetryInterval = types.Int64Value(0) }, nonExclusive(nil), types.Int64Null(), types.Int64Null()},
		{"expiration out of range", func(m *integration.JMSSenderModel) { m.QueueExpirationDays = types.Int64Value(181) }, nonExclusive(nil), types.Int64Null(), types.Int64Null()},
		{"null settings take SAP's defaults", func(m *integration.JMSSenderModel) {
			m.RetryInterval, m.ExponentialBackoff, m.MaxRetryInterval = types.Int64Null(), types.BoolNull(), types.Int64Null()
		}, nonExclusive(guard(9, true, ">")), types.Int64Value(303), types.Int64Null()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := base()
			if tt.edit != nil {
				tt.edit(&m)
			}
			m.Derive(tt.facts)
			if !m.GiveUpAfterMinutes.Equal(tt.giveUp) || !m.AttemptsBeforeExpiry.Equal(tt.attempts) {
				t.Errorf("give_up_after_minutes = %s, attempts_before_expiry = %s; want %s, %s",
					m.GiveUpAfterMinutes, m.AttemptsBeforeExpiry, tt.giveUp, tt.attempts)
			}
		})
	}
}

// Importing the JMS sender of a flow that does not exist fails and leaves no state, as for the
// AMQP sender (it used to succeed with an empty state).
func TestAccJMSSender_importMissing(t *testing.T) {
	env := acctest.NewTestEnv(t)
	config := env.Config(acctest.JMSHCL(acctest.JMSGuardedFlow, "  max_retries = 5\n"))
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config:             config,
			ResourceName:       acctest.JMSAddr,
			ImportState:        true,
			ImportStateId:      acctest.JMSGuardedFlow,
			ImportStatePersist: true,
			ExpectError:        acctest.Wrapped(`Cannot import non-existent remote object`),
		},
	})
}

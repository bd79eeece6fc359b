package rules

import (
	"slices"
	"strings"
	"testing"
)

// ruleSeverity lists every rule ID with its severity; findingStyle rejects others.
var ruleSeverity = map[string]Severity{
	"audit.webhooks_not_configured":                  SeverityInfo,
	"audit.webhooks_not_read":                        SeverityWarning,
	"aem.redelivery_unlimited":                       SeverityError,
	"aem.redelivery_unlimited_allowed":               SeverityWarning,
	"aem.allow_unlimited_unused":                     SeverityWarning,
	"aem.redelivery_range":                           SeverityError,
	"aem.redelivery_count_unused":                    SeverityWarning,
	"aem.dmq_empty":                                  SeverityError,
	"aem.dmq_self":                                   SeverityError,
	"aem.dmq_missing":                                SeverityError,
	"aem.dmq_takes_nothing":                          SeverityError,
	"aem.dmq_missing_allowed":                        SeverityWarning,
	"aem.allow_missing_dmq_unused":                   SeverityWarning,
	"aem.dmq_ingress_disabled_allowed":               SeverityWarning,
	"aem.allow_ingress_disabled_unused":              SeverityWarning,
	"aem.redelivery_without_delay":                   SeverityWarning,
	"aem.redelivery_delay_range":                     SeverityError,
	"aem.redelivery_delay_max_below_initial":         SeverityWarning,
	"aem.max_ttl_range":                              SeverityError,
	"aem.max_ttl_without_respect_ttl":                SeverityError,
	"aem.max_ttl_without_respect_ttl_allowed":        SeverityWarning,
	"aem.allow_ineffective_ttl_unused":               SeverityWarning,
	"aem.dmq_max_msg_size_smaller":                   SeverityWarning,
	"aem.dmq_keeps_last_only":                        SeverityWarning,
	"aem.dmq_self_allowed":                           SeverityWarning,
	"aem.dmq_ttl_missing":                            SeverityError,
	"aem.dmq_no_ttl_allowed":                         SeverityWarning,
	"aem.allow_no_ttl_unused":                        SeverityWarning,
	"aem.dmq_ingress_disabled":                       SeverityError,
	"aem.ingress_disabled":                           SeverityWarning,
	"aem.egress_disabled":                            SeverityWarning,
	"aem.dmq_eligible_respected":                     SeverityWarning,
	"aem_sender.consumer_mode_invalid":               SeverityError,
	"aem_sender.acknowledgement_mode_invalid":        SeverityError,
	"aem_sender.settlement_outcome_invalid":          SeverityError,
	"aem_sender.ack_immediate":                       SeverityError,
	"aem_sender.ack_immediate_accepted":              SeverityWarning,
	"aem_sender.accept_message_loss_unused":          SeverityWarning,
	"aem_sender.allow_unlimited_unused":              SeverityWarning,
	"aem_sender.allow_missing_dmq_unused":            SeverityWarning,
	"aem_sender.attempts_missing":                    SeverityError,
	"aem_sender.attempts_zero":                       SeverityError,
	"aem_sender.attempts_range":                      SeverityError,
	"aem_sender.retry_interval_range":                SeverityError,
	"aem_sender.retry_multiplier_range":              SeverityError,
	"aem_sender.undocumented_value_allowed":          SeverityWarning,
	"aem_sender.allow_undocumented_values_unused":    SeverityWarning,
	"aem_sender.retry_multiplier_shrinks":            SeverityWarning,
	"aem_sender.max_retry_below_interval":            SeverityWarning,
	"aem_sender.failed_unlimited_redelivery":         SeverityError,
	"aem_sender.rejected_without_dmq":                SeverityError,
	"aem_sender.failed_unlimited_redelivery_allowed": SeverityWarning,
	"aem_sender.rejected_without_dmq_allowed":        SeverityWarning,
	"aem_sender.poison_messages_deleted":             SeverityWarning,
	"aem_sender.max_total_attempts_range":            SeverityError,
	"aem_sender.attempt_budget_exceeded":             SeverityError,
	"queue.name_invalid":                             SeverityError,
	"queue.access_type_invalid":                      SeverityError,
	"queue.redelivery_unlimited":                     SeverityError,
	"queue.redelivery_range":                         SeverityError,
	"queue.redelivery_unlimited_allowed":             SeverityWarning,
	"queue.allow_unlimited_unused":                   SeverityWarning,
	"queue.dmq_missing":                              SeverityWarning,
	"queue.dmq_name_invalid":                         SeverityError,
	"queue.dmq_self":                                 SeverityError,
	"queue.dmq_empty":                                SeverityError,
	"queue.dmq_cycle":                                SeverityError,
	"queue.dmq_chain":                                SeverityWarning,
	"aem.dmq_cycle":                                  SeverityError,
	"aem.dmq_chain":                                  SeverityWarning,
	"queue.dmq_not_found":                            SeverityError,
	"queue.dmq_destroyed":                            SeverityError,
	"queue.dmq_namespace":                            SeverityError,
	"queue.respect_ttl_without_max_ttl":              SeverityError,
	"queue.max_ttl_without_respect_ttl":              SeverityError,
	"queue.max_ttl_range":                            SeverityError,
	"queue.max_queue_size_range":                     SeverityError,
	"queue.max_message_size_range":                   SeverityError,
	"queue.max_queue_message_count_range":            SeverityError,
	"queue.max_unacked_per_flow_range":               SeverityError,
	"dmq.respect_ttl_required":                       SeverityError,
	"dmq.max_ttl_required":                           SeverityError,
	"dmq.no_ttl_allowed":                             SeverityWarning,
	"dmq.allow_no_ttl_unused":                        SeverityWarning,
	"amqp.retries_endless":                           SeverityError,
	"amqp.retries_zero":                              SeverityError,
	"amqp.retries_unsafe_allowed":                    SeverityWarning,
	"amqp.allow_unsafe_retries_unused":               SeverityWarning,
	"amqp.retries_range":                             SeverityError,
	"amqp.delivery_status_undeliverable":             SeverityError,
	"amqp.delivery_status_invalid":                   SeverityError,
	"amqp.prefetch_range":                            SeverityError,
	"amqp.concurrent_range":                          SeverityError,
	"amqp.expected_processing_range":                 SeverityError,
	"amqp.max_total_attempts_range":                  SeverityError,
	"amqp.queue_redelivery_unlimited":                SeverityError,
	"amqp.delivery_status_undeliverable_allowed":     SeverityWarning,
	"amqp.allow_cancelled_unused":                    SeverityWarning,
	"amqp.queue_redelivery_range":                    SeverityError,
	"amqp.attempt_budget_exceeded":                   SeverityError,
	"amqp.inner_retries":                             SeverityWarning,
	"amqp.prefetch_slow_flow":                        SeverityWarning,
	"iflow.exception_acknowledges":                   SeverityWarning,
	"jms.attempts_unlimited":                         SeverityError,
	"jms.max_attempts_range":                         SeverityError,
	"jms.delivery_delay_range":                       SeverityError,
	"jms.dead_messages_dropped":                      SeverityWarning,
	"jms.error_destination_self":                     SeverityError,
	"jms.error_destination_cycle":                    SeverityError,
	"jms.error_destination_unknown":                  SeverityError,
	"jms.error_destination_topic":                    SeverityWarning,
	"jms_sender.access_type_invalid":                 SeverityError,
	"jms_sender.retry_interval_range":                SeverityError,
	"jms_sender.max_retry_interval_range":            SeverityError,
	"jms_sender.max_below_interval":                  SeverityWarning,
	"jms_sender.concurrent_range":                    SeverityError,
	"jms_sender.concurrent_exclusive":                SeverityError,
	"jms_sender.concurrent_high":                     SeverityWarning,
	"jms_sender.dead_letter_exclusive":               SeverityError,
	"jms_sender.dead_letter_off":                     SeverityWarning,
	"jms_sender.constant_retries":                    SeverityWarning,
	"jms_sender.expiration_range":                    SeverityError,
	"jms_sender.max_retries_range":                   SeverityError,
	"jms_sender.max_retries_exclusive":               SeverityError,
	"jms_sender.max_retries_without_guard":           SeverityError,
	"jms_sender.no_retry_limit":                      SeverityWarning,
	"jms_sender.give_up_after_expiry":                SeverityError,
	"jms_sender.guard_limit_differs":                 SeverityWarning,
	"audit.queue_not_found":                          SeverityError,
	"audit.exclusive_competing":                      SeverityWarning,
	"audit.queue_unconsumed":                         SeverityInfo,
	"audit.dmq_not_found":                            SeverityWarning,
	"audit.version_differs":                          SeverityWarning,
	"audit.flow_not_analysable":                      SeverityWarning,
	"audit.queues_only":                              SeverityInfo,
	"audit.flows_only":                               SeverityInfo,
	"audit.aem_queue_not_found":                      SeverityError,
	"audit.aem_queue_unconsumed":                     SeverityInfo,
	"audit.aem_not_configured":                       SeverityInfo,
	"audit.event_mesh_not_configured":                SeverityInfo,
	"audit.aem_value_unconfirmed":                    SeverityInfo,
	"queue.dmq_self_allowed":                         SeverityWarning,
	"queue.allow_self_as_dmq_unused":                 SeverityWarning,
	"queue.dmq_namespace_allowed":                    SeverityWarning,
	"queue.allow_dmq_outside_namespace_unused":       SeverityWarning,
	"queue.respect_ttl_without_max_ttl_allowed":      SeverityWarning,
	"queue.max_ttl_without_respect_ttl_allowed":      SeverityWarning,
	"queue.allow_ineffective_ttl_unused":             SeverityWarning,
	"jms_sender.dead_letter_exclusive_allowed":       SeverityWarning,
	"jms_sender.concurrent_exclusive_allowed":        SeverityWarning,
	"jms_sender.allow_non_exclusive_settings_unused": SeverityWarning,
	"jms_sender.give_up_after_expiry_allowed":        SeverityWarning,
	"jms_sender.allow_give_up_after_expiry_unused":   SeverityWarning,
	"aem.dmq_cycle_allowed":                          SeverityWarning,
	"aem_sender.dmq_eligible_respected":              SeverityWarning,
	"aem_sender.dmq_cycle":                           SeverityWarning,
	"queue.max_queue_size_range_allowed":             SeverityWarning,
	"queue.max_queue_message_count_range_allowed":    SeverityWarning,
	"queue.allow_no_queue_limits_unused":             SeverityWarning,

	// allow_message_size_above_documented_max
	"queue.max_message_size_range_allowed":                 SeverityWarning,
	"queue.allow_message_size_above_documented_max_unused": SeverityWarning,
}

// findingStyle reports the ways f breaks the message conventions. A finding's fix sets an attribute.
func findingStyle(f Finding) []string {
	var problems []string
	if sev, ok := ruleSeverity[f.Rule]; !ok {
		problems = append(problems, "unlisted rule")
	} else if sev != f.Severity {
		problems = append(problems, "severity "+f.Severity.String()+", want "+sev.String())
	}
	return append(problems, StyleProblems(f.Summary, f.Detail, []string{"Set"})...)
}

// ruleIDs checks the style of every finding and returns their rule IDs in order.
func ruleIDs(t *testing.T, fs []Finding) []string {
	t.Helper()
	ids := make([]string, 0, len(fs))
	for _, f := range fs {
		for _, p := range findingStyle(f) {
			t.Errorf("finding %s: %s\n%+v", f.Rule, p, f)
		}
		ids = append(ids, f.Rule)
	}
	return ids
}

// expectRules fails unless fs has exactly the rule IDs want, in order.
func expectRules(t *testing.T, fs []Finding, want ...string) {
	t.Helper()
	if got := ruleIDs(t, fs); !slices.Equal(got, want) {
		t.Errorf("rules = %q, want %q", got, want)
		for _, f := range fs {
			t.Logf("%s %s: %s", f.Rule, f.Attribute, f.Detail)
		}
	}
}

// runCases runs each case of a table test as a parallel subtest named after it.
func runCases[C interface{ caseName() string }](t *testing.T, tests []C, run func(*testing.T, C)) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.caseName(), func(t *testing.T) {
			t.Parallel()
			run(t, tt)
		})
	}
}

// ruleCase is a row of a table test: an input of a check and the rules it finds.
type ruleCase[T any] struct {
	name string
	in   T
	want []string
}

func (c ruleCase[T]) caseName() string { return c.name }

// runRuleCases runs check on the input of each case and expects its rules.
func runRuleCases[T any](t *testing.T, tests []ruleCase[T], check func(T) []Finding) {
	t.Helper()
	runCases(t, tests, func(t *testing.T, tt ruleCase[T]) { expectRules(t, check(tt.in), tt.want...) })
}

// detailCase is a row of a table test: an input of a check, the rule of one of its findings, the
// attribute that finding names and texts its detail holds.
type detailCase[T any] struct {
	name      string
	in        T
	rule      string
	attribute string
	contains  []string
}

func (c detailCase[T]) caseName() string { return c.name }

// runDetailCases runs check on the input of each case and checks the finding of its rule.
func runDetailCases[T any](t *testing.T, tests []detailCase[T], check func(T) []Finding) {
	t.Helper()
	runCases(t, tests, func(t *testing.T, tt detailCase[T]) {
		f := findRule(t, check(tt.in), tt.rule)
		if f.Attribute != tt.attribute {
			t.Errorf("Attribute = %q, want %q", f.Attribute, tt.attribute)
		}
		for _, s := range tt.contains {
			if !strings.Contains(f.Detail, s) {
				t.Errorf("Detail %q does not contain %q", f.Detail, s)
			}
		}
	})
}

// expectSeverities checks that fs are the rules of want, each with its severity, and each in the
// house style. It stops the test when the number of rules differs.
func expectSeverities(t *testing.T, fs []Finding, want map[string]Severity) {
	t.Helper()
	got := map[string]Severity{}
	for _, f := range fs {
		got[f.Rule] = f.Severity
		for _, p := range findingStyle(f) {
			t.Errorf("finding %s: %s\n%+v", f.Rule, p, f)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("findings = %+v, want %v", fs, want)
	}
	for rule, sev := range want {
		if s, ok := got[rule]; !ok || s != sev {
			t.Errorf("finding %s = %v (present %v), want %v; all: %+v", rule, s, ok, sev, fs)
		}
	}
}

// expectAttribute checks that every finding of fs is about attribute.
func expectAttribute(t *testing.T, fs []Finding, attribute string) {
	t.Helper()
	for _, f := range fs {
		if f.Attribute != attribute {
			t.Errorf("finding %s: Attribute = %q, want %q", f.Rule, f.Attribute, attribute)
		}
	}
}

// findRule returns the first finding with the rule ID.
func findRule(t *testing.T, fs []Finding, rule string) Finding {
	t.Helper()
	for _, f := range fs {
		if f.Rule == rule {
			return f
		}
	}
	t.Fatalf("no finding %s in %+v", rule, fs)
	return Finding{}
}

func TestValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		v                Value[int64]
		unknown, present bool
	}{
		{"known", Known[int64](5), false, true},
		{"known zero", Known[int64](0), false, true},
		{"null", Null[int64](), false, false},
		{"unknown", Unknown[int64](), true, false},
		{"known and null counts as null", Value[int64]{V: 3, Known: true, Null: true}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.v.IsUnknown(); got != tt.unknown {
				t.Errorf("IsUnknown() = %v, want %v", got, tt.unknown)
			}
			if _, got := tt.v.get(); got != tt.present {
				t.Errorf("get() present = %v, want %v", got, tt.present)
			}
		})
	}
}

func TestHasErrors(t *testing.T) {
	t.Parallel()
	warning := Finding{Severity: SeverityWarning}
	failure := Finding{Severity: SeverityError}
	tests := []struct {
		name string
		fs   []Finding
		want bool
	}{
		{"nil", nil, false},
		{"warnings only", []Finding{warning, warning}, false},
		{"one error", []Finding{warning, failure}, true},
	}
	for _, tt := range tests {
		if got := HasErrors(tt.fs); got != tt.want {
			t.Errorf("%s: HasErrors() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestFindingStyleRejectsBadFindings(t *testing.T) {
	t.Parallel()
	good := Finding{Rule: "queue.dmq_self", Severity: SeverityError, Summary: "Dead Message Queue Cycle",
		Detail: "The value loops. Set `dead_message_queue` to another queue."}
	if p := findingStyle(good); len(p) != 0 {
		t.Fatalf("good finding rejected: %v", p)
	}
	bad := map[string]Finding{
		"no fix":          {Rule: good.Rule, Summary: good.Summary, Detail: "The value loops. Please reconsider."},
		"lower summary":   {Rule: good.Rule, Summary: "dead message queue cycle", Detail: good.Detail},
		"no period":       {Rule: good.Rule, Summary: good.Summary, Detail: "The value loops. Set x to y"},
		"unlisted rule":   {Rule: "queue.unknown", Summary: good.Summary, Detail: good.Detail},
		"wrong severity":  {Rule: good.Rule, Severity: SeverityWarning, Summary: good.Summary, Detail: good.Detail},
		"only a fix":      {Rule: good.Rule, Summary: good.Summary, Detail: "Set x to y."},
		"format mistake":  {Rule: good.Rule, Summary: good.Summary, Detail: "The value %!d(string=x) loops. Set x to y."},
		"summary period.": {Rule: good.Rule, Summary: "Cycle.", Detail: good.Detail},
	}
	for name, f := range bad {
		if len(findingStyle(f)) == 0 {
			t.Errorf("%s: accepted %+v", name, f)
		}
	}
}

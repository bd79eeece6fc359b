package landscape_test

import (
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccRetryPolicyDataSource(t *testing.T) {
	t.Parallel()
	const ds = "data.sapmessaging_retry_policy.p"
	unitTest(t, []resource.TestStep{
		{
			Config: `data "sapmessaging_retry_policy" "p" {
  total_attempts  = 7
  attempt_seconds = 2.5
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(ds, "max_redelivery_count", 5),
				acctest.ExpectInt(ds, "max_number_of_retries", 1),
				acctest.ExpectString(ds, "delivery_status_after_max_retries", "REJECTED"),
				acctest.ExpectInt(ds, "worst_case_attempts", 7),
				acctest.ExpectValue(ds, "seconds_to_dead_message_queue", knownvalue.Float64Exact(17.5)),
			},
		},
		{
			Config: `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(ds, "max_redelivery_count", 1),
				acctest.ExpectNull(ds, "seconds_to_dead_message_queue"),
			},
		},
		{
			Config:      `data "sapmessaging_retry_policy" "p" { total_attempts = 2 }`,
			ExpectError: regexp.MustCompile(`Unreachable Attempt Budget`),
		},
		{
			Config: `
data "sapmessaging_retry_policy" "p" {
  total_attempts  = 5
  attempt_seconds = 0
}
`,
			ExpectError: regexp.MustCompile(`Invalid Attempt Duration`),
		},
		{Config: `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`},
	})
}

// ints is the check of a list holding exactly the whole numbers vs, in this order.
func ints(vs ...int64) knownvalue.Check {
	checks := make([]knownvalue.Check, len(vs))
	for i, v := range vs {
		checks[i] = knownvalue.Int64Exact(v)
	}
	return knownvalue.ListExact(checks)
}

func TestAccRetryPolicyDataSourceJMS(t *testing.T) {
	t.Parallel()
	const ds = "data.sapmessaging_retry_policy.p"
	unitTest(t, []resource.TestStep{
		{
			// SAP's defaults fill the unset inputs; the worked example: 10 retries take 303 minutes.
			Config: `data "sapmessaging_retry_policy" "p" {
  total_attempts = 3
  jms = {
    retries        = 10
    budget_minutes = 43200
  }
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(ds, "max_redelivery_count", 1),
				acctest.ExpectInt(ds, "jms.retry_interval", 1),
				acctest.ExpectInt(ds, "jms.max_retry_interval", 60),
				acctest.ExpectBool(ds, "jms.exponential_backoff", true),
				acctest.ExpectValue(ds, "jms.waits_minutes", ints(1, 2, 4, 8, 16, 32, 60, 60, 60, 60)),
				acctest.ExpectInt(ds, "jms.give_up_after_minutes", 303),
				acctest.ExpectInt(ds, "jms.retries_within_budget", 724),
			},
		},
		{
			Config: `data "sapmessaging_retry_policy" "p" {
  total_attempts = 3
  jms = {
    retry_interval      = 5
    exponential_backoff = false
    retries             = 10
  }
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(ds, "jms.give_up_after_minutes", 50),
				acctest.ExpectNull(ds, "jms.retries_within_budget"),
				acctest.ExpectValue(ds, "jms.waits_minutes", ints(5, 5, 5, 5, 5, 5, 5, 5, 5, 5)),
			},
		},
		{
			Config: `data "sapmessaging_retry_policy" "p" {
  total_attempts = 3
  jms = {
    retry_interval     = 60
    max_retry_interval = 10
    budget_minutes     = 259200
  }
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectNull(ds, "jms.give_up_after_minutes"),
				acctest.ExpectNull(ds, "jms.waits_minutes"),
				acctest.ExpectInt(ds, "jms.retries_within_budget", 25920),
			},
		},
		{
			Config:            `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`,
			ConfigStateChecks: []statecheck.StateCheck{acctest.ExpectNull(ds, "jms")},
		},
		{
			Config:      "data \"sapmessaging_retry_policy\" \"p\" {\n  total_attempts = 3\n" + `  jms = { retry_interval = 0 }` + "\n}",
			ExpectError: regexp.MustCompile(`Invalid JMS Retry Schedule`),
		},
		{
			Config:      "data \"sapmessaging_retry_policy\" \"p\" {\n  total_attempts = 3\n" + `  jms = { retries = 10001 }` + "\n}",
			ExpectError: regexp.MustCompile(`Invalid JMS Retries`),
		},
		{
			Config:      "data \"sapmessaging_retry_policy\" \"p\" {\n  total_attempts = 3\n" + `  jms = { budget_minutes = -1 }` + "\n}",
			ExpectError: regexp.MustCompile(`Invalid Time Budget`),
		},
		{Config: `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`},
	})
}

// The shipped JMS example runs as it is and prints what its comments say.
func TestAccRetryPolicyDataSourceJMSExample(t *testing.T) {
	t.Parallel()
	unitTest(t, []resource.TestStep{exampleStep(t, "data-sources/sapmessaging_retry_policy/jms.tf", map[string]knownvalue.Check{
		"jms_waits_minutes":         ints(1, 2, 4, 8, 16, 32),
		"jms_give_up_after_minutes": knownvalue.Int64Exact(63),
		"jms_retries_before_expiry": knownvalue.Int64Exact(724),
	})})
}

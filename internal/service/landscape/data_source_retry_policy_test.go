package landscape_test

import (
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccRetryPolicyDataSource(t *testing.T) {
	t.Parallel()
	const ds = "data.sapmessaging_retry_policy.p"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `data "sapmessaging_retry_policy" "p" {
  total_attempts  = 7
  attempt_seconds = 2.5
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("max_number_of_retries"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("delivery_status_after_max_retries"), knownvalue.StringExact("REJECTED")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("worst_case_attempts"), knownvalue.Int64Exact(7)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("seconds_to_dead_message_queue"), knownvalue.Float64Exact(17.5)),
				},
			},
			{
				Config: `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("seconds_to_dead_message_queue"), knownvalue.Null()),
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
		},
	})
}

func TestAccRetryPolicyDataSourceJMS(t *testing.T) {
	t.Parallel()
	const ds = "data.sapmessaging_retry_policy.p"
	jms := func(attr string) tfjsonpath.Path { return tfjsonpath.New("jms").AtMapKey(attr) }
	ints := func(vs ...int64) knownvalue.Check {
		checks := make([]knownvalue.Check, len(vs))
		for i, v := range vs {
			checks[i] = knownvalue.Int64Exact(v)
		}
		return knownvalue.ListExact(checks)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
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
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(ds, jms("retry_interval"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(ds, jms("max_retry_interval"), knownvalue.Int64Exact(60)),
					statecheck.ExpectKnownValue(ds, jms("exponential_backoff"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(ds, jms("waits_minutes"), ints(1, 2, 4, 8, 16, 32, 60, 60, 60, 60)),
					statecheck.ExpectKnownValue(ds, jms("give_up_after_minutes"), knownvalue.Int64Exact(303)),
					statecheck.ExpectKnownValue(ds, jms("retries_within_budget"), knownvalue.Int64Exact(724)),
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
					statecheck.ExpectKnownValue(ds, jms("give_up_after_minutes"), knownvalue.Int64Exact(50)),
					statecheck.ExpectKnownValue(ds, jms("retries_within_budget"), knownvalue.Null()),
					statecheck.ExpectKnownValue(ds, jms("waits_minutes"), ints(5, 5, 5, 5, 5, 5, 5, 5, 5, 5)),
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
					statecheck.ExpectKnownValue(ds, jms("give_up_after_minutes"), knownvalue.Null()),
					statecheck.ExpectKnownValue(ds, jms("waits_minutes"), knownvalue.Null()),
					statecheck.ExpectKnownValue(ds, jms("retries_within_budget"), knownvalue.Int64Exact(25920)),
				},
			},
			{
				Config:            `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`,
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("jms"), knownvalue.Null())},
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
		},
	})
}

// The shipped JMS example runs as it is and prints what its comments say.
func TestAccRetryPolicyDataSourceJMSExample(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{exampleStep(t, "data-sources/sapmessaging_retry_policy/jms.tf", map[string]knownvalue.Check{
			"jms_waits_minutes": knownvalue.ListExact([]knownvalue.Check{
				knownvalue.Int64Exact(1), knownvalue.Int64Exact(2), knownvalue.Int64Exact(4),
				knownvalue.Int64Exact(8), knownvalue.Int64Exact(16), knownvalue.Int64Exact(32),
			}),
			"jms_give_up_after_minutes": knownvalue.Int64Exact(63),
			"jms_retries_before_expiry": knownvalue.Int64Exact(724),
		})},
	})
}

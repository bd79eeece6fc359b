package acctest

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestChecksAreTheChecksTheyShorten holds each typed check to the statecheck or plancheck it is short for: the
// same check, with the same address, path and expected value (never a weaker one).
func TestChecksAreTheChecksTheyShorten(t *testing.T) {
	t.Parallel()
	const addr = "sapmessaging_queue.q"
	cases := []struct {
		name      string
		got, want any
	}{
		{"ExpectValue", ExpectValue(addr, "a", knownvalue.Int64Exact(2)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("a"), knownvalue.Int64Exact(2))},
		{"Path", Path("max_ttl"), tfjsonpath.New("max_ttl")},
		{"Path of a key", Path("oauth2.client_id"), tfjsonpath.New("oauth2").AtMapKey("client_id")},
		{"Path of an element", Path("queues.10.findings.0.rule"),
			tfjsonpath.New("queues").AtSliceIndex(10).AtMapKey("findings").AtSliceIndex(0).AtMapKey("rule")},
		{"ExpectValue at a path", ExpectValue(addr, "o.k", knownvalue.Bool(true)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("o").AtMapKey("k"), knownvalue.Bool(true))},
		{"ExpectInt at a path", ExpectInt(addr, "queues.1.message_count", 0),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("queues").AtSliceIndex(1).AtMapKey("message_count"), knownvalue.Int64Exact(0))},
		{"PlannedNull at a path", PlannedNull(addr, "oauth2.client_secret"),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("oauth2").AtMapKey("client_secret"), knownvalue.Null())},
		{"ExpectLen", ExpectLen(addr, "findings", 2),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("findings"), knownvalue.ListSizeExact(2))},
		{"ExpectString", ExpectString(addr, "name", "q1"),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("q1"))},
		{"ExpectMatch", ExpectMatch(addr, "plan", `^then (deleted|kept)$`),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("plan"), knownvalue.StringRegexp(regexp.MustCompile(`^then (deleted|kept)$`)))},
		{"ExpectInt", ExpectInt(addr, "max_redelivery_count", 5),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5))},
		{"ExpectBool", ExpectBool(addr, "respect_ttl", false),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("respect_ttl"), knownvalue.Bool(false))},
		{"ExpectNull", ExpectNull(addr, "dead_message_queue"),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("dead_message_queue"), knownvalue.Null())},
		{"ExpectNotNull", ExpectNotNull(addr, "max_ttl"),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("max_ttl"), knownvalue.NotNull())},
		{"ExpectStrings", ExpectStrings(addr, "names", "a", "b"),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("names"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("a"), knownvalue.StringExact("b")}))},
		{"ExpectStrings none", ExpectStrings(addr, "names"),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("names"), knownvalue.ListExact([]knownvalue.Check{}))},
		{"PlannedValue", PlannedValue(addr, "a", knownvalue.StringExact("x")),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("a"), knownvalue.StringExact("x"))},
		{"PlannedString", PlannedString(addr, "name", "q1"),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("q1"))},
		{"PlannedInt", PlannedInt(addr, "max_ttl", 60),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("max_ttl"), knownvalue.Int64Exact(60))},
		{"PlannedBool", PlannedBool(addr, "paused", true),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("paused"), knownvalue.Bool(true))},
		{"PlannedNull", PlannedNull(addr, "dead_message_queue"),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("dead_message_queue"), knownvalue.Null())},
		{"PlannedNotNull", PlannedNotNull(addr, "revision"),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("revision"), knownvalue.NotNull())},
		{"PlannedUnknown", PlannedUnknown(addr, "id"), plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id"))},
		{"ExpectAction", ExpectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
			plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
		{"ExpectUpdate", ExpectUpdate(addr), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
		{"ExpectNoop", ExpectNoop(addr), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
		{"ExpectEmptyPlan", ExpectEmptyPlan(), []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		{"EmptyPlanBeforeApply", EmptyPlanBeforeApply(),
			resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		{"EmptyPlanAfterApply", EmptyPlanAfterApply(),
			resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		{"ExpectUpdateThenEmptyPlan", ExpectUpdateThenEmptyPlan(addr, PlannedInt(addr, "max_ttl", 60)),
			resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("max_ttl"), knownvalue.Int64Exact(60)),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			}},
		{"ExpectUpdateThenEmptyPlan alone", ExpectUpdateThenEmptyPlan(addr), resource.ConfigPlanChecks{
			PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		}},
		{"ExpectMatches", ExpectMatches(addr, "exception_end_events", `: error$`, `^x`),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("exception_end_events"), knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringRegexp(regexp.MustCompile(`: error$`)), knownvalue.StringRegexp(regexp.MustCompile(`^x`))}))},
		{"MatchList", MatchList(`: error$`), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringRegexp(regexp.MustCompile(`: error$`))})},
		{"ExpectOutput", ExpectOutput("r", knownvalue.Int64Exact(5)), statecheck.ExpectKnownOutputValue("r", knownvalue.Int64Exact(5))},
	}
	for _, c := range cases {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
	// The comparison tells checks apart: a different value, attribute or action is not the same check.
	for _, c := range []struct{ a, b any }{
		{ExpectInt(addr, "max_ttl", 5), ExpectInt(addr, "max_ttl", 6)},
		{ExpectString(addr, "name", "q1"), ExpectString(addr, "id", "q1")},
		{ExpectBool(addr, "paused", true), ExpectBool("sapmessaging_queue.r", "paused", true)},
		{ExpectUpdate(addr), ExpectNoop(addr)},
		{ExpectInt(addr, "queues.0.max_ttl", 5), ExpectInt(addr, "queues.1.max_ttl", 5)},
		{Path("queues.0"), Path("queues.x0")},
		{MatchList(`: error$`), MatchList(`: escalation$`)},
		{MatchList(`: error$`), MatchList(`: error$`, `: error$`)},
	} {
		if reflect.DeepEqual(c.a, c.b) {
			t.Errorf("%#v and %#v compare equal", c.a, c.b)
		}
	}
}

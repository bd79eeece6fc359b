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
		{"ExpectValueAt", ExpectValueAt(addr, tfjsonpath.New("o").AtMapKey("k"), knownvalue.Bool(true)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("o").AtMapKey("k"), knownvalue.Bool(true))},
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
		{"PlannedUnknown", PlannedUnknown(addr, "id"), plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id"))},
		{"ExpectAction", ExpectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
			plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
		{"ExpectUpdate", ExpectUpdate(addr), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
		{"ExpectNoop", ExpectNoop(addr), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
		{"ExpectEmptyPlan", ExpectEmptyPlan(), []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		{"EmptyPlanAfterApply", EmptyPlanAfterApply(),
			resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
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
	} {
		if reflect.DeepEqual(c.a, c.b) {
			t.Errorf("%#v and %#v compare equal", c.a, c.b)
		}
	}
}

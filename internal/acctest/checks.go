package acctest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The typed checks of an attribute of one resource or data source (addr), in the state after a step (Expect*) or in
// the plan of a step (Planned*). Each returns exactly the statecheck or plancheck it is short for:
// ExpectInt(addr, "max_redelivery_count", 5) is
// statecheck.ExpectKnownValue(addr, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5)).
// The attribute is a path in dotted form (Path): "queues.0.message_count" is
// tfjsonpath.New("queues").AtSliceIndex(0).AtMapKey("message_count").

// Path is the tfjsonpath of attr in dotted form: a top-level attribute name, then a map key or object attribute
// name, or a list index (a segment of digits), after each dot: "name", "oauth2.client_id", "queues.1.name".
func Path(attr string) tfjsonpath.Path {
	steps := strings.Split(attr, ".")
	p := tfjsonpath.New(steps[0])
	for _, step := range steps[1:] {
		if i, err := strconv.Atoi(step); err == nil {
			p = p.AtSliceIndex(i)
		} else {
			p = p.AtMapKey(step)
		}
	}
	return p
}

// ExpectValue checks that the state holds check's value at attr of addr.
func ExpectValue(addr, attr string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, Path(attr), check)
}

// ExpectMatch checks that attr of addr is a string matching the regular expression pattern in the state.
func ExpectMatch(addr, attr, pattern string) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.StringRegexp(regexp.MustCompile(pattern)))
}

// ExpectNull checks that attr of addr is null in the state.
func ExpectNull(addr, attr string) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.Null())
}

// ExpectNotNull checks that attr of addr has a value in the state.
func ExpectNotNull(addr, attr string) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.NotNull())
}

// ExpectLen checks that attr of addr is a list of n elements in the state.
func ExpectLen(addr, attr string, n int) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.ListSizeExact(n))
}

// ExpectStrings checks that attr of addr is the list of strings want, in this order, in the state.
func ExpectStrings(addr, attr string, want ...string) statecheck.StateCheck {
	return ExpectValue(addr, attr, StringList(want...))
}

// StringList is the check of a list holding exactly the strings want, in this order.
func StringList(want ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(want))
	for _, s := range want {
		checks = append(checks, knownvalue.StringExact(s))
	}
	return knownvalue.ListExact(checks)
}

// ExpectOutput checks that the state holds check's value in the output name.
func ExpectOutput(name string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownOutputValue(name, check)
}

// ExpectMatches checks that attr of addr is a list of strings, each matching the regular expression of patterns at its
// place, in the state.
func ExpectMatches(addr, attr string, patterns ...string) statecheck.StateCheck {
	return ExpectValue(addr, attr, MatchList(patterns...))
}

// MatchList is the check of a list of exactly len(patterns) strings, each matching the regular expression of patterns
// at its place.
func MatchList(patterns ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(patterns))
	for _, p := range patterns {
		checks = append(checks, knownvalue.StringRegexp(regexp.MustCompile(p)))
	}
	return knownvalue.ListExact(checks)
}

// PlannedValue checks that the plan shows check's value at attr of addr.
func PlannedValue(addr, attr string, check knownvalue.Check) plancheck.PlanCheck {
	return plancheck.ExpectKnownValue(addr, Path(attr), check)
}

// PlannedNull checks that the plan shows null at attr of addr.
func PlannedNull(addr, attr string) plancheck.PlanCheck {
	return PlannedValue(addr, attr, knownvalue.Null())
}

// PlannedNotNull checks that the plan shows a value at attr of addr.
func PlannedNotNull(addr, attr string) plancheck.PlanCheck {
	return PlannedValue(addr, attr, knownvalue.NotNull())
}

// PlannedUnknown checks that the plan leaves attr of addr unknown until the apply.
func PlannedUnknown(addr, attr string) plancheck.PlanCheck {
	return plancheck.ExpectUnknownValue(addr, Path(attr))
}

// The checks of a value of one kind (a string, a whole number, a bool) at a top-level attribute, written once for the
// state and the plan.
var (
	// ExpectString checks that attr of addr is the string want in the state.
	ExpectString = attrIs(statecheck.ExpectKnownValue, knownvalue.StringExact)
	// ExpectInt checks that attr of addr is the whole number want in the state.
	ExpectInt = attrIs(statecheck.ExpectKnownValue, knownvalue.Int64Exact)
	// ExpectBool checks that attr of addr is want in the state.
	ExpectBool = attrIs(statecheck.ExpectKnownValue, knownvalue.Bool)
	// PlannedString checks that the plan shows the string want at attr of addr.
	PlannedString = attrIs(plancheck.ExpectKnownValue, knownvalue.StringExact)
	// PlannedInt checks that the plan shows the whole number want at attr of addr.
	PlannedInt = attrIs(plancheck.ExpectKnownValue, knownvalue.Int64Exact)
	// PlannedBool checks that the plan shows want at attr of addr.
	PlannedBool = attrIs(plancheck.ExpectKnownValue, knownvalue.Bool)
)

// attrIs is the check known (statecheck.ExpectKnownValue or plancheck.ExpectKnownValue) that attr of addr holds the
// value want, as value checks it.
func attrIs[C, V any, K knownvalue.Check](known func(string, tfjsonpath.Path, knownvalue.Check) C, value func(V) K) func(addr, attr string, want V) C {
	return func(addr, attr string, want V) C { return known(addr, Path(attr), value(want)) }
}

// ExpectAction checks that the plan takes action on addr.
func ExpectAction(addr string, action plancheck.ResourceActionType) plancheck.PlanCheck {
	return plancheck.ExpectResourceAction(addr, action)
}

// ExpectUpdate checks that the plan updates addr in place.
func ExpectUpdate(addr string) plancheck.PlanCheck {
	return ExpectAction(addr, plancheck.ResourceActionUpdate)
}

// ExpectNoop checks that the plan leaves addr as it is.
func ExpectNoop(addr string) plancheck.PlanCheck {
	return ExpectAction(addr, plancheck.ResourceActionNoop)
}

// ExpectEmptyPlan is the plan checks of a plan that changes nothing.
func ExpectEmptyPlan() []plancheck.PlanCheck {
	return []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
}

// EmptyPlanBeforeApply checks that the plan of a step changes nothing.
func EmptyPlanBeforeApply() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: ExpectEmptyPlan()}
}

// EmptyPlanAfterApply checks that the plan after a step's apply and refresh is empty.
func EmptyPlanAfterApply() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PostApplyPostRefresh: ExpectEmptyPlan()}
}

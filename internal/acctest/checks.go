package acctest

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The typed checks of a top-level attribute of one resource or data source (addr), in the state after a step
// (Expect*) or in the plan of a step (Planned*). Each returns exactly the statecheck or plancheck it is short for:
// ExpectInt(addr, "max_redelivery_count", 5) is
// statecheck.ExpectKnownValue(addr, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5)).
// A nested path (AtMapKey, AtSliceIndex) or a check of another kind is written out with ExpectValueAt or in full.

// ExpectValue checks that the state holds check's value at attr of addr.
func ExpectValue(addr, attr string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), check)
}

// ExpectValueAt checks that the state holds check's value at path of addr.
func ExpectValueAt(addr string, path tfjsonpath.Path, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, path, check)
}

// ExpectString checks that attr of addr is the string want in the state.
func ExpectString(addr, attr, want string) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.StringExact(want))
}

// ExpectMatch checks that attr of addr is a string matching the regular expression pattern in the state.
func ExpectMatch(addr, attr, pattern string) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.StringRegexp(regexp.MustCompile(pattern)))
}

// ExpectInt checks that attr of addr is the whole number want in the state.
func ExpectInt(addr, attr string, want int64) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.Int64Exact(want))
}

// ExpectBool checks that attr of addr is want in the state.
func ExpectBool(addr, attr string, want bool) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.Bool(want))
}

// ExpectNull checks that attr of addr is null in the state.
func ExpectNull(addr, attr string) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.Null())
}

// ExpectNotNull checks that attr of addr has a value in the state.
func ExpectNotNull(addr, attr string) statecheck.StateCheck {
	return ExpectValue(addr, attr, knownvalue.NotNull())
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

// PlannedValue checks that the plan shows check's value at attr of addr.
func PlannedValue(addr, attr string, check knownvalue.Check) plancheck.PlanCheck {
	return plancheck.ExpectKnownValue(addr, tfjsonpath.New(attr), check)
}

// PlannedString checks that the plan shows the string want at attr of addr.
func PlannedString(addr, attr, want string) plancheck.PlanCheck {
	return PlannedValue(addr, attr, knownvalue.StringExact(want))
}

// PlannedInt checks that the plan shows the whole number want at attr of addr.
func PlannedInt(addr, attr string, want int64) plancheck.PlanCheck {
	return PlannedValue(addr, attr, knownvalue.Int64Exact(want))
}

// PlannedBool checks that the plan shows want at attr of addr.
func PlannedBool(addr, attr string, want bool) plancheck.PlanCheck {
	return PlannedValue(addr, attr, knownvalue.Bool(want))
}

// PlannedNull checks that the plan shows null at attr of addr.
func PlannedNull(addr, attr string) plancheck.PlanCheck {
	return PlannedValue(addr, attr, knownvalue.Null())
}

// PlannedUnknown checks that the plan leaves attr of addr unknown until the apply.
func PlannedUnknown(addr, attr string) plancheck.PlanCheck {
	return plancheck.ExpectUnknownValue(addr, tfjsonpath.New(attr))
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

// EmptyPlanAfterApply checks that the plan after a step's apply and refresh is empty.
func EmptyPlanAfterApply() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PostApplyPostRefresh: ExpectEmptyPlan()}
}

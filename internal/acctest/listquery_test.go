package acctest

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestIdentityChecks holds the identity checks of list results to the querycheck and queryfilter they shorten.
func TestIdentityChecks(t *testing.T) {
	t.Parallel()
	parts := map[string]string{"queue_name": "q1", "topic_pattern": "a/*"}
	want := map[string]knownvalue.Check{"queue_name": knownvalue.StringExact("q1"), "topic_pattern": knownvalue.StringExact("a/*")}
	if got := Identity(parts); !reflect.DeepEqual(got, want) {
		t.Errorf("Identity = %#v, want %#v", got, want)
	}
	if got, want := ExpectIdentity("sapmessaging_queue_subscription.all", parts),
		querycheck.ExpectIdentity("sapmessaging_queue_subscription.all", want); !reflect.DeepEqual(got, want) {
		t.Errorf("ExpectIdentity = %#v, want %#v", got, want)
	}
	if got, want := ByIdentity(parts), queryfilter.ByResourceIdentity(want); !reflect.DeepEqual(got, want) {
		t.Errorf("ByIdentity = %#v, want %#v", got, want)
	}
	if reflect.DeepEqual(ByIdentity(parts), ByIdentity(map[string]string{"queue_name": "q1", "topic_pattern": "b/*"})) {
		t.Error("ByIdentity of other parts compares equal")
	}
}

// TestSenderIdentityChecks holds the identity checks of a sender channel to the long form they shorten, with a
// channel and with the null channel of a flow that has one.
func TestSenderIdentityChecks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		channel string
		want    map[string]knownvalue.Check
	}{
		{"Orders", map[string]knownvalue.Check{"iflow_id": knownvalue.StringExact("F1"), "channel": knownvalue.StringExact("Orders")}},
		{"", map[string]knownvalue.Check{"iflow_id": knownvalue.StringExact("F1"), "channel": knownvalue.Null()}},
	} {
		if got := SenderIdentity("F1", tc.channel); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SenderIdentity(%q) = %#v, want %#v", tc.channel, got, tc.want)
		}
		if got, want := BySender("F1", tc.channel), queryfilter.ByResourceIdentity(tc.want); !reflect.DeepEqual(got, want) {
			t.Errorf("BySender(%q) = %#v, want %#v", tc.channel, got, want)
		}
		if got, want := ExpectSender("sapmessaging_amqp_sender.all", "F1", tc.channel),
			querycheck.ExpectIdentity("sapmessaging_amqp_sender.all", tc.want); !reflect.DeepEqual(got, want) {
			t.Errorf("ExpectSender(%q) = %#v, want %#v", tc.channel, got, want)
		}
	}
}

// TestKnownValuesDotted holds KnownValues and PlannedValues to the long form they shorten, with an attribute of a
// nested object in dotted form.
func TestKnownValuesDotted(t *testing.T) {
	t.Parallel()
	values := map[string]knownvalue.Check{"retry_guard.limit": knownvalue.Int64Exact(5), "id": knownvalue.StringExact("F1")}
	want := []querycheck.KnownValueCheck{
		{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact("F1")},
		{Path: tfjsonpath.New("retry_guard").AtMapKey("limit"), KnownValue: knownvalue.Int64Exact(5)},
	}
	if got := KnownValues(values); !reflect.DeepEqual(got, want) {
		t.Errorf("KnownValues = %#v, want %#v", got, want)
	}
	wantPlan := []plancheck.PlanCheck{
		plancheck.ExpectKnownValue("sapmessaging_jms_sender.s", tfjsonpath.New("id"), knownvalue.StringExact("F1")),
		plancheck.ExpectKnownValue("sapmessaging_jms_sender.s", tfjsonpath.New("retry_guard").AtMapKey("limit"), knownvalue.Int64Exact(5)),
	}
	if got := PlannedValues("sapmessaging_jms_sender.s", values); !reflect.DeepEqual(got, wantPlan) {
		t.Errorf("PlannedValues = %#v, want %#v", got, wantPlan)
	}
}

// TestCountSet counts the blocks of a generated configuration that set an attribute to a value on a line of its own,
// as terraform query writes them (aligned with spaces).
func TestCountSet(t *testing.T) {
	t.Parallel()
	generated := "resource \"a\" \"x\" {\n  deploy    = false\n  id = \"x\"\n}\nresource \"a\" \"y\" {\n  deploy = true\n}\n" +
		"resource \"a\" \"z\" {\n  deploy = false\n  deployed = false\n}\n"
	for _, c := range []struct {
		attribute, value string
		want             int
	}{
		{"deploy", "false", 2}, {"deploy", "true", 1}, {"deployed", "false", 1}, {"id", "false", 0},
	} {
		if got := CountSet(generated, c.attribute, c.value); got != c.want {
			t.Errorf("CountSet(%s = %s) = %d, want %d", c.attribute, c.value, got, c.want)
		}
	}
	if got := CountTrue(generated, "deploy"); got != 1 {
		t.Errorf("CountTrue(deploy) = %d, want 1", got)
	}
}

// TestResultChecks holds the checks of list results to the querycheck they shorten.
func TestResultChecks(t *testing.T) {
	t.Parallel()
	const addr = "sapmessaging_amqp_sender.all"
	filter := BySender("F1", "")
	values := map[string]knownvalue.Check{"id": knownvalue.StringExact("F1"), "retry_guard.limit": knownvalue.Int64Exact(5)}
	for _, c := range []struct {
		name      string
		got, want querycheck.QueryResultCheck
	}{
		{"ExpectResults", ExpectResults(addr, 4), querycheck.ExpectLength(addr, 4)},
		{"ExpectDisplayName", ExpectDisplayName(addr, filter, "F1: AMQP sender"),
			querycheck.ExpectResourceDisplayName(addr, filter, knownvalue.StringExact("F1: AMQP sender"))},
		{"ExpectResultValues", ExpectResultValues(addr, filter, values), querycheck.ExpectResourceKnownValues(addr, filter, []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact("F1")},
			{Path: tfjsonpath.New("retry_guard").AtMapKey("limit"), KnownValue: knownvalue.Int64Exact(5)},
		})},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
	if reflect.DeepEqual(ExpectResults(addr, 4), ExpectResults(addr, 3)) {
		t.Error("ExpectResults of other lengths compare equal")
	}
}

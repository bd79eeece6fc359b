package acctest

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
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

package eventmesh

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// keys is a private state in memory that counts its writes.
type keys struct {
	m      map[string][]byte
	writes int
}

func (k *keys) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) { return k.m[key], nil }

func (k *keys) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	k.writes++
	if len(value) == 0 {
		delete(k.m, key)
	} else {
		k.m[key] = value
	}
	return nil
}

// A refresh records the message counts for a destroy's plan unless the state has force_destroy =
// true, which no plan reads them for: then it writes nothing, and removes a record an earlier
// refresh left, so that no destroy planned later with -refresh=false takes its old count.
func TestRecordHeld(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	held := int64(2)
	q := &eventmesh.Queue{Name: "acme/crm/prod/held/q", MessageCount: &held}
	k := &keys{m: map[string][]byte{}}

	recordHeld(ctx, q, false, k, &diag.Diagnostics{})
	if got, _, ok := refreshedHeld(ctx, k, q.Name); !ok || got != 2 {
		t.Fatalf("without force_destroy: recorded %d, %t; want 2", got, ok)
	}
	recordHeld(ctx, q, true, k, &diag.Diagnostics{})
	if _, _, ok := refreshedHeld(ctx, k, q.Name); ok || k.writes != 2 {
		t.Fatalf("with force_destroy the earlier record stays (%t) or %d writes, want it removed in the second", ok, k.writes)
	}
	recordHeld(ctx, q, true, k, &diag.Diagnostics{})
	if k.writes != 2 {
		t.Errorf("with force_destroy and no record: %d writes, want none", k.writes-2)
	}
	recordHeld(ctx, &eventmesh.Queue{Name: q.Name}, false, k, &diag.Diagnostics{})
	if _, _, ok := refreshedHeld(ctx, k, q.Name); ok {
		t.Error("a queue read without counters recorded a count")
	}
}

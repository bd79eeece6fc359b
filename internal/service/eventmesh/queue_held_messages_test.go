package eventmesh

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// A refresh removes the message count an earlier version recorded in the private state, which no
// plan takes any more, and writes nothing when there is none.
func TestDropHeldRecord(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	k := &keys{m: map[string][]byte{privateHeldKey: []byte(`{"queue":"acme/crm/prod/held/q","held":0}`), "other": []byte(`1`)}}
	dropHeldRecord(ctx, k, &diag.Diagnostics{})
	if _, left := k.m[privateHeldKey]; left || k.writes != 1 || string(k.m["other"]) != "1" {
		t.Fatalf("after the first refresh: %v, %d writes; want the record alone removed with one write", k.m, k.writes)
	}
	dropHeldRecord(ctx, k, &diag.Diagnostics{})
	if k.writes != 1 {
		t.Errorf("without a record: %d more writes, want none", k.writes-1)
	}
	dropHeldRecord(ctx, nil, &diag.Diagnostics{}) // a response without private state
}

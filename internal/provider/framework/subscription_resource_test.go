package framework

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The ID joins the queue and the topic with the identity's separator, a comma when it has none.
func TestSubscriptionResourceID(t *testing.T) {
	t.Parallel()
	comma := SubscriptionResource[struct{}]{Identity: &ResourceIdentity{}}
	semicolon := SubscriptionResource[struct{}]{Identity: &ResourceIdentity{Sep: ";"}}
	if got := comma.ID("acme/orders", "acme/*"); got != "acme/orders,acme/*" {
		t.Errorf("comma: %q", got)
	}
	if got := semicolon.ID("acme/orders", "a,b/>"); got != "acme/orders;a,b/>" {
		t.Errorf("semicolon: %q", got)
	}
}

// Without Timeouts the context is not bounded; with them, by the configured limit or DefaultTimeout.
func TestSubscriptionResourceLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var diags diag.Diagnostics
	none := SubscriptionResource[timeouts.Value]{}
	got, cancel, ok := none.limit(ctx, &timeouts.Value{}, timeouts.Value.Read, &diags)
	defer cancel()
	if _, bounded := got.Deadline(); !ok || bounded {
		t.Fatalf("without timeouts: ok %v, bounded %v", ok, bounded)
	}
	limited := SubscriptionResource[timeouts.Value]{Timeouts: func(m *timeouts.Value) timeouts.Value { return *m }, DefaultTimeout: time.Minute}
	types3 := map[string]attr.Type{"create": types.StringType, "read": types.StringType, "delete": types.StringType}
	for name, c := range map[string]struct {
		read string
		want time.Duration
	}{"default": {"", time.Minute}, "set": {"2h", 2 * time.Hour}} {
		read := types.StringNull()
		if c.read != "" {
			read = types.StringValue(c.read)
		}
		v := timeouts.Value{Object: types.ObjectValueMust(types3, map[string]attr.Value{"create": types.StringNull(), "read": read, "delete": types.StringNull()})}
		got, cancel, ok := limited.limit(ctx, &v, timeouts.Value.Read, &diags)
		deadline, bounded := got.Deadline()
		cancel()
		if !ok || !bounded || time.Until(deadline) > c.want || time.Until(deadline) < c.want-time.Minute/2 {
			t.Errorf("%s: ok %v, bounded %v, deadline in %v, want about %v", name, ok, bounded, time.Until(deadline), c.want)
		}
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
}

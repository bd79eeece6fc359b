package framework_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/integration"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// codecState is a state of r's schema with every primitive attribute known, as Terraform sends
// it on every plan and apply of an existing resource.
func codecState(b *testing.B, r resource.Resource) tfsdk.State {
	b.Helper()
	st := schemaOf(b, r)
	ot, ok := st.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		b.Fatal("the schema is not an object")
	}
	vals := map[string]tftypes.Value{}
	for name, at := range ot.AttributeTypes {
		switch {
		case at.Is(tftypes.String):
			vals[name] = tftypes.NewValue(at, "acme/crm/prod/orders")
		case at.Is(tftypes.Number):
			vals[name] = tftypes.NewValue(at, big.NewFloat(5))
		case at.Is(tftypes.Bool):
			vals[name] = tftypes.NewValue(at, true)
		default:
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	st.Raw = tftypes.NewValue(ot, vals)
	return st
}

// BenchmarkModelCodec measures reading a resource's data into its model (getState, also
// getPlan and getConfig) and writing the model back (setState, also setPlan), as every Read,
// ModifyPlan, Create and Update does once or more per resource.
func BenchmarkModelCodec(b *testing.B) {
	benchModelCodec[tfeventmesh.QueueModel](b, "queue", tfeventmesh.NewQueueResource())
	benchModelCodec[tfaem.AEMQueueModel](b, "aem_queue", tfaem.NewAEMQueueResource())
}

// benchModelCodec runs the benchmarks <name>_decode and <name>_encode of model M of resource r.
func benchModelCodec[M any](b *testing.B, name string, r resource.Resource) {
	ctx := context.Background()
	b.Run(name+"_decode", func(b *testing.B) {
		st := codecState(b, r)
		b.ReportAllocs()
		for b.Loop() {
			var m M
			if d := framework.GetState(ctx, st, &m); d.HasError() {
				b.Fatal(d)
			}
		}
	})
	b.Run(name+"_encode", func(b *testing.B) {
		st := codecState(b, r)
		var m M
		if d := framework.GetState(ctx, st, &m); d.HasError() {
			b.Fatal(d)
		}
		b.ReportAllocs()
		for b.Loop() {
			out := tfsdk.State{Schema: st.Schema}
			if d := framework.SetState(ctx, &out, &m); d.HasError() {
				b.Fatal(d)
			}
		}
	})
}

// BenchmarkIdentitySet measures setting a queue's identity from its state, as Create, Read and
// Update of every queue resource do.
func BenchmarkIdentitySet(b *testing.B) {
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		r    resource.Resource
		ri   framework.ResourceIdentity
	}{
		{"queue", tfeventmesh.NewQueueResource(), tfeventmesh.QueueIdentity},
		{"aem_queue", tfaem.NewAEMQueueResource(), tfaem.AEMQueueIdentity},
	} {
		b.Run(bc.name, func(b *testing.B) {
			st := codecState(b, bc.r)
			var isr resource.IdentitySchemaResponse
			ri, ok := bc.r.(resource.ResourceWithIdentity)
			if !ok {
				b.Fatalf("%T has no identity", bc.r)
			}
			ri.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &isr)
			b.ReportAllocs()
			for b.Loop() {
				id := tfsdk.ResourceIdentity{Schema: isr.IdentitySchema}
				var diags diag.Diagnostics
				bc.ri.Set(ctx, &st, &id, &diags)
				if diags.HasError() || id.Raw.IsNull() {
					b.Fatal(diags)
				}
			}
		})
	}
}

// The identity type kept for each resource identity is the type of its schema, and setting an
// identity twice gives the same value.
func TestIdentityTerraformType(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, ri := range []framework.ResourceIdentity{tfeventmesh.QueueIdentity, tfeventmesh.SubscriptionIdentity, integration.SenderIdentity, integration.DeploymentIdentity, tfaem.AEMQueueIdentity, tfaem.AEMSubscriptionIdentity, tfeventmesh.WebhookIdentity} {
		s := ri.Schema()
		want := s.Type().TerraformType(ctx)
		for range 2 {
			if got := ri.TerraformType(ctx, s); !got.Equal(want) {
				t.Fatalf("%v: %s, want %s", ri.Parts, got, want)
			}
		}
	}
	if tfeventmesh.QueueIdentity.TerraformType(ctx, tfeventmesh.QueueIdentity.Schema()).Equal(tfaem.AEMQueueIdentity.TerraformType(ctx, tfaem.AEMQueueIdentity.Schema())) {
		t.Fatal("two identities share one type")
	}
}

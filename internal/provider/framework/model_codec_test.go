package framework_test

import (
	"context"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// schemaOf returns the resource's schema.
func schemaOf(t testing.TB, r resource.Resource) tfsdk.State {
	t.Helper()
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return tfsdk.State{Schema: resp.Schema}
}

// objectValues returns an object of the state's schema: a null, an unknown and a known value
// per attribute in turn, so that each case of decoding shows up across the attributes.
func objectValues(t testing.TB, st tfsdk.State, shift int) tftypes.Value {
	t.Helper()
	ot, ok := st.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		t.Fatal("the schema is not an object")
	}
	names := make([]string, 0, len(ot.AttributeTypes))
	for name := range ot.AttributeTypes {
		names = append(names, name)
	}
	// A fixed order, so that the case an attribute gets depends on its name, not on map order.
	slices.Sort(names)
	vals := map[string]tftypes.Value{}
	for i, name := range names {
		at := ot.AttributeTypes[name]
		switch (i + shift) % 3 {
		case 0:
			vals[name] = tftypes.NewValue(at, nil)
		case 1:
			vals[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		default:
			switch {
			case at.Is(tftypes.String):
				vals[name] = tftypes.NewValue(at, "acme/crm/prod/"+name)
			case at.Is(tftypes.Number):
				vals[name] = tftypes.NewValue(at, big.NewFloat(float64(len(name))))
			case at.Is(tftypes.Bool):
				vals[name] = tftypes.NewValue(at, true)
			case at.Is(tftypes.List{}):
				vals[name] = tftypes.NewValue(at, []tftypes.Value{})
			case at.Is(tftypes.Object{}):
				attrs := map[string]tftypes.Value{}
				obj, _ := at.(tftypes.Object)
				for k, a := range obj.AttributeTypes {
					attrs[k] = tftypes.NewValue(a, nil)
				}
				vals[name] = tftypes.NewValue(at, attrs)
			default:
				t.Fatalf("attribute %s: no test value for %s", name, at)
			}
		}
	}
	return tftypes.NewValue(ot, vals)
}

// checkCodec asserts that the layout reads and writes model M exactly as the framework does.
func checkCodec[M any](t *testing.T, r resource.Resource) {
	t.Helper()
	checkCodecState[M](t, schemaOf(t, r))
}

// checkCodecState asserts it for the schema of st.
func checkCodecState[M any](t *testing.T, st tfsdk.State) {
	t.Helper()
	ctx := context.Background()
	for shift := range 3 {
		st.Raw = objectValues(t, st, shift)
		var mine, theirs M
		if d := framework.GetState(ctx, st, &mine); d.HasError() {
			t.Fatalf("shift %d: getState: %v", shift, d)
		}
		if d := st.Get(ctx, &theirs); d.HasError() {
			t.Fatalf("shift %d: State.Get: %v", shift, d)
		}
		if !reflect.DeepEqual(mine, theirs) {
			t.Fatalf("shift %d: decoded\n%+v\nthe framework decodes\n%+v", shift, mine, theirs)
		}
		out := tfsdk.State{Schema: st.Schema}
		if d := framework.SetState(ctx, &out, &mine); d.HasError() {
			t.Fatalf("shift %d: setState: %v", shift, d)
		}
		want := tfsdk.State{Schema: st.Schema}
		if d := want.Set(ctx, &theirs); d.HasError() {
			t.Fatalf("shift %d: State.Set: %v", shift, d)
		}
		if !out.Raw.Equal(want.Raw) || !out.Raw.Equal(st.Raw) {
			t.Fatalf("shift %d: encoded\n%s\nthe framework encodes\n%s", shift, out.Raw, want.Raw)
		}
	}
}

func TestModelCodec_matchesFramework(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		check func(t *testing.T)
	}{
		{"queue", func(t *testing.T) { checkCodec[tfeventmesh.QueueModel](t, tfeventmesh.NewQueueResource()) }},
		{"dead_message_queue", func(t *testing.T) {
			checkCodec[tfeventmesh.DeadMessageQueueModel](t, tfeventmesh.NewDeadMessageQueueResource())
		}},
		{"queue_subscription", func(t *testing.T) {
			checkCodec[tfeventmesh.QueueSubscriptionModel](t, tfeventmesh.NewQueueSubscriptionResource())
		}},
		{"queue_data_source", func(t *testing.T) {
			checkCodecState[tfeventmesh.QueueInfoModel](t, dataSourceState(tfeventmesh.NewQueueDataSource()))
		}},
		{"aem_queue_subscription", func(t *testing.T) {
			checkCodec[tfaem.AEMQueueSubscriptionModel](t, tfaem.NewAEMQueueSubscriptionResource())
		}},
		{"aem_queue_data_source", func(t *testing.T) {
			checkCodecState[tfaem.AEMQueueInfoModel](t, dataSourceState(tfaem.NewAEMQueueDataSource()))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.check(t)
		})
	}
}

// dataSourceState is an empty state of the data source's schema.
func dataSourceState(d datasource.DataSource) tfsdk.State {
	var resp datasource.SchemaResponse
	d.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	return tfsdk.State{Schema: resp.Schema}
}

type (
	missingFieldModel struct {
		ID types.String `tfsdk:"id"`
	}
	untaggedFieldModel struct {
		ID           types.String `tfsdk:"id"`
		QueueName    types.String
		TopicPattern types.String `tfsdk:"topic_pattern"`
	}
	foreignFieldModel struct {
		ID           types.String `tfsdk:"id"`
		QueueName    types.String `tfsdk:"queue_name"`
		TopicPattern types.String `tfsdk:"topic_pattern"`
		Extra        types.String `tfsdk:"extra"`
	}
	plainFieldModel struct {
		ID           types.String `tfsdk:"id"`
		QueueName    string       `tfsdk:"queue_name"`
		TopicPattern types.String `tfsdk:"topic_pattern"`
	}
	twiceModel struct {
		tfeventmesh.QueueSubscriptionModel
		QueueName types.String `tfsdk:"queue_name"`
	}
	wrongTypeModel struct {
		ID           types.String `tfsdk:"id"`
		QueueName    types.Int64  `tfsdk:"queue_name"`
		TopicPattern types.String `tfsdk:"topic_pattern"`
	}
)

// A model that does not match its schema is an error that names the field, never a panic.
func TestModelCodec_mismatchedModels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := schemaOf(t, tfeventmesh.NewQueueSubscriptionResource())
	st.Raw = objectValues(t, st, 2)
	check := func(name string, d diag.Diagnostics, want string) {
		t.Helper()
		if !d.HasError() {
			t.Errorf("%s: no error, want one containing %q", name, want)
			return
		}
		if detail := d.Errors()[0].Detail(); !strings.Contains(detail, want) {
			t.Errorf("%s: want an error containing %q, got %q", name, want, detail)
		}
	}
	for _, tc := range []struct {
		name string
		get  func() diag.Diagnostics
		want string
	}{
		{"missing field", func() diag.Diagnostics { var m missingFieldModel; return framework.GetState(ctx, st, &m) }, `no field for attribute`},
		{"untagged field", func() diag.Diagnostics { var m untaggedFieldModel; return framework.GetState(ctx, st, &m) }, "QueueName has no tfsdk tag"},
		{"foreign field", func() diag.Diagnostics { var m foreignFieldModel; return framework.GetState(ctx, st, &m) }, `attribute "extra", which the schema lacks`},
		// A field of another Go type makes the framework read the model, and its error names the attribute.
		{"plain field", func() diag.Diagnostics { var m plainFieldModel; return framework.GetState(ctx, st, &m) }, "Path: queue_name"},
		{"attribute named twice through an embedded struct", func() diag.Diagnostics { var m twiceModel; return framework.GetState(ctx, st, &m) },
			`names attribute "queue_name" a second time`},
		{"wrong type", func() diag.Diagnostics { var m wrongTypeModel; return framework.GetState(ctx, st, &m) }, `attribute "queue_name"`},
	} {
		check(tc.name, tc.get(), tc.want)
	}

	var ok tfeventmesh.QueueSubscriptionModel
	d := framework.GetState(ctx, tfsdk.State{Schema: st.Schema, Raw: tftypes.NewValue(st.Raw.Type(), nil)}, &ok)
	check("null object", d, "null or unknown")
	other := schemaOf(t, tfeventmesh.NewQueueResource())
	d = framework.GetState(ctx, tfsdk.State{Schema: st.Schema, Raw: objectValues(t, other, 0)}, &ok)
	check("object of another schema", d, "not the schema's")
}

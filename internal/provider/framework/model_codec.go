package framework

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Every resource and data source reads and writes its model through getConfig, getPlan,
// getState, setState and setPlan, never through Config.Get, Plan.Get, State.Get, State.Set or
// Plan.Set directly. A flat model goes through a layout computed once per model type: the
// framework's Get and Set walk the model's struct tags with reflection on every call, which made
// up about a sixth of the provider's CPU time in a refresh of 250 queues, and about half of the
// allocations of one plan-time validation of a queue (DESIGN.md has the numbers).
//
// A flat model is a struct whose fields are attr.Value types (types.String, types.Int64, ...)
// tagged `tfsdk:"<attribute>"`, one field per attribute of the schema, as the framework expects;
// an embedded struct without a tag (such as queueSettingsModel) contributes its fields as if they
// were the model's own, as the framework does since v1.11. A model with a field of another Go
// type (a slice of nested models, a pointer to one) is read and written by the framework's Get
// and Set through the same functions, so adopting them is a one-line change at each call.

// modelLayout maps the fields of one model type onto the attributes of its schema.
type modelLayout struct {
	objectType tftypes.Object
	fields     []layoutField
	// nested is set when the model has a field that is not an attr.Value: the framework's Get and
	// Set read and write it.
	nested bool
}

type layoutField struct {
	attribute string
	index     []int // the field's index sequence, through embedded structs
	attrType  attr.Type
	goType    reflect.Type
}

// layouts caches the layout of each model type.
var layouts = struct {
	sync.RWMutex
	byType map[reflect.Type]*modelLayout
}{byType: map[reflect.Type]*modelLayout{}}

// schemaTyped is what the Schema field of tfsdk.Config, Plan and State offers.
type schemaTyped interface {
	Type() attr.Type
}

// layoutFor returns the layout of model type t under schema s, computing it on first use.
func layoutFor(ctx context.Context, t reflect.Type, s schemaTyped) (*modelLayout, error) {
	layouts.RLock()
	l, ok := layouts.byType[t]
	layouts.RUnlock()
	if ok {
		return l, nil
	}
	l, err := newLayout(ctx, t, s)
	if err != nil {
		return nil, err
	}
	layouts.Lock()
	defer layouts.Unlock()
	if cached, ok := layouts.byType[t]; ok {
		return cached, nil
	}
	layouts.byType[t] = l
	return l, nil
}

func newLayout(ctx context.Context, t reflect.Type, s schemaTyped) (*modelLayout, error) {
	if s == nil {
		return nil, fmt.Errorf("no schema for model %s", t)
	}
	schemaType := s.Type()
	typed, ok := schemaType.(attr.TypeWithAttributeTypes)
	objectType, isObject := schemaType.TerraformType(ctx).(tftypes.Object)
	if !ok || !isObject {
		return nil, fmt.Errorf("the schema of model %s is not an object", t)
	}
	attrTypes := typed.AttributeTypes()
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("model %s is not a struct", t)
	}
	l := &modelLayout{objectType: objectType}
	seen := map[string]bool{}
	if err := l.addFields(t, nil, attrTypes, seen); err != nil {
		return nil, err
	}
	if l.nested {
		return l, nil
	}
	for name := range attrTypes {
		if !seen[name] {
			return nil, fmt.Errorf("model %s has no field for attribute %q", t, name)
		}
	}
	return l, nil
}

// addFields adds the fields of struct type t, found at index sequence at in the model, and those
// of its embedded structs.
func (l *modelLayout) addFields(t reflect.Type, at []int, attrTypes map[string]attr.Type, seen map[string]bool) error {
	attrValue := reflect.TypeFor[attr.Value]()
	for i := range t.NumField() {
		f := t.Field(i)
		index := append(append([]int(nil), at...), i)
		name, tagged := f.Tag.Lookup("tfsdk")
		if f.Anonymous && !tagged && f.Type.Kind() == reflect.Struct {
			if err := l.addFields(f.Type, index, attrTypes, seen); err != nil {
				return err
			}
			continue
		}
		if !tagged || name == "-" {
			return fmt.Errorf("model %s: field %s has no tfsdk tag", t, f.Name)
		}
		at, ok := attrTypes[name]
		if !ok {
			return fmt.Errorf("model %s: field %s names attribute %q, which the schema lacks", t, f.Name, name)
		}
		if seen[name] {
			return fmt.Errorf("model %s: field %s names attribute %q a second time", t, f.Name, name)
		}
		seen[name] = true
		if !f.Type.Implements(attrValue) {
			l.nested = true
			continue
		}
		l.fields = append(l.fields, layoutField{attribute: name, index: index, attrType: at, goType: f.Type})
	}
	return nil
}

// decodeModel reads raw, an object of the schema, into *m.
func decodeModel[M any](ctx context.Context, s schemaTyped, raw tftypes.Value, m *M) diag.Diagnostics {
	var diags diag.Diagnostics
	l, err := layoutFor(ctx, reflect.TypeFor[M](), s)
	if err == nil {
		err = l.decode(ctx, raw, reflect.ValueOf(m).Elem())
	}
	if err != nil {
		diags.AddError("Cannot Read Resource Data",
			"The provider could not read the resource's data into its model: "+err.Error()+". This is a bug in the provider. Report it with this message to the provider's maintainers.")
	}
	return diags
}

func (l *modelLayout) decode(ctx context.Context, raw tftypes.Value, dst reflect.Value) error {
	if !raw.Type().Equal(l.objectType) {
		return fmt.Errorf("the value is a %s, not the schema's %s", raw.Type(), l.objectType)
	}
	if !raw.IsKnown() || raw.IsNull() {
		return fmt.Errorf("the value is null or unknown")
	}
	var values map[string]tftypes.Value
	if err := raw.As(&values); err != nil {
		return err
	}
	for _, f := range l.fields {
		v, err := f.attrType.ValueFromTerraform(ctx, values[f.attribute])
		if err != nil {
			return fmt.Errorf("attribute %q: %w", f.attribute, err)
		}
		rv := reflect.ValueOf(v)
		if !rv.Type().AssignableTo(f.goType) {
			return fmt.Errorf("attribute %q: a %s does not fit the model's %s", f.attribute, rv.Type(), f.goType)
		}
		dst.FieldByIndex(f.index).Set(rv)
	}
	return nil
}

// encodeModel returns *m as an object of the schema.
func encodeModel[M any](ctx context.Context, s schemaTyped, m *M) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	l, err := layoutFor(ctx, reflect.TypeFor[M](), s)
	var v tftypes.Value
	if err == nil {
		v, err = l.encode(ctx, reflect.ValueOf(m).Elem())
	}
	if err != nil {
		diags.AddError("Cannot Write Resource Data",
			"The provider could not write the resource's model: "+err.Error()+". This is a bug in the provider. Report it with this message to the provider's maintainers.")
	}
	return v, diags
}

func (l *modelLayout) encode(ctx context.Context, src reflect.Value) (tftypes.Value, error) {
	values := make(map[string]tftypes.Value, len(l.fields))
	for _, f := range l.fields {
		av, _ := src.FieldByIndex(f.index).Interface().(attr.Value)
		tv, err := av.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("attribute %q: %w", f.attribute, err)
		}
		values[f.attribute] = tv
	}
	if err := tftypes.ValidateValue(l.objectType, values); err != nil {
		return tftypes.Value{}, err
	}
	return tftypes.NewValue(l.objectType, values), nil
}

// getter and setter are what tfsdk.Config, Plan and State offer to the framework's reflection.
type getter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

type setter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// get reads raw into *m through the layout, or through the framework for a nested model.
func get[M any](ctx context.Context, s schemaTyped, raw tftypes.Value, g getter, m *M) diag.Diagnostics {
	if l, err := layoutFor(ctx, reflect.TypeFor[M](), s); err == nil && l.nested {
		return g.Get(ctx, m)
	}
	return decodeModel(ctx, s, raw, m)
}

// Set writes *m into *raw through the layout, or through the framework for a nested model.
func Set[M any](ctx context.Context, s schemaTyped, raw *tftypes.Value, st setter, m *M) diag.Diagnostics {
	if l, err := layoutFor(ctx, reflect.TypeFor[M](), s); err == nil && l.nested {
		return st.Set(ctx, m)
	}
	v, diags := encodeModel(ctx, s, m)
	if !diags.HasError() {
		*raw = v
	}
	return diags
}

// GetConfig, getPlan and getState read the configuration, plan or prior state into *m.
func GetConfig[M any](ctx context.Context, c tfsdk.Config, m *M) diag.Diagnostics {
	return get(ctx, c.Schema, c.Raw, c, m)
}

func GetPlan[M any](ctx context.Context, p tfsdk.Plan, m *M) diag.Diagnostics {
	return get(ctx, p.Schema, p.Raw, p, m)
}

func GetState[M any](ctx context.Context, s tfsdk.State, m *M) diag.Diagnostics {
	return get(ctx, s.Schema, s.Raw, s, m)
}

// SetState writes *m as the new state.
func SetState[M any](ctx context.Context, s *tfsdk.State, m *M) diag.Diagnostics {
	return Set(ctx, s.Schema, &s.Raw, s, m)
}

// SetPlan writes *m as the planned new state.
func SetPlan[M any](ctx context.Context, p *tfsdk.Plan, m *M) diag.Diagnostics {
	return Set(ctx, p.Schema, &p.Raw, p, m)
}

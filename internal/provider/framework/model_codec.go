package framework

import (
	"context"
	"fmt"
	"math/big"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	// kind is set for a types.String, types.Bool or types.Int64 field of the schema's own type of
	// that name, which decode and encode convert directly; other fields go through their attr.Type
	// and attr.Value.
	kind primitiveKind
}

// primitiveKind is the model type of a field that the codec converts without the framework's
// attr.Type and attr.Value methods: those box each value in an interface when reading, and check
// each value twice (tftypes.ValidateValue, then tftypes.NewValue) when writing, which made up
// most of the allocations of writing a queue's state. The conversions are the framework's
// (basetypes' ValueFromTerraform and ToTerraformValue of the type); TestModelCodec_matchesFramework
// compares both on every model.
type primitiveKind uint8

const (
	kindOther primitiveKind = iota
	kindString
	kindBool
	kindInt64
)

// primitiveKindOf returns the kind of a field of Go type goType and schema type at.
func primitiveKindOf(goType reflect.Type, at attr.Type) primitiveKind {
	switch {
	case goType == reflect.TypeFor[types.String]() && at.Equal(types.StringType):
		return kindString
	case goType == reflect.TypeFor[types.Bool]() && at.Equal(types.BoolType):
		return kindBool
	case goType == reflect.TypeFor[types.Int64]() && at.Equal(types.Int64Type):
		return kindInt64
	}
	return kindOther
}

// The null and unknown values of the primitive types, made once: a tftypes.Value is immutable.
var (
	nullString, unknownString = tftypes.NewValue(tftypes.String, nil), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	nullBool, unknownBool     = tftypes.NewValue(tftypes.Bool, nil), tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)
	nullNumber, unknownNumber = tftypes.NewValue(tftypes.Number, nil), tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
)

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
		l.fields = append(l.fields, layoutField{attribute: name, index: index, attrType: at, goType: f.Type, kind: primitiveKindOf(f.Type, at)})
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
		if f.kind != kindOther {
			if err := decodePrimitive(f.kind, values[f.attribute], dst.FieldByIndex(f.index).Addr().Interface()); err != nil {
				return fmt.Errorf("attribute %q: %w", f.attribute, err)
			}
			continue
		}
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

// decodePrimitive reads v into field, a *types.String, *types.Bool or *types.Int64 (kind), as
// basetypes' StringType, BoolType and Int64Type read it.
func decodePrimitive(kind primitiveKind, v tftypes.Value, field any) error {
	switch p := field.(type) {
	case *types.String:
		switch {
		case !v.IsKnown():
			*p = types.StringUnknown()
		case v.IsNull():
			*p = types.StringNull()
		default:
			var s string
			if err := v.As(&s); err != nil {
				return err
			}
			*p = types.StringValue(s)
		}
	case *types.Bool:
		switch {
		case !v.IsKnown():
			*p = types.BoolUnknown()
		case v.IsNull():
			*p = types.BoolNull()
		default:
			var b bool
			if err := v.As(&b); err != nil {
				return err
			}
			*p = types.BoolValue(b)
		}
	case *types.Int64:
		switch {
		case !v.IsKnown():
			*p = types.Int64Unknown()
		case v.IsNull():
			*p = types.Int64Null()
		default:
			var f *big.Float
			if err := v.As(&f); err != nil {
				return err
			}
			if !f.IsInt() {
				return fmt.Errorf("Value %s is not an integer.", f) //nolint:staticcheck // the framework's text
			}
			i, accuracy := f.Int64()
			if accuracy != 0 {
				return fmt.Errorf("Value %s cannot be represented as a 64-bit integer.", f) //nolint:staticcheck // the framework's text
			}
			*p = types.Int64Value(i)
		}
	default:
		return fmt.Errorf("a %T is not a field of kind %d", field, kind)
	}
	return nil
}

// encodePrimitive returns the value of field, a *types.String, *types.Bool or *types.Int64, as
// basetypes' ToTerraformValue of the type returns it, checked once.
func encodePrimitive(field any) tftypes.Value {
	switch p := field.(type) {
	case *types.String:
		switch {
		case p.IsUnknown():
			return unknownString
		case p.IsNull():
			return nullString
		}
		return tftypes.NewValue(tftypes.String, p.ValueString())
	case *types.Bool:
		switch {
		case p.IsUnknown():
			return unknownBool
		case p.IsNull():
			return nullBool
		}
		return tftypes.NewValue(tftypes.Bool, p.ValueBool())
	case *types.Int64:
		switch {
		case p.IsUnknown():
			return unknownNumber
		case p.IsNull():
			return nullNumber
		}
		return tftypes.NewValue(tftypes.Number, p.ValueInt64())
	}
	panic(fmt.Sprintf("encodePrimitive: a %T is not a primitive field", field))
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
		if f.kind != kindOther {
			values[f.attribute] = encodePrimitive(src.FieldByIndex(f.index).Addr().Interface())
			continue
		}
		av, _ := src.FieldByIndex(f.index).Interface().(attr.Value)
		tv, err := av.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("attribute %q: %w", f.attribute, err)
		}
		values[f.attribute] = tv
	}
	return newObject(l.objectType, values)
}

// newObject is tftypes.NewValue of an object, with the error that the value does not fit the type
// returned instead of the panic of NewValue. tftypes.ValidateValue before NewValue would check every
// attribute twice, as both build the value; this checks once.
func newObject(t tftypes.Object, values map[string]tftypes.Value) (v tftypes.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return tftypes.NewValue(t, values), nil
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

package framework

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ListErrorDetail explains a failed GET /queues made while doing what.
func ListErrorDetail(doing string, err error) string {
	return fmt.Sprintf("The Event Mesh management API failed listing queues (GET /queues) while %s: %s. Check the provider's connection and "+
		"the service's status, then run the command again; TF_LOG=debug shows each request.", doing, Clause(err))
}

// Clause returns the text of err without the final period, to be followed by ". ".
func Clause(err error) string {
	return strings.TrimRight(err.Error(), ". ")
}

// Deref returns *p, or the zero value for nil.
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func Int64Ptr(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	x := v.ValueInt64()
	return &x
}

func StringPtr(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	x := v.ValueString()
	return &x
}

func BoolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	x := v.ValueBool()
	return &x
}

func Int64OrNull(p *int64) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*p)
}

func NonEmptyStringOrNull(p *string) types.String {
	if p == nil || *p == "" {
		return types.StringNull()
	}
	return types.StringValue(*p)
}

func StringOr(p *string, fallback string) types.String {
	if p == nil || *p == "" {
		return types.StringValue(fallback)
	}
	return types.StringValue(*p)
}

func QuoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// QuoteAll quotes each name and joins them with " or ".
func QuoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " or ")
}

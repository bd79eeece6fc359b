package framework

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
)

// What the list resources share about Terraform's `limit` (terraform-1.14.md): a list block
// returns at most `limit` results, 100 unless it sets `limit`. A list resource stops at the
// limit as Terraform asks, but never silently: the last result it returns carries a warning
// that says how many exist and how to raise `limit`, so that `terraform query
// -generate-config-out` never generates part of a landscape without a word.

// defaultListLimit is Terraform's `limit` of a list block that sets none.
const defaultListLimit = 100

// LimitedResults pushes results in order until push stops or limit results (limit > 0) are
// pushed; total is how many the list block's filters select. When the results stop at the limit
// and total is larger, the last result pushed carries the warning. what names the objects, in
// the plural, for example "queues".
type LimitedResults struct {
	Limit, Total int64
	What         string
	pushed       int64
}

// full reports whether the limit is reached: nothing more may be pushed.
func (l *LimitedResults) full() bool { return l.Limit > 0 && l.pushed >= l.Limit }

// push pushes r (a result that counts against the limit) and reports whether to go on.
func (l *LimitedResults) Push(push func(list.ListResult) bool, r list.ListResult) bool {
	if l.full() {
		return false
	}
	l.pushed++
	if l.full() && l.Total > l.Limit {
		addLimitWarning(&r.Diagnostics, l.What, l.Limit, l.Total)
	}
	return push(r) && !l.full()
}

// addLimitWarning is the warning of a list block cut at limit of total results.
func addLimitWarning(diags *diag.Diagnostics, what string, limit, total int64) {
	def := ""
	if limit == defaultListLimit {
		def = " (Terraform's default when the block sets no `limit`)"
	}
	diags.AddWarning("List Results Truncated",
		fmt.Sprintf("This list block selects %d %s but returns only %d, its `limit`%s. "+
			"terraform query -generate-config-out generates configuration for the %d returned only, and the other %d stay unmanaged. "+
			"Set `limit = %d` (or more) in the list block, or narrow its filters, then run the query again.",
			total, what, limit, def, limit, total-limit, total))
}

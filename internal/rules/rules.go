// Package rules holds the plan-time rules and the retry arithmetic for SAP Event Mesh
// queues, Cloud Integration AMQP and JMS senders and NetWeaver JMS destinations.
//
// The package is pure Go: the provider's validators, functions and data sources turn
// its findings into diagnostics.
package rules

import "fmt"

// Severity tells whether a finding stops the plan or only informs.
type Severity int

const (
	// SeverityError marks a setting that must not be applied.
	SeverityError Severity = iota
	// SeverityWarning marks a setting that works but is likely to hurt.
	SeverityWarning
	// SeverityInfo marks a fact worth knowing that may be intended; only the
	// landscape audit reports it, the resources never do.
	SeverityInfo
)

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	}
	return "error"
}

// ParseSeverity returns the severity named "error", "warning" or "info".
func ParseSeverity(name string) (Severity, bool) {
	switch name {
	case "error":
		return SeverityError, true
	case "warning":
		return SeverityWarning, true
	case "info":
		return SeverityInfo, true
	}
	return SeverityError, false
}

// Finding is one result of a rule.
type Finding struct {
	Rule      string   // Stable ID, e.g. "queue.redelivery_unlimited".
	Severity  Severity // Error or warning.
	Attribute string   // Top-level Terraform attribute the finding is about ("" = whole resource).
	Summary   string   // Title Case, short, e.g. "Unlimited Redelivery".
	Detail    string   // Full sentences: what the value does, ending with what to set instead.
}

// Value is a plan-time value: known, null (not set) or unknown.
//
// Rules skip unknown values and never guess them. A Value with both Known and Null
// set counts as null.
type Value[T comparable] struct {
	V     T
	Known bool
	Null  bool
}

// Known returns a known value.
func Known[T comparable](v T) Value[T] { return Value[T]{V: v, Known: true} }

// Null returns a null (not set) value.
func Null[T comparable]() Value[T] { return Value[T]{Null: true} }

// Unknown returns a value that is not known until apply.
func Unknown[T comparable]() Value[T] { return Value[T]{} }

// IsUnknown reports whether the value is neither known nor null.
func (v Value[T]) IsUnknown() bool { return !v.Known && !v.Null }

// get returns the value and true when it is known and not null.
func (v Value[T]) get() (T, bool) { return v.V, v.Known && !v.Null }

// HasErrors reports whether any finding has error severity.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Limits of SAP Event Mesh and the Cloud Integration AMQP sender adapter.
const (
	MaxRedeliveryCountLimit = 255        // Event Mesh queue maxRedeliveryCount (0 means unlimited).
	MaxRetriesLimit         = 99         // AMQP sender Max. Number of Retries.
	MaxTTLLimit             = 604800     // Event Mesh queue maxTtl in seconds (7 days).
	DefaultDMQTTL           = 604800     // Time to live the provider gives a dead message queue, in seconds.
	MaxPrefetchLimit        = 100        // AMQP sender Max. Number of Prefetched Messages.
	MaxConcurrentLimit      = 99         // AMQP sender Number of Concurrent Processes.
	MaxQueueSizeInBytes     = 1572864000 // Event Mesh queue maxQueueSizeInBytes (1.5 GB).
	MaxMessageSizeInBytes   = 1000000    // Event Mesh queue maxMessageSizeInBytes: default and maximum 1 MB (SAP-docs btp-integration-suite, ISuite_Event_Mesh/create-a-queue-95357fa.md).
)

// report collects findings in the order the rules run.
type report struct{ fs []Finding }

func (r *report) errorf(rule, attribute, summary, format string, args ...any) {
	r.add(SeverityError, rule, attribute, summary, fmt.Sprintf(format, args...))
}

func (r *report) warnf(rule, attribute, summary, format string, args ...any) {
	r.add(SeverityWarning, rule, attribute, summary, fmt.Sprintf(format, args...))
}

// infof adds information; it concerns the landscape, never one attribute.
func (r *report) infof(rule, summary, format string, args ...any) {
	r.add(SeverityInfo, rule, "", summary, fmt.Sprintf(format, args...))
}

func (r *report) add(sev Severity, rule, attribute, summary, detail string) {
	r.fs = append(r.fs, Finding{Rule: rule, Severity: sev, Attribute: attribute, Summary: summary, Detail: detail})
}

// intRange describes the accepted range of an integer attribute; hi 0 means no upper bound.
type intRange struct {
	rule, attribute, summary string
	lo, hi, example          int64
	unit, accepts            string // unit of a bounded range, e.g. " seconds"; who accepts, e.g. "Event Mesh"
}

// check reports an error when v is known and outside the range.
func (c intRange) check(r *report, v Value[int64]) {
	n, ok := v.get()
	if !ok || (n >= c.lo && (c.hi == 0 || n <= c.hi)) {
		return
	}
	if c.hi == 0 {
		r.errorf(c.rule, c.attribute, c.summary,
			"`%s = %d` would be rejected: %s accepts only values of %d or more. Set `%s` to at least %d, for example %d.",
			c.attribute, n, c.accepts, c.lo, c.attribute, c.lo, c.example)
		return
	}
	r.errorf(c.rule, c.attribute, c.summary,
		"`%s = %d` would be rejected: %s accepts %d to %d%s. Set `%s` to a value from %d to %d, for example %d.",
		c.attribute, n, c.accepts, c.lo, c.hi, c.unit, c.attribute, c.lo, c.hi, c.example)
}

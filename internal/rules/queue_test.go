package rules

import (
	"strings"
	"testing"
)

// goodQueue returns a productive queue that passes every rule.
func goodQueue() Queue {
	return Queue{
		Name:                           Known("acme/crm/prod/orders"),
		AccessType:                     Known("NON_EXCLUSIVE"),
		DeadMessageQueue:               Known("acme/crm/prod/orders/dmq"),
		MaxRedeliveryCount:             Known[int64](5),
		MaxTTL:                         Known[int64](86400),
		RespectTTL:                     Known(true),
		MaxQueueSizeInBytes:            Known[int64](1572864000),
		MaxMessageSizeInBytes:          Known[int64](1000000),
		MaxQueueMessageCount:           Known[int64](100000),
		MaxDeliveredUnackedMsgsPerFlow: Known[int64](10000),
	}
}

// goodDMQ returns a dead message queue that passes every rule.
func goodDMQ() Queue {
	return Queue{
		Name:               Known("acme/crm/prod/orders/dmq"),
		AccessType:         Known("NON_EXCLUSIVE"),
		DeadMessageQueue:   Null[string](),
		MaxRedeliveryCount: Null[int64](),
		MaxTTL:             Known[int64](DefaultDMQTTL),
		RespectTTL:         Known(true),
		IsDeadMessageQueue: true,
	}
}

func allUnknown(dmq bool) Queue {
	return Queue{IsDeadMessageQueue: dmq,
		Name: Unknown[string](), AccessType: Unknown[string](), DeadMessageQueue: Unknown[string](),
		MaxRedeliveryCount: Unknown[int64](), MaxTTL: Unknown[int64](), RespectTTL: Unknown[bool](),
		MaxQueueSizeInBytes: Unknown[int64](), MaxMessageSizeInBytes: Unknown[int64](),
		MaxQueueMessageCount: Unknown[int64](), MaxDeliveredUnackedMsgsPerFlow: Unknown[int64](),
	}
}

func allNull(dmq bool) Queue {
	return Queue{IsDeadMessageQueue: dmq,
		Name: Null[string](), AccessType: Null[string](), DeadMessageQueue: Null[string](),
		MaxRedeliveryCount: Null[int64](), MaxTTL: Null[int64](), RespectTTL: Null[bool](),
		MaxQueueSizeInBytes: Null[int64](), MaxMessageSizeInBytes: Null[int64](),
		MaxQueueMessageCount: Null[int64](), MaxDeliveredUnackedMsgsPerFlow: Null[int64](),
	}
}

func queueWith(base Queue, change func(*Queue)) Queue {
	change(&base)
	return base
}

func TestCheckQueue(t *testing.T) {
	t.Parallel()
	q, d := goodQueue(), goodDMQ()
	tests := []ruleCase[Queue]{
		{"good queue", q, nil},
		{"good dead message queue", d, nil},
		{"all unknown", allUnknown(false), nil},
		{"all unknown dead message queue", allUnknown(true), nil},
		{"all null", allNull(false), []string{"queue.redelivery_unlimited", "queue.dmq_missing"}},
		{"all null dead message queue", allNull(true), []string{"dmq.max_ttl_required"}},

		// Redelivery.
		{"redelivery 0", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](0) }), []string{"queue.redelivery_unlimited"}},
		{"redelivery null", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Null[int64]() }), []string{"queue.redelivery_unlimited"}},
		{"redelivery unknown", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Unknown[int64]() }), nil},
		{"redelivery 0 allowed", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](0); q.AllowUnlimitedRedelivery = true }), []string{"queue.redelivery_unlimited_allowed"}},
		{"redelivery null allowed", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Null[int64](); q.AllowUnlimitedRedelivery = true }), []string{"queue.redelivery_unlimited_allowed"}},
		{"redelivery 5 allowed", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](5); q.AllowUnlimitedRedelivery = true }), []string{"queue.allow_unlimited_unused"}},
		{"redelivery 256 allowed", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](256); q.AllowUnlimitedRedelivery = true }), []string{"queue.allow_unlimited_unused", "queue.redelivery_range"}},
		{"redelivery 1", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](1) }), nil},
		{"redelivery 255", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](255) }), nil},
		{"redelivery 256", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](256) }), []string{"queue.redelivery_range"}},
		{"redelivery -1", queueWith(q, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](-1) }), []string{"queue.redelivery_range"}},
		{"dead message queue redelivery 0", queueWith(d, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](0) }), nil},
		{"dead message queue redelivery 300", queueWith(d, func(q *Queue) { q.MaxRedeliveryCount = Known[int64](300) }), []string{"queue.redelivery_range"}},

		// Dead message queue outside the namespace, adopted as it is.
		{"dmq outside namespace allowed", queueWith(q, func(q *Queue) { q.DeadMessageQueue, q.AllowDMQOutsideNamespace = Known("acme/erp/prod/dmq"), true }),
			[]string{"queue.dmq_namespace_allowed"}},
		{"dmq in namespace, outside allowed", queueWith(q, func(q *Queue) { q.AllowDMQOutsideNamespace = true }),
			[]string{"queue.allow_dmq_outside_namespace_unused"}},
		{"dmq unknown, outside allowed", queueWith(q, func(q *Queue) { q.DeadMessageQueue, q.AllowDMQOutsideNamespace = Unknown[string](), true }), nil},

		// Dead message queue.
		{"dmq is the queue", queueWith(q, func(q *Queue) { q.DeadMessageQueue = q.Name }), []string{"queue.dmq_self"}},
		{"dmq is the queue, allowed", queueWith(q, func(q *Queue) { q.DeadMessageQueue, q.AllowSelfAsDMQ = q.Name, true }), []string{"queue.dmq_self_allowed"}},
		{"dmq another queue, self allowed", queueWith(q, func(q *Queue) { q.AllowSelfAsDMQ = true }), []string{"queue.allow_self_as_dmq_unused"}},
		{"dmq is the queue, name unknown", queueWith(q, func(q *Queue) { q.Name = Unknown[string](); q.DeadMessageQueue = Known("acme/crm/prod/orders") }), nil},
		{"dmq in other namespace", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Known("acme/erp/prod/orders/dmq") }), []string{"queue.dmq_namespace"}},
		{"dmq without namespace", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Known("orders-dmq") }), []string{"queue.dmq_namespace"}},
		{"dmq is the namespace root", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Known("acme/crm/prod") }), nil},
		{"both without namespace", queueWith(q, func(q *Queue) { q.Name = Known("orders"); q.DeadMessageQueue = Known("orders-dmq") }), nil},
		{"dmq unknown", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Unknown[string]() }), nil},
		{"dmq empty", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Known("") }), []string{"queue.dmq_empty"}},
		{"dmq blank", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Known("  ") }), []string{"queue.dmq_empty"}},
		{"dmq null", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Null[string]() }), []string{"queue.dmq_missing"}},
		{"dmq null, name unknown", queueWith(q, func(q *Queue) { q.Name = Unknown[string](); q.DeadMessageQueue = Null[string]() }), []string{"queue.dmq_missing"}},
		{"dmq invalid name", queueWith(q, func(q *Queue) { q.DeadMessageQueue = Known("acme/crm/prod/orders dmq") }), []string{"queue.dmq_name_invalid"}},
		{"dead message queue without its own dmq", queueWith(d, func(q *Queue) { q.DeadMessageQueue = Known("") }), nil},

		// Time to live.
		{"respect ttl without max ttl", queueWith(q, func(q *Queue) { q.MaxTTL = Null[int64]() }), []string{"queue.respect_ttl_without_max_ttl"}},
		{"respect ttl, max ttl unknown", queueWith(q, func(q *Queue) { q.MaxTTL = Unknown[int64]() }), nil},
		{"max ttl without respect ttl", queueWith(q, func(q *Queue) { q.RespectTTL = Known(false) }), []string{"queue.max_ttl_without_respect_ttl"}},
		{"max ttl, respect ttl null", queueWith(q, func(q *Queue) { q.RespectTTL = Null[bool]() }), []string{"queue.max_ttl_without_respect_ttl"}},
		{"respect ttl without max ttl allowed", queueWith(q, func(q *Queue) { q.MaxTTL, q.AllowIneffectiveTTL = Null[int64](), true }),
			[]string{"queue.respect_ttl_without_max_ttl_allowed"}},
		{"max ttl without respect ttl allowed", queueWith(q, func(q *Queue) { q.RespectTTL, q.AllowIneffectiveTTL = Known(false), true }),
			[]string{"queue.max_ttl_without_respect_ttl_allowed"}},
		{"max ttl, respect ttl null, allowed", queueWith(q, func(q *Queue) { q.RespectTTL, q.AllowIneffectiveTTL = Null[bool](), true }),
			[]string{"queue.max_ttl_without_respect_ttl_allowed"}},
		{"ineffective ttl allowed, ttl in effect", queueWith(q, func(q *Queue) { q.AllowIneffectiveTTL = true }), []string{"queue.allow_ineffective_ttl_unused"}},
		{"ineffective ttl allowed, no ttl", queueWith(q, func(q *Queue) { q.RespectTTL, q.MaxTTL, q.AllowIneffectiveTTL = Known(false), Null[int64](), true }),
			[]string{"queue.allow_ineffective_ttl_unused"}},
		{"ineffective ttl allowed, max ttl unknown", queueWith(q, func(q *Queue) { q.MaxTTL, q.AllowIneffectiveTTL = Unknown[int64](), true }), nil},
		{"max ttl, respect ttl unknown", queueWith(q, func(q *Queue) { q.RespectTTL = Unknown[bool]() }), nil},
		{"neither ttl setting", queueWith(q, func(q *Queue) { q.RespectTTL = Known(false); q.MaxTTL = Null[int64]() }), nil},
		{"max ttl 0", queueWith(q, func(q *Queue) { q.MaxTTL = Known[int64](0) }), []string{"queue.max_ttl_range"}},
		{"max ttl 7 days", queueWith(q, func(q *Queue) { q.MaxTTL = Known[int64](MaxTTLLimit) }), nil},
		{"max ttl over 7 days", queueWith(q, func(q *Queue) { q.MaxTTL = Known[int64](MaxTTLLimit + 1) }), []string{"queue.max_ttl_range"}},
		{"dead message queue respect ttl false", queueWith(d, func(q *Queue) { q.RespectTTL = Known(false) }), []string{"dmq.respect_ttl_required"}},
		{"dead message queue respect ttl unknown", queueWith(d, func(q *Queue) { q.RespectTTL = Unknown[bool]() }), nil},
		{"dead message queue respect ttl null", queueWith(d, func(q *Queue) { q.RespectTTL = Null[bool]() }), []string{"queue.max_ttl_without_respect_ttl"}},
		{"dead message queue max ttl null", queueWith(d, func(q *Queue) { q.MaxTTL = Null[int64]() }), []string{"dmq.max_ttl_required"}},
		{"dead message queue max ttl unknown", queueWith(d, func(q *Queue) { q.MaxTTL = Unknown[int64]() }), nil},
		{"dead message queue without any ttl", queueWith(d, func(q *Queue) { q.RespectTTL = Known(false); q.MaxTTL = Null[int64]() }), []string{"dmq.respect_ttl_required", "dmq.max_ttl_required"}},
		{"dead message queue without any ttl, allowed", queueWith(d, func(q *Queue) { q.RespectTTL = Known(false); q.MaxTTL = Null[int64](); q.AllowNoTTL = true }), []string{"dmq.no_ttl_allowed"}},
		{"dead message queue with ttl, no ttl allowed", queueWith(d, func(q *Queue) { q.AllowNoTTL = true }), []string{"dmq.allow_no_ttl_unused"}},

		// Name, access type and sizes.
		{"invalid name", queueWith(q, func(q *Queue) {
			q.Name = Known("acme/crm/prod/orders?")
			q.DeadMessageQueue = Known("acme/crm/prod/dmq")
		}), []string{"queue.name_invalid"}},
		{"exclusive", queueWith(q, func(q *Queue) { q.AccessType = Known("EXCLUSIVE") }), nil},
		{"access type lower case", queueWith(q, func(q *Queue) { q.AccessType = Known("exclusive") }), []string{"queue.access_type_invalid"}},
		{"access type empty", queueWith(q, func(q *Queue) { q.AccessType = Known("") }), []string{"queue.access_type_invalid"}},
		{"queue size 0", queueWith(q, func(q *Queue) { q.MaxQueueSizeInBytes = Known[int64](0) }), []string{"queue.max_queue_size_range"}},
		{"queue size over 1.5 GB", queueWith(q, func(q *Queue) { q.MaxQueueSizeInBytes = Known[int64](1572864001) }), []string{"queue.max_queue_size_range"}},
		{"message size 0", queueWith(q, func(q *Queue) { q.MaxMessageSizeInBytes = Known[int64](0) }), []string{"queue.max_message_size_range"}},
		{"message size 1 MB", queueWith(q, func(q *Queue) { q.MaxMessageSizeInBytes = Known[int64](1000000) }), nil},
		{"message size over 1 MB", queueWith(q, func(q *Queue) { q.MaxMessageSizeInBytes = Known[int64](1000001) }), []string{"queue.max_message_size_range"}},
		{"message size 10 MB", queueWith(q, func(q *Queue) { q.MaxMessageSizeInBytes = Known[int64](10000000) }), []string{"queue.max_message_size_range"}},
		{"message count 0", queueWith(q, func(q *Queue) { q.MaxQueueMessageCount = Known[int64](0) }), []string{"queue.max_queue_message_count_range"}},
		{"message count large", queueWith(q, func(q *Queue) { q.MaxQueueMessageCount = Known[int64](1 << 40) }), nil},
		{"unacked 0", queueWith(q, func(q *Queue) { q.MaxDeliveredUnackedMsgsPerFlow = Known[int64](0) }), []string{"queue.max_unacked_per_flow_range"}},
		{"unacked -1", queueWith(q, func(q *Queue) { q.MaxDeliveredUnackedMsgsPerFlow = Known[int64](-1) }), []string{"queue.max_unacked_per_flow_range"}},
	}
	runRuleCases(t, tests, CheckQueue)
}

func TestCheckQueueDetails(t *testing.T) {
	t.Parallel()
	tests := []detailCase[Queue]{
		{"redelivery 0", queueWith(goodQueue(), func(q *Queue) { q.MaxRedeliveryCount = Known[int64](0) }),
			"queue.redelivery_unlimited", "max_redelivery_count", []string{"unlimited", "SAP Note 3469268", "for example 5"}},
		{"redelivery null", queueWith(goodQueue(), func(q *Queue) { q.MaxRedeliveryCount = Null[int64]() }),
			"queue.redelivery_unlimited", "max_redelivery_count", []string{"default of 0", "for ever"}},
		{"dmq self", queueWith(goodQueue(), func(q *Queue) { q.DeadMessageQueue = q.Name }),
			"queue.dmq_self", "dead_message_queue", []string{`"acme/crm/prod/orders"`, `"acme/crm/prod/orders/dmq"`}},
		{"dmq namespace", queueWith(goodQueue(), func(q *Queue) { q.DeadMessageQueue = Known("acme/erp/prod/dmq") }),
			"queue.dmq_namespace", "dead_message_queue", []string{`namespace "acme/crm/prod"`, `namespace "acme/erp/prod"`}},
		{"dmq missing", queueWith(goodQueue(), func(q *Queue) { q.DeadMessageQueue = Null[string]() }),
			"queue.dmq_missing", "dead_message_queue", []string{"blocks the messages behind it", "discards", `"acme/crm/prod/orders/dmq"`}},
		{"invalid name", queueWith(goodQueue(), func(q *Queue) { q.Name = Known("a b") }),
			"queue.name_invalid", "name", []string{"1 to 20 segments", "' '"}},
		{"dead message queue ttl", queueWith(goodDMQ(), func(q *Queue) { q.RespectTTL = Known(false) }),
			"dmq.respect_ttl_required", "respect_ttl", []string{"grows", "604800"}},
	}
	runDetailCases(t, tests, CheckQueue)
}

// queueAttributes maps the queue's attribute names to whether the value is unknown.
func queueAttributes(q Queue) map[string]bool {
	return map[string]bool{
		attrName: q.Name.IsUnknown(), attrAccessType: q.AccessType.IsUnknown(),
		attrDeadMessageQueue: q.DeadMessageQueue.IsUnknown(), attrMaxRedeliveryCount: q.MaxRedeliveryCount.IsUnknown(),
		attrMaxTTL: q.MaxTTL.IsUnknown(), attrRespectTTL: q.RespectTTL.IsUnknown(),
		attrMaxQueueSize: q.MaxQueueSizeInBytes.IsUnknown(), attrMaxMessageSize: q.MaxMessageSizeInBytes.IsUnknown(),
		attrMaxQueueMessages: q.MaxQueueMessageCount.IsUnknown(), attrMaxUnackedPerFlow: q.MaxDeliveredUnackedMsgsPerFlow.IsUnknown(),
	}
}

// fuzzValue picks known, null or unknown from the low two bits of state.
func fuzzValue[T comparable](v T, state uint32) Value[T] {
	switch state & 3 {
	case 0:
		return Null[T]()
	case 1:
		return Unknown[T]()
	}
	return Known(v)
}

func FuzzCheckQueue(f *testing.F) {
	f.Add("acme/crm/prod/orders", "NON_EXCLUSIVE", "acme/crm/prod/orders/dmq", int64(5), int64(86400), true,
		int64(1572864000), int64(1000000), int64(100000), int64(10000), uint32(0xFFFFF), false)
	f.Add("acme/crm/prod/orders", "EXCLUSIVE", "acme/crm/prod/orders", int64(0), int64(0), false,
		int64(0), int64(0), int64(0), int64(0), uint32(0xAAAAA), false)
	f.Add("acme/crm/prod/orders/dmq", "", "", int64(-1), int64(604801), false,
		int64(-1), int64(10000001), int64(-1), int64(0), uint32(0x12345), true)
	f.Fuzz(func(t *testing.T, name, accessType, dmq string, redeliveries, ttl int64, respect bool,
		queueSize, messageSize, messageCount, unacked int64, states uint32, isDMQ bool) {
		q := Queue{
			Name:                           fuzzValue(name, states),
			AccessType:                     fuzzValue(accessType, states>>2),
			DeadMessageQueue:               fuzzValue(dmq, states>>4),
			MaxRedeliveryCount:             fuzzValue(redeliveries, states>>6),
			MaxTTL:                         fuzzValue(ttl, states>>8),
			RespectTTL:                     fuzzValue(respect, states>>10),
			MaxQueueSizeInBytes:            fuzzValue(queueSize, states>>12),
			MaxMessageSizeInBytes:          fuzzValue(messageSize, states>>14),
			MaxQueueMessageCount:           fuzzValue(messageCount, states>>16),
			MaxDeliveredUnackedMsgsPerFlow: fuzzValue(unacked, states>>18),
			IsDeadMessageQueue:             isDMQ,
		}
		fs := checkFindings(t, "CheckQueue", "a queue attribute", func() []Finding { return CheckQueue(q) }, queueAttributes(q), name, accessType, dmq)
		for _, f := range fs {
			if f.Attribute == attrMaxRedeliveryCount && !isDMQ {
				if n, ok := q.MaxRedeliveryCount.get(); ok && n >= 1 && n <= MaxRedeliveryCountLimit {
					t.Errorf("finding %s for the valid `max_redelivery_count` %d", f.Rule, n)
				}
			}
		}
	})
}

func BenchmarkCheckQueue(b *testing.B) {
	bad := queueWith(goodQueue(), func(q *Queue) {
		q.MaxRedeliveryCount = Known[int64](0)
		q.DeadMessageQueue = Known("acme/erp/prod/dmq")
		q.RespectTTL = Known(false)
	})
	for _, bc := range []struct {
		name  string
		queue Queue
	}{{"clean", goodQueue()}, {"findings", bad}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				CheckQueue(bc.queue)
			}
		})
	}
}

// allow_unlimited_redelivery turns the refusal of an unlimited redelivery count into a warning
// (a queue adopted as it is), and is itself a warning where the count is limited.
func TestCheckQueueAllowUnlimitedRedelivery(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		count Value[int64]
		allow bool
		want  Severity
	}{
		{"0 refused", Known[int64](0), false, SeverityError},
		{"null refused", Null[int64](), false, SeverityError},
		{"0 allowed", Known[int64](0), true, SeverityWarning},
		{"null allowed", Null[int64](), true, SeverityWarning},
		{"5 allowed", Known[int64](5), true, SeverityWarning},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckQueue(queueWith(goodQueue(), func(q *Queue) { q.MaxRedeliveryCount = tt.count; q.AllowUnlimitedRedelivery = tt.allow }))
			if len(fs) != 1 || fs[0].Severity != tt.want {
				t.Fatalf("findings = %+v, want one of severity %v", fs, tt.want)
			}
		})
	}
}

// A queue size or message count of 0, which Event Mesh shows on a queue created without these limits, is refused
// with what 0 does; allow_no_queue_limits turns it into a warning (a queue adopted as it is) and is itself a
// warning where neither is 0. It adopts nothing else: a message size, time to live or unacknowledged count of 0
// stays refused, and so does a negative queue size.
func TestCheckQueueAllowNoQueueLimits(t *testing.T) {
	t.Parallel()
	size0 := func(q *Queue) { q.MaxQueueSizeInBytes = Known[int64](0) }
	count0 := func(q *Queue) { q.MaxQueueMessageCount = Known[int64](0) }
	both0 := func(q *Queue) { size0(q); count0(q) }
	allow := func(f func(*Queue)) func(*Queue) {
		return func(q *Queue) { f(q); q.AllowNoQueueLimits = true }
	}
	for _, tt := range []struct {
		name   string
		change func(*Queue)
		want   map[string]Severity
	}{
		{"size 0 refused", size0, map[string]Severity{"queue.max_queue_size_range": SeverityError}},
		{"count 0 refused", count0, map[string]Severity{"queue.max_queue_message_count_range": SeverityError}},
		{"size 0 allowed", allow(size0), map[string]Severity{"queue.max_queue_size_range_allowed": SeverityWarning}},
		{"both 0 allowed", allow(both0), map[string]Severity{
			"queue.max_queue_size_range_allowed": SeverityWarning, "queue.max_queue_message_count_range_allowed": SeverityWarning,
		}},
		{"nothing to allow", allow(func(*Queue) {}), map[string]Severity{"queue.allow_no_queue_limits_unused": SeverityWarning}},
		{"size -1 allowed", allow(func(q *Queue) { q.MaxQueueSizeInBytes = Known[int64](-1) }), map[string]Severity{
			"queue.max_queue_size_range": SeverityError, "queue.allow_no_queue_limits_unused": SeverityWarning,
		}},
		{"message size 0 allowed", allow(func(q *Queue) { q.MaxMessageSizeInBytes = Known[int64](0) }), map[string]Severity{
			"queue.max_message_size_range": SeverityError, "queue.allow_no_queue_limits_unused": SeverityWarning,
		}},
		{"max ttl 0 allowed", allow(func(q *Queue) { q.MaxTTL = Known[int64](0) }), map[string]Severity{
			"queue.max_ttl_range": SeverityError, "queue.allow_no_queue_limits_unused": SeverityWarning,
		}},
		{"unacked 0 allowed", allow(func(q *Queue) { q.MaxDeliveredUnackedMsgsPerFlow = Known[int64](0) }), map[string]Severity{
			"queue.max_unacked_per_flow_range": SeverityError, "queue.allow_no_queue_limits_unused": SeverityWarning,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckQueue(queueWith(goodQueue(), tt.change))
			expectSeverities(t, fs, tt.want)
			for _, f := range fs {
				if f.Rule == "queue.max_queue_size_range" && f.Severity == SeverityError && strings.Contains(tt.name, "0") &&
					!strings.Contains(f.Detail, "sets no limit of the queue's own") {
					t.Errorf("detail does not say what 0 does: %s", f.Detail)
				}
			}
		})
	}
}

// A max_message_size_in_bytes above 1000000 (1 MB), the default and maximum SAP documents for Event Mesh in SAP
// Integration Suite, is refused with what it does; a queue of the default plan was seen holding 10000000 (reference
// note sap-apis.md), and allow_message_size_above_documented_max turns the refusal into a warning for such a queue
// adopted as it is. It adopts nothing else: a message size of 0 or less stays refused, and the attribute warns that
// it changes nothing where the message size is within 1 MB.
func TestCheckQueueAllowMessageSizeAboveDocumentedMax(t *testing.T) {
	t.Parallel()
	size := func(n int64) func(*Queue) { return func(q *Queue) { q.MaxMessageSizeInBytes = Known(n) } }
	allow := func(f func(*Queue)) func(*Queue) {
		return func(q *Queue) { f(q); q.AllowMessageSizeAboveDocumentedMax = true }
	}
	for _, tt := range []struct {
		name   string
		change func(*Queue)
		want   map[string]Severity
	}{
		{"10 MB refused", size(10000000), map[string]Severity{"queue.max_message_size_range": SeverityError}},
		{"1 MB + 1 refused", size(1000001), map[string]Severity{"queue.max_message_size_range": SeverityError}},
		{"10 MB allowed", allow(size(10000000)), map[string]Severity{"queue.max_message_size_range_allowed": SeverityWarning}},
		{"1 MB + 1 allowed", allow(size(1000001)), map[string]Severity{"queue.max_message_size_range_allowed": SeverityWarning}},
		{"1 MB allowed", allow(size(1000000)), map[string]Severity{"queue.allow_message_size_above_documented_max_unused": SeverityWarning}},
		{"unset allowed", allow(func(q *Queue) { q.MaxMessageSizeInBytes = Null[int64]() }), map[string]Severity{
			"queue.allow_message_size_above_documented_max_unused": SeverityWarning,
		}},
		{"unknown allowed", allow(func(q *Queue) { q.MaxMessageSizeInBytes = Unknown[int64]() }), map[string]Severity{}},
		{"0 allowed", allow(size(0)), map[string]Severity{
			"queue.max_message_size_range": SeverityError, "queue.allow_message_size_above_documented_max_unused": SeverityWarning,
		}},
		{"-1 allowed", allow(size(-1)), map[string]Severity{
			"queue.max_message_size_range": SeverityError, "queue.allow_message_size_above_documented_max_unused": SeverityWarning,
		}},
		{"dead message queue 10 MB allowed", allow(func(q *Queue) { *q = queueWith(goodDMQ(), size(10000000)); q.AllowMessageSizeAboveDocumentedMax = true }),
			map[string]Severity{"queue.max_message_size_range_allowed": SeverityWarning}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckQueue(queueWith(goodQueue(), tt.change))
			expectSeverities(t, fs, tt.want)
			for _, f := range fs {
				if f.Rule == "queue.max_message_size_range" && strings.Contains(tt.name, "MB") {
					for _, s := range []string{"1000000 bytes (1 MB)", "SAP Integration Suite", "allow_message_size_above_documented_max = true"} {
						if !strings.Contains(f.Detail, s) {
							t.Errorf("the refusal does not say %q: %s", s, f.Detail)
						}
					}
				}
				if f.Rule == "queue.max_message_size_range_allowed" && !strings.Contains(f.Detail, "SAP Integration Suite") {
					t.Errorf("the warning does not say where SAP documents 1 MB: %s", f.Detail)
				}
			}
		})
	}
}

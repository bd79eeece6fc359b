package rules

import (
	"strings"
	"testing"
	"time"
)

// aemGood is a queue with every retry setting the provider recommends: the base of the table cases.
func aemGood() AEMQueue {
	return AEMQueue{
		Name: Known("orders"), DeadMessageQueue: Known("orders.dmq"), DeadMessageQueueExists: Known(true),
		MaxRedeliveryCount: Known[int64](5), RedeliveryEnabled: Null[bool](), RedeliveryDelayEnabled: Known(true),
		RedeliveryDelayInitialInterval: Null[int64](), RedeliveryDelayMaxInterval: Null[int64](), RedeliveryDelayMultiplier: Null[int64](),
		MaxTTL: Null[int64](), RespectTTL: Null[bool](), IngressEnabled: Known(true), EgressEnabled: Known(true), RespectDMQEligible: Null[bool](),
	}
}

func aemDMQ() AEMQueue {
	q := aemGood()
	q.Name, q.IsDeadMessageQueue, q.DeadMessageQueue = Known("orders.dmq"), true, Null[string]()
	q.MaxRedeliveryCount, q.RespectTTL, q.MaxTTL, q.EgressEnabled = Null[int64](), Known(true), Known[int64](604800), Null[bool]()
	return q
}

func TestCheckAEMQueue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(*AEMQueue)
		want   []string
	}{
		{"recommended settings", func(*AEMQueue) {}, nil},
		{"broker defaults everywhere", func(q *AEMQueue) {
			*q = AEMQueue{Name: Known("orders"), DeadMessageQueueExists: Known(false), DeadMessageQueue: Null[string](), MaxRedeliveryCount: Null[int64](),
				RedeliveryEnabled: Null[bool](), RedeliveryDelayEnabled: Null[bool](), RedeliveryDelayInitialInterval: Null[int64](),
				RedeliveryDelayMaxInterval: Null[int64](), RedeliveryDelayMultiplier: Null[int64](), MaxTTL: Null[int64](), RespectTTL: Null[bool](),
				IngressEnabled: Null[bool](), EgressEnabled: Null[bool](), RespectDMQEligible: Null[bool]()}
		}, []string{"aem.redelivery_unlimited", "aem.dmq_missing", "aem.redelivery_without_delay", "aem.ingress_disabled", "aem.egress_disabled"}},
		{"R = 0", func(q *AEMQueue) { q.MaxRedeliveryCount = Known[int64](0) }, []string{"aem.redelivery_unlimited"}},
		{"R = 0 allowed", func(q *AEMQueue) { q.MaxRedeliveryCount, q.AllowUnlimitedRedelivery = Known[int64](0), true }, []string{"aem.redelivery_unlimited_allowed"}},
		{"R omitted allowed", func(q *AEMQueue) { q.MaxRedeliveryCount, q.AllowUnlimitedRedelivery = Null[int64](), true }, []string{"aem.redelivery_unlimited_allowed"}},
		{"allowance unused", func(q *AEMQueue) { q.AllowUnlimitedRedelivery = true }, []string{"aem.allow_unlimited_unused"}},
		{"R = 256", func(q *AEMQueue) { q.MaxRedeliveryCount = Known[int64](256) }, []string{"aem.redelivery_range"}},
		{"R = 255", func(q *AEMQueue) { q.MaxRedeliveryCount = Known[int64](255) }, nil},
		{"R unknown", func(q *AEMQueue) { q.MaxRedeliveryCount = Unknown[int64]() }, nil},
		{"redelivery off with a count", func(q *AEMQueue) { q.RedeliveryEnabled = Known(false) }, []string{"aem.redelivery_count_unused"}},
		{"redelivery off, unlimited allowed", func(q *AEMQueue) {
			q.RedeliveryEnabled, q.MaxRedeliveryCount, q.AllowUnlimitedRedelivery = Known(false), Known[int64](0), true
		}, []string{"aem.redelivery_count_unused", "aem.allow_unlimited_unused"}},
		{"redelivery off without a count", func(q *AEMQueue) { q.RedeliveryEnabled, q.MaxRedeliveryCount = Known(false), Null[int64]() }, nil},
		{"DMQ missing", func(q *AEMQueue) { q.DeadMessageQueueExists = Known(false) }, []string{"aem.dmq_missing"}},
		// [SPEC] maxMsgSpoolUsage: "A value of 0 only allows spooling of the last message received".
		{"DMQ with spool quota 0", func(q *AEMQueue) { q.DeadMessageQueueMaxMsgSpoolUsage = Known[int64](0) }, []string{"aem.dmq_keeps_last_only"}},
		{"DMQ with the default spool quota", func(q *AEMQueue) { q.DeadMessageQueueMaxMsgSpoolUsage = Known[int64](5000) }, nil},
		{"dead message queue with spool quota 0", func(q *AEMQueue) { *q = aemDMQ(); q.MaxMsgSpoolUsage = Known[int64](0) }, []string{"aem.dmq_keeps_last_only"}},
		{"DMQ missing but created here", func(q *AEMQueue) { q.DeadMessageQueueExists, q.DeadMessageQueueCreatedHere = Known(false), true }, nil},
		{"#DEAD_MSG_QUEUE missing", func(q *AEMQueue) { q.DeadMessageQueue, q.DeadMessageQueueExists = Null[string](), Known(false) }, []string{"aem.dmq_missing"}},
		{"#DEAD_MSG_QUEUE exists", func(q *AEMQueue) { q.DeadMessageQueue = Null[string]() }, nil},
		{"DMQ existence not read", func(q *AEMQueue) { q.DeadMessageQueueExists = Unknown[bool]() }, nil},
		{"DMQ empty", func(q *AEMQueue) { q.DeadMessageQueue = Known("") }, []string{"aem.dmq_empty"}},
		{"DMQ self", func(q *AEMQueue) { q.DeadMessageQueue = Known("orders") }, []string{"aem.dmq_self"}},
		// The broker takes a queue naming itself ([SPEC] deadMsgQueue: a length and a pattern only): adoptable.
		{"DMQ self allowed", func(q *AEMQueue) { q.DeadMessageQueue, q.AllowMissingDeadMessageQueue = Known("orders"), true }, []string{"aem.dmq_self_allowed"}},
		{"max_ttl without respect_ttl", func(q *AEMQueue) { q.MaxTTL, q.RespectTTL = Known[int64](3600), Known(false) }, []string{"aem.max_ttl_without_respect_ttl"}},
		{"max_ttl without respect_ttl allowed", func(q *AEMQueue) {
			q.MaxTTL, q.RespectTTL, q.AllowIneffectiveTTL = Known[int64](3600), Known(false), true
		},
			[]string{"aem.max_ttl_without_respect_ttl_allowed"}},
		{"allow_ineffective_ttl unused", func(q *AEMQueue) {
			q.MaxTTL, q.RespectTTL, q.AllowIneffectiveTTL = Known[int64](3600), Known(true), true
		},
			[]string{"aem.allow_ineffective_ttl_unused"}},
		{"no delay", func(q *AEMQueue) { q.RedeliveryDelayEnabled = Known(false) }, []string{"aem.redelivery_without_delay"}},
		{"no delay, broker default", func(q *AEMQueue) { q.RedeliveryDelayEnabled = Null[bool]() }, []string{"aem.redelivery_without_delay"}},
		{"no delay, redelivery off", func(q *AEMQueue) {
			q.RedeliveryDelayEnabled, q.RedeliveryEnabled, q.MaxRedeliveryCount = Known(false), Known(false), Null[int64]()
		}, nil},
		{"delay ranges", func(q *AEMQueue) {
			q.RedeliveryDelayInitialInterval, q.RedeliveryDelayMaxInterval, q.RedeliveryDelayMultiplier = Known[int64](0), Known[int64](10800001), Known[int64](99)
		}, []string{"aem.redelivery_delay_range", "aem.redelivery_delay_range", "aem.redelivery_delay_range"}},
		{"max below initial", func(q *AEMQueue) {
			q.RedeliveryDelayInitialInterval, q.RedeliveryDelayMaxInterval = Known[int64](5000), Known[int64](2000)
		}, []string{"aem.redelivery_delay_max_below_initial"}},
		{"TTL while `respect_ttl` is off", func(q *AEMQueue) { q.MaxTTL = Known[int64](3600) }, []string{"aem.max_ttl_without_respect_ttl"}},
		{"TTL with `respect_ttl`", func(q *AEMQueue) { q.MaxTTL, q.RespectTTL = Known[int64](3600), Known(true) }, nil},
		{"TTL out of range", func(q *AEMQueue) { q.MaxTTL, q.RespectTTL = Known[int64](4294967296), Known(true) }, []string{"aem.max_ttl_range"}},
		{"`respect_ttl` without `max_ttl`: publisher TTLs", func(q *AEMQueue) { q.RespectTTL = Known(true) }, nil},
		{"ingress off", func(q *AEMQueue) { q.IngressEnabled = Known(false) }, []string{"aem.ingress_disabled"}},
		{"egress off", func(q *AEMQueue) { q.EgressEnabled = Null[bool]() }, []string{"aem.egress_disabled"}},
		{"DMQ eligibility respected", func(q *AEMQueue) { q.RespectDMQEligible = Known(true) }, []string{"aem.dmq_eligible_respected"}},
		{"DMQ eligibility not respected", func(q *AEMQueue) { q.RespectDMQEligible = Known(false) }, nil},
		{"dead message queue", func(q *AEMQueue) { *q = aemDMQ() }, nil},
		{"dead message queue without TTL", func(q *AEMQueue) { *q = aemDMQ(); q.MaxTTL = Null[int64]() }, []string{"aem.dmq_ttl_missing"}},
		{"dead message queue not respecting TTL", func(q *AEMQueue) { *q = aemDMQ(); q.RespectTTL = Null[bool]() }, []string{"aem.max_ttl_without_respect_ttl", "aem.dmq_ttl_missing"}},
		{"dead message queue without TTL allowed", func(q *AEMQueue) { *q = aemDMQ(); q.MaxTTL, q.AllowNoTTL = Null[int64](), true }, []string{"aem.dmq_no_ttl_allowed"}},
		{"dead message queue not respecting TTL allowed", func(q *AEMQueue) { *q = aemDMQ(); q.RespectTTL, q.AllowNoTTL = Known(false), true }, []string{"aem.dmq_no_ttl_allowed"}},
		{"allow_no_ttl unused", func(q *AEMQueue) { *q = aemDMQ(); q.AllowNoTTL = true }, []string{"aem.allow_no_ttl_unused"}},
		{"allow_no_ttl with TTL unknown", func(q *AEMQueue) { *q = aemDMQ(); q.MaxTTL, q.AllowNoTTL = Unknown[int64](), true }, nil},
		{"dead message queue taking nothing", func(q *AEMQueue) { *q = aemDMQ(); q.IngressEnabled = Null[bool]() }, []string{"aem.dmq_ingress_disabled"}},
		{"dead message queue taking nothing allowed", func(q *AEMQueue) { *q = aemDMQ(); q.IngressEnabled, q.AllowIngressDisabled = Known(false), true },
			[]string{"aem.dmq_ingress_disabled_allowed"}},
		{"allow_ingress_disabled unused", func(q *AEMQueue) { *q = aemDMQ(); q.AllowIngressDisabled = true }, []string{"aem.allow_ingress_disabled_unused"}},
		// A dead message queue whose ingress is off deletes what it should keep: refused as a missing one.
		{"DMQ takes nothing", func(q *AEMQueue) { q.DeadMessageQueueIngress = Known(false) }, []string{"aem.dmq_takes_nothing"}},
		{"DMQ created here takes nothing", func(q *AEMQueue) {
			q.DeadMessageQueueExists, q.DeadMessageQueueCreatedHere, q.DeadMessageQueueIngress = Known(false), true, Known(false)
		}, []string{"aem.dmq_takes_nothing"}},
		{"DMQ created here takes messages", func(q *AEMQueue) {
			q.DeadMessageQueueExists, q.DeadMessageQueueCreatedHere, q.DeadMessageQueueIngress = Known(false), true, Known(true)
		}, nil},
		{"DMQ ingress unknown", func(q *AEMQueue) { q.DeadMessageQueueIngress = Unknown[bool]() }, nil},
		{"DMQ missing allowed", func(q *AEMQueue) { q.DeadMessageQueueExists, q.AllowMissingDeadMessageQueue = Known(false), true }, []string{"aem.dmq_missing_allowed"}},
		{"DMQ taking nothing allowed", func(q *AEMQueue) { q.DeadMessageQueueIngress, q.AllowMissingDeadMessageQueue = Known(false), true }, []string{"aem.dmq_missing_allowed"}},
		{"DMQ empty allowed", func(q *AEMQueue) { q.DeadMessageQueue, q.AllowMissingDeadMessageQueue = Known(""), true }, []string{"aem.dmq_missing_allowed"}},
		{"allow_missing_dead_message_queue unused", func(q *AEMQueue) { q.DeadMessageQueueIngress, q.AllowMissingDeadMessageQueue = Known(true), true },
			[]string{"aem.allow_missing_dmq_unused"}},
		{"allow_missing_dead_message_queue, DMQ not read", func(q *AEMQueue) { q.DeadMessageQueueExists, q.AllowMissingDeadMessageQueue = Unknown[bool](), true }, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := aemGood()
			tc.mutate(&q)
			fs := CheckAEMQueue(q)
			expectRules(t, fs, tc.want...)
		})
	}
}

// The findings name the broker's default where the configuration relies on it, and the warning without
// delay says how fast a poison message cycles and what a delay would give.
func TestCheckAEMQueueDetails(t *testing.T) {
	t.Parallel()
	q := aemGood()
	q.DeadMessageQueue, q.DeadMessageQueueExists = Null[string](), Known(false)
	if f := findRule(t, CheckAEMQueue(q), "aem.dmq_missing"); !strings.Contains(f.Detail, `"#DEAD_MSG_QUEUE"`) || !strings.Contains(f.Detail, "deletes") {
		t.Errorf("`dmq_missing`: %s", f.Detail)
	}
	q = aemGood()
	q.RedeliveryDelayEnabled = Known(false)
	f := findRule(t, CheckAEMQueue(q), "aem.redelivery_without_delay")
	for _, want := range []string{"all 6 deliveries", "in 60 ms", "A delay of 1 s growing ×2.00 each time up to 1 min 4 s", "spread its 5 redeliveries over 31 s"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("`redelivery_without_delay` lacks %q: %s", want, f.Detail)
		}
	}
	q.MaxRedeliveryCount, q.AllowUnlimitedRedelivery = Known[int64](0), true
	f = findRule(t, CheckAEMQueue(q), "aem.redelivery_without_delay")
	if !strings.Contains(f.Detail, "without end (about 100 deliveries a second") {
		t.Errorf("unlimited without delay: %s", f.Detail)
	}
	// Without end, there is no last delivery to use up.
	if strings.Contains(f.Detail, "uses up every delivery") {
		t.Errorf("unlimited without delay says the deliveries are used up: %s", f.Detail)
	}
}

// The refusal of a dead message queue that takes nothing says what happens and what to set; the adoption
// warning says that messages are deleted, after how many deliveries, and how to fix it.
func TestCheckAEMQueueDMQTakesNothingDetails(t *testing.T) {
	t.Parallel()
	q := aemGood()
	q.DeadMessageQueueIngress = Known(false)
	f := findRule(t, CheckAEMQueue(q), "aem.dmq_takes_nothing")
	if f.Severity != SeverityError || f.Attribute != "dead_message_queue" {
		t.Errorf("`dmq_takes_nothing`: %+v", f)
	}
	for _, want := range []string{`"orders.dmq"`, "`ingress_enabled = false`", "deleted", "`ingress_enabled = true`"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("`dmq_takes_nothing` lacks %q: %s", want, f.Detail)
		}
	}
	q = aemGood()
	q.DeadMessageQueue, q.DeadMessageQueueExists, q.AllowMissingDeadMessageQueue = Null[string](), Known(false), true
	f = findRule(t, CheckAEMQueue(q), "aem.dmq_missing_allowed")
	if f.Severity != SeverityWarning {
		t.Errorf("`dmq_missing_allowed`: %+v", f)
	}
	for _, want := range []string{"deleted", "after 6 deliveries", `"#DEAD_MSG_QUEUE"`, "remove `allow_missing_dead_message_queue`"} {
		if !strings.Contains(f.Detail, want) {
			t.Errorf("`dmq_missing_allowed` lacks %q: %s", want, f.Detail)
		}
	}
}

func TestAEMDeadMessageQueueDeletes(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		mutate func(*AEMQueue)
		want   bool
	}{
		"usable":        {func(*AEMQueue) {}, false},
		"not read":      {func(q *AEMQueue) { q.DeadMessageQueueExists = Unknown[bool]() }, false},
		"empty":         {func(q *AEMQueue) { q.DeadMessageQueue = Known("") }, true},
		"missing":       {func(q *AEMQueue) { q.DeadMessageQueueExists = Known(false) }, true},
		"created here":  {func(q *AEMQueue) { q.DeadMessageQueueExists, q.DeadMessageQueueCreatedHere = Known(false), true }, false},
		"takes nothing": {func(q *AEMQueue) { q.DeadMessageQueueIngress = Known(false) }, true},
	} {
		q := aemGood()
		tc.mutate(&q)
		if got := AEMDeadMessageQueueDeletes(q); got != tc.want {
			t.Errorf("%s: AEMDeadMessageQueueDeletes = %v, want %v", name, got, tc.want)
		}
	}
}

func TestAEMArithmetic(t *testing.T) {
	t.Parallel()
	deliveries := []struct {
		enabled   bool
		r         int64
		want      int64
		unlimited bool
	}{{true, 0, 0, true}, {true, 1, 2, false}, {true, 5, 6, false}, {true, 255, 256, false}, {false, 0, 1, false}, {false, 5, 1, false}}
	for _, c := range deliveries {
		if got, unl := AEMDeliveries(c.enabled, c.r); got != c.want || unl != c.unlimited {
			t.Errorf("AEMDeliveries(%v, %d) = %d, %v; want %d, %v", c.enabled, c.r, got, unl, c.want, c.unlimited)
		}
	}
	s := time.Second
	delays := []struct {
		k, initial, maxMs, mult int64
		want                    time.Duration
	}{
		{1, 1000, 64000, 200, s}, {2, 1000, 64000, 200, 2 * s}, {7, 1000, 64000, 200, 64 * s}, {8, 1000, 64000, 200, 64 * s},
		{3, 1000, 64000, 150, 2250 * time.Millisecond}, {5, 500, 10000, 100, 500 * time.Millisecond}, {200, 3600000, 10800000, 500, 3 * time.Hour},
		{0, 1000, 64000, 200, 0},
	}
	for _, c := range delays {
		if got := AEMRedeliveryDelay(c.k, c.initial, c.maxMs, c.mult); got != c.want {
			t.Errorf("AEMRedeliveryDelay(%d, %d, %d, %d) = %v, want %v", c.k, c.initial, c.maxMs, c.mult, got, c.want)
		}
	}
	totals := []struct {
		r       int64
		delay   bool
		initial int64
		maxMs   int64
		mult    int64
		want    time.Duration
	}{
		{5, true, 1000, 64000, 200, 31 * s},                  // 1 + 2 + 4 + 8 + 16
		{10, true, 1000, 64000, 200, 319 * s},                // 1 + 2 + 4 + 8 + 16 + 32 + 64, then 3 × 64
		{5, false, 1000, 64000, 200, 0},                      // as fast as possible
		{3, true, 60000, 600000, 300, 780 * s},               // 60 + 180 + 540
		{4, true, 60000, 600000, 300, 1380 * s},              // 60 + 180 + 540 + 600
		{1, true, 1, 1, 100, time.Millisecond},               // the smallest delay
		{255, true, 1000, 64000, 200, 15999 * s},             // 127 s for the first 7, then 248 × 64 s
		{255, true, 3600000, 10800000, 500, 763 * time.Hour}, // 1 h, then 254 × 3 h (5 h capped)
	}
	for _, c := range totals {
		if got := AEMTimeToDeadLetter(c.r, c.delay, c.initial, c.maxMs, c.mult); got != c.want {
			t.Errorf("AEMTimeToDeadLetter(%d, %v, %d, %d, %d) = %v, want %v", c.r, c.delay, c.initial, c.maxMs, c.mult, got, c.want)
		}
	}
}

func TestAEMRetryPlan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(*AEMQueue)
		want   string
	}{
		{"recommended", func(*AEMQueue) {}, `a poison message is delivered 6 times over 31 s of redelivery delays, then moved to the dead message queue "orders.dmq"`},
		{"no delay", func(q *AEMQueue) { q.RedeliveryDelayEnabled = Null[bool]() }, `a poison message is delivered 6 times without waits between them, then moved to the dead message queue "orders.dmq"`},
		{"forever", func(q *AEMQueue) { q.MaxRedeliveryCount = Null[int64]() }, "a poison message is delivered without end (`max_redelivery_count` 0 = retry forever), then every 1 min 4 s"},
		{"forever fast", func(q *AEMQueue) { q.MaxRedeliveryCount, q.RedeliveryDelayEnabled = Known[int64](0), Known(false) },
			"a poison message is delivered without end (`max_redelivery_count` 0 = retry forever), as fast as the consumer fails it"},
		{"DMQ missing", func(q *AEMQueue) { q.DeadMessageQueue, q.DeadMessageQueueExists = Null[string](), Known(false) },
			`a poison message is delivered 6 times over 31 s of redelivery delays, then deleted (the dead message queue "#DEAD_MSG_QUEUE" does not exist)`},
		{"DMQ takes nothing", func(q *AEMQueue) { q.DeadMessageQueueIngress = Known(false) },
			`a poison message is delivered 6 times over 31 s of redelivery delays, then deleted (the dead message queue "orders.dmq" takes no messages: its ingress is off)`},
		{"DMQ empty", func(q *AEMQueue) { q.DeadMessageQueue = Known("") },
			"a poison message is delivered 6 times over 31 s of redelivery delays, then deleted (`dead_message_queue = \"\"` names no queue)"},
		{"redelivery off", func(q *AEMQueue) { q.RedeliveryEnabled = Known(false) }, `a poison message is delivered once (redelivery is disabled), then moved to the dead message queue "orders.dmq"`},
		{"eligibility", func(q *AEMQueue) { q.RespectDMQEligible = Known(true) },
			`a poison message is delivered 6 times over 31 s of redelivery delays, then moved to the dead message queue "orders.dmq" if its publisher flagged it DMQ-eligible, deleted otherwise`},
		{"unknown", func(q *AEMQueue) { q.MaxRedeliveryCount = Unknown[int64]() }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := aemGood()
			tc.mutate(&q)
			if got := AEMRetryPlan(q); got != tc.want {
				t.Errorf("AEMRetryPlan = %q\nwant          %q", got, tc.want)
			}
		})
	}
}

func TestFormatAEMDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		750 * time.Millisecond: "750 ms", 31 * time.Second: "31 s", 1500 * time.Millisecond: "1.5 s", 64 * time.Second: "1 min 4 s",
		2 * time.Minute: "2 min", 2*time.Hour + 8*time.Minute: "2 h 8 min", 3 * time.Hour: "3 h",
	} {
		if got := FormatAEMDuration(d); got != want {
			t.Errorf("FormatAEMDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestValidAEMQueueNamePrefix(t *testing.T) {
	t.Parallel()
	for prefix, ok := range map[string]bool{
		"": true, "acme/aem/prod/": true, "acme/aem/prod/ord": true, "#DEAD": true,
		"acme/*": false, "acme?": false, "a;b": false, strings.Repeat("q", 201): false, strings.Repeat("q", 200): true,
	} {
		if err := ValidAEMQueueNamePrefix(prefix); (err == nil) != ok {
			t.Errorf("ValidAEMQueueNamePrefix(%q) = %v, want ok %v", prefix, err, ok)
		}
	}
}

func TestValidAEMQueueName(t *testing.T) {
	t.Parallel()
	for name, ok := range map[string]bool{
		"acme/aem/prod/orders": true, "#DEAD_MSG_QUEUE": true, "": false, " ": false, "a*b": false, "a&b": false,
		strings.Repeat("q", 200): true, strings.Repeat("q", 201): false,
	} {
		if err := ValidAEMQueueName(name); (err == nil) != ok {
			t.Errorf("ValidAEMQueueName(%q) = %v, want ok %v", name, err, ok)
		}
	}
}

// A queue naming itself as its dead message queue sends a removed message back into itself: the retry plan
// says so (a cycle of one queue), and the queue counts as one whose dead message queues form a cycle.
func TestAEMDeadMessageQueueSelfIsACycle(t *testing.T) {
	t.Parallel()
	q := aemGood()
	q.DeadMessageQueue = Known("orders")
	if !AEMDeadMessageQueueCycles(q) || !AEMDeadMessageQueueSelf(q) {
		t.Errorf("a queue naming itself is not a cycle")
	}
	if got := AEMRetryPlan(q); !strings.Contains(got, "orders → orders") || !strings.Contains(got, "for ever") {
		t.Errorf("AEMRetryPlan = %q, want the cycle orders → orders, for ever", got)
	}
}

// A dead message queue taking smaller messages than its queue deletes the large poison messages: a warning,
// and the retry plans of the queue and of a sender reading it say so. Unknown sizes say nothing.
func TestAEMDeadMessageQueueMaxMsgSize(t *testing.T) {
	t.Parallel()
	q := aemGood()
	q.MaxMsgSize, q.DeadMessageQueueMaxMsgSize = Known[int64](AEMDefaultMaxMsgSize), Known[int64](1000)
	fs := CheckAEMQueue(q)
	expectRules(t, fs, "aem.dmq_max_msg_size_smaller")
	for _, want := range []string{`"orders.dmq"`, "1000 bytes", "10000000", "deleted"} {
		if !strings.Contains(fs[0].Detail, want) {
			t.Errorf("the warning does not say %q: %s", want, fs[0].Detail)
		}
	}
	if got := AEMRetryPlan(q); !strings.Contains(got, "deleted instead when larger than 1000 bytes") {
		t.Errorf("AEMRetryPlan = %q", got)
	}
	s := aemSeedSender()
	s.Queue = q
	if got := AEMSenderRetryPlan(s); !strings.Contains(got, "deleted instead when larger than 1000 bytes") {
		t.Errorf("AEMSenderRetryPlan = %q", got)
	}
	for _, mutate := range []func(*AEMQueue){
		func(q *AEMQueue) { q.DeadMessageQueueMaxMsgSize = Known[int64](AEMDefaultMaxMsgSize) },
		func(q *AEMQueue) { q.DeadMessageQueueMaxMsgSize = Unknown[int64]() },
		func(q *AEMQueue) { q.MaxMsgSize = Unknown[int64]() },
	} {
		c := q
		mutate(&c)
		expectRules(t, CheckAEMQueue(c))
	}
}

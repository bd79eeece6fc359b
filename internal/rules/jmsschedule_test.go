package rules

import (
	"errors"
	"math"
	"slices"
	"testing"
)

var (
	defaultJMS = JMSSchedule{RetryInterval: 1, MaxRetryInterval: 60, ExponentialBackoff: true}
	constant5  = JMSSchedule{RetryInterval: 5, MaxRetryInterval: 60}
)

// sumWaits is the definition T(k) = d_1 + … + d_k, to check the closed form against.
func sumWaits(s JMSSchedule, k int64) int64 {
	var t int64
	for n := int64(1); n <= k; n++ {
		t += s.Wait(n)
	}
	return t
}

func TestJMSScheduleWaits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		s    JMSSchedule
		k    int64
		want []int64
	}{
		// Worked example of the reference note: 1, 2, 4, …, 32, then the cap of 60.
		{"defaults", defaultJMS, 10, []int64{1, 2, 4, 8, 16, 32, 60, 60, 60, 60}},
		{"no backoff ignores the maximum", constant5, 4, []int64{5, 5, 5, 5}},
		{"maximum below interval caps every wait", JMSSchedule{RetryInterval: 60, MaxRetryInterval: 10, ExponentialBackoff: true}, 3, []int64{10, 10, 10}},
		{"maximum equal to interval", JMSSchedule{RetryInterval: 10, MaxRetryInterval: 10, ExponentialBackoff: true}, 3, []int64{10, 10, 10}},
		{"maximum a power of two times interval", JMSSchedule{RetryInterval: 1, MaxRetryInterval: 64, ExponentialBackoff: true}, 8, []int64{1, 2, 4, 8, 16, 32, 64, 64}},
		{"zero retries", defaultJMS, 0, []int64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.s.Waits(tt.k)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("Waits(%d) = %v, %v; want %v", tt.k, got, err, tt.want)
			}
		})
	}
}

func TestJMSScheduleGiveUpMinutes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		s    JMSSchedule
		k    int64
		want int64
	}{
		{"note: defaults, 10 retries = 303 minutes", defaultJMS, 10, 303},
		{"note: defaults, 5 retries = 31 minutes", defaultJMS, 5, 31},
		{"note: no backoff, interval 5, 10 retries = 50 minutes", constant5, 10, 50},
		{"defaults, 6 retries end the uncapped part", defaultJMS, 6, 63},
		{"defaults, 7 retries add the first capped wait", defaultJMS, 7, 123},
		{"zero retries", defaultJMS, 0, 0},
		{"one retry", defaultJMS, 1, 1},
		{"maximum below interval", JMSSchedule{RetryInterval: 60, MaxRetryInterval: 10, ExponentialBackoff: true}, 4, 40},
		{"non-exclusive extremes", JMSSchedule{RetryInterval: 10080, MaxRetryInterval: 43200, ExponentialBackoff: true}, 4, 10080 + 20160 + 40320 + 43200},
		{"a million retries", defaultJMS, 1_000_000, 63 + (1_000_000-6)*60},
		{"max int64 retries without backoff at 1 minute", JMSSchedule{RetryInterval: 1}, math.MaxInt64, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.s.GiveUpMinutes(tt.k)
			if err != nil || got != tt.want {
				t.Fatalf("GiveUpMinutes(%d) = %d, %v; want %d", tt.k, got, err, tt.want)
			}
		})
	}
}

func TestJMSScheduleClosedFormMatchesSum(t *testing.T) {
	t.Parallel()
	for _, i := range []int64{1, 2, 3, 7, 10, 60, 10080} {
		for _, m := range []int64{1, 5, 10, 59, 60, 64, 180, 43200} {
			for _, backoff := range []bool{false, true} {
				s := JMSSchedule{RetryInterval: i, MaxRetryInterval: m, ExponentialBackoff: backoff}
				for k := int64(0); k <= 40; k++ {
					got, err := s.GiveUpMinutes(k)
					if want := sumWaits(s, k); err != nil || got != want {
						t.Fatalf("%+v: GiveUpMinutes(%d) = %d, %v; sum of waits %d", s, k, got, err, want)
					}
					// RetriesWithin is the inverse: T(n) ≤ budget < T(n+1).
					for _, budget := range []int64{got, got + 1, max(got-1, 0)} {
						n, err := s.RetriesWithin(budget)
						if err != nil || sumWaits(s, n) > budget || sumWaits(s, n+1) <= budget {
							t.Fatalf("%+v: RetriesWithin(%d) = %d, %v; T(n) = %d, T(n+1) = %d", s, budget, n, err, sumWaits(s, n), sumWaits(s, n+1))
						}
					}
				}
			}
		}
	}
}

func TestJMSScheduleRetriesWithin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		s      JMSSchedule
		budget int64
		want   int64
	}{
		// Reference note: unbounded retries at the 30-day default ≈ 724, at 180 days ≈ 4300.
		{"note: 30 days at defaults", defaultJMS, 30 * 24 * 60, 724},
		{"note: 180 days at defaults", defaultJMS, 180 * 24 * 60, 4324},
		{"303 minutes fit 10 retries", defaultJMS, 303, 10},
		{"302 minutes fit 9 retries", defaultJMS, 302, 9},
		{"budget inside the uncapped part", defaultJMS, 30, 4},
		{"zero budget", defaultJMS, 0, 0},
		{"negative budget", defaultJMS, -5, 0},
		{"no backoff", constant5, 50, 10},
		{"huge budget", defaultJMS, math.MaxInt64, 6 + (math.MaxInt64-63)/60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.s.RetriesWithin(tt.budget)
			if err != nil || got != tt.want {
				t.Fatalf("RetriesWithin(%d) = %d, %v; want %d", tt.budget, got, err, tt.want)
			}
		})
	}
}

func TestJMSScheduleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		s        JMSSchedule
		k        int64
		overflow bool
	}{
		{"interval 0", JMSSchedule{RetryInterval: 0, MaxRetryInterval: 60, ExponentialBackoff: true}, 1, false},
		{"negative interval", JMSSchedule{RetryInterval: -1}, 1, false},
		{"maximum 0 with backoff", JMSSchedule{RetryInterval: 1, ExponentialBackoff: true}, 1, false},
		{"interval beyond 2^40", JMSSchedule{RetryInterval: 1<<40 + 1}, 1, false},
		{"maximum beyond 2^40", JMSSchedule{RetryInterval: 1, MaxRetryInterval: math.MaxInt64, ExponentialBackoff: true}, 1, false},
		{"negative retries", defaultJMS, -1, false},
		{"overflow with backoff", defaultJMS, math.MaxInt64, true},
		{"overflow without backoff", JMSSchedule{RetryInterval: 2}, math.MaxInt64, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.s.GiveUpMinutes(tt.k)
			if err == nil || errors.Is(err, ErrJMSOverflow) != tt.overflow {
				t.Fatalf("GiveUpMinutes(%d) error = %v, want overflow %v", tt.k, err, tt.overflow)
			}
		})
	}
	if err := (JMSSchedule{RetryInterval: 1}).Validate(); err != nil {
		t.Errorf("a maximum of 0 without backoff is unused and must pass: %v", err)
	}
}

func TestJMSScheduleLargestIntervalsDoNotOverflow(t *testing.T) {
	t.Parallel()
	s := JMSSchedule{RetryInterval: 1, MaxRetryInterval: MaxJMSScheduleMinutes, ExponentialBackoff: true}
	if p := s.UncappedRetries(); p != 40 {
		t.Fatalf("UncappedRetries = %d, want 40", p)
	}
	got, err := s.GiveUpMinutes(41)
	if want := int64(1<<40-1) + 1<<40; err != nil || got != want {
		t.Fatalf("GiveUpMinutes(41) = %d, %v; want %d", got, err, want)
	}
	if n, err := s.RetriesWithin(math.MaxInt64); err != nil || n != 40+(math.MaxInt64-(1<<40-1))/(1<<40) {
		t.Fatalf("RetriesWithin(max) = %d, %v", n, err)
	}
}

func TestJMSGuardStopRetry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		limit int64
		op    string
		want  int64
	}{
		{5, ">", 6}, // SAP's pipeline pattern: SAPJMSRetries > maxJMSRetries.
		{5, "", 6},  // Unknown comparison: the later retry.
		{5, ">=", 5},
		{5, "=", 5},
		{5, "==", 5},
		{5, "<", 5},  // "< 5 → retry again" ends the message on retry 5.
		{5, "<=", 6}, // "<= 5 → retry again" ends it on retry 6.
		{5, "!=", 6},
		{0, ">", 1},
		{math.MaxInt64, ">", math.MaxInt64},
	}
	for _, tt := range tests {
		if got := JMSGuardStopRetry(tt.limit, tt.op); got != tt.want {
			t.Errorf("JMSGuardStopRetry(%d, %q) = %d, want %d", tt.limit, tt.op, got, tt.want)
		}
	}
}

func TestFormatMinutes(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]string{
		31:    "31 minutes",
		303:   "303 minutes (5 h 3 min)",
		43263: "43263 minutes (30 d 1 h 3 min)",
	} {
		if got := formatMinutes(in); got != want {
			t.Errorf("formatMinutes(%d) = %q, want %q", in, got, want)
		}
	}
}

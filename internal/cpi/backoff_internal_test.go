package cpi

import (
	"testing"
	"time"
)

func TestBackoffWaits(t *testing.T) {
	t.Parallel()
	next := DefaultBackoff.waits()
	var got []time.Duration
	for range 9 {
		got = append(got, next())
	}
	want := []time.Duration{500 * time.Millisecond, 750 * time.Millisecond, 1125 * time.Millisecond, 1687500 * time.Microsecond,
		2531250 * time.Microsecond, 3796875 * time.Microsecond, 5695312500, 8542968750, 12814453125}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("waits = %v, want %v", got, want)
		}
	}
	for range 5 {
		if d := next(); d != 15*time.Second {
			t.Fatalf("wait after the cap = %v, want 15s", d)
		}
	}
	fixed := FixedPoll(0).waits()
	if a, b := fixed(), fixed(); a != DefaultPoll || b != DefaultPoll {
		t.Fatalf("FixedPoll(0) waits %v, %v, want %v", a, b, DefaultPoll)
	}
	odd := Backoff{Initial: time.Second, Max: time.Millisecond, Factor: 0.5}.waits()
	if a, b := odd(), odd(); a != time.Second || b != time.Second {
		t.Fatalf("a Max below Initial and a Factor below 1 should wait Initial: %v, %v", a, b)
	}
}

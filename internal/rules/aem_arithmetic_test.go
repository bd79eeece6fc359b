package rules

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestAEMSenderTimingMaxRuns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		m, r    int64
		want    int64
		wantErr string
	}{
		{5, 5, 30, ""},
		{1, 1, 2, ""},
		{5, 255, 1280, ""},
		{math.MaxInt64 / 256, 255, math.MaxInt64 / 256 * 256, ""},
		{math.MaxInt64/256 + 1, 255, 0, "exceeds the largest whole number"},
		{5, 0, 0, "0 means retry forever"},
		{5, -1, 0, "is negative"},
		{5, 256, 0, "exceeds the broker's limit of 255"},
		{0, 5, 0, "0 processing attempts"},
		{-2, 5, 0, "-2 processing attempts is negative"},
	} {
		got, err := AEMSenderTiming{Attempts: tc.m, Queue: AEMQueueTiming{MaxRedeliveryCount: tc.r}}.MaxRuns()
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("MaxRuns(%d, %d) = %d, %v; want error %q", tc.m, tc.r, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("MaxRuns(%d, %d) = %d, %v; want %d", tc.m, tc.r, got, err, tc.want)
		}
	}
}

func TestAEMQueueTimingTimeToDeadLetter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		q       AEMQueueTiming
		want    time.Duration
		wantErr string
	}{
		{"defaults 5 redeliveries: 1+2+4+8+16 s", AEMQueueTiming{5, true, 1000, 64000, 200}, 31 * time.Second, ""},
		{"capped at the maximum", AEMQueueTiming{10, true, 1000, 64000, 200}, (1 + 2 + 4 + 8 + 16 + 32 + 64*4) * time.Second, ""},
		{"constant", AEMQueueTiming{3, true, 500, 64000, 100}, 1500 * time.Millisecond, ""},
		{"delay off", AEMQueueTiming{MaxRedeliveryCount: 255}, 0, ""},
		{"delay off ignores the delay settings", AEMQueueTiming{5, false, 0, 0, 0}, 0, ""},
		{"forever", AEMQueueTiming{0, true, 1000, 64000, 200}, 0, "retry forever"},
		{"initial out of range", AEMQueueTiming{5, true, 0, 64000, 200}, 0, "redelivery_delay_initial_interval 0 is out of range"},
		{"max out of range", AEMQueueTiming{5, true, 1000, 10800001, 200}, 0, "redelivery_delay_max_interval 10800001 is out of range"},
		{"multiplier out of range", AEMQueueTiming{5, true, 1000, 64000, 99}, 0, "redelivery_delay_multiplier 99 is out of range: the broker accepts a multiplier in hundredths"},
	} {
		got, err := tc.q.TimeToDeadLetter()
		checkAEMDuration(t, tc.name, got, err, tc.want, tc.wantErr)
	}
}

func TestAEMSenderTimingTimeToDeadLetter(t *testing.T) {
	t.Parallel()
	seedQueue := AEMQueueTiming{5, true, 1000, 64000, 200}
	for _, tc := range []struct {
		name    string
		s       AEMSenderTiming
		want    time.Duration
		wantErr string
	}{
		// 6 deliveries × (1 + 3 + 9 + 27 s) + the broker's 31 s.
		{"seed settings", AEMSenderTiming{5, 1000, 30000, 3.0, seedQueue}, 6*40*time.Second + 31*time.Second, ""},
		{"no broker delay", AEMSenderTiming{5, 1000, 30000, 3.0, AEMQueueTiming{MaxRedeliveryCount: 2}}, 3 * 40 * time.Second, ""},
		{"one attempt: only the broker waits", AEMSenderTiming{1, 0, 0, 0, seedQueue}, 31 * time.Second, ""},
		{"fractional multiplier", AEMSenderTiming{3, 1000, 30000, 1.5, AEMQueueTiming{MaxRedeliveryCount: 1}}, 2 * 2500 * time.Millisecond, ""},
		{"too long", AEMSenderTiming{math.MaxInt64, 1000, math.MaxInt64, 3.0, AEMQueueTiming{MaxRedeliveryCount: 255}}, 0, "exceeds the longest"},
		{"zero attempts", AEMSenderTiming{0, 1000, 30000, 3.0, seedQueue}, 0, "0 processing attempts"},
		{"zero interval", AEMSenderTiming{5, 0, 30000, 3.0, seedQueue}, 0, "retry interval of 0 ms"},
		{"zero multiplier", AEMSenderTiming{5, 1000, 30000, 0, seedQueue}, 0, "retry multiplier of 0"},
		{"forever", AEMSenderTiming{5, 1000, 30000, 3.0, AEMQueueTiming{}}, 0, "retry forever"},
	} {
		got, err := tc.s.TimeToDeadLetter()
		checkAEMDuration(t, tc.name, got, err, tc.want, tc.wantErr)
	}
}

// checkAEMDuration fails the test when got and err are not want, or not an error containing wantErr when it is set.
func checkAEMDuration(t *testing.T, name string, got time.Duration, err error, want time.Duration, wantErr string) {
	t.Helper()
	switch {
	case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
		t.Errorf("%s: %v, %v; want error %q", name, got, err, wantErr)
	case wantErr == "" && (err != nil || got != want):
		t.Errorf("%s: %v, %v; want %v", name, got, err, want)
	}
}

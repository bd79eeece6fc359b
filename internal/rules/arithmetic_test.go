package rules

import (
	"strings"
	"testing"
)

func TestMaxAttempts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                  string
		redeliveries, retries int64
		want                  int64
		wantErr               string // substring; "" = no error
	}{
		{"seed R=1 n=1", 1, 1, 3, ""},
		{"seed R=2 n=2", 2, 2, 7, ""},
		{"seed R=1 n=4", 1, 4, 9, ""},
		{"one retry is R+2", 5, 1, 7, ""},
		{"largest", MaxRedeliveryCountLimit, MaxRetriesLimit, 256*99 + 1, ""},
		{"zero redeliveries are unlimited", 0, 1, 0, "0 means unlimited"},
		{"negative redeliveries", -1, 1, 0, "0 means unlimited"},
		{"too many redeliveries", 256, 1, 0, "limit of 255"},
		{"zero retries", 1, 0, 0, "outcome at once"},
		{"negative retries", 1, -2, 0, "negative"},
		{"too many retries", 1, 100, 0, "limit of 99"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := MaxAttempts(tt.redeliveries, tt.retries)
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Fatalf("MaxAttempts(%d, %d) = %d, %v; want %d", tt.redeliveries, tt.retries, got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("MaxAttempts(%d, %d) error = %v; want it to contain %q", tt.redeliveries, tt.retries, err, tt.wantErr)
			}
		})
	}
}

func TestRedeliveriesFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		total, want int64
		wantErr     bool
	}{
		{3, 1, false},
		{7, 5, false},
		{257, 255, false},
		{2, 0, true},
		{0, 0, true},
		{-5, 0, true},
		{258, 0, true},
	}
	for _, tt := range tests {
		got, err := RedeliveriesFor(tt.total)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("RedeliveriesFor(%d) = %d, %v; want %d, error %v", tt.total, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestRedeliveriesForInvertsMaxAttempts(t *testing.T) {
	t.Parallel()
	for r := int64(1); r <= MaxRedeliveryCountLimit; r++ {
		total, err := MaxAttempts(r, 1)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := RedeliveriesFor(total); err != nil || back != r {
			t.Fatalf("RedeliveriesFor(MaxAttempts(%d, 1) = %d) = %d, %v", r, total, back, err)
		}
	}
}

func FuzzMaxAttempts(f *testing.F) {
	f.Add(int64(1), int64(1))
	f.Add(int64(2), int64(2))
	f.Add(int64(1), int64(4))
	f.Add(int64(0), int64(5))
	f.Add(int64(255), int64(99))
	f.Add(int64(-1), int64(-1))
	f.Fuzz(func(t *testing.T, redeliveries, retries int64) {
		got, err := MaxAttempts(redeliveries, retries)
		valid := redeliveries >= 1 && redeliveries <= MaxRedeliveryCountLimit && retries >= 1 && retries <= MaxRetriesLimit
		if valid != (err == nil) {
			t.Fatalf("MaxAttempts(%d, %d) error = %v, want error %v", redeliveries, retries, err, !valid)
		}
		if err != nil {
			if got != 0 || err.Error() == "" {
				t.Fatalf("MaxAttempts(%d, %d) = %d, %q on error", redeliveries, retries, got, err)
			}
			return
		}
		if got != (redeliveries+1)*retries+1 || got < minTotalAttempts {
			t.Fatalf("MaxAttempts(%d, %d) = %d", redeliveries, retries, got)
		}
		// Each extra redelivery adds a full round of retries.
		if more, err := MaxAttempts(redeliveries+1, retries); err == nil && more-got != retries {
			t.Fatalf("MaxAttempts(%d, %d) - MaxAttempts(%d, %d) = %d, want %d", redeliveries+1, retries, redeliveries, retries, more-got, retries)
		}
		if retries == 1 {
			if back, err := RedeliveriesFor(got); err != nil || back != redeliveries {
				t.Fatalf("RedeliveriesFor(%d) = %d, %v; want %d", got, back, err, redeliveries)
			}
		}
	})
}

func TestAttemptsWithoutRedelivery(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]int64{1: 2, 5: 6, 99: 100} {
		if got := AttemptsWithoutRedelivery(n); got != want {
			t.Errorf("AttemptsWithoutRedelivery(%d) = %d, want %d", n, got, want)
		}
	}
}

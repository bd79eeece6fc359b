package landscape_test

import "testing"

func TestAccFunctionMaxAttempts(t *testing.T) {
	t.Parallel()
	testFunction(t, "max_attempts", []functionCase{
		// The observed totals of one always-failing message.
		{args: "1, 1", want: 3},
		{args: "2, 2", want: 7},
		{args: "1, 4", want: 9},
		{args: "255, 99", want: 25345},
		{args: "0, 1", wantErr: `redeliveries = 0: redeliveries must be a whole number from 1 to 255 \(a max redelivery count of 0 means unlimited`},
		{args: "-1, 1", wantErr: `redeliveries = -1: redeliveries must be a whole number from 1 to 255 \(max redelivery count -1 is negative`},
		{args: "256, 1", wantErr: `redeliveries = 256: redeliveries must be a whole number from 1 to 255`},
		{args: "5, 0", wantErr: `retries = 0: retries must be a whole number from 1 to 99`},
		{args: "5, 100", wantErr: `retries = 100: retries must be a whole number from 1 to 99`},
		{args: "1.5, 1", wantErr: `redeliveries = 1.5: redeliveries must be a whole number from 1 to 255`},
		{args: "5, 1e20", wantErr: `retries = 1e\+20: retries must be a whole number from 1 to 99`},
	}, nil)
}

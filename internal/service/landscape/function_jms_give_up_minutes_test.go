package landscape_test

import "testing"

func TestAccFunctionJMSGiveUpMinutes(t *testing.T) {
	t.Parallel()
	testFunction(t, "jms_give_up_minutes", []functionCase{
		// The worked examples of the JMS sender arithmetic, and the edges of the closed form.
		{args: "1, 60, true, 10", want: 303},
		{args: "1, 60, true, 5", want: 31},
		{args: "5, 60, false, 10", want: 50},
		{args: "1, 60, true, 0", want: 0},
		{args: "60, 10, true, 4", want: 40},                       // The maximum below the interval caps every wait.
		{args: "5, 0, false, 3", want: 15},                        // The maximum is unused without backoff.
		{args: "1, 60, true, 1000000", want: 63 + (1000000-6)*60}, // Closed form: a million retries at once.
		{args: "1, 43200, true, 100000000", want: 65535 + (100000000-16)*43200},
		{args: "0, 60, true, 1", wantErr: `retry_interval = 0: retry_interval must be a whole number from 1 to 1099511627776 \(retry interval 0 is below 1 minute`},
		{args: "1, 0, true, 1", wantErr: `max_retry_interval = 0: max_retry_interval must be a whole number from 1 to 1099511627776 \(maximum retry interval 0`},
		{args: "1, 60, true, -1", wantErr: `retries = -1: retries must be a whole number from 0 to 9223372036854775807 \(-1 retries is negative`},
		{args: "1.5, 60, true, 1", wantErr: `retry_interval = 1.5: retry_interval must be a whole number from 1 to 1099511627776`},
		{args: "1, 60, true, 2.5", wantErr: `retries = 2.5: retries must be a whole number from 0 to 9223372036854775807`},
		{args: "1, 60, true, 9223372036854775807", wantErr: `exceeds the largest number of minutes`},
	}, nil)
}

// The shipped example runs as it is and prints what its comments say.
func TestAccFunctionJMSGiveUpMinutesExample(t *testing.T) {
	t.Parallel()
	testFunction(t, "jms_give_up_minutes", nil, map[string]int64{"defaults_ten_retries": 303, "guard_of_five": 63, "constant_five_minutes": 50})
}

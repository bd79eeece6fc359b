package landscape_test

import "testing"

func TestAccFunctionAEMSenderTimeToDeadLetter(t *testing.T) {
	t.Parallel()
	const queue = ", 5, true, 1000, 64000, 200"
	testFunction(t, "aem_sender_time_to_dead_letter", []functionCase{
		{args: "5, 1000, 30000, 3.0" + queue, want: 6*40000 + 31000},
		{args: "5, 1000, 30000, 3" + queue, want: 6*40000 + 31000},
		{args: "3, 1000, 30000, 1.5, 1, false, 1000, 64000, 200", want: 2 * 2500},
		{args: "1, 0, 0, 0" + queue, want: 31000}, // One attempt: only the broker waits.
		{args: "6, 1000, 30000, 3.0, 1, false, 1, 1, 1", want: 2 * 70000},
		{args: "0, 1000, 30000, 3.0" + queue, wantErr: `attempts = 0: attempts must be a whole number from 1 to 9223372036854775807 \(0 processing attempts`},
		{args: "5, 0, 30000, 3.0" + queue, wantErr: `retry_interval = 0: retry_interval must be a whole number from 1 to 9223372036854775807 \(a retry interval of 0 ms`},
		{args: "5, 1000, 0.5, 3.0" + queue, wantErr: `max_retry_interval = 0.5: max_retry_interval must be a whole number from 1 to 9223372036854775807`},
		{args: "5, 1000, 30000, 0" + queue, wantErr: `retry_multiplier = 0: a retry multiplier of 0 cannot multiply a wait`},
		{args: "5, 1000, 30000, 3.0, 0, true, 1000, 64000, 200", wantErr: `max_redelivery_count = 0: max_redelivery_count must be a whole number from 1 to 255 \(a max redelivery count of 0 means retry forever`},
		{args: "5, 1000, 30000, 3.0, 5, true, 1000, 64000, 600", wantErr: `redelivery_delay_multiplier must be a whole number from 100 to 500`},
		{args: "9223372036854775807, 1000, 9223372036854775807, 3.0, 255, false, 1, 1, 100", wantErr: `the time exceeds the longest this provider computes`},
	}, map[string]int64{"orders_ms": 271000, "constant_waits_ms": 8000})
}

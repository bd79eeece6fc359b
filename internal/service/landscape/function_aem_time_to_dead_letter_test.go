package landscape_test

import "testing"

func TestAccFunctionAEMTimeToDeadLetter(t *testing.T) {
	t.Parallel()
	testFunction(t, "aem_time_to_dead_letter", []functionCase{
		{args: "5, true, 1000, 64000, 200", want: 31000},
		{args: "10, true, 1000, 64000, 200", want: 63000 + 4*64000}, // Capped at the maximum.
		{args: "3, true, 500, 64000, 100", want: 1500},
		{args: "2, true, 1000, 64000, 150", want: 2500},
		{args: "255, false, 0, 0, 0", want: 0}, // The delay's numbers are not used when it is off.
		{args: "0, true, 1000, 64000, 200", wantErr: `max_redelivery_count = 0: max_redelivery_count must be a whole number from 1 to 255 \(a max redelivery count of 0 means retry forever`},
		{args: "5, true, 0, 64000, 200", wantErr: `redelivery_delay_initial_interval = 0: redelivery_delay_initial_interval must be a whole number from 1 to 3600000`},
		{args: "5, true, 1000, 10800001, 200", wantErr: `redelivery_delay_max_interval must be a whole number from 1 to 10800000`},
		{args: "5, true, 1000, 64000, 2.0", wantErr: `redelivery_delay_multiplier = 2: redelivery_delay_multiplier must be a whole number from 100 to 500 \(2 is out of range: the broker accepts a multiplier in hundredths`},
		{args: "5, true, 1000, 64000, 150.5", wantErr: `redelivery_delay_multiplier = 150.5: redelivery_delay_multiplier must be a whole number from 100 to 500`},
	}, map[string]int64{"orders_delays_ms": 31000, "no_delay_ms": 0})
}

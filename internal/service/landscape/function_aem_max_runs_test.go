package landscape_test

import "testing"

func TestAccFunctionAEMMaxRuns(t *testing.T) {
	t.Parallel()
	testFunction(t, "aem_max_runs", []functionCase{
		{args: "5, 5", want: 30},
		{args: "1, 1", want: 2},
		{args: "5, 255", want: 1280},
		{args: "36028797018963967, 255", want: 36028797018963967 * 256},
		{args: "5, 0", wantErr: `max_redelivery_count = 0: max_redelivery_count must be a whole number from 1 to 255 \(a max redelivery count of 0 means retry forever`},
		{args: "5, 256", wantErr: `max_redelivery_count = 256: max_redelivery_count must be a whole number from 1 to 255 \(max redelivery count 256 exceeds`},
		{args: "0, 5", wantErr: `attempts = 0: attempts must be a whole number from 1 to 9223372036854775807 \(0 processing attempts`},
		{args: "2.5, 5", wantErr: `attempts = 2.5: attempts must be a whole number from 1 to 9223372036854775807`},
		{args: "5, 1.5", wantErr: `max_redelivery_count = 1.5: max_redelivery_count must be a whole number from 1 to 255`},
		{args: "36028797018963968, 255", wantErr: `36028797018963968 × \(255 \+ 1\) runs exceeds the largest whole number`},
	}, map[string]int64{"orders_worst_case": 30, "one_attempt": 4})
}

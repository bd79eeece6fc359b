package integration

import "testing"

func TestJMSWaitsFollowSAP(t *testing.T) {
	t.Parallel()
	walk := func(w jmsWaits, k int) []int64 {
		var out []int64
		prev := int64(0)
		for range k {
			prev = w.next(prev)
			out = append(out, prev)
		}
		return out
	}
	for _, tc := range []struct {
		w    jmsWaits
		want []int64
	}{
		{jmsWaits{1, 60, true}, []int64{1, 2, 4, 8, 16, 32, 60, 60}},
		{jmsWaits{5, 60, false}, []int64{5, 5, 5}},
		{jmsWaits{3, 10, true}, []int64{3, 6, 10, 10}},
		{jmsWaits{20, 10, true}, []int64{10, 10}},
	} {
		got := walk(tc.w, len(tc.want))
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%+v: waits %v, want %v", tc.w, got, tc.want)
				break
			}
		}
	}
}

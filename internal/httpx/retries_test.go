package httpx

import "testing"

// A count of retries in which 0 means none reaches the retry client as written; a Config
// without one gets the default.
func TestSetRetries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		set  bool
		n    int
		want int
	}{{false, 0, DefaultMaxRetries}, {true, 0, 0}, {true, 1, 1}, {true, 20, 20}} {
		var cfg Config
		if c.set {
			cfg.SetRetries(c.n)
		}
		if got := cfg.withDefaults().MaxRetries; got != c.want {
			t.Errorf("set %v %d: %d retries, want %d", c.set, c.n, got, c.want)
		}
	}
}

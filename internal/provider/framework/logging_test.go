package framework

import (
	"maps"
	"slices"
	"testing"
)

func TestSilenceUnwantedLogs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		environ []string
		silence bool
	}{
		{"nothing set", []string{"PATH=/usr/bin", "TF_IN_AUTOMATION=1"}, true},
		{"empty TF_LOG", []string{"TF_LOG=", "TF_LOG_PATH="}, true},
		{"TF_LOG", []string{"TF_LOG=trace"}, false},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=DEBUG"}, false},
		{"TF_LOG_SDK_FRAMEWORK", []string{"TF_LOG_SDK_FRAMEWORK=trace"}, false},
		{"TF_LOG_PROVIDER_SAPMESSAGING", []string{"TF_LOG_PROVIDER_SAPMESSAGING=info"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			set := map[string]string{}
			if got := silenceUnwantedLogs(tc.environ, func(k, v string) { set[k] = v }); got != tc.silence {
				t.Fatalf("silenceUnwantedLogs reported %v, want %v", got, tc.silence)
			}
			if !tc.silence {
				if len(set) != 0 {
					t.Fatalf("logs were switched off although asked for: %v", set)
				}
				return
			}
			if keys := slices.Sorted(maps.Keys(set)); !slices.Equal(keys, slices.Sorted(slices.Values(quietLogLevels))) {
				t.Fatalf("set %v, want all of %v", set, quietLogLevels)
			}
			for k, v := range set {
				if v != "OFF" {
					t.Errorf("%s = %q, want OFF", k, v)
				}
			}
		})
	}
}

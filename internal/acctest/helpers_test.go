package acctest

import (
	"fmt"
	"testing"
)

// TestProviderOf holds ProviderOf to the provider block it writes: the services named, with the emulator's
// credentials, and the other lines as they are.
func TestProviderOf(t *testing.T) {
	t.Parallel()
	env := NewTestEnv(t)
	c := env.Srv.AdvancedEventMeshCredentials()
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"event_mesh"}, fmt.Sprintf("\nprovider \"sapmessaging\" {\n  event_mesh = { service_key = %q }\n}\n", string(env.Srv.EventMeshKey()))},
		{[]string{"cloud_integration", "max_retries = 3"},
			fmt.Sprintf("\nprovider \"sapmessaging\" {\n  cloud_integration = { service_key = %q }\n  max_retries = 3\n}\n", string(env.Srv.CloudIntegrationKey()))},
		{[]string{"advanced_event_mesh"}, fmt.Sprintf("\nprovider \"sapmessaging\" {\n  advanced_event_mesh = { semp_url = %q, msg_vpn_name = %q, username = %q, password = %q }\n}\n",
			c.SEMPURL, c.MsgVpnName, c.Username, c.Password)},
		{nil, "\nprovider \"sapmessaging\" {\n}\n"},
	} {
		if got := env.ProviderOf(tc.lines...); got != tc.want {
			t.Errorf("ProviderOf(%q) =\n%s\nwant\n%s", tc.lines, got, tc.want)
		}
	}
}

package httpx_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// With tokens that expire every few requests while many writes are in flight, no 401 reaches a
// caller: a write refused with a token that another write has replaced meanwhile is repeated with
// the current token, and one refused with the current token fetches a new one.
func TestFrequentTokenExpiryReachesNoCaller(t *testing.T) {
	t.Parallel()
	emu := emulatortest.Start(t, emulator.Options{})
	c := emulatortest.Client(t, emu.ManagementConfig())
	const (
		writers = 10
		writes  = 400
		queues  = 50
		// expiryEvery expires all tokens at every 50th request: every 40 or so writes, while 10
		// are in flight. Far more often, with the 401s and their repeats counted, tokens would not
		// outlive one round of requests, and no bounded number of retries would do.
		expiryEvery = 50
	)
	emu.SetFaults(emulator.Faults{TokenExpiryEvery: expiryEvery})
	var next, unauthorized atomic.Int64
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > writes {
					return
				}
				path := fmt.Sprintf("/hub/rest/api/v1/management/messaging/queues/acme%%2Fcrm%%2Fprod%%2Fq%d", i%queues)
				resp, err := c.Do(t.Context(), http.MethodPut, path, []byte(`{"maxRedeliveryCount":3}`), nil)
				switch {
				case err != nil:
					t.Error(err)
				case resp.StatusCode == http.StatusUnauthorized:
					unauthorized.Add(1)
				case resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated:
					t.Errorf("PUT %s: %d %s", path, resp.StatusCode, resp.Body)
				}
			}
		})
	}
	wg.Wait()
	st := emu.Stats()
	t.Logf("%d writes: %d token expiries, %d answers 401 at the API, %d token fetches, %d reached a caller",
		writes, st.Faults[emulator.FaultTokenExpiry], st.Statuses[http.StatusUnauthorized], c.Stats().TokenFetches, unauthorized.Load())
	if n := unauthorized.Load(); n != 0 {
		t.Errorf("%d of %d writes got 401 Unauthorized although a valid token could be had", n, writes)
	}
	if st.Faults[emulator.FaultTokenExpiry] < writes/expiryEvery {
		t.Errorf("only %d token expiries: the test did not expire tokens often", st.Faults[emulator.FaultTokenExpiry])
	}
}

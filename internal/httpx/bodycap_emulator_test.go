package httpx_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// The largest answer of the Event Mesh management API, the list of a full instance (250 queues
// with names and dead message queues of the longest length, every setting set), stays a
// sixteenth of the default cap: a queue object is within the 4 KiB the cap's arithmetic allows.
func TestDefaultMaxResponseBytesHoldsAFullInstance(t *testing.T) {
	t.Parallel()
	emu := emulatortest.Start(t, emulator.Options{})
	c := emulatortest.Client(t, emu.ManagementConfig())
	ctx := context.Background()
	const base = "/hub/rest/api/v1/management/messaging/queues/"
	long := func(i int) string { // 164 characters, the longest queue name
		s := fmt.Sprintf("acme/crm/prod/%03d/", i) + strings.Repeat("q", 100) + "/"
		return s + strings.Repeat("r", 164-len(s))
	}
	escape := func(name string) string { return strings.ReplaceAll(name, "/", "%2F") }
	dmq := long(999)
	if resp, err := c.Do(ctx, http.MethodPut, base+escape(dmq), []byte(`{}`), nil); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating the dead message queue: %v %+v", err, resp)
	}
	body := fmt.Sprintf(`{"accessType":"NON_EXCLUSIVE","maxQueueSizeInBytes":1572864000,"maxMessageSizeInBytes":1000000,`+
		`"maxQueueMessageCount":2147483647,"maxDeliveredUnackedMsgsPerFlow":2147483647,"maxRedeliveryCount":255,`+
		`"deadMsgQueue":%q,"respectTtl":true,"maxTtl":604800}`, dmq)
	for i := range 249 {
		if resp, err := c.Do(ctx, http.MethodPut, base+escape(long(i)), []byte(body), nil); err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("creating queue %d: %v %v", i, err, resp)
		}
	}
	resp, err := c.Do(ctx, http.MethodGet, strings.TrimSuffix(base, "/"), nil, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("listing: %v %v", err, resp)
	}
	perQueue := len(resp.Body) / 250
	t.Logf("a list of 250 queues: %d bytes, %d per queue; default cap %d bytes", len(resp.Body), perQueue, httpx.DefaultMaxResponseBytes)
	if perQueue > 4<<10 || len(resp.Body)*16 > httpx.DefaultMaxResponseBytes {
		t.Errorf("a full instance's list (%d bytes, %d per queue) leaves less than the margin of 16 under the cap", len(resp.Body), perQueue)
	}
}

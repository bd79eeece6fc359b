package eventmesh_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The webhook cross-check: the emulator pushes an always-failing message through a QoS 1
// webhook on its own clock, written from SAP's documentation, and the provider's retry
// arithmetic (rules.WebhookGiveUp, rules.WebhookRetryWait, rules.WebhookTTLSeconds) predicts
// the number of tries, when the last one was due and where the message ends. The emulator
// imports none of it, so a row agrees only when both read SAP's schedule the same way.
func TestWebhookCrossCheckWithRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		redeliveries int64
		respectTTL   bool
		maxTTL       int64
		dmq          bool
	}{
		{0, false, 0, true},       // 7 days
		{0, true, 3600, false},    // an hour, purged
		{2, false, 0, true},       // 3 tries in 45 minutes
		{5, true, 86400, true},    // 465 minutes, before the day ends
		{8, true, 86400, false},   // the day ends first
		{255, false, 0, true},     // the 7 days end first
		{1, true, 600, true},      // the first retry would come after the TTL
		{4, true, 14400, false},   // 4 redeliveries at 465 minutes, past 240: TTL
		{3, false, 604800, true},  // maxTtl without respectTtl: 7 days, the count ends it
		{6, true, 604800, true},   // 945 minutes
		{12, true, 432000, false}, // 5 days
		{10, true, 0, true},       // respectTtl without maxTtl
	} {
		name := fmt.Sprintf("R=%d respectTtl=%v maxTtl=%d dmq=%v", tc.redeliveries, tc.respectTTL, tc.maxTTL, tc.dmq)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			queue := fmt.Sprintf(`{"maxRedeliveryCount":%d,"respectTtl":%v`, tc.redeliveries, tc.respectTTL)
			if tc.maxTTL > 0 {
				queue += fmt.Sprintf(`,"maxTtl":%d`, tc.maxTTL)
			}
			if tc.dmq {
				queue += `,"deadMsgQueue":"acme/crm/prod/dmq"`
			}
			queue += "}"
			e := newWebhookEnv(t, emulator.Options{WebhookMinute: 50 * time.Microsecond},
				map[string]string{"acme/crm/prod/dmq": "", "acme/crm/prod/orders": queue})
			ep := newEndpoint(t, http.StatusInternalServerError)
			emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("cross", "acme/crm/prod/orders", 1, ep.URL, true)), http.StatusCreated)
			if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`poison`), ""); err != nil {
				t.Fatal(err)
			}
			waitWebhook(t, "the end of the message", func() bool {
				rep := report(t, e.s, "cross")
				return rep.DeadLettered+rep.Purged == 1
			})
			rep := report(t, e.s, "cross")

			tries, _, _ := rules.WebhookGiveUp(tc.redeliveries, rules.WebhookTTLSeconds(tc.respectTTL, tc.maxTTL))
			var last int64
			for n := int64(1); n < tries; n++ {
				last += rules.WebhookRetryWait(n)
			}
			var got []time.Duration
			for _, v := range rep.Tries {
				got = v
			}
			if rep.Attempts != tries || len(got) != int(tries) || got[len(got)-1] != time.Duration(last)*time.Minute {
				t.Fatalf("emulator: %d attempts, tries due at %v; rules: %d tries, the last %d minutes after the first", rep.Attempts, got, tries, last)
			}
			if (rep.DeadLettered == 1) != tc.dmq {
				t.Fatalf("emulator: dead-lettered %d, purged %d; the queue has a DMQ: %v", rep.DeadLettered, rep.Purged, tc.dmq)
			}
		})
	}
}

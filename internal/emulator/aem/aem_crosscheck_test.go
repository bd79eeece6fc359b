package aem_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// TestCrossCheckAEM runs a poison message through the emulated broker for a table of queue settings and
// compares the deliveries and the waits between them with what internal/rules predicts from the same
// settings (AEMDeliveries, AEMRedeliveryDelay). The two are written apart, from the same SEMP v2
// specification: a disagreement is decided against the specification and fixed on the side that is wrong.
func TestCrossCheckAEM(t *testing.T) {
	t.Parallel()
	cases := []struct {
		enabled             bool
		r                   int64
		delay               bool
		initial, maxMs, mul int64
	}{
		{true, 1, false, 1000, 64000, 200},
		{true, 3, true, 100, 6400, 200},
		{true, 5, true, 100, 1000, 300},
		{true, 10, true, 50, 400, 150},
		{true, 8, true, 200, 200, 500},
		{true, 255, false, 1000, 64000, 200},
		{false, 5, true, 100, 1000, 200},
		{true, 0, true, 100, 800, 200}, // forever: the run stops after 40 deliveries with the message still queued
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("enabled=%v R=%d delay=%v %d/%d/%d", c.enabled, c.r, c.delay, c.initial, c.maxMs, c.mul), func(t *testing.T) {
			t.Parallel()
			// One AEM minute lasts 600 ms: 1 AEM second is 10 ms of real time.
			e := emulatortest.StartAEM(t, emulator.Options{AEMMinute: 600 * time.Millisecond})
			e.CreateQueue("dmq", nil)
			e.CreateQueue("orders", map[string]any{"deadMsgQueue": "dmq", "redeliveryEnabled": c.enabled, "maxRedeliveryCount": c.r,
				"redeliveryDelayEnabled": c.delay, "redeliveryDelayInitialInterval": c.initial, "redeliveryDelayMaxInterval": c.maxMs,
				"redeliveryDelayMultiplier": c.mul})
			if st := e.Publish("orders", http.Header{}); st != http.StatusOK {
				t.Fatalf("publish: %d", st)
			}
			want, unlimited := rules.AEMDeliveries(c.enabled, c.r)
			limit := int(want)
			if unlimited {
				limit = 40
			}
			ds, where, err := e.Server.AEMPoisonRun("orders", limit+1, 60*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if unlimited {
				if len(ds) != limit+1 || where != "" {
					t.Fatalf("retry forever: %d deliveries then %q; want the message still queued after %d", len(ds), where, limit+1)
				}
			} else if int64(len(ds)) != want || where != "dmq" {
				t.Fatalf("%d deliveries then %q; rules predict %d then the DMQ", len(ds), where, want)
			}
			for k := 1; k < len(ds); k++ {
				gap := ds[k].At.Sub(ds[k-1].At)
				var predicted time.Duration
				if c.delay {
					predicted = rules.AEMRedeliveryDelay(int64(k), c.initial, c.maxMs, c.mul)
				}
				// The poison run's consumer takes each delivery the moment it is available and fails it at once,
				// so the gaps are the broker's waits alone.
				if d := gap - predicted; d < -time.Millisecond || d > time.Millisecond {
					t.Errorf("redelivery %d after %v, rules predict %v", k, gap, predicted)
				}
			}
		})
	}
}

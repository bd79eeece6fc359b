package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// startEmulator runs an emulator whose AEM minute lasts 1 ms (B's 31 s of redelivery delays pass in about
// half a millisecond) and returns the command's arguments for it.
func startEmulator(t *testing.T) []string {
	t.Helper()
	s, dir := cmdtest.Start(t, emulator.Options{AEMMinute: time.Millisecond})
	return []string{"-emulator", s.URL(), "-aem-key", filepath.Join(dir, emulator.AdvancedEventMeshKeyFile), "-timeout", "60s",
		"-cloud-integration-key", filepath.Join(dir, "cloud-integration.json")}
}

// B's deliveries equal the rules' number, on the delay schedule, then the DMQ; A goes on past it.
func TestRunMatchesTheRules(t *testing.T) {
	t.Parallel()
	args := startEmulator(t)
	for i := range 2 { // a second run replaces the queues of the first
		out := cmdtest.Run(t, run, 0, append(args, "-deliveries", "500")...)
		planned, _ := rules.AEMDeliveries(true, 5)
		cmdtest.Contains(t, fmt.Sprintf("run %d: output", i), out,
			"max_redelivery_count 0 (retry forever)",
			"max_redelivery_count 5",
			"1 s, × 2.00, at most 1 min 4 s",
			"#DEAD_MSG_QUEUE (does not exist)",
			"demo.aem.orders.dmq (respect_ttl, max_ttl 604800 s = 7 days)",
			"unlimited (rules.AEMDeliveries)",
			"6 (rules.AEMDeliveries), at 0 ms, 1 s, 3 s, 7 s, 15 s, 31 s",
			"500 within 0 ms of broker time (the run stops at 500): still going",
			"6, at 0 ms, 1 s, 3 s, 7 s, 15 s, 31 s",
			"still on demo.aem.defaults (1 message), retry forever",
			"demo.aem.orders.dmq (1 message there, 0 left on demo.aem.orders)",
			"the provider's rules on A: aem.redelivery_unlimited (error)",
			"the provider's rules on B: none",
			"plan B: a poison message is delivered 6 times over 31 s of redelivery delays, then moved to the dead message queue \"demo.aem.orders.dmq\"",
			"B delivered 6 times, as the rules plan",
			// The AEM sender flows: the seed settings give N_max 5 × (5 + 1) = 30 over 6 × 40 s + 31 s.
			"channel: 5 attempts, waits 1 s × 3.0 up to 30 s, AUTOMATIC_ON_EXCHANGE_COMPLETE, FAILED",
			"runs observed 30 = N_max planned 30 (6 deliveries, 6 planned), end: DMQ demo.aem.sender.orders.dmq after 4 min 31 s (planned DMQ demo.aem.sender.orders.dmq after 4 min 31 s)",
			"runs observed 5 = N_max planned 5 (1 delivery, 1 planned), end: deleted after 40 s (planned deleted after 40 s)",
			"the provider's rules: aem_sender.rejected_without_dmq (error)",
			"runs observed 1 = N_max planned 1 (1 delivery, 1 planned), end: lost after 0 ms (planned lost after 0 ms)",
			"the provider's rules: aem_sender.ack_immediate (error)",
			"aempoison: every sender flow ran as the rules plan: DemoAEMSenderFailed 30 runs, DMQ demo.aem.sender.orders.dmq; DemoAEMSenderRejected 5 runs, deleted; DemoAEMSenderImmediate 1 run, lost.",
		)
		if planned != 6 {
			t.Errorf("rules.AEMDeliveries(true, 5) = %d, want 6", planned)
		}
	}
}

func TestPlanFor(t *testing.T) {
	t.Parallel()
	b := planFor(providerQueue().queue, true)
	if b.unlimited || b.deliveries != 6 || durations(b.offsets) != "0 ms, 1 s, 3 s, 7 s, 15 s, 31 s" || rules.HasErrors(b.findings) {
		t.Errorf("provider settings: %+v", b)
	}
	a := planFor(defaultsQueue().queue, false)
	if !a.unlimited || a.offsets != nil || !rules.HasErrors(a.findings) {
		t.Errorf("broker defaults: %+v", a)
	}
	// Redelivery disabled: one delivery.
	q := aem.Queue{Name: "x", QueueSettings: aem.QueueSettings{RedeliveryEnabled: aem.Ptr(false), DeadMsgQueue: aem.Ptr("x.dmq")}}
	if p := planFor(q, true); p.deliveries != 1 || durations(p.offsets) != "0 ms" {
		t.Errorf("redelivery disabled: %+v", p)
	}
}

func TestLoadCredentials(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SAPMESSAGING_AEM_SEMP_URL": "http://127.0.0.1:1", "SAPMESSAGING_AEM_MSG_VPN_NAME": "vpn", "SAPMESSAGING_AEM_USERNAME": "u"}
	_, err := loadCredentials("", func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), "lack password;") {
		t.Errorf("without a password: %v", err)
	}
	env["SAPMESSAGING_AEM_PASSWORD"] = "p"
	if c, err := loadCredentials("", func(k string) string { return env[k] }); err != nil || c.MsgVpnName != "vpn" {
		t.Errorf("from the variables: %+v %v", c, err)
	}
	if _, err := loadCredentials(filepath.Join(t.TempDir(), "missing.json"), nil); err == nil {
		t.Error("a missing key file is not an error")
	}
}

func TestArguments(t *testing.T) {
	t.Parallel()
	cmdtest.Refuses(t, run, []string{"extra"}, []string{"-deliveries", "0"}, []string{"-deliveries", "10001"}, []string{"-aem-key", filepath.Join(t.TempDir(), "none.json")})
}

package aem_test

import (
	"context"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// The AEM sample landscape holds the shapes the list resources tell apart, as the broker's SEMP API shows
// them, and loading it again keeps what exists.
func TestLoadSampleContent_aem(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	c := srv.AdvancedEventMeshCredentials()
	h, err := httpx.New(aem.HTTPConfig(c.SEMPURL, c.Username, c.Password))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := aem.New(h, c.MsgVpnName)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := cl.UpdateQueue(ctx, "acme/aem/prod/legacy", aem.QueueSettings{MaxMsgSpoolUsage: aem.Ptr[int64](10)}); err != nil {
		t.Fatal(err)
	}
	if err := srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	qs, err := cl.ListQueues(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]aem.Queue{}
	for _, q := range qs {
		got[q.Name] = q
	}
	if len(got) != len(emulator.SampleAEMQueues) {
		t.Fatalf("%d queues, want %d: %v", len(got), len(emulator.SampleAEMQueues), got)
	}
	legacy := got["acme/aem/prod/legacy"]
	if *legacy.MaxRedeliveryCount != 0 || *legacy.DeadMsgQueue != "#DEAD_MSG_QUEUE" || *legacy.MaxMsgSpoolUsage != 10 {
		t.Errorf("legacy: %+v, want the broker's defaults (retry forever, #DEAD_MSG_QUEUE) and the spool usage set after the first load", legacy.QueueSettings)
	}
	if _, ok := got["#DEAD_MSG_QUEUE"]; ok {
		t.Error("the sample creates #DEAD_MSG_QUEUE; the legacy queue's dead message queue must be missing")
	}
	if q := got["acme/aem/prod/audit/dmq"]; *q.RespectTTLEnabled || *q.MaxTTL != 0 || !*q.IngressEnabled {
		t.Errorf("audit/dmq: %+v, want a dead message queue without time to live that takes messages", q.QueueSettings)
	}
	if q := got["acme/aem/prod/payments/errors"]; *q.MaxRedeliveryCount != 2 || *q.DeadMsgQueue != "acme/aem/prod/payments/errors/dmq" {
		t.Errorf("payments/errors: %+v, want a chained error queue with its own redelivery count and dead message queue", q.QueueSettings)
	}
	for _, q := range qs {
		if d := *q.DeadMsgQueue; d != "#DEAD_MSG_QUEUE" {
			if _, ok := got[d]; !ok {
				t.Errorf("%s names the dead message queue %s, which the sample does not create", q.Name, d)
			}
		}
	}
}

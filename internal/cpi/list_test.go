package cpi_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func TestListRuntimeAndDesigntimeArtifacts(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	for _, f := range []struct{ id, pkg string }{{"Orders", "Sales"}, {"Invoices", "Finance"}, {"Draft", "Sales"}} {
		if err := s.CreateIFlow(f.id, f.id, f.pkg, flowZip(f.id, nil, iflowbuild.DefaultSenderProperties("acme/crm/prod/"+f.id))); err != nil {
			t.Fatalf("CreateIFlow %s: %v", f.id, err)
		}
	}
	rts, err := c.ListRuntimeArtifacts(ctx)
	if err != nil || len(rts) != 0 {
		t.Fatalf("ListRuntimeArtifacts before any deploy = %+v, %v; want none", rts, err)
	}
	for _, id := range []string{"Orders", "Invoices"} {
		if _, err := c.DeployAndWait(ctx, id, "", 5*time.Millisecond); err != nil {
			t.Fatalf("DeployAndWait %s: %v", id, err)
		}
	}
	rts, err = c.ListRuntimeArtifacts(ctx)
	if err != nil {
		t.Fatalf("ListRuntimeArtifacts: %v", err)
	}
	got := map[string]cpi.RuntimeArtifact{}
	for _, rt := range rts {
		got[rt.ID] = rt
	}
	if len(got) != 2 || got["Orders"].Status != cpi.RuntimeStarted || got["Invoices"].Version != "1.0.0" ||
		got["Orders"].Type != cpi.TypeIntegrationFlow {
		t.Fatalf("ListRuntimeArtifacts = %+v; want Orders and Invoices started in 1.0.0", rts)
	}
	arts, err := c.ListArtifacts(ctx)
	if err != nil {
		t.Fatalf("ListArtifacts: %v", err)
	}
	pkgs := map[string]string{}
	for _, a := range arts {
		pkgs[a.ID] = a.PackageID
	}
	if len(pkgs) != 3 || pkgs["Draft"] != "Sales" || pkgs["Invoices"] != "Finance" {
		t.Fatalf("ListArtifacts = %+v; want the three flows with their packages", arts)
	}
}

// ReadFlows downloads each flow once however often it is asked for in the run, keeps going past
// a flow that fails, and names the channels of each; PrimeRuntimes answers the runtime reads of
// the listed flows without a call, a flow missing from the list as not deployed.
func TestReadFlowsAndPrimeRuntimes(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	ctx := t.Context()
	two := iflowbuild.Build(iflowbuild.Options{Name: "Two", Senders: []iflowbuild.Sender{
		{ID: "MessageFlow_1", Name: "Orders", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")},
		{ID: "MessageFlow_2", Name: "Orders", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders2")},
		{ID: "MessageFlow_3", Name: "Returns", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/returns")},
		{ID: "MessageFlow_4", Name: "Jms", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("Q")},
	}})
	if err := s.CreateIFlow("Two", "Two", "Sales", two); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateIFlow("One", "One", "Sales", flowZip("One", nil, iflowbuild.DefaultSenderProperties("acme/crm/prod/one"))); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeployAndWait(ctx, "One", "", 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	fs := cpi.NewFlows(c)
	s.ResetStats()
	got := fs.ReadFlows(ctx, []string{"Two", "One", "Missing", "Two"}, "active", 2)
	if len(got) != 4 || got[0].Err != nil || got[1].Err != nil || !errors.Is(got[2].Err, cpi.ErrNotFound) || got[3].Flow != got[0].Flow {
		t.Fatalf("ReadFlows = %+v; want Two, One, a not found error and Two again", got)
	}
	if n := s.Stats().Routes["GET /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$value"]; n != 3 {
		t.Fatalf("content downloads = %d, want 3 (Two once, One, and the 404 of Missing)", n)
	}
	if ch := got[0].Flow.SenderChannels(); !slices.Equal(ch, []string{"MessageFlow_1", "MessageFlow_2", "Returns"}) {
		t.Fatalf("SenderChannels = %q; want the shared name replaced by the message flow ids", ch)
	}
	if ch := got[0].Flow.JMSSenderChannels(); !slices.Equal(ch, []string{"Jms"}) {
		t.Fatalf("JMSSenderChannels = %q", ch)
	}
	if ch := got[1].Flow.SenderChannels(); len(ch) != 1 {
		t.Fatalf("SenderChannels of a one-sender flow = %q", ch)
	}
	rts, err := c.ListRuntimeArtifacts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.ResetStats()
	fs.PrimeRuntimes(rts, []string{"One", "Two"})
	if rt, err := fs.RuntimeArtifact(ctx, "One"); err != nil || rt.Status != cpi.RuntimeStarted {
		t.Fatalf("RuntimeArtifact(One) = %+v, %v; want STARTED", rt, err)
	}
	if _, err := fs.RuntimeArtifact(ctx, "Two"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("RuntimeArtifact(Two) error = %v; want not deployed", err)
	}
	if n := s.Stats().CloudIntegrationCalls; n != 0 {
		t.Fatalf("primed runtime reads made %d calls, want 0", n)
	}
}

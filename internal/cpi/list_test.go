package cpi_test

import (
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

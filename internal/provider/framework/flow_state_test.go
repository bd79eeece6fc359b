package framework_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

// A write recorded as undeployed ends when the runtime was deployed since; recorded without the
// runtime's deployment time (the read-back failed), only a deploy of the resource ends it.
func TestStillUndeployed(t *testing.T) {
	t.Parallel()
	started := func(on string) *cpi.RuntimeArtifact { return &cpi.RuntimeArtifact{Status: "STARTED", DeployedOn: on} }
	for _, tc := range []struct {
		name string
		u    *framework.UndeployedWrite
		rt   *cpi.RuntimeArtifact
		want bool
	}{
		{"none recorded", nil, started("t1"), false},
		{"not deployed since", &framework.UndeployedWrite{DeployedOn: "t1"}, started("t1"), true},
		{"deployed since", &framework.UndeployedWrite{DeployedOn: "t1"}, started("t2"), false},
		{"deployed since, but in error", &framework.UndeployedWrite{DeployedOn: "t1"}, &cpi.RuntimeArtifact{Status: "ERROR", DeployedOn: "t2"}, true},
		{"not deployed at all", &framework.UndeployedWrite{}, nil, true},
		{"deployment time unknown", &framework.UndeployedWrite{DeployedOnUnknown: true}, started("t2"), true},
	} {
		if got := framework.StillUndeployed(tc.u, tc.rt) != nil; got != tc.want {
			t.Errorf("%s: still undeployed = %t, want %t", tc.name, got, tc.want)
		}
	}
}

// What the runtime was deployed from is recorded again after a deploy of the resource and when a
// read finds another deployment than the recorded one (by anyone); a read of the same deployment
// keeps the digest recorded, so that a design time changed since is seen. A deployment by someone
// else is unconfirmed until a saved run reads it again (an apply that held a deploy back for it
// needs one more), and the record stays while the flow is not deployed.
func TestNextDeployedContent(t *testing.T) {
	t.Parallel()
	rt := func(on string) *cpi.RuntimeArtifact {
		return &cpi.RuntimeArtifact{Status: "STARTED", DeployedOn: on, Version: "1.0.1"}
	}
	rec := &framework.DeployedContent{DeployedOn: "t1", Digest: "d1", Version: "1.0.1"}
	unconfirmed := func(n int) *framework.DeployedContent { c := *rec; c.Unconfirmed = n; return &c }
	for _, tc := range []struct {
		name   string
		prior  *framework.DeployedContent
		rt     *cpi.RuntimeArtifact
		digest string
		by     framework.RecordBy
		held   bool
		want   *framework.DeployedContent
	}{
		{"first read takes the design time as deployed", nil, rt("t1"), "d2", framework.ByRead, false, &framework.DeployedContent{DeployedOn: "t1", Digest: "d2", Version: "1.0.1"}},
		{"same deployment keeps the record", rec, rt("t1"), "d2", framework.ByRead, false, rec},
		{"a deploy by someone else records anew, unconfirmed", rec, rt("t2"), "d2", framework.ByRead, false,
			&framework.DeployedContent{DeployedOn: "t2", Digest: "d2", Version: "1.0.1", Unconfirmed: 1}},
		{"a saved run's read confirms it", unconfirmed(1), rt("t1"), "d2", framework.ByRead, false, rec},
		{"an apply that held the deploy back keeps it unconfirmed", unconfirmed(1), rt("t1"), "d2", framework.ByApply, true, unconfirmed(2)},
		{"a read after that apply lowers it", unconfirmed(2), rt("t1"), "d2", framework.ByRead, false, unconfirmed(1)},
		{"the resource's own deploy records anew", unconfirmed(1), rt("t1"), "d2", framework.ByDeploy, false, &framework.DeployedContent{DeployedOn: "t1", Digest: "d2", Version: "1.0.1"}},
		{"not deployed: the record of what last ran stays", rec, nil, "d2", framework.ByRead, false, rec},
		{"design time unread: the record stays", rec, rt("t2"), "", framework.ByRead, false, rec},
	} {
		got := framework.NextDeployedContent(tc.prior, tc.rt, tc.digest, tc.by, tc.held, "")
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

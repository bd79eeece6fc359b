package cpi_test

import (
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

func TestDeployPolicyDecide(t *testing.T) {
	t.Parallel()
	started := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.6"}
	staged := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.7"}
	undeployed := cpi.DeployState{RuntimeStatus: "NOT_DEPLOYED", DesignVersion: "1.0.6"}
	failed := cpi.DeployState{RuntimeStatus: "ERROR", DeployedVersion: "1.0.6", DesignVersion: "1.0.6"}
	sameVersion := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.6", ContentChanged: true}
	with := func(s cpi.DeployState) cpi.DeployState { s.Writes = true; return s }
	// Undeployed while the design time holds a version the runtime never ran.
	undeployedStaged := cpi.DeployState{RuntimeStatus: "NOT_DEPLOYED", DesignVersion: "1.0.3", LastVersion: "1.0.2", ContentChanged: true}
	// Deployed by someone else since the last saved run: changes since cannot be told.
	unconfirmed := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.6", Unconfirmed: true}
	for _, tc := range []struct {
		name   string
		p      cpi.DeployPolicy
		s      cpi.DeployState
		other  bool
		deploy bool
		c      cpi.DeployCase
	}{
		{"running, nothing missing", cpi.DeployRunning, started, false, false, cpi.CaseNone},
		{"running, write", cpi.DeployRunning, with(started), false, true, cpi.CaseSettings},
		{"running, staged version held", cpi.DeployRunning, staged, false, false, cpi.CaseOtherChanges},
		{"running, staged version shipped when asked", cpi.DeployRunning, staged, true, true, cpi.CaseOtherChanges},
		{"running, write into a staged version held", cpi.DeployRunning, with(staged), false, false, cpi.CaseSettings},
		{"running, undeployed flow started", cpi.DeployRunning, undeployed, false, true, cpi.CaseNotRunning},
		{"running, failed flow redeployed", cpi.DeployRunning, failed, false, true, cpi.CaseNotRunning},
		{"changes, write", cpi.DeployChanges, with(started), false, true, cpi.CaseSettings},
		{"changes, undeployed flow stays undeployed", cpi.DeployChanges, undeployed, false, false, cpi.CaseNotRunning},
		{"changes, write into an undeployed flow", cpi.DeployChanges, with(undeployed), false, false, cpi.CaseSettings},
		{"changes, failed flow left", cpi.DeployChanges, failed, false, false, cpi.CaseNotRunning},
		{"changes, staged version held", cpi.DeployChanges, staged, false, false, cpi.CaseOtherChanges},
		{"changes, staged version shipped when asked", cpi.DeployChanges, staged, true, true, cpi.CaseOtherChanges},
		{"running, changes under the same version held", cpi.DeployRunning, sameVersion, false, false, cpi.CaseOtherChanges},
		{"running, write beside changes under the same version held", cpi.DeployRunning, with(sameVersion), false, false, cpi.CaseSettings},
		{"changes, write beside changes under the same version held", cpi.DeployChanges, with(sameVersion), false, false, cpi.CaseSettings},
		{"changes, changes under the same version shipped when asked", cpi.DeployChanges, sameVersion, true, true, cpi.CaseOtherChanges},
		{"running, undeployed flow with an unreleased version held", cpi.DeployRunning, undeployedStaged, false, false, cpi.CaseNotRunning},
		{"running, undeployed flow with an unreleased version shipped when asked", cpi.DeployRunning, undeployedStaged, true, true, cpi.CaseNotRunning},
		{"running, write beside an unconfirmed deployment held", cpi.DeployRunning, with(unconfirmed), false, false, cpi.CaseSettings},
		{"changes, write beside an unconfirmed deployment held", cpi.DeployChanges, with(unconfirmed), false, false, cpi.CaseSettings},
		{"changes, write beside an unconfirmed deployment shipped when asked", cpi.DeployChanges, with(unconfirmed), true, true, cpi.CaseSettings},
		{"never, write", cpi.DeployNever, with(started), true, false, cpi.CaseSettings},
		{"never, undeployed", cpi.DeployNever, undeployed, true, false, cpi.CaseNotRunning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := tc.p.Decide(tc.s, tc.other)
			if d.Deploy != tc.deploy || d.Case != tc.c || d.Held != (tc.c != cpi.CaseNone && !tc.deploy) {
				t.Errorf("Decide = %+v, want deploy %t case %d", d, tc.deploy, tc.c)
			}
		})
	}
}

// The warning tells the two cases apart: settings the runtime lacks, and other undeployed changes.
func TestDeployStateDescribe(t *testing.T) {
	t.Parallel()
	staged := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.7"}
	if got := staged.Describe(cpi.CaseOtherChanges); !strings.Contains(got, "runs this configuration's settings") ||
		!strings.Contains(got, "other, undeployed changes") || !strings.Contains(got, "1.0.7") {
		t.Errorf("other changes: %q", got)
	}
	same := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.6", ContentChanged: true}
	if got := same.Describe(cpi.CaseOtherChanges); !strings.Contains(got, "other, undeployed changes") ||
		!strings.Contains(got, "uploaded under version 1.0.6, the version the runtime runs") {
		t.Errorf("other changes under the same version: %q", got)
	}
	plain := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.6", Writes: true}
	if got := plain.Describe(cpi.CaseSettings); !strings.Contains(got, "lacks this configuration's settings") || strings.Contains(got, "other") {
		t.Errorf("settings: %q", got)
	}
	undeployed := cpi.DeployState{RuntimeStatus: "NOT_DEPLOYED", DesignVersion: "1.0.3", LastVersion: "1.0.2", ContentChanged: true}
	if got := undeployed.Describe(cpi.CaseNotRunning); !strings.Contains(got, "not running") ||
		!strings.Contains(got, "version 1.0.3, which the runtime never ran (it last ran version 1.0.2)") {
		t.Errorf("not running with an unreleased version: %q", got)
	}
	unconfirmed := cpi.DeployState{RuntimeStatus: "STARTED", DeployedVersion: "1.0.6", DesignVersion: "1.0.6", Unconfirmed: true, Writes: true}
	if got := unconfirmed.Describe(cpi.CaseSettings); !strings.Contains(got, "possibly changes uploaded under version 1.0.6") ||
		!strings.Contains(got, "cannot tell") {
		t.Errorf("unconfirmed: %q", got)
	}
}

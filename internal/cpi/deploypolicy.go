package cpi

import "fmt"

// DeployPolicy says when a resource that writes or deploys an integration flow deploys it.
type DeployPolicy string

const (
	// DeployChanges deploys the writes of this configuration only: a flow that is not deployed
	// (undeployed on purpose) stays undeployed, and a flow in ERROR without a write of this
	// configuration is left to whoever deploys it.
	DeployChanges DeployPolicy = "changes"
	// DeployRunning keeps the flow running: it deploys the writes of this configuration, and the
	// flow whenever its runtime is not STARTED (undeployed, in ERROR).
	DeployRunning DeployPolicy = "running"
	// DeployNever never deploys.
	DeployNever DeployPolicy = "never"
)

// DeployPolicies are the policies, in the order the documentation lists them.
var DeployPolicies = []DeployPolicy{DeployChanges, DeployRunning, DeployNever}

// DeployCase is why a flow would be deployed: what the runtime lacks.
type DeployCase int

const (
	// CaseNone: the runtime runs what the design time holds, as far as can be told.
	CaseNone DeployCase = iota
	// CaseSettings: the runtime lacks this configuration's settings (a write of this plan, or an
	// earlier one that was never deployed).
	CaseSettings
	// CaseNotRunning: the runtime is not STARTED.
	CaseNotRunning
	// CaseOtherChanges: the design time holds another version than the runtime runs, with changes
	// not made by this configuration (for example a version a pipeline uploaded without deploying).
	CaseOtherChanges
)

// DeployState is what a decision to deploy is taken from.
type DeployState struct {
	// RuntimeStatus is the runtime's status (STARTED, ERROR, NOT_DEPLOYED, ...), "" when unknown.
	RuntimeStatus string
	// DeployedVersion is the version the runtime runs, "" when unknown or none.
	DeployedVersion string
	// DesignVersion is the design-time version, "" when unknown.
	DesignVersion string
	// Writes is true when this configuration writes settings now, or wrote some earlier that the
	// runtime does not run yet.
	Writes bool
	// ContentChanged is true when the design time holds other changes than this configuration's
	// under the version the runtime runs: its Flow.ContentDigest differs from the one recorded
	// when the runtime was last deployed (a pipeline's upload without a version bump).
	ContentChanged bool
	// Unconfirmed is true when the runtime was deployed by someone else since the last Terraform
	// run that was saved, so that the design time may hold changes uploaded since that deploy
	// under the version the runtime runs: the digest taken now cannot tell.
	Unconfirmed bool
	// LastVersion is, for a runtime that is not deployed, the version it ran when it was last
	// seen deployed, "" when unknown. ContentChanged then compares the design time with what the
	// runtime last ran.
	LastVersion string
	// Runs says what the retry settings the runtime runs do, as recorded when it was deployed,
	// "" when unknown or unremarkable.
	Runs string
}

// Staged reports whether the design time holds other changes than the runtime runs: another
// version, or other changes uploaded under the version the runtime runs (ContentChanged). Cloud
// Integration keeps one design time per flow, so a deploy now would ship them.
func (s DeployState) Staged() bool {
	if s.RuntimeStatus == RuntimeNotDeployed {
		// What the runtime last ran, as recorded: a deploy now would ship what it never ran.
		return s.ContentChanged
	}
	deployed := s.RuntimeStatus != ""
	return deployed && (s.otherVersion() || s.ContentChanged || s.Unconfirmed)
}

// otherVersion reports whether the design time holds another version than the runtime runs.
func (s DeployState) otherVersion() bool {
	return s.DeployedVersion != "" && s.DesignVersion != "" && s.DeployedVersion != s.DesignVersion
}

// stagedWhat says what the design time holds beyond the runtime, for a warning.
func (s DeployState) stagedWhat() string {
	switch {
	case s.RuntimeStatus == RuntimeNotDeployed && s.LastVersion != "" && s.LastVersion != s.DesignVersion:
		return fmt.Sprintf("version %s, which the runtime never ran (it last ran version %s)", s.DesignVersion, s.LastVersion)
	case s.RuntimeStatus == RuntimeNotDeployed:
		return fmt.Sprintf("changes uploaded under version %s since the runtime last ran it, which the runtime never ran", s.DesignVersion)
	case !s.otherVersion() && !s.ContentChanged && s.Unconfirmed:
		return fmt.Sprintf("possibly changes uploaded under version %s, the version the runtime runs: someone else deployed the flow since "+
			"the last saved Terraform run, and the provider cannot tell whether the design time changed after that deploy", s.DesignVersion)
	}
	if s.otherVersion() {
		return fmt.Sprintf("version %s, while the runtime runs version %s", s.DesignVersion, s.DeployedVersion)
	}
	return fmt.Sprintf("changes uploaded under version %s, the version the runtime runs, since it was deployed", s.DesignVersion)
}

// RuntimeNotDeployed is the runtime status the provider records for a flow without a runtime artifact.
const RuntimeNotDeployed = "NOT_DEPLOYED"

// DeployDecision is what a policy makes of a DeployState.
type DeployDecision struct {
	// Deploy is true when the flow is to be deployed.
	Deploy bool
	// Case is why the flow would be deployed, CaseNone when nothing is missing.
	Case DeployCase
	// Held is true when a deploy that the case asks for is held back: the design time holds other
	// changes that deployOther does not allow shipping, or the policy leaves the flow as it is.
	Held bool
}

// Decide returns whether policy p deploys a flow in state s. deployOther allows shipping other
// changes the design time holds (CaseOtherChanges); without it such a flow is not deployed, also
// when this configuration writes settings into it: they then reach the runtime with the next
// deploy of that version, by whoever releases it.
func (p DeployPolicy) Decide(s DeployState, deployOther bool) DeployDecision {
	notDeployed := s.RuntimeStatus == RuntimeNotDeployed
	running := s.RuntimeStatus == RuntimeStarted || s.RuntimeStatus == ""
	var c DeployCase
	switch {
	case s.Writes:
		c = CaseSettings
	case !running:
		c = CaseNotRunning
	case s.Staged():
		c = CaseOtherChanges
	default:
		return DeployDecision{}
	}
	want := false
	switch p {
	case DeployNever:
	case DeployRunning:
		want = c == CaseSettings || c == CaseNotRunning || deployOther
	default: // DeployChanges
		want = !notDeployed && (c == CaseSettings || c == CaseOtherChanges && deployOther)
	}
	// A flow whose design time holds other changes than the runtime runs (or last ran, when it is
	// not deployed) ships them with any deploy.
	if want && s.Staged() && !deployOther {
		return DeployDecision{Case: c, Held: true}
	}
	return DeployDecision{Deploy: want, Case: c, Held: !want}
}

// Describe says, for a plan's warning, what the case is for flow id: the runtime lacks this
// configuration's settings, is not running, or the design time holds other, undeployed changes.
func (s DeployState) Describe(c DeployCase) string {
	switch c {
	case CaseSettings:
		if s.Staged() {
			return fmt.Sprintf("the runtime lacks this configuration's settings, and the design time they are written to holds %s: "+
				"the design time also holds other, undeployed changes", s.stagedWhat())
		}
		return "the runtime lacks this configuration's settings (this plan writes them, or an earlier write was never deployed)"
	case CaseNotRunning:
		if s.Staged() {
			return fmt.Sprintf("the runtime is not running (status %s), and the design time holds %s: a deploy would ship them", s.RuntimeStatus, s.stagedWhat())
		}
		return fmt.Sprintf("the runtime is not running (status %s)", s.RuntimeStatus)
	case CaseOtherChanges:
		return "the runtime runs this configuration's settings, but the design time holds other, undeployed changes: " + s.stagedWhat()
	}
	return ""
}

package cpi

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultPoll is the wait between status reads of DeployAndWait when its
// poll argument is not positive.
const DefaultPoll = time.Second

// Backoff is how long to wait between the status reads of a deploy: Initial
// before the first read of each phase (build, then start), then each wait
// Factor times the previous one, at most Max.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Factor  float64
}

// DefaultBackoff suits deploys that take seconds to minutes: reads after
// 0.5 s, 1.25 s, 2.4 s, 4.1 s, 6.6 s, ... of a phase, then every 15 s. A
// read comes at most half the time waited so far after the deploy is done.
var DefaultBackoff = Backoff{Initial: 500 * time.Millisecond, Max: 15 * time.Second, Factor: 1.5}

// FixedPoll is a Backoff that always waits d.
func FixedPoll(d time.Duration) Backoff {
	if d <= 0 {
		d = DefaultPoll
	}
	return Backoff{Initial: d, Max: d, Factor: 1}
}

// waits returns a function that returns the successive waits of b.
func (b Backoff) waits() func() time.Duration {
	if b.Initial <= 0 {
		b.Initial = DefaultPoll
	}
	if b.Max < b.Initial {
		b.Max = b.Initial
	}
	if b.Factor < 1 {
		b.Factor = 1
	}
	next := b.Initial
	return func() time.Duration {
		d := next
		next = min(time.Duration(float64(next)*b.Factor), b.Max)
		return d
	}
}

// errorInfoAttempts bounds the reads of the error information of a failed
// deploy while the tenant answers 204 No Content.
const errorInfoAttempts = 10

// DeployError is a deploy that the tenant reports as failed.
type DeployError struct {
	IFlowID string
	TaskID  string
	// Status is the task status (FAIL, ...) or the runtime status (ERROR).
	Status string
	// Message is the tenant's error information, "" when it gave none.
	Message string
	// StillRunning is the runtime artifact that kept running when the build failed (task status
	// FAIL with the previous version STARTED), nil otherwise.
	StillRunning *RuntimeArtifact
}

// Error describes the failure with the tenant's error text.
func (e *DeployError) Error() string {
	msg := fmt.Sprintf("deploying integration flow %q ended with status %s", e.IFlowID, e.Status)
	if e.StillRunning != nil {
		msg = fmt.Sprintf("the build of integration flow %q ended with status %s; the tenant keeps running the version deployed before (version %s, status %s), not the content just written",
			e.IFlowID, e.Status, e.StillRunning.Version, e.StillRunning.Status)
	}
	if e.Message != "" {
		return msg + ": " + e.Message
	}
	if e.StillRunning != nil {
		return msg + " (see the deployment status in Cloud Integration's monitor for the build error)"
	}
	return msg + "; the tenant gave no error information (see the flow's deployment status in Cloud Integration)"
}

// DeployTimeoutError is a deploy that had not finished when the context ended.
type DeployTimeoutError struct {
	IFlowID string
	// Phase is what was awaited: "build" or "start".
	Phase string
	// Status is the last status read.
	Status string
	Err    error
}

// Error describes where the deploy stood.
func (e *DeployTimeoutError) Error() string {
	st := e.Status
	if st == "" {
		st = "unknown"
	}
	if errors.Is(e.Err, context.Canceled) {
		return fmt.Sprintf("waiting for the deploy of integration flow %q was cancelled: the %s phase was in status %s", e.IFlowID, e.Phase, st)
	}
	return fmt.Sprintf("deploying integration flow %q did not finish in time: the %s phase was still in status %s (%v)", e.IFlowID, e.Phase, st, e.Err)
}

// Cancelled reports whether the wait ended because it was cancelled (an
// interrupted run), not because its time ran out.
func (e *DeployTimeoutError) Cancelled() bool { return errors.Is(e.Err, context.Canceled) }

// Unwrap returns the context's error.
func (e *DeployTimeoutError) Unwrap() error { return e.Err }

// DeployAndWait deploys integration flow id in version and waits, reading
// the status every poll, until the build task reports SUCCESS and the
// runtime artifact STARTED, or until ctx ends. A failed task or a runtime in
// ERROR returns a *DeployError carrying the tenant's error text.
func (c *Client) DeployAndWait(ctx context.Context, id, version string, poll time.Duration) (*RuntimeArtifact, error) {
	return c.DeployAndWaitBackoff(ctx, id, version, FixedPoll(poll))
}

// DeployAndWaitBackoff is DeployAndWait with the waits between status reads
// taken from b.
func (c *Client) DeployAndWaitBackoff(ctx context.Context, id, version string, b Backoff) (*RuntimeArtifact, error) {
	task, err := c.Deploy(ctx, id, version)
	if err != nil {
		return nil, err
	}
	status := TaskDeploying
	next := b.waits()
	for status == TaskDeploying {
		if err := wait(ctx, next()); err != nil {
			return nil, &DeployTimeoutError{IFlowID: id, Phase: "build", Status: status, Err: err}
		}
		st, err := c.DeployStatus(ctx, task)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, &DeployTimeoutError{IFlowID: id, Phase: "build", Status: status, Err: ctx.Err()}
		case err != nil:
			return nil, fmt.Errorf("reading the deploy status of integration flow %q: %w", id, err)
		}
		status = st
	}
	if status != TaskSuccess {
		// A build that fails may leave the previous version running: a STARTED artifact has no
		// error information, so say what runs instead of waiting for a text that never comes.
		if rt, err := c.RuntimeArtifact(ctx, id); err == nil && rt.Status == RuntimeStarted {
			return nil, &DeployError{IFlowID: id, TaskID: task, Status: status, StillRunning: rt}
		}
		return nil, &DeployError{IFlowID: id, TaskID: task, Status: status, Message: c.waitErrorInfo(ctx, id, b)}
	}
	last := ""
	next = b.waits()
	for {
		rt, err := c.RuntimeArtifact(ctx, id)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, &DeployTimeoutError{IFlowID: id, Phase: "start", Status: last, Err: ctx.Err()}
		case errors.Is(err, ErrNotFound):
			last = "NOT_DEPLOYED"
		case err != nil:
			return nil, fmt.Errorf("reading the runtime state of integration flow %q: %w", id, err)
		case rt.Status == RuntimeStarted:
			return rt, nil
		case rt.Status == RuntimeError:
			return nil, &DeployError{IFlowID: id, TaskID: task, Status: rt.Status, Message: c.waitErrorInfo(ctx, id, b)}
		default:
			last = rt.Status
		}
		if err := wait(ctx, next()); err != nil {
			return nil, &DeployTimeoutError{IFlowID: id, Phase: "start", Status: last, Err: err}
		}
	}
}

// waitErrorInfo reads the error information of a failed deploy, waiting
// b.Initial between reads while the tenant has none yet. It returns "" when none comes.
func (c *Client) waitErrorInfo(ctx context.Context, id string, b Backoff) string {
	next := FixedPoll(b.Initial).waits()
	for i := 0; i < errorInfoAttempts; i++ {
		msg, err := c.RuntimeErrorInformation(ctx, id)
		if err == nil && msg != "" {
			return msg
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			return ""
		}
		if wait(ctx, next()) != nil {
			return ""
		}
	}
	return ""
}

// wait sleeps d or until ctx ends, returning ctx's error in that case.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

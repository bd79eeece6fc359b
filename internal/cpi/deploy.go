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
}

// Error describes the failure with the tenant's error text.
func (e *DeployError) Error() string {
	msg := fmt.Sprintf("deploying integration flow %q ended with status %s", e.IFlowID, e.Status)
	if e.Message != "" {
		return msg + ": " + e.Message
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
	return fmt.Sprintf("deploying integration flow %q did not finish in time: the %s phase was still in status %s (%v)", e.IFlowID, e.Phase, st, e.Err)
}

// Unwrap returns the context's error.
func (e *DeployTimeoutError) Unwrap() error { return e.Err }

// DeployAndWait deploys integration flow id in version and waits, reading
// the status every poll, until the build task reports SUCCESS and the
// runtime artifact STARTED, or until ctx ends. A failed task or a runtime in
// ERROR returns a *DeployError carrying the tenant's error text.
func (c *Client) DeployAndWait(ctx context.Context, id, version string, poll time.Duration) (*RuntimeArtifact, error) {
	if poll <= 0 {
		poll = DefaultPoll
	}
	task, err := c.Deploy(ctx, id, version)
	if err != nil {
		return nil, err
	}
	status := TaskDeploying
	for status == TaskDeploying {
		if err := wait(ctx, poll); err != nil {
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
		return nil, &DeployError{IFlowID: id, TaskID: task, Status: status, Message: c.waitErrorInfo(ctx, id, poll)}
	}
	last := ""
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
			return nil, &DeployError{IFlowID: id, TaskID: task, Status: rt.Status, Message: c.waitErrorInfo(ctx, id, poll)}
		default:
			last = rt.Status
		}
		if err := wait(ctx, poll); err != nil {
			return nil, &DeployTimeoutError{IFlowID: id, Phase: "start", Status: last, Err: err}
		}
	}
}

// waitErrorInfo reads the error information of a failed deploy, waiting a
// little while the tenant has none yet. It returns "" when none comes.
func (c *Client) waitErrorInfo(ctx context.Context, id string, poll time.Duration) string {
	for i := 0; i < errorInfoAttempts; i++ {
		msg, err := c.RuntimeErrorInformation(ctx, id)
		if err == nil && msg != "" {
			return msg
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			return ""
		}
		if wait(ctx, poll) != nil {
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

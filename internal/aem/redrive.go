package aem

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A redrive on Advanced Event Mesh moves messages from a dead message queue back to a queue with SEMP's
// monitoring and action APIs. SEMP has no move: it is a list, then per message a copy to the destination
// and a delete from the source (shared/reference/aem.md, section 3). The copy comes first, so that a
// failure at any step leaves the message on the source, on the destination, or on both, never on neither:
// at least once, never lost.

// Bounds of a redrive.
const (
	DefaultRedriveMessages = 100
	MaxRedriveMessages     = 10000
	// redriveFinishTimeout bounds the delete that follows a copy once the caller's context has ended: a
	// copied message is deleted from the source even then, so that it is not left on both queues.
	redriveFinishTimeout = 30 * time.Second
)

// RedriveOptions configure Redrive.
type RedriveOptions struct {
	// From is the queue the messages are taken from (a dead message queue), To the queue they go to.
	From, To string
	// MaxMessages bounds the messages moved: 1 to MaxRedriveMessages; 0 means DefaultRedriveMessages.
	MaxMessages int
	// Progress, when set, is called after each message moved.
	Progress func(RedriveProgress)
}

// RedriveProgress are the counts of a redrive so far.
type RedriveProgress struct {
	// Listed is the number of messages the redrive took from From's list (at most MaxMessages).
	Listed int
	// Moved is the number copied to To and deleted from From.
	Moved int
}

// RedriveResult is the outcome of a redrive.
type RedriveResult struct {
	RedriveProgress
	// Left is the number of messages From held that this redrive did not move (beyond MaxMessages, or after
	// the failure that stopped it).
	Left int
}

// RedriveError is the failure that stopped a redrive, with where the message it was moving is.
type RedriveError struct {
	MsgID                 int64
	ReplicationGroupMsgID string
	// OnBoth is set when the message was copied to To but could not be deleted from From: it is on both
	// queues. Otherwise it is on From (and, when the copy's answer was lost, possibly on To as well).
	OnBoth   bool
	From, To string
	Err      error
}

func (e *RedriveError) Error() string {
	if e.OnBoth {
		return fmt.Sprintf("message %d was copied to queue %s but could not be deleted from queue %s, so it is on both: %v; "+
			"delete message %d from %s in the broker manager before the next redrive, or it is redriven twice", e.MsgID, e.To, e.From, e.Err, e.MsgID, e.From)
	}
	return fmt.Sprintf("queue %s did not take message %d (%s) from queue %s, which keeps it: %v; "+
		"the messages not moved stay on %s, fix what the error names, then run the redrive again", e.To, e.MsgID, e.ReplicationGroupMsgID, e.From, e.Err, e.From)
}

func (e *RedriveError) Unwrap() error { return e.Err }

// ErrRedriveOptions is returned (wrapped) for options Redrive cannot run with.
var ErrRedriveOptions = errors.New("invalid redrive options")

// Redrive moves up to opt.MaxMessages messages from opt.From to opt.To, oldest first: copy to To, then
// delete from From. It stops at the first message To does not take (the message stays on From), and at a
// delete that fails (the message is then on both, which the error says). A message that left From on its
// own between the copy and the delete (expired, deleted by someone) counts as moved. A cancelled ctx stops
// it between messages. The error is a *RedriveError, or ctx's error; the counts are valid either way.
func (c *Client) Redrive(ctx context.Context, opt RedriveOptions) (RedriveResult, error) {
	var res RedriveResult
	if opt.MaxMessages == 0 {
		opt.MaxMessages = DefaultRedriveMessages
	}
	switch {
	case opt.From == "" || opt.To == "":
		return res, fmt.Errorf("%w: both queues must be named", ErrRedriveOptions)
	case opt.From == opt.To:
		return res, fmt.Errorf("%w: queue %s is both the source and the destination", ErrRedriveOptions, opt.From)
	case opt.MaxMessages < 1 || opt.MaxMessages > MaxRedriveMessages:
		return res, fmt.Errorf("%w: max messages %d is outside 1 to %d", ErrRedriveOptions, opt.MaxMessages, MaxRedriveMessages)
	}
	msgs, err := c.ListMessages(ctx, opt.From)
	if err != nil {
		return res, err
	}
	take := min(len(msgs), opt.MaxMessages)
	res.Listed, res.Left = take, len(msgs)
	for _, m := range msgs[:take] {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if err := c.CopyMessage(ctx, opt.To, opt.From, m.ReplicationGroupMsgID); err != nil {
			return res, &RedriveError{MsgID: m.MsgID, ReplicationGroupMsgID: m.ReplicationGroupMsgID, From: opt.From, To: opt.To, Err: err}
		}
		// The copy is on To: the delete runs even when ctx ends now, so the message is not left on both.
		if err := c.finishMove(ctx, opt.From, m.MsgID); err != nil {
			return res, &RedriveError{MsgID: m.MsgID, ReplicationGroupMsgID: m.ReplicationGroupMsgID, OnBoth: true, From: opt.From, To: opt.To, Err: err}
		}
		res.Moved++
		res.Left--
		if opt.Progress != nil {
			opt.Progress(res.RedriveProgress)
		}
	}
	return res, nil
}

// finishMove deletes message msgID, already copied, from queue from. It runs even when ctx has ended, so
// that the message is not left on both queues. A delete whose answer is lost may have been carried out: the
// message is then read back, and one that is no longer on from counts as moved. It returns nil when the
// message is off from, else the error of the delete.
func (c *Client) finishMove(ctx context.Context, from string, msgID int64) error {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), redriveFinishTimeout)
	defer cancel()
	err := c.DeleteMessage(dctx, from, msgID)
	if err == nil || errors.Is(err, ErrNotFound) {
		return nil
	}
	if _, gerr := c.GetMessage(dctx, from, msgID); errors.Is(gerr, ErrNotFound) {
		return nil
	}
	return err
}

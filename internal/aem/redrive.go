package aem

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// A redrive on Advanced Event Mesh moves messages from a dead message queue back to a queue with SEMP's
// monitoring and action APIs. SEMP has no move: it is a list, then per message a copy to the destination
// and a delete from the source (shared/reference/aem.md, section 3). The copy comes first, so that a
// failure at any step leaves the message on the source, on the destination, or on both, never on neither:
// at least once, never lost.
//
// The source is read a page at a time, and the messages of a page are moved several at a time (as the
// Event Mesh redrive moves them, internal/eventmesh/redrive.go): memory holds one page and the messages
// under way, whatever the depth of the source. The copy is sent at most once (CopyMessage): a copy whose
// answer is lost stops the redrive with the message named as on the source and perhaps on the destination.

// Bounds and defaults of a redrive.
const (
	DefaultRedriveMessages = 100
	MaxRedriveMessages     = 10000
	// DefaultRedriveConcurrency is the number of messages moved at once when RedriveOptions.Concurrency is 0:
	// at 20 ms a request, 8 moves of 2 requests each move about 200 messages a second.
	DefaultRedriveConcurrency = 8
	// MaxRedriveConcurrency bounds RedriveOptions.Concurrency: the HTTP layer keeps 32 idle connections per host.
	MaxRedriveConcurrency = 32
	// DefaultRedriveFinishTimeout bounds the moves under way once the caller's context has ended: a message
	// whose copy was sent is finished (the copy answered, then the delete), so that it is not left on both
	// queues, but not for ever.
	DefaultRedriveFinishTimeout = 30 * time.Second
)

// RedriveOptions configure Redrive.
type RedriveOptions struct {
	// From is the queue the messages are taken from (a dead message queue), To the queue they go to.
	From, To string
	// MaxMessages bounds the messages moved: 1 to MaxRedriveMessages; 0 means DefaultRedriveMessages.
	MaxMessages int
	// Concurrency is the number of messages moved at once: 1 to MaxRedriveConcurrency; 0 means
	// DefaultRedriveConcurrency. The messages are taken oldest first; above 1, neighbours may reach To in
	// another order (within a window of Concurrency messages). 1 keeps From's order.
	Concurrency int
	// PageSize is the count of each list request of From: 1 to PageSize; 0 means PageSize (SEMP's largest).
	PageSize int
	// FinishTimeout bounds the moves under way once ctx has ended; 0 means DefaultRedriveFinishTimeout.
	FinishTimeout time.Duration
	// Progress, when set, is called after each message moved, never twice at once.
	Progress func(RedriveProgress)
}

// RedriveProgress are the counts of a redrive so far.
type RedriveProgress struct {
	// Listed is the number of messages the redrive began to move (at most MaxMessages).
	Listed int
	// Moved is the number copied to To and deleted from From.
	Moved int
}

// RedriveResult is the outcome of a redrive.
type RedriveResult struct {
	RedriveProgress
	// Left is the number of messages the redrive read on From and did not move: beyond MaxMessages, after
	// the failure that stopped it, or the failed ones.
	Left int
	// MoreLeft is set when From may hold messages past those read: the redrive stopped before the last page.
	MoreLeft bool
}

// RedriveError is the failure that stopped a redrive, with where the message it was moving is.
type RedriveError struct {
	MsgID                 int64
	ReplicationGroupMsgID string
	// OnBoth is set when the message was copied to To but could not be deleted from From: it is on both.
	OnBoth bool
	// MaybeDeleted goes with OnBoth when the delete got no answer that says whether it was carried out (and
	// the message could not be read back): the message is on To, and perhaps still on From.
	MaybeDeleted bool
	// MaybeCopied is set when the copy may have been made (its answer was lost, or was a server error) and
	// was not repeated: the message is on From, and perhaps on To as well.
	MaybeCopied bool
	// Otherwise (neither is set) the message is on From only: To did not take it.
	From, To string
	Err      error
	// Others are the other messages under way when the redrive stopped whose move failed as well.
	Others []*RedriveError
}

func (e *RedriveError) Error() string {
	s := e.where()
	if n := len(e.Others); n > 0 {
		parts := make([]string, n)
		for i, o := range e.Others {
			parts[i] = o.where()
		}
		s += fmt.Sprintf("; %s under way failed as well: %s", Plural(n, "other message", "other messages"), strings.Join(parts, "; "))
	}
	return s
}

// where says where the message is and what to do.
func (e *RedriveError) where() string {
	switch {
	case e.OnBoth && e.MaybeDeleted:
		return fmt.Sprintf("message %d was copied to queue %s, but its delete from queue %s got no answer that says whether it was carried out: %v; "+
			"it is on %s and may still be on %s: look for it on %s in the broker manager, and if it is there delete message %d from %s before the next redrive, "+
			"or it is redriven twice", e.MsgID, e.To, e.From, e.Err, e.To, e.From, e.From, e.MsgID, e.From)
	case e.OnBoth:
		return fmt.Sprintf("message %d was copied to queue %s but could not be deleted from queue %s, so it is on both: %v; "+
			"delete message %d from %s in the broker manager before the next redrive, or it is redriven twice", e.MsgID, e.To, e.From, e.Err, e.MsgID, e.From)
	case e.MaybeCopied:
		return fmt.Sprintf("the copy of message %d (%s) to queue %s got no answer that says whether it was made: %v; "+
			"the message is still on queue %s and may also be on queue %s (a copy is not sent twice, as it would put the message there twice): "+
			"look for it on %s in the broker manager, and if it is there delete message %d from %s before the next redrive, or it is redriven twice",
			e.MsgID, e.ReplicationGroupMsgID, e.To, e.Err, e.From, e.To, e.To, e.MsgID, e.From)
	}
	return fmt.Sprintf("queue %s did not take message %d (%s) from queue %s, which keeps it: %v; "+
		"the messages not moved stay on %s, fix what the error names, then run the redrive again", e.To, e.MsgID, e.ReplicationGroupMsgID, e.From, e.Err, e.From)
}

func (e *RedriveError) Unwrap() error { return e.Err }

// Plural returns "1 message" or "2 messages": n with the singular or the plural.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ErrRedriveOptions is returned (wrapped) for options Redrive cannot run with.
var ErrRedriveOptions = errors.New("invalid redrive options")

// Redrive moves up to opt.MaxMessages messages from opt.From to opt.To, oldest first, opt.Concurrency at a
// time: copy to To, then delete from From. It reads From a page at a time, the next page once the messages
// of the last one are under way. It stops at the first message To does not take (the message stays on
// From), at a copy whose outcome is unknown (on From, perhaps on To) and at a delete that fails (on both);
// the other messages under way are finished first, and the error says where each failed one is. A message
// that left From on its own between the copy and the delete (expired, deleted by someone) counts as moved.
// A cancelled ctx stops it after the messages under way, which are finished within opt.FinishTimeout. The
// error is a *RedriveError, ctx's error, or that of a list request; the counts are valid either way.
func (c *Client) Redrive(ctx context.Context, opt RedriveOptions) (RedriveResult, error) {
	if opt.MaxMessages == 0 {
		opt.MaxMessages = DefaultRedriveMessages
	}
	if opt.Concurrency == 0 {
		opt.Concurrency = DefaultRedriveConcurrency
	}
	if opt.PageSize == 0 {
		opt.PageSize = PageSize
	}
	if opt.FinishTimeout <= 0 {
		opt.FinishTimeout = DefaultRedriveFinishTimeout
	}
	switch {
	case opt.From == "" || opt.To == "":
		return RedriveResult{}, fmt.Errorf("%w: both queues must be named", ErrRedriveOptions)
	case opt.From == opt.To:
		return RedriveResult{}, fmt.Errorf("%w: queue %s is both the source and the destination", ErrRedriveOptions, opt.From)
	case opt.MaxMessages < 1 || opt.MaxMessages > MaxRedriveMessages:
		return RedriveResult{}, fmt.Errorf("%w: max messages %d is outside 1 to %d", ErrRedriveOptions, opt.MaxMessages, MaxRedriveMessages)
	case opt.Concurrency < 1 || opt.Concurrency > MaxRedriveConcurrency:
		return RedriveResult{}, fmt.Errorf("%w: concurrency %d is outside 1 to %d", ErrRedriveOptions, opt.Concurrency, MaxRedriveConcurrency)
	case opt.PageSize < 1 || opt.PageSize > PageSize:
		return RedriveResult{}, fmt.Errorf("%w: page size %d is outside 1 to %d", ErrRedriveOptions, opt.PageSize, PageSize)
	}
	// The moves under way finish even when ctx ends: fctx ends FinishTimeout after ctx.
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stopGrace := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(opt.FinishTimeout, cancel)
		context.AfterFunc(fctx, func() { t.Stop() })
	})
	defer stopGrace()

	r := &redrive{c: c, opt: opt, stop: make(chan struct{})}
	msgs := make(chan Message)
	var wg sync.WaitGroup
	for range opt.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range msgs {
				// A message handed over as the redrive stops is not begun: it stays on From.
				if ctx.Err() == nil && !r.stopped() && r.begin() {
					r.move(fctx, m)
				}
			}
		}()
	}
	readErr := r.read(ctx, msgs)
	wg.Wait()

	r.mu.Lock()
	defer r.mu.Unlock()
	res := RedriveResult{RedriveProgress: r.p, Left: r.seen - r.p.Moved, MoreLeft: r.more}
	switch {
	case r.err != nil:
		r.err.Others = r.others
		return res, r.err
	case readErr != nil:
		return res, readErr
	case ctx.Err() != nil && r.p.Listed < r.handed:
		// Messages handed over were not begun: the cancellation stopped the redrive.
		return res, ctx.Err()
	}
	return res, nil
}

// redrive is the state of one Redrive.
type redrive struct {
	c   *Client
	opt RedriveOptions

	stop     chan struct{} // closed at the first failure
	stopOnce sync.Once

	reportMu sync.Mutex // serialises Progress, in the order of the counts
	mu       sync.Mutex // guards what follows
	p        RedriveProgress
	seen     int  // messages read on From
	handed   int  // messages handed to the movers
	more     bool // From may hold messages past those read
	err      *RedriveError
	others   []*RedriveError
}

func (r *redrive) stopped() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

// begin counts a message whose move begins; false when MaxMessages are under way or moved already.
func (r *redrive) begin() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.p.Listed >= r.opt.MaxMessages {
		return false
	}
	r.p.Listed++
	return true
}

// read lists From a page at a time and hands the messages to the movers, until MaxMessages are handed over,
// the list ends, a move fails or ctx ends. It closes out. Its error is that of a list request, or ctx's.
func (r *redrive) read(ctx context.Context, out chan<- Message) error {
	defer close(out)
	cursor, handed := "", 0
	for range maxPages {
		page, next, err := r.c.messagePage(ctx, r.opt.From, r.opt.PageSize, cursor)
		if err != nil {
			r.setMore(true)
			return err
		}
		r.mu.Lock()
		r.seen += len(page)
		r.more = next != ""
		r.mu.Unlock()
		for i := range page {
			if handed == r.opt.MaxMessages {
				return nil
			}
			select {
			case out <- page[i]:
				handed++
				r.mu.Lock()
				r.handed++
				r.mu.Unlock()
			case <-r.stop:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if next == "" || handed == r.opt.MaxMessages {
			return nil
		}
		cursor = next
	}
	return fmt.Errorf("listing the messages of queue %s: more than %d pages; try again", r.opt.From, maxPages)
}

func (r *redrive) setMore(more bool) {
	r.mu.Lock()
	r.more = more
	r.mu.Unlock()
}

// move copies m to To, then deletes it from From; a failure stops the redrive.
func (r *redrive) move(ctx context.Context, m Message) {
	fail := func(e *RedriveError) {
		e.MsgID, e.ReplicationGroupMsgID, e.From, e.To = m.MsgID, m.ReplicationGroupMsgID, r.opt.From, r.opt.To
		r.mu.Lock()
		if r.err == nil {
			r.err = e
		} else {
			r.others = append(r.others, e)
		}
		r.mu.Unlock()
		r.stopOnce.Do(func() { close(r.stop) })
	}
	if err := r.c.CopyMessage(ctx, r.opt.To, r.opt.From, m.ReplicationGroupMsgID); err != nil {
		fail(&RedriveError{MaybeCopied: errors.Is(err, ErrCopyOutcomeUnknown), Err: err})
		return
	}
	// The copy is on To: the delete runs even when the caller's context ends now.
	if err := r.c.finishMove(ctx, r.opt.From, m.MsgID); err != nil {
		fail(&RedriveError{OnBoth: true, MaybeDeleted: httpx.MaybeSent(err), Err: err})
		return
	}
	r.reportMu.Lock()
	defer r.reportMu.Unlock()
	r.mu.Lock()
	r.p.Moved++
	p := r.p
	r.mu.Unlock()
	if r.opt.Progress != nil {
		r.opt.Progress(p)
	}
}

// finishMove deletes message msgID, already copied, from queue from. A delete whose answer is lost may have
// been carried out: the message is then read back, and one that is no longer on from counts as moved. It
// returns nil when the message is off from, else the error of the delete.
func (c *Client) finishMove(ctx context.Context, from string, msgID int64) error {
	err := c.DeleteMessage(ctx, from, msgID)
	if err == nil || errors.Is(err, ErrNotFound) {
		return nil
	}
	if _, gerr := c.GetMessage(ctx, from, msgID); errors.Is(gerr, ErrNotFound) {
		return nil
	}
	return err
}

package eventmesh

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults and bounds of a redrive.
const (
	// DefaultRedriveConcurrency is the number of messages a redrive moves at once when
	// RedriveOptions.Concurrency is zero.
	DefaultRedriveConcurrency = 8
	// MaxRedriveConcurrency bounds RedriveOptions.Concurrency: the HTTP layer keeps 32 idle
	// connections per host.
	MaxRedriveConcurrency = 32
	// DefaultRedriveProgressEvery and DefaultRedriveProgressInterval: a progress report after
	// every so many finished messages, and at least every so often while messages move.
	DefaultRedriveProgressEvery    = 100
	DefaultRedriveProgressInterval = 5 * time.Second
	// DefaultRedriveFinishTimeout bounds the publish and acknowledgement of a message in
	// flight when the redrive is cancelled.
	DefaultRedriveFinishTimeout = 2 * time.Minute
	// maxRemembered bounds the published messages whose acknowledgement failed: past it the
	// redrive stops.
	maxRemembered = 100000
)

// RedriveAPI is what a redrive needs of the messaging REST API; *Messaging implements it.
type RedriveAPI interface {
	// Consume takes the next message with QoS 1, or nil when none is available.
	Consume(ctx context.Context, queue string) (*Message, error)
	// Resend publishes a consumed message with QoS 1.
	Resend(ctx context.Context, queue string, msg *Message) (Outcome, error)
	// Acknowledge acknowledges a consumed message.
	Acknowledge(ctx context.Context, queue, id string) (Outcome, error)
}

// RedriveOptions configure Redrive.
type RedriveOptions struct {
	// From is the queue the messages are consumed from, To the queue they are published to.
	From, To string
	// MaxMessages bounds the messages consumed (at least 1).
	MaxMessages int64
	// MaxPerSecond bounds the consumptions per second; 0 means no bound.
	MaxPerSecond float64
	// Concurrency is the number of messages moved at once (default DefaultRedriveConcurrency,
	// at most MaxRedriveConcurrency).
	Concurrency int
	// Progress, when set, is called with the counts every ProgressEvery finished messages
	// and every ProgressInterval while the redrive runs (never twice at once).
	Progress         func(RedriveProgress)
	ProgressEvery    int64
	ProgressInterval time.Duration
	// FinishTimeout bounds the publish and acknowledgement of a message in flight once ctx
	// is cancelled (default DefaultRedriveFinishTimeout).
	FinishTimeout time.Duration
}

// RedriveProgress are the counts of a redrive so far.
type RedriveProgress struct {
	// Moved counts the messages published to To and then acknowledged on From.
	Moved int64
	// Failed counts the messages whose publish failed. The first failed publish stops the
	// redrive; the other messages in flight then (at most Concurrency − 1) finish, and their
	// publish may fail as well.
	Failed int64
	// Returned counts the failed messages put back: published to From again (as a new
	// message, at its end) and their delivery acknowledged, so that the failed move spent
	// none of From's redelivery count. A failed message not returned (its publish to From
	// failed too) is left unacknowledged and returns to From when its delivery times out,
	// counted by Event Mesh as a failed delivery.
	Returned int64
	// AckFailed counts the published messages whose acknowledgement failed: they are in To
	// and return to From. One that this redrive consumes again is acknowledged without a
	// second publish (and counted in Moved).
	AckFailed int64
	// DuplicatesPossible counts the messages that may be in To twice, or in To and back
	// in From: a publish or acknowledgement whose answer was lost, or an acknowledgement
	// that failed after the publish.
	DuplicatesPossible int64
	// Remaining is MaxMessages less the messages moved or failed.
	Remaining int64
	// Elapsed is the time since the start.
	Elapsed time.Duration
}

// RedriveResult is the outcome of a redrive.
type RedriveResult struct {
	RedriveProgress
	// Consumed counts the consumptions that returned a message.
	Consumed int64
	// AcknowledgedAgain counts the messages this redrive published, failed to acknowledge,
	// consumed again and acknowledged without publishing them a second time.
	AcknowledgedAgain int64
	// Empty is set when From had no message available before MaxMessages were consumed.
	Empty bool
	// Cancelled is set when ctx ended the redrive (after the messages in flight).
	Cancelled bool
}

// ErrNoMessageID stops a redrive whose consumption answer has no X-Message-Id: the message
// could not be acknowledged after its publish, so it is not published.
var ErrNoMessageID = errors.New("the consumption answer has no X-Message-Id, so the message could not be acknowledged; it was not published and returns to the queue")

// ErrRedriveOptions is returned (wrapped) for options Redrive cannot run with.
var ErrRedriveOptions = errors.New("invalid redrive options")

// RedriveError is the failure that stopped a redrive.
type RedriveError struct {
	// Step is "consume", "publish" or "acknowledge".
	Step string
	// MessageID is the X-Message-Id of the message concerned, if any.
	MessageID string
	Err       error
	// Returned, for a failed publish: the message was put back into From as a new message
	// and its delivery acknowledged (no delivery spent). ReturnErr says why it was not.
	Returned  bool
	ReturnErr error
}

func (e *RedriveError) Error() string {
	if e.MessageID != "" {
		return fmt.Sprintf("%s of message %s: %v", e.Step, e.MessageID, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Step, e.Err)
}

func (e *RedriveError) Unwrap() error { return e.Err }

// Redrive moves up to opt.MaxMessages messages from opt.From to opt.To, at least once and
// never lost: each message is consumed with QoS 1, published to To with QoS 1 (same
// payload, Content-Type and carried headers) and acknowledged on From only after To took
// it. A publish that fails stops the redrive and returns its message to From: put back as a
// new message and acknowledged, so that no delivery of From's redelivery count is spent, or,
// when From does not take it, left unacknowledged (see giveBack); the other messages in
// flight are finished first. A cancelled ctx
// stops it after the messages in flight (their publish and acknowledgement use a context
// of their own, bounded by FinishTimeout). The error is a *RedriveError, or ctx's error
// when ctx ended it; the counts are valid either way.
func Redrive(ctx context.Context, api RedriveAPI, opt RedriveOptions) (RedriveResult, error) {
	if opt.MaxMessages < 1 {
		return RedriveResult{}, fmt.Errorf("%w: MaxMessages %d is below 1", ErrRedriveOptions, opt.MaxMessages)
	}
	if opt.From == opt.To {
		return RedriveResult{}, fmt.Errorf("%w: From and To are the same queue %q", ErrRedriveOptions, opt.From)
	}
	if opt.MaxPerSecond < 0 {
		return RedriveResult{}, fmt.Errorf("%w: MaxPerSecond %v is negative", ErrRedriveOptions, opt.MaxPerSecond)
	}
	if opt.Concurrency == 0 {
		opt.Concurrency = DefaultRedriveConcurrency
	}
	if opt.Concurrency < 1 || opt.Concurrency > MaxRedriveConcurrency {
		return RedriveResult{}, fmt.Errorf("%w: Concurrency %d is outside 1..%d", ErrRedriveOptions, opt.Concurrency, MaxRedriveConcurrency)
	}
	if int64(opt.Concurrency) > opt.MaxMessages {
		opt.Concurrency = int(opt.MaxMessages)
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = DefaultRedriveProgressEvery
	}
	if opt.ProgressInterval <= 0 {
		opt.ProgressInterval = DefaultRedriveProgressInterval
	}
	if opt.FinishTimeout <= 0 {
		opt.FinishTimeout = DefaultRedriveFinishTimeout
	}
	r := &redrive{api: api, opt: opt, start: time.Now(), published: map[string]*published{}}
	if opt.MaxPerSecond > 0 {
		r.interval = time.Duration(float64(time.Second) / opt.MaxPerSecond)
	}

	stopTicker := make(chan struct{})
	tickerDone := make(chan struct{})
	go func() {
		defer close(tickerDone)
		t := time.NewTicker(opt.ProgressInterval)
		defer t.Stop()
		for {
			select {
			case <-stopTicker:
				return
			case <-t.C:
				r.report()
			}
		}
	}()

	var wg sync.WaitGroup
	for range opt.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx)
		}()
	}
	wg.Wait()
	close(stopTicker)
	<-tickerDone

	res := RedriveResult{RedriveProgress: r.progress(), Consumed: r.consumed.Load(), AcknowledgedAgain: r.again.Load(), Empty: r.empty.Load()}
	r.mu.Lock()
	err := r.err
	r.mu.Unlock()
	if err == nil && ctx.Err() != nil && res.Consumed < opt.MaxMessages && !res.Empty {
		res.Cancelled = true
		err = ctx.Err()
	}
	return res, err
}

type redrive struct {
	api      RedriveAPI
	opt      RedriveOptions
	start    time.Time
	interval time.Duration

	claimed, consumed, inFlight                               atomic.Int64
	moved, failed, returned, ackFailed, dup, sinceLast, again atomic.Int64
	empty, stopped                                            atomic.Bool

	mu        sync.Mutex // guards err, published, next
	err       error
	published map[string]*published // by X-Message-Id
	acked     recentIDs             // the IDs acknowledged last
	next      time.Time             // the earliest time of the next consumption

	reportMu sync.Mutex
}

func (r *redrive) progress() RedriveProgress {
	p := RedriveProgress{
		Moved: r.moved.Load(), Failed: r.failed.Load(), Returned: r.returned.Load(), AckFailed: r.ackFailed.Load(),
		DuplicatesPossible: r.dup.Load(), Elapsed: time.Since(r.start),
	}
	p.Remaining = r.opt.MaxMessages - p.Moved - p.Failed
	return p
}

func (r *redrive) report() {
	if r.opt.Progress == nil {
		return
	}
	r.reportMu.Lock()
	defer r.reportMu.Unlock()
	r.opt.Progress(r.progress())
}

// stop ends the redrive with err (the first one wins): no worker claims another message.
func (r *redrive) stop(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.stopped.Store(true)
}

// wait holds a consumption to MaxPerSecond; false when ctx ended first.
func (r *redrive) wait(ctx context.Context) bool {
	if r.interval <= 0 {
		return true
	}
	r.mu.Lock()
	now := time.Now()
	at := r.next
	if at.Before(now) {
		at = now
	}
	r.next = at.Add(r.interval)
	r.mu.Unlock()
	d := time.Until(at)
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (r *redrive) finished() {
	if r.sinceLast.Add(1)%r.opt.ProgressEvery == 0 {
		r.report()
	}
}

func (r *redrive) work(ctx context.Context) {
	for !r.stopped.Load() && ctx.Err() == nil {
		if r.claimed.Add(1) > r.opt.MaxMessages {
			return
		}
		if !r.wait(ctx) {
			return
		}
		r.inFlight.Add(1) // from the consumption on: its message may be delivered already
		msg, err := r.api.Consume(ctx, r.opt.From)
		if err != nil {
			r.inFlight.Add(-1)
			if ctx.Err() == nil {
				r.stop(&RedriveError{Step: "consume", Err: err})
			}
			return
		}
		if msg == nil {
			// None available. With deliveries of this redrive open, that may be the queue's
			// maxDeliveredUnackedMsgsPerFlow: this worker ends, the others go on; the last
			// one to find none with nothing in flight ends the redrive.
			if r.inFlight.Add(-1) == 0 {
				r.empty.Store(true)
				r.stopped.Store(true)
			}
			return
		}
		r.consumed.Add(1)
		if msg.ID == "" {
			// Without its ID the message cannot be acknowledged: publishing it would leave it
			// in both queues. Unacknowledged, it returns to From.
			r.inFlight.Add(-1)
			r.stop(&RedriveError{Step: "consume", Err: ErrNoMessageID})
			return
		}
		// The message is in flight: finish it even when ctx ends now.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.opt.FinishTimeout)
		if r.stopped.Load() && r.acknowledgedOrUnknown(msg.ID) {
			// Consumed after a failed publish stopped the redrive, perhaps the very message
			// put back: it goes back untried, not to fail again.
			if ok, _ := r.giveBack(fctx, msg); ok {
				r.returned.Add(-1) // not a failed move: Returned counts failed ones
			} else {
				r.failed.Add(1) // left unacknowledged: its delivery returns as a failed one
			}
		} else {
			r.move(fctx, msg)
		}
		cancel()
		r.inFlight.Add(-1)
		r.finished()
	}
}

// published is what the redrive knows of a message it published to To and has not
// seen acknowledged on From.
type published struct {
	// ackFailed: an acknowledgement failed after the publish; counted in AckFailed and
	// DuplicatesPossible.
	ackFailed bool
	// moved: counted in Moved already (an acknowledgement answered 400 after an attempt
	// that may have been carried out).
	moved bool
}

// move publishes msg to To and acknowledges it on From. A message this redrive published
// before and that came back (its acknowledgement failed, or its delivery returned before
// the acknowledgement) is acknowledged without a second publish.
func (r *redrive) move(ctx context.Context, msg *Message) {
	id := msg.ID
	r.mu.Lock()
	if r.acked.has(id) {
		// A delivery from before the acknowledgement of a later one (it was held while the
		// message returned to From and moved): the message is in To and gone from From.
		r.mu.Unlock()
		return
	}
	_, again := r.published[id]
	if !again && id != "" {
		if len(r.published) >= maxRemembered {
			r.mu.Unlock()
			r.stop(&RedriveError{Step: "acknowledge", MessageID: id, Err: fmt.Errorf("%d published messages wait for their acknowledgement", maxRemembered)})
			return
		}
		// Recorded before the publish: a worker that gets this message again while its
		// acknowledgement is under way does not publish it a second time.
		r.published[id] = &published{}
	}
	r.mu.Unlock()
	if !again {
		out, err := r.api.Resend(ctx, r.opt.To, msg)
		if err != nil {
			// A publish that may have reached the service may also be in To.
			r.mu.Lock()
			delete(r.published, id)
			r.mu.Unlock()
			r.failed.Add(1)
			if MayHaveWritten(err) {
				r.dup.Add(1)
			}
			// No worker takes another message: the one put back into From is not consumed again.
			r.stopped.Store(true)
			rerr := &RedriveError{Step: "publish", MessageID: id, Err: err}
			rerr.Returned, rerr.ReturnErr = r.giveBack(ctx, msg)
			r.stop(rerr)
			return
		}
		if out.EarlierAttemptMayHaveApplied {
			r.dup.Add(1)
		}
	}
	out, err := r.api.Acknowledge(ctx, r.opt.From, id)
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.published[id]
	if p == nil {
		// Another worker acknowledged this message meanwhile: this delivery had returned
		// to From, and the acknowledgement of the later one counted it.
		return
	}
	switch {
	case err == nil:
		delete(r.published, id)
		r.acked.add(id)
		if !p.moved {
			r.moved.Add(1)
		}
		if again {
			r.again.Add(1)
		}
		if p.ackFailed {
			// The duplicate counted when its acknowledgement failed did not happen.
			r.ackFailed.Add(-1)
			r.dup.Add(-1)
		}
	case errors.Is(err, ErrDeliveryGone) && out.EarlierAttemptMayHaveApplied:
		// An earlier attempt probably acknowledged it; should the delivery have returned to
		// From instead, the message comes again and is acknowledged without a publish.
		if !p.moved && !p.ackFailed {
			p.moved = true
			r.moved.Add(1)
			r.dup.Add(1)
		}
	default:
		// In To, and back in From once its delivery returns.
		if !p.ackFailed && !p.moved {
			p.ackFailed = true
			r.ackFailed.Add(1)
			r.dup.Add(1)
		}
		if !errors.Is(err, ErrDeliveryGone) {
			r.err = cmpOr(r.err, &RedriveError{Step: "acknowledge", MessageID: id, Err: err})
			r.stopped.Store(true)
		}
	}
}

// giveBack puts a message the redrive could not move back into From without spending a
// delivery: the messaging REST API has no call that releases a delivery (only consumption and
// acknowledgement, reference notes section 1), and a delivery left unacknowledged returns as a
// failed one, which counts toward From's maxRedeliveryCount and, without a dead message queue,
// ends in the message being discarded. So the message is published to From again, and only
// then is its delivery acknowledged. When that publish fails, the delivery stays
// unacknowledged, as before.
func (r *redrive) giveBack(ctx context.Context, msg *Message) (bool, error) {
	_, err := r.api.Resend(ctx, r.opt.From, msg)
	if err != nil {
		if MayHaveWritten(err) {
			r.dup.Add(1) // perhaps in From twice: the copy and the delivery that returns
		}
		return false, err
	}
	r.returned.Add(1)
	if _, err := r.api.Acknowledge(ctx, r.opt.From, msg.ID); err != nil {
		// The copy is in From, and the delivery returns to it as well.
		r.dup.Add(1)
	}
	return true, nil
}

// acknowledgedOrUnknown is true unless the redrive published msg already and waits for its
// acknowledgement (then move acknowledges it without a publish).
func (r *redrive) acknowledgedOrUnknown(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, published := r.published[id]
	return !published && !r.acked.has(id)
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// recentAcknowledged is how many acknowledged IDs a redrive keeps: enough for the
// deliveries that can be open at once, a fixed amount of memory.
const recentAcknowledged = 4 * MaxRedriveConcurrency

// recentIDs holds the last recentAcknowledged IDs added.
type recentIDs struct {
	ring [recentAcknowledged]string
	next int
	set  map[string]bool
}

func (r *recentIDs) add(id string) {
	if id == "" {
		return
	}
	if r.set == nil {
		r.set = make(map[string]bool, recentAcknowledged)
	}
	if old := r.ring[r.next]; old != "" {
		delete(r.set, old)
	}
	r.ring[r.next] = id
	r.next = (r.next + 1) % recentAcknowledged
	r.set[id] = true
}

func (r *recentIDs) has(id string) bool { return id != "" && r.set[id] }

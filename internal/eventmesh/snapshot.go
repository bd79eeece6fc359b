package eventmesh

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// Snapshot is the list of all queues taken with one GET /queues. It is
// immutable.
type Snapshot struct {
	queues map[string]*Queue
	// Taken is when the list was received.
	Taken time.Time

	usersOnce sync.Once
	users     map[string][]string // usersOf's index, built on its first call
}

// usersOf returns the queues listed with dmq as their dead message queue. The index is built once
// per list, so that the delete of each of N queues looks up its users instead of walking the list.
func (s *Snapshot) usersOf(dmq string) []string {
	s.usersOnce.Do(func() {
		s.users = map[string][]string{}
		for name, q := range s.queues {
			if q.DeadMsgQueue != nil && *q.DeadMsgQueue != "" {
				s.users[*q.DeadMsgQueue] = append(s.users[*q.DeadMsgQueue], name)
			}
		}
	})
	return s.users[dmq]
}

// Queue returns a copy of queue name as listed, and whether it was listed.
func (s *Snapshot) Queue(name string) (*Queue, bool) {
	q, ok := s.queues[name]
	if !ok {
		return nil, false
	}
	return q.Clone(), true
}

// Len returns the number of queues listed.
func (s *Snapshot) Len() int { return len(s.queues) }

// InvalidateSnapshot drops the cached queue list; the next cached read lists
// the queues again. Every write through this Client calls it.
func (c *Client) InvalidateSnapshot() {
	c.mu.Lock()
	c.snap.Drop()
	c.mu.Unlock()
}

// keepFirstSnapshot makes the cached queue list this Client's first list when
// it has none yet, before a write drops the cache: what the service held before
// the run's writes stays what FirstSnapshot returns, without another list.
func (c *Client) keepFirstSnapshot() {
	c.mu.Lock()
	if s, ok := c.snap.Peek(); c.listed == nil && ok {
		c.listed = s
	}
	c.mu.Unlock()
}

// Snapshot returns the cached queue list, listing the queues once if there
// is none. Concurrent callers share one list call.
func (c *Client) Snapshot(ctx context.Context) (*Snapshot, error) {
	return c.snap.Get(ctx, &c.mu, func(ctx context.Context) (*Snapshot, error) {
		qs, err := c.ListQueues(ctx)
		if err != nil {
			return nil, err
		}
		s := &Snapshot{queues: make(map[string]*Queue, len(qs)), Taken: time.Now()}
		for i := range qs {
			s.queues[qs[i].Name] = &qs[i]
		}
		return s, nil
	})
}

// CachedGetQueue returns queue name from the cached queue list, listing the
// queues on the first call and after every write through this Client. A
// queue missing from the list is confirmed with one GET before ErrNotFound is
// returned. If the service refuses to list queues, it falls back to GET.
func (c *Client) CachedGetQueue(ctx context.Context, name string) (*Queue, error) {
	s, err := c.Snapshot(ctx)
	if err != nil {
		if listRefused(err) {
			return c.GetQueue(ctx, name)
		}
		return nil, err
	}
	if q, ok := s.Queue(name); ok {
		return q, nil
	}
	return c.GetQueue(ctx, name)
}

// presence is what a Client knows about a queue from its own writes.
type presence uint8

const (
	// presenceUnknown: a write was sent whose outcome is not known.
	presenceUnknown presence = iota
	// presenceExists: a PUT of the queue succeeded.
	presenceExists
	// presenceGone: a DELETE of the queue succeeded or found no queue.
	presenceGone
)

// writeRecord is what a Client's own writes of one queue left behind.
type writeRecord struct {
	p presence
	// mayHaveCreated is set while a PUT of the queue has an unknown outcome: it may have created it.
	mayHaveCreated bool
	// dmqs are the dead message queues the queue may name after the writes: the one the last
	// successful PUT wrote, and each one a PUT of unknown outcome wrote since ("" for none).
	dmqs []string
	// listed is set while no write of the queue has a known outcome: the queue may still hold
	// what the first queue list showed.
	listed bool
}

// names reports whether the queue may name dmq as its dead message queue after the writes,
// with listedDMQ what the first queue list showed for it ("" for none or not listed).
func (r writeRecord) names(dmq, listedDMQ string) bool {
	if r.listed && listedDMQ == dmq {
		return true
	}
	return slices.Contains(r.dmqs, dmq)
}

// beginWrite records a write of queue name that is about to be sent: a PUT naming dmq
// (put true) or a DELETE. It returns the record as it was, for finishWrite.
func (c *Client) beginWrite(name string, put bool, dmq string) (prev writeRecord, had bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev, had = c.written[name]
	r := writeRecord{p: presenceUnknown, listed: !had || prev.listed, mayHaveCreated: prev.mayHaveCreated}
	if had && prev.p != presenceGone {
		r.dmqs = slices.Clone(prev.dmqs)
	}
	if put {
		r.mayHaveCreated = true
		if !slices.Contains(r.dmqs, dmq) {
			r.dmqs = append(r.dmqs, dmq)
		}
	}
	c.setWritten(name, r)
	return prev, had
}

// finishWrite records the known outcome of a write of queue name: the queue exists naming dmq
// (p presenceExists) or is gone (presenceGone).
func (c *Client) finishWrite(name string, p presence, dmq string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := writeRecord{p: p}
	if p == presenceExists {
		r.dmqs = []string{dmq}
	}
	c.setWritten(name, r)
}

// refuseWrite records that a write of queue name changed nothing (the service refused it with a
// 4xx, or it never left this machine): what was known before it holds again.
func (c *Client) refuseWrite(name string, prev writeRecord, had bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if had {
		c.setWritten(name, prev)
	} else {
		c.dropWritten(name)
	}
}

// setWritten records r as what the writes of queue name left behind, and keeps writtenBy in step:
// the queues whose records name each dead message queue. The caller holds c.mu.
func (c *Client) setWritten(name string, r writeRecord) {
	c.dropWritten(name)
	if c.written == nil {
		c.written, c.writtenBy = map[string]writeRecord{}, map[string]map[string]struct{}{}
	}
	c.written[name] = r
	for _, d := range r.dmqs {
		if c.writtenBy[d] == nil {
			c.writtenBy[d] = map[string]struct{}{}
		}
		c.writtenBy[d][name] = struct{}{}
	}
}

// dropWritten forgets the record of queue name's writes and its entries in writtenBy. The caller
// holds c.mu.
func (c *Client) dropWritten(name string) {
	r, had := c.written[name]
	if !had {
		return
	}
	for _, d := range r.dmqs {
		delete(c.writtenBy[d], name)
		if len(c.writtenBy[d]) == 0 {
			delete(c.writtenBy, d)
		}
	}
	delete(c.written, name)
}

// known returns what this Client knows about queue name without a request:
// from its own writes first, then from the first queue list it took.
func (c *Client) known(name string) (exists, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, written := c.written[name]; written {
		switch r.p {
		case presenceExists:
			return true, true
		case presenceGone:
			return false, true
		}
		return false, false
	}
	if c.listed == nil {
		return false, false
	}
	_, listed := c.listed.queues[name]
	return listed, true
}

// DeadMessageQueueUsers returns, sorted, the queues other than name that may name it as their
// dead message queue: from the first queue list this Client took (listing the queues once if it
// has none yet, shared with Snapshot and QueueExists) and from this Client's own writes since,
// which win over the list. A write of unknown outcome counts both ways: the queue may hold what
// it held before or what was written. So checking many queues before deleting them costs one
// GET /queues in all; a queue changed since the list by anything but this Client is not seen.
func (c *Client) DeadMessageQueueUsers(ctx context.Context, name string) ([]string, error) {
	s, err := c.FirstSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, nil // no queue is named "", and none names it
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// The queues that may name it are those listed naming it and those whose records do: both are
	// looked up (Snapshot.usersOf, writtenBy), so that a destroy of N queues does not walk the list
	// and the records once per queue.
	var users []string
	for _, q := range s.usersOf(name) {
		if q == name {
			continue
		}
		if r, written := c.written[q]; !written || r.names(name, name) {
			users = append(users, q)
		}
	}
	for q := range c.writtenBy[name] {
		listedDMQ := ""
		if l, listed := s.queues[q]; listed && l.DeadMsgQueue != nil {
			listedDMQ = *l.DeadMsgQueue
		}
		if q == name || listedDMQ == name {
			continue // itself, or counted above
		}
		if c.written[q].names(name, listedDMQ) {
			users = append(users, q)
		}
	}
	sort.Strings(users)
	return users, nil
}

// QueueExists reports whether queue name exists. It answers from the first
// queue list this Client took (listing the queues once if it has none yet,
// shared with Snapshot) and from the outcome of this Client's own writes
// since, so that checking many queues before creating them costs one
// GET /queues in all. A queue whose last write through this Client has an
// unknown outcome, or a service that refuses to list queues, costs one GET
// of the queue.
func (c *Client) QueueExists(ctx context.Context, name string) (bool, error) {
	if exists, ok := c.known(name); ok {
		return exists, nil
	}
	if _, err := c.FirstSnapshot(ctx); err != nil && !listRefused(err) {
		return false, err
	} else if err == nil {
		if exists, ok := c.known(name); ok {
			return exists, nil
		}
	}
	_, err := c.GetQueue(ctx, name)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotFound):
		return false, nil
	}
	return false, err
}

// FirstSnapshot returns the first queue list this Client took (listing the
// queues once if it has none yet, shared with Snapshot). Unlike Snapshot, this
// Client's writes do not drop it: it is what the service held when the run
// began, for checks that add the run's own writes themselves.
func (c *Client) FirstSnapshot(ctx context.Context) (*Snapshot, error) {
	c.mu.Lock()
	s := c.listed
	c.mu.Unlock()
	if s != nil {
		return s, nil
	}
	s, err := c.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listed == nil {
		c.listed = s
	}
	return c.listed, nil
}

// Listed reports whether this Client has listed the queues already (the first list, or the cached one), so
// that a check that reads the list costs no call of its own.
func (c *Client) Listed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listed != nil {
		return true
	}
	_, ok := c.snap.Peek()
	return ok
}

// listRefused reports whether err is the service refusing to list queues,
// which GET of one queue may still answer.
func listRefused(err error) bool {
	var apiErr *httpx.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
			return true
		}
	}
	return false
}

// DeadMessageQueues returns each listed queue's deadMsgQueue, "" for none.
func (s *Snapshot) DeadMessageQueues() map[string]string {
	out := make(map[string]string, len(s.queues))
	for name, q := range s.queues {
		if q.DeadMsgQueue != nil {
			out[name] = *q.DeadMsgQueue
		} else {
			out[name] = ""
		}
	}
	return out
}

// Queues returns copies of the queues listed, sorted by name.
func (s *Snapshot) Queues() []Queue {
	qs := make([]Queue, 0, len(s.queues))
	for _, q := range s.queues {
		qs = append(qs, *q.Clone())
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].Name < qs[j].Name })
	return qs
}

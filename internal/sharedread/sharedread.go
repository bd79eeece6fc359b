// Package sharedread keeps a value that concurrent callers read once: a read in flight is shared by
// the callers that arrive while it runs, its result is kept until it is dropped, and a read that a
// drop overtook is returned to its callers but not kept. The Event Mesh client's queue list
// (eventmesh.Client.Snapshot) and the flows of Cloud Integration (cpi.Flows.Flow) are read this way.
// It imports nothing of the project.
package sharedread

import (
	"context"
	"errors"
	"sync"
)

// Cell is one value read once. Its zero value holds nothing. The owner's mutex guards it: Get takes
// it as mu and must be called without it; Drop, Set and Peek are called with it held.
type Cell[T any] struct {
	gen     uint64
	value   T
	has     bool
	reading *read[T]
}

// read is a read shared by the callers that arrive while it runs.
type read[T any] struct {
	done  chan struct{}
	gen   uint64
	value T
	err   error
}

// Get returns the kept value, or the result of the read in flight, or reads it with load and keeps a
// successful result unless Drop was called meanwhile. A caller whose context ends stops waiting; when
// the read it waited for failed only because its own caller gave up (context.Canceled or
// context.DeadlineExceeded while this context is alive), it reads again.
func (c *Cell[T]) Get(ctx context.Context, mu sync.Locker, load func(context.Context) (T, error)) (T, error) {
	for {
		mu.Lock()
		if c.has {
			v := c.value
			mu.Unlock()
			return v, nil
		}
		if r := c.reading; r != nil && r.gen == c.gen {
			mu.Unlock()
			select {
			case <-r.done:
			case <-ctx.Done():
				var zero T
				return zero, ctx.Err()
			}
			if r.err != nil && ctx.Err() == nil &&
				(errors.Is(r.err, context.Canceled) || errors.Is(r.err, context.DeadlineExceeded)) {
				// The caller that read gave up; read again for this one.
				continue
			}
			return r.value, r.err
		}
		r := &read[T]{done: make(chan struct{}), gen: c.gen}
		c.reading = r
		mu.Unlock()

		r.value, r.err = load(ctx)

		mu.Lock()
		if r.err == nil && c.gen == r.gen {
			c.value, c.has = r.value, true
		}
		if c.reading == r {
			c.reading = nil
		}
		mu.Unlock()
		close(r.done)
		return r.value, r.err
	}
}

// Drop forgets the kept value; a read in flight is no longer kept or joined. The mutex is held.
func (c *Cell[T]) Drop() {
	var zero T
	c.gen++
	c.value, c.has = zero, false
}

// Set keeps v as if it had been read. The mutex is held.
func (c *Cell[T]) Set(v T) { c.value, c.has = v, true }

// Peek returns the kept value and whether there is one. The mutex is held.
func (c *Cell[T]) Peek() (T, bool) { return c.value, c.has }

package sharedread

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Callers that arrive while a read runs share it, and the value is kept for the callers after them.
func TestGetSharesOneRead(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		c     Cell[int]
		loads atomic.Int32
	)
	release := make(chan struct{})
	load := func(ctx context.Context) (int, error) {
		loads.Add(1)
		<-release
		return 7, ctx.Err()
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if v, err := c.Get(t.Context(), &mu, load); err != nil || v != 7 {
				t.Errorf("Get = %d, %v; want 7", v, err)
			}
		})
	}
	for {
		mu.Lock()
		started := c.reading != nil
		mu.Unlock()
		if started {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if v, err := c.Get(t.Context(), &mu, load); err != nil || v != 7 {
		t.Errorf("Get after the read = %d, %v; want 7", v, err)
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("loads = %d, want 1", n)
	}
}

// A read that a Drop overtook is returned to its callers but not kept; a failed read is not kept.
func TestGetKeepsNoOvertakenOrFailedRead(t *testing.T) {
	t.Parallel()
	var (
		mu sync.Mutex
		c  Cell[int]
	)
	v, err := c.Get(t.Context(), &mu, func(context.Context) (int, error) {
		mu.Lock()
		c.Drop()
		mu.Unlock()
		return 1, nil
	})
	if err != nil || v != 1 {
		t.Fatalf("Get = %d, %v; want 1", v, err)
	}
	if _, ok := c.Peek(); ok {
		t.Error("a read overtaken by Drop is kept")
	}
	boom := errors.New("boom")
	if _, err := c.Get(t.Context(), &mu, func(context.Context) (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("Get = %v, want boom", err)
	}
	if _, ok := c.Peek(); ok {
		t.Error("a failed read is kept")
	}
	c.Set(3)
	if v, err := c.Get(t.Context(), &mu, func(context.Context) (int, error) { return 0, boom }); err != nil || v != 3 {
		t.Errorf("Get after Set = %d, %v; want 3", v, err)
	}
}

// A caller that waited for a read whose own caller gave up reads again; a caller whose context ends
// stops waiting.
func TestGetReadsAgainAfterAnAbandonedRead(t *testing.T) {
	t.Parallel()
	var (
		mu sync.Mutex
		c  Cell[int]
	)
	first, cancel := context.WithCancel(t.Context())
	started, joined := make(chan struct{}), make(chan struct{})
	go func() {
		_, _ = c.Get(first, &mu, func(ctx context.Context) (int, error) {
			close(started)
			<-joined
			cancel()
			return 0, ctx.Err()
		})
	}()
	<-started
	waiting := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		close(waiting)
		v, err := c.Get(t.Context(), &mu, func(context.Context) (int, error) { return 5, nil })
		if err != nil || v != 5 {
			t.Errorf("Get of the second caller = %d, %v; want 5 from a read of its own", v, err)
		}
	}()
	<-waiting
	time.Sleep(20 * time.Millisecond) // the second caller joins the first read
	close(joined)
	<-done

	gone, stop := context.WithCancel(t.Context())
	stop()
	c.Drop()
	block := make(chan struct{})
	defer close(block)
	go func() { _, _ = c.Get(t.Context(), &mu, func(context.Context) (int, error) { <-block; return 0, nil }) }()
	for {
		mu.Lock()
		r := c.reading
		mu.Unlock()
		if r != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := c.Get(gone, &mu, func(context.Context) (int, error) { return 0, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with an ended context = %v, want context.Canceled", err)
	}
}

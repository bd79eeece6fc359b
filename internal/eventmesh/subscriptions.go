package eventmesh

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// SubscriptionsOf returns the topic subscriptions of each of queues, in the order of queues,
// with the subscriptions of each queue as the management API lists them. The API lists the
// subscriptions of one queue per call (GET /queues/{queue}/subscriptions, reference note
// sap-apis.md section 1), so this makes one call per queue, at most parallel at a time (1 when
// parallel < 1). A queue deleted since it was listed has no subscriptions; any other failure
// ends the listing with the error of the first queue that failed, naming it.
func (c *Client) SubscriptionsOf(ctx context.Context, queues []string, parallel int) ([][]Subscription, error) {
	if parallel < 1 {
		parallel = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]Subscription, len(queues))
	errs := make([]error, len(queues))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, q := range queues {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			errs[i] = ctx.Err()
			continue
		}
		wg.Add(1)
		go func(i int, q string) {
			defer wg.Done()
			defer func() { <-sem }()
			subs, err := c.ListSubscriptions(ctx, q)
			switch {
			case errors.Is(err, ErrNotFound):
				out[i] = []Subscription{}
			case err != nil:
				errs[i] = fmt.Errorf("listing the subscriptions of queue %q: %w", q, err)
				cancel()
			default:
				out[i] = subs
			}
		}(i, q)
	}
	wg.Wait()
	// The first failure in queue order that is not the cancellation it caused.
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
		if err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	return out, nil
}

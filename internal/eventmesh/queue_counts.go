package eventmesh

import "context"

// QueueCounters returns queue name with its read-only counters (messageCount and the others), for a
// check that needs them without a request per queue: from the cached queue list (Snapshot, listing
// the queues once if there is none) when it lists the queue with its message count, else with one
// GET of the queue, which also answers when the service refuses to list queues. The reference notes
// on the management API document the counters on GET of a queue; a list that leaves them out costs
// one GET per queue asked for. A missing queue is ErrNotFound.
func (c *Client) QueueCounters(ctx context.Context, name string) (*Queue, error) {
	s, err := c.Snapshot(ctx)
	switch {
	case err == nil:
		if q, ok := s.Queue(name); ok && q.MessageCount != nil {
			return q, nil
		}
	case !listRefused(err):
		return nil, err
	}
	return c.GetQueue(ctx, name)
}

package aem

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The monitoring API's view of queues (GET /SEMP/v2/monitor/msgVpns/{vpn}/queues and .../queues/{queue}): the
// operational counters of a queue, as SEMP 2.34's monitor specification names them (MsgVpnQueue; the spec is
// in shared/reference/specs/semp/monitor-2.34.json). The monitor object of a queue also repeats its
// configuration; the client asks only for the counters with select, so that a list of every queue stays small
// (each select name must be an attribute of the object, or the broker refuses the request).
//
// The queue's current depth is no counter of the spec: spooledMsgCount is "the number of guaranteed messages
// that were spooled in the Queue", a running total like its byte twin spooledByteCount, and the spec has no
// count of the messages a queue holds now. CountMessages counts the queue's msgs collection instead. Bound
// consumers are the queue's txFlows collection (the spec's MsgVpnQueue has no bindCount); CountTxFlows counts it.

// queueStatsSelect is the select of every monitor request: the queue's name and the counters QueueStats holds.
var queueStatsSelect = strings.Join([]string{"queueName", "spooledMsgCount", "msgSpoolUsage"}, ",")

// QueueStats are the live counters of a queue.
type QueueStats struct {
	Name string `json:"queueName"`
	// SpooledMsgCount is how many messages were spooled on the queue since its statistics were last cleared:
	// a running total, not the messages it holds now (CountMessages).
	SpooledMsgCount int64 `json:"spooledMsgCount"`
	// MsgSpoolUsage is the message spool the queue uses now, in bytes.
	MsgSpoolUsage int64 `json:"msgSpoolUsage"`
}

// MonitorQueuesPath returns the escaped monitoring path of the Message VPN's queues.
func (c *Client) MonitorQueuesPath() string {
	return MonitorBasePath + "/msgVpns/" + url.PathEscape(c.vpn) + "/queues"
}

func decodeQueueStats(raw json.RawMessage) (*QueueStats, error) {
	var s QueueStats
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the queue counters in the answer cannot be read: %w", err)
	}
	return &s, nil
}

// ListQueueStats returns the counters of every queue of the Message VPN, in pages of 100.
func (c *Client) ListQueueStats(ctx context.Context) ([]QueueStats, error) {
	var out []QueueStats
	err := c.listQuery(ctx, c.MonitorQueuesPath(), url.Values{"select": {queueStatsSelect}}, "listing the queue counters",
		func(raw json.RawMessage) error {
			s, err := decodeQueueStats(raw)
			if err != nil {
				return err
			}
			out = append(out, *s)
			return nil
		})
	return out, err
}

// GetQueueStats reads the counters of queue name; a missing queue is an error that matches ErrNotFound.
func (c *Client) GetQueueStats(ctx context.Context, name string) (*QueueStats, error) {
	what := "reading the counters of queue " + name
	env, _, err := c.do(ctx, http.MethodGet, c.MonitorQueuesPath()+"/"+url.PathEscape(name)+"?"+url.Values{"select": {queueStatsSelect}}.Encode(), nil, what)
	if err != nil {
		return nil, err
	}
	s, err := decodeQueueStats(env.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return s, nil
}

// CountMessages returns how many messages queue holds now: the objects of its msgs collection (GET
// /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/msgs?select=msgId), counted page by page. A missing queue is an
// error that matches ErrNotFound.
func (c *Client) CountMessages(ctx context.Context, queue string) (int64, error) {
	return c.countCollection(ctx, c.MonitorQueuesPath()+"/"+url.PathEscape(queue)+"/msgs", "msgId", "counting the messages of queue "+queue)
}

// CountTxFlows returns how many consumer flows are bound to queue now: the objects of its txFlows collection
// (GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/txFlows?select=flowId). A missing queue is an error that
// matches ErrNotFound.
func (c *Client) CountTxFlows(ctx context.Context, queue string) (int64, error) {
	return c.countCollection(ctx, c.MonitorQueuesPath()+"/"+url.PathEscape(queue)+"/txFlows", "flowId", "counting the consumer flows of queue "+queue)
}

// countCollection counts the objects of the collection at path, asking for the identifying attribute id only.
func (c *Client) countCollection(ctx context.Context, path, id, what string) (int64, error) {
	var n int64
	err := c.listQuery(ctx, path, url.Values{"select": {id}}, what, func(json.RawMessage) error {
		n++
		return nil
	})
	return n, err
}

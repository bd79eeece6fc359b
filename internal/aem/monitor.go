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
// operational counters of a queue. The monitor object of a queue also repeats its configuration; the client
// asks only for the counters with select, so that a list of every queue stays small. The counter names are
// those of the SEMP v2 monitor specification's MsgVpnQueue (shared/reference/aem.md, section 3).

// queueStatsSelect is the select of every monitor request: the queue's name and the counters QueueStats holds.
var queueStatsSelect = strings.Join([]string{"queueName", "spooledMsgCount", "msgSpoolUsage", "bindCount"}, ",")

// QueueStats are the live counters of a queue.
type QueueStats struct {
	Name string `json:"queueName"`
	// SpooledMsgCount is how many messages the queue holds now.
	SpooledMsgCount int64 `json:"spooledMsgCount"`
	// MsgSpoolUsage is the message spool the queue uses now, in bytes.
	MsgSpoolUsage int64 `json:"msgSpoolUsage"`
	// BindCount is how many consumer flows are bound to the queue.
	BindCount int64 `json:"bindCount"`
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

package aem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// QueueSettings are the attributes of a queue ([SPEC] MsgVpnQueue) the provider can own. A nil field is
// not sent: a create leaves it at the broker's default, an update leaves it unchanged. A queue read from
// the broker has every field the broker sent.
type QueueSettings struct {
	AccessType                         *string `json:"accessType,omitempty"`
	DeadMsgQueue                       *string `json:"deadMsgQueue,omitempty"`
	DeliveryCountEnabled               *bool   `json:"deliveryCountEnabled,omitempty"`
	EgressEnabled                      *bool   `json:"egressEnabled,omitempty"`
	IngressEnabled                     *bool   `json:"ingressEnabled,omitempty"`
	MaxDeliveredUnackedMsgsPerFlow     *int64  `json:"maxDeliveredUnackedMsgsPerFlow,omitempty"`
	MaxMsgSize                         *int64  `json:"maxMsgSize,omitempty"`
	MaxMsgSpoolUsage                   *int64  `json:"maxMsgSpoolUsage,omitempty"`
	MaxRedeliveryCount                 *int64  `json:"maxRedeliveryCount,omitempty"`
	MaxTTL                             *int64  `json:"maxTtl,omitempty"`
	Owner                              *string `json:"owner,omitempty"`
	Permission                         *string `json:"permission,omitempty"`
	RedeliveryDelayEnabled             *bool   `json:"redeliveryDelayEnabled,omitempty"`
	RedeliveryDelayInitialInterval     *int64  `json:"redeliveryDelayInitialInterval,omitempty"`
	RedeliveryDelayMaxInterval         *int64  `json:"redeliveryDelayMaxInterval,omitempty"`
	RedeliveryDelayMultiplier          *int64  `json:"redeliveryDelayMultiplier,omitempty"`
	RedeliveryEnabled                  *bool   `json:"redeliveryEnabled,omitempty"`
	RejectMsgToSenderOnDiscardBehavior *string `json:"rejectMsgToSenderOnDiscardBehavior,omitempty"`
	RespectDmqEligibleEnabled          *bool   `json:"respectDmqEligibleEnabled,omitempty"`
	RespectTTLEnabled                  *bool   `json:"respectTtlEnabled,omitempty"`
}

// Queue is a queue of the Message VPN.
type Queue struct {
	Name       string `json:"queueName"`
	MsgVpnName string `json:"msgVpnName,omitempty"`
	QueueSettings
}

// Ptr returns a pointer to v, for the fields of QueueSettings.
func Ptr[T any](v T) *T { return &v }

func decodeQueue(raw json.RawMessage) (*Queue, error) {
	var q Queue
	if err := json.Unmarshal(raw, &q); err != nil {
		return nil, fmt.Errorf("the queue in the answer cannot be read: %w", err)
	}
	return &q, nil
}

// ListQueues returns every queue of the Message VPN, in pages of 100.
func (c *Client) ListQueues(ctx context.Context) ([]Queue, error) {
	var qs []Queue
	err := c.list(ctx, c.QueuesPath(), "listing the queues", func(raw json.RawMessage) error {
		q, err := decodeQueue(raw)
		if err != nil {
			return err
		}
		qs = append(qs, *q)
		return nil
	})
	return qs, err
}

// GetQueue reads queue name; a missing queue is an error that matches ErrNotFound.
func (c *Client) GetQueue(ctx context.Context, name string) (*Queue, error) {
	env, _, err := c.do(ctx, http.MethodGet, c.QueuePath(name), nil, "reading queue "+name)
	if err != nil {
		return nil, err
	}
	return decodeQueue(env.Data)
}

// CreateResult is the queue a create made.
type CreateResult struct {
	Queue *Queue
	// OwnEarlierAttempt is set when the broker answered that the queue exists after an attempt of the same
	// create got no answer or a 5xx: that attempt may have made it. Queue is then the queue as read after
	// the answer.
	OwnEarlierAttempt bool
}

// CreateQueue creates queue q with the settings it sets (the others at the broker's defaults) through
// POST, which fails on an existing queue (an error that matches ErrAlreadyExists), so that a queue the
// configuration does not own is never taken over.
func (c *Client) CreateQueue(ctx context.Context, q Queue) (CreateResult, error) {
	what := "creating queue " + q.Name
	q.MsgVpnName = ""
	env, resp, err := c.do(ctx, http.MethodPost, c.QueuesPath(), q, what)
	if err != nil {
		if errors.Is(err, ErrAlreadyExists) && resp != nil && resp.EarlierAttemptMayHaveApplied {
			got, gerr := c.GetQueue(ctx, q.Name)
			if gerr != nil {
				return CreateResult{}, errors.Join(err, gerr)
			}
			return CreateResult{Queue: got, OwnEarlierAttempt: true}, nil
		}
		return CreateResult{}, err
	}
	got, err := decodeQueue(env.Data)
	if err != nil {
		return CreateResult{}, fmt.Errorf("%s: %w", what, err)
	}
	return CreateResult{Queue: got}, nil
}

// UpdateQueue changes the settings s sets on queue name through PATCH and leaves every other attribute as
// it is. A missing queue is an error that matches ErrNotFound.
func (c *Client) UpdateQueue(ctx context.Context, name string, s QueueSettings) (*Queue, error) {
	env, _, err := c.do(ctx, http.MethodPatch, c.QueuePath(name), s, "updating queue "+name)
	if err != nil {
		return nil, err
	}
	return decodeQueue(env.Data)
}

// DeleteQueue deletes queue name with its messages; a missing queue is an error that matches ErrNotFound.
func (c *Client) DeleteQueue(ctx context.Context, name string) error {
	_, _, err := c.do(ctx, http.MethodDelete, c.QueuePath(name), nil, "deleting queue "+name)
	return err
}

// CheckAccess proves the SEMP URL, the credentials and the Message VPN with one cheap authenticated read:
// the first queue name of the Message VPN (a refused user is an error that matches ErrUnauthorized, a
// Message VPN that does not exist one that matches ErrNotFound).
func (c *Client) CheckAccess(ctx context.Context) error {
	_, _, err := c.do(ctx, http.MethodGet, c.QueuesPath()+"?count=1&select=queueName", nil, "reading the queues of Message VPN "+c.vpn)
	return err
}

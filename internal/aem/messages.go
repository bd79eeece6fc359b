package aem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// Subscription is a topic subscription of a queue.
type Subscription struct {
	QueueName string `json:"queueName"`
	Topic     string `json:"subscriptionTopic"`
}

// ListSubscriptions returns the topics queue subscribes to, in pages of 100.
func (c *Client) ListSubscriptions(ctx context.Context, queue string) ([]string, error) {
	var topics []string
	err := c.list(ctx, c.QueuePath(queue)+"/subscriptions", "listing the subscriptions of queue "+queue, func(raw json.RawMessage) error {
		var s Subscription
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		topics = append(topics, s.Topic)
		return nil
	})
	return topics, err
}

// GetSubscription reports whether queue subscribes to topic; a missing queue or subscription is an error
// that matches ErrNotFound.
func (c *Client) GetSubscription(ctx context.Context, queue, topic string) (*Subscription, error) {
	env, _, err := c.do(ctx, http.MethodGet, c.SubscriptionPath(queue, topic), nil, fmt.Sprintf("reading subscription %s of queue %s", topic, queue))
	if err != nil {
		return nil, err
	}
	var s Subscription
	if err := json.Unmarshal(env.Data, &s); err != nil {
		return nil, fmt.Errorf("reading subscription %s of queue %s: %w", topic, queue, err)
	}
	return &s, nil
}

// CreateSubscription subscribes queue to topic; an existing subscription is an error that matches
// ErrAlreadyExists, unless an earlier attempt of the same request may have made it (then it is no error).
func (c *Client) CreateSubscription(ctx context.Context, queue, topic string) error {
	_, resp, err := c.do(ctx, http.MethodPost, c.QueuePath(queue)+"/subscriptions", map[string]string{"subscriptionTopic": topic},
		fmt.Sprintf("subscribing queue %s to %s", queue, topic))
	if err != nil && resp != nil && resp.EarlierAttemptMayHaveApplied && errors.Is(err, ErrAlreadyExists) {
		return nil
	}
	return err
}

// DeleteSubscription removes topic from queue; a missing one is an error that matches ErrNotFound.
func (c *Client) DeleteSubscription(ctx context.Context, queue, topic string) error {
	_, _, err := c.do(ctx, http.MethodDelete, c.SubscriptionPath(queue, topic), nil, fmt.Sprintf("deleting subscription %s of queue %s", topic, queue))
	return err
}

// Message is a message spooled on a queue, as the monitoring API lists it.
type Message struct {
	MsgID                 int64  `json:"msgId"`
	ReplicationGroupMsgID string `json:"replicationGroupMsgId"`
	RedeliveryCount       int64  `json:"redeliveryCount"`
	DMQEligible           bool   `json:"dmqEligible"`
	ExpiryTime            int64  `json:"expiryTime"`
	SpooledTime           int64  `json:"spooledTime"`
	ContentSize           int64  `json:"contentSize"`
}

// ListMessages returns the messages spooled on queue, in pages of 100 (GET /SEMP/v2/monitor/.../msgs).
func (c *Client) ListMessages(ctx context.Context, queue string) ([]Message, error) {
	var msgs []Message
	err := c.list(ctx, c.messagesPath(queue), "listing the messages of queue "+queue, func(raw json.RawMessage) error {
		var m Message
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		msgs = append(msgs, m)
		return nil
	})
	return msgs, err
}

func (c *Client) messagesPath(queue string) string {
	return MonitorBasePath + "/msgVpns/" + url.PathEscape(c.vpn) + "/queues/" + url.PathEscape(queue) + "/msgs"
}

// messagePage reads one page of at most count messages of queue, oldest first, from cursor ("" for the first
// page), and returns them with the cursor of the next page ("" after the last).
func (c *Client) messagePage(ctx context.Context, queue string, count int, cursor string) ([]Message, string, error) {
	what := "listing the messages of queue " + queue
	items, next, err := c.listPage(ctx, c.messagesPath(queue), nil, count, cursor, what)
	if err != nil {
		return nil, "", err
	}
	msgs := make([]Message, len(items))
	for i, raw := range items {
		if err := json.Unmarshal(raw, &msgs[i]); err != nil {
			return nil, "", fmt.Errorf("%s: %w", what, err)
		}
	}
	return msgs, next, nil
}

// MessagePath is the monitoring API's path of message msgID on queue.
func (c *Client) MessagePath(queue string, msgID int64) string {
	return MonitorBasePath + "/msgVpns/" + url.PathEscape(c.vpn) + "/queues/" + url.PathEscape(queue) + "/msgs/" + strconv.FormatInt(msgID, 10)
}

// GetMessage reads message msgID of queue (GET /SEMP/v2/monitor/.../msgs/{msgId}); a message that is not
// on the queue is an error that matches ErrNotFound.
func (c *Client) GetMessage(ctx context.Context, queue string, msgID int64) (*Message, error) {
	env, _, err := c.do(ctx, http.MethodGet, c.MessagePath(queue, msgID), nil, fmt.Sprintf("reading message %d of queue %s", msgID, queue))
	if err != nil {
		return nil, err
	}
	var m Message
	if err := json.Unmarshal(env.Data, &m); err != nil {
		return nil, fmt.Errorf("reading message %d of queue %s: %w", msgID, queue, err)
	}
	return &m, nil
}

// ErrCopyOutcomeUnknown is matched by the error of a copy that may have been carried out: it was sent and
// its answer was lost, or was a server error (5xx). CopyMessage does not repeat such a copy.
var ErrCopyOutcomeUnknown = errors.New("the broker may have made the copy: its answer was lost or was a server error")

// CopyMessage copies the message with replicationGroupMsgID from queue source to queue dest (PUT
// /SEMP/v2/action/.../queues/{dest}/copyMsgFromQueue). The message stays on source.
//
// The copy is not idempotent: each one spools another copy on dest. It is sent at most once
// (httpx.AtMostOnce): an attempt that was never sent, or was refused with 429, is repeated; one that may have
// been carried out is not, and its error matches ErrCopyOutcomeUnknown. Reading dest back cannot tell a copy
// that was made: a message's replication group message ID may differ on another queue (docs.solace.com,
// API/API-Developer-Guide/Detecting-Duplicate-Mess.htm), so the caller learns the copy is unknown instead.
func (c *Client) CopyMessage(ctx context.Context, dest, source, replicationGroupMsgID string) error {
	path := ActionBasePath + "/msgVpns/" + url.PathEscape(c.vpn) + "/queues/" + url.PathEscape(dest) + "/copyMsgFromQueue"
	_, resp, err := c.do(httpx.AtMostOnce(ctx), http.MethodPut, path, map[string]string{"replicationGroupMsgId": replicationGroupMsgID, "sourceQueueName": source},
		fmt.Sprintf("copying message %s from queue %s to queue %s", replicationGroupMsgID, source, dest))
	if err != nil && (httpx.MaybeSent(err) || (resp != nil && resp.StatusCode >= http.StatusInternalServerError)) {
		return &outcomeUnknownError{err: err}
	}
	return err
}

type outcomeUnknownError struct{ err error }

func (e *outcomeUnknownError) Error() string   { return e.err.Error() }
func (e *outcomeUnknownError) Unwrap() []error { return []error{e.err, ErrCopyOutcomeUnknown} }

// DeleteMessage deletes message msgID from queue (PUT /SEMP/v2/action/.../queues/{queue}/msgs/{msgId}/delete);
// a message that is gone is an error that matches ErrNotFound.
func (c *Client) DeleteMessage(ctx context.Context, queue string, msgID int64) error {
	path := ActionBasePath + "/msgVpns/" + url.PathEscape(c.vpn) + "/queues/" + url.PathEscape(queue) + "/msgs/" + strconv.FormatInt(msgID, 10) + "/delete"
	_, _, err := c.do(ctx, http.MethodPut, path, map[string]string{}, fmt.Sprintf("deleting message %d of queue %s", msgID, queue))
	return err
}

// About is the API description of the broker (/SEMP/v2/config/about/api).
type About struct {
	Platform    string `json:"platform"`
	SEMPVersion string `json:"sempVersion"`
}

// AboutAPI reads the broker's SEMP version: a cheap call that checks the URL and the credentials.
func (c *Client) AboutAPI(ctx context.Context) (*About, error) {
	env, _, err := c.do(ctx, http.MethodGet, ConfigBasePath+"/about/api", nil, "reading the SEMP API description")
	if err != nil {
		return nil, err
	}
	var a About
	if err := json.Unmarshal(env.Data, &a); err != nil {
		return nil, fmt.Errorf("reading the SEMP API description: %w", err)
	}
	return &a, nil
}

package eventmesh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/sharedread"
)

// ManagementBasePath is the path of the management API below management[0].uri.
const ManagementBasePath = "/hub/rest/api/v1/management/messaging"

// ErrNotFound is returned (wrapped with the name) for a queue or
// subscription that does not exist.
var ErrNotFound = errors.New("not found")

// Client is a management API client. It is safe for concurrent use.
type Client struct {
	h *httpx.Client

	mu sync.Mutex
	// snap is the cached queue list (Snapshot), dropped by every write.
	snap sharedread.Cell[*Snapshot]

	// listed is the first queue list this Client took; written records what
	// this Client's own queue writes since left behind. Together they answer
	// QueueExists without listing the queues again after every write.
	listed  *Snapshot
	written map[string]writeRecord
	// writtenBy holds, for each dead message queue, the queues whose record in written may name
	// it (writeRecord.dmqs): DeadMessageQueueUsers looks them up instead of walking written.
	writtenBy map[string]map[string]struct{}
}

// New returns a management client over h, whose BaseURL is management[0].uri.
func New(h *httpx.Client) *Client {
	return &Client{h: h}
}

// HTTP returns the underlying HTTP client.
func (c *Client) HTTP() *httpx.Client { return c.h }

// QueuePath returns the escaped management path of queue name.
func QueuePath(name string) string {
	return ManagementBasePath + "/queues/" + url.PathEscape(name)
}

// SubscriptionPath returns the escaped management path of a subscription.
func SubscriptionPath(queue, topic string) string {
	return QueuePath(queue) + "/subscriptions/" + url.PathEscape(topic)
}

func notFound(kind, name string) error {
	return fmt.Errorf("%s %q: %w", kind, name, ErrNotFound)
}

func (c *Client) do(ctx context.Context, method, path string, body []byte) (*httpx.Response, error) {
	var h http.Header
	if body != nil {
		h = http.Header{"Content-Type": {"application/json"}}
	}
	return c.h.Do(ctx, method, path, body, h)
}

func ok2xx(code int) bool { return code >= 200 && code <= 299 }

// check returns the error of resp's status: ErrNotFound (wrapped with kind
// and name) for a 404, an *httpx.APIError for any other status outside 2xx,
// and nil otherwise.
func check(resp *httpx.Response, method, path, kind, name string) error {
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return notFound(kind, name)
	case !ok2xx(resp.StatusCode):
		return httpx.NewAPIError(method, path, resp)
	}
	return nil
}

// write sends a request that changes queues or subscriptions; it drops the
// cached snapshot before the request and again after it. A snapshot taken
// before this Client's first write is kept as its first list (FirstSnapshot).
func (c *Client) write(ctx context.Context, method, path string, body []byte) (*httpx.Response, error) {
	c.keepFirstSnapshot()
	c.InvalidateSnapshot()
	defer c.InvalidateSnapshot()
	return c.do(ctx, method, path, body)
}

// ListQueues returns all queues of the instance.
func (c *Client) ListQueues(ctx context.Context) ([]Queue, error) {
	path := ManagementBasePath + "/queues"
	resp, err := c.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	if !ok2xx(resp.StatusCode) {
		return nil, httpx.NewAPIError(http.MethodGet, path, resp)
	}
	qs, err := DecodeQueues(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	return qs, nil
}

// GetQueue returns queue name; a missing queue is ErrNotFound.
func (c *Client) GetQueue(ctx context.Context, name string) (*Queue, error) {
	path := QueuePath(name)
	resp, err := c.do(ctx, http.MethodGet, path, nil)
	return decodeFound(resp, err, path, "queue", name, DecodeQueue, func(q *Queue) *string { return &q.Name })
}

// decodeFound is the object a GET of path answered (resp, or the error of the request): a
// missing kind name is ErrNotFound; decode reads the body, and the object's name, nameOf, is
// name when the answer leaves it out.
func decodeFound[T any](resp *httpx.Response, err error, path, kind, name string, decode func([]byte) (*T, error), nameOf func(*T) *string) (*T, error) {
	if err != nil {
		return nil, err
	}
	if err := check(resp, http.MethodGet, path, kind, name); err != nil {
		return nil, err
	}
	v, err := decode(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	if n := nameOf(v); *n == "" {
		*n = name
	}
	return v, nil
}

// PutResult is what the answer to a successful PUT of a queue says about the queue before it.
type PutResult struct {
	// Created is set when the service answered 201 Created: the PUT created the queue.
	Created bool
	// Existed is set when the service answered 200 (replaced) and no write of this Client may
	// have created the queue before: the queue existed before this PUT, and the PUT replaced
	// its settings.
	Existed bool
	// OwnEarlierWrite is set when the service answered 200 (the queue existed) and a write of
	// this Client may have created the queue before: an earlier attempt of the same PUT that got
	// no answer or a 5xx (the retry then finds what it created), or an earlier PUT of the queue
	// whose outcome is unknown. Then the answer cannot tell whether the queue existed before
	// this Client wrote it.
	OwnEarlierWrite bool
}

// PutQueue creates or replaces queue name with settings s. It returns the
// queue as the service stored it and what the answer says about the queue
// before (201 created, 200 replaced; see the reference notes on the Event Mesh
// management API). An answer without a body is followed by a GET of the queue.
func (c *Client) PutQueue(ctx context.Context, name string, s QueueSettings) (*Queue, PutResult, error) {
	body, err := json.Marshal(s)
	if err != nil {
		return nil, PutResult{}, err
	}
	path := QueuePath(name)
	dmq := ""
	if s.DeadMsgQueue != nil {
		dmq = *s.DeadMsgQueue
	}
	prev, had := c.beginWrite(name, true, dmq)
	resp, err := c.write(ctx, http.MethodPut, path, body)
	if err != nil {
		if !MayHaveWritten(err) {
			c.refuseWrite(name, prev, had)
		}
		return nil, PutResult{}, err
	}
	if !ok2xx(resp.StatusCode) {
		if resp.StatusCode < 500 && !resp.EarlierAttemptMayHaveApplied {
			c.refuseWrite(name, prev, had)
		}
		return nil, PutResult{}, httpx.NewAPIError(http.MethodPut, path, resp)
	}
	c.finishWrite(name, presenceExists, dmq)
	res := PutResult{Created: resp.StatusCode == http.StatusCreated}
	if !res.Created {
		res.OwnEarlierWrite = resp.EarlierAttemptMayHaveApplied || (had && prev.p == presenceUnknown && prev.mayHaveCreated)
		res.Existed = !res.OwnEarlierWrite
	}
	if isNull(resp.Body) {
		q, err := c.GetQueue(ctx, name)
		if err != nil {
			return nil, res, &readBackError{err: err}
		}
		return q, res, nil
	}
	q, err := DecodeQueue(resp.Body)
	if err != nil {
		return nil, res, &readBackError{err: fmt.Errorf("PUT %s: %w", path, err)}
	}
	if q.Name == "" {
		q.Name = name
	}
	return q, res, nil
}

// DeleteQueue deletes queue name; a missing queue is ErrNotFound.
func (c *Client) DeleteQueue(ctx context.Context, name string) error {
	path := QueuePath(name)
	prev, had := c.beginWrite(name, false, "")
	resp, err := c.write(ctx, http.MethodDelete, path, nil)
	if err != nil {
		if !MayHaveWritten(err) {
			c.refuseWrite(name, prev, had)
		}
		return err
	}
	err = check(resp, http.MethodDelete, path, "queue", name)
	switch {
	case err == nil || errors.Is(err, ErrNotFound):
		c.finishWrite(name, presenceGone, "")
	case resp.StatusCode < 500 && !resp.EarlierAttemptMayHaveApplied:
		c.refuseWrite(name, prev, had)
	}
	return err
}

// ListSubscriptions returns the topic subscriptions of queue; a missing
// queue is ErrNotFound.
func (c *Client) ListSubscriptions(ctx context.Context, queue string) ([]Subscription, error) {
	path := QueuePath(queue) + "/subscriptions"
	resp, err := c.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	if err := check(resp, http.MethodGet, path, "queue", queue); err != nil {
		return nil, err
	}
	subs, err := DecodeSubscriptions(resp.Body, queue)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	return subs, nil
}

// PutSubscription subscribes queue to topic; it is not an error if the
// subscription exists. A missing queue is ErrNotFound.
func (c *Client) PutSubscription(ctx context.Context, queue, topic string) error {
	path := SubscriptionPath(queue, topic)
	resp, err := c.write(ctx, http.MethodPut, path, nil)
	if err != nil {
		return err
	}
	return check(resp, http.MethodPut, path, "queue", queue)
}

// DeleteSubscription removes the subscription of queue to topic; a missing
// queue or subscription is ErrNotFound.
func (c *Client) DeleteSubscription(ctx context.Context, queue, topic string) error {
	path := SubscriptionPath(queue, topic)
	resp, err := c.write(ctx, http.MethodDelete, path, nil)
	if err != nil {
		return err
	}
	return check(resp, http.MethodDelete, path, "subscription", queue+" -> "+topic)
}

// Ready checks GET /readinessCheck; a 503 (after the retries that honour its
// Retry-After) is returned as *httpx.APIError.
func (c *Client) Ready(ctx context.Context) error {
	path := ManagementBasePath + "/readinessCheck"
	resp, err := c.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	if !ok2xx(resp.StatusCode) {
		return httpx.NewAPIError(http.MethodGet, path, resp)
	}
	return nil
}

// readBackError is a write the service answered with success, followed by a
// read of the result that failed.
type readBackError struct{ err error }

func (e *readBackError) Error() string {
	return "the service accepted the write, but reading the result back failed: " + e.err.Error()
}

func (e *readBackError) Unwrap() error { return e.err }

// MayHaveWritten reports whether a failed write may still have changed the
// service: it was sent and no answer arrived (the answer was lost, the
// connection broke after sending, the context was cancelled while waiting),
// the service answered 5xx (it may have failed after the change), or the
// service accepted it and only reading the result back failed. It is false
// for a write that provably never left and for a 4xx refusal.
func MayHaveWritten(err error) bool {
	if err == nil {
		return false
	}
	var rb *readBackError
	if errors.As(err, &rb) || httpx.MaybeSent(err) {
		return true
	}
	var apiErr *httpx.APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode >= 500
}

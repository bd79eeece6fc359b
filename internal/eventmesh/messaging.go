package eventmesh

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// MessagingBasePath is the path of the messaging REST API below messaging[].uri.
const MessagingBasePath = "/messagingrest/v1"

// Messaging is a client of the messaging REST API: publishing, consuming and acknowledging
// messages (the redrive, tests) and managing webhook subscriptions. It uses QoS 1:
// a consumed message stays unacknowledged until Ack.
type Messaging struct {
	h *httpx.Client
}

// Message is a consumed message.
type Message struct {
	// ID is the X-Message-Id to acknowledge; empty if the service sent none.
	ID          string
	Body        []byte
	ContentType string
	Header      http.Header
}

// NewMessaging returns a messaging client over h, whose BaseURL is the
// messaging entry's uri and whose credentials are that entry's.
func NewMessaging(h *httpx.Client) *Messaging {
	return &Messaging{h: h}
}

func messagesPath(queue string) string {
	return MessagingBasePath + "/queues/" + url.PathEscape(queue) + "/messages"
}

// Publish sends body to queue with QoS 1.
func (m *Messaging) Publish(ctx context.Context, queue string, body []byte, contentType string) error {
	if body == nil {
		body = []byte{}
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	path := messagesPath(queue)
	resp, err := m.h.Do(ctx, http.MethodPost, path, body, http.Header{"x-qos": {"1"}, "Content-Type": {contentType}})
	if err != nil {
		return err
	}
	return check(resp, http.MethodPost, path, "queue", queue)
}

// Consume takes the next message of queue with QoS 1; it returns nil, nil
// when the queue is empty (204).
func (m *Messaging) Consume(ctx context.Context, queue string) (*Message, error) {
	path := messagesPath(queue) + "/consumption"
	resp, err := m.h.Do(ctx, http.MethodPost, path, nil, http.Header{"x-qos": {"1"}, "Accept": {"*/*"}})
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusNoContent {
		return nil, nil
	}
	if err := check(resp, http.MethodPost, path, "queue", queue); err != nil {
		return nil, err
	}
	return &Message{
		ID:          resp.Header.Get("X-Message-Id"),
		Body:        resp.Body,
		ContentType: resp.Header.Get("Content-Type"),
		Header:      resp.Header,
	}, nil
}

// Ack acknowledges message id of queue; 200, 202 and 204 are accepted.
func (m *Messaging) Ack(ctx context.Context, queue, id string) error {
	if id == "" {
		return fmt.Errorf("acknowledging a message of queue %q: the message has no ID", queue)
	}
	path := messagesPath(queue) + "/" + url.PathEscape(id) + "/acknowledgement"
	resp, err := m.h.Do(ctx, http.MethodPost, path, nil, http.Header{"x-qos": {"1"}})
	if err != nil {
		return err
	}
	return check(resp, http.MethodPost, path, "queue", queue)
}

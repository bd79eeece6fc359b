package eventmesh

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// notCarried are the headers of a consumption answer that belong to the delivery or to
// the HTTP exchange, not to the message: a resend sets its own or none. Every other
// header the messaging REST API gives back is sent again with the message.
var notCarried = map[string]bool{
	// The delivery: its ID and quality of service.
	"X-Message-Id": true, "X-Qos": true,
	// The HTTP exchange and its framing.
	"Content-Length": true, "Content-Encoding": true, "Transfer-Encoding": true, "Connection": true,
	"Keep-Alive": true, "Trailer": true, "Upgrade": true, "Te": true, "Date": true, "Server": true,
	"Via": true, "Alt-Svc": true, "Age": true, "Vary": true, "Accept-Ranges": true, "Etag": true,
	"Last-Modified": true, "Cache-Control": true, "Expires": true, "Pragma": true,
	// Authentication, cookies and the gateway's security and tracing headers.
	"Authorization": true, "Www-Authenticate": true, "Set-Cookie": true, "Proxy-Authenticate": true,
	"Strict-Transport-Security": true, "X-Content-Type-Options": true, "X-Frame-Options": true,
	"X-Xss-Protection": true, "Content-Security-Policy": true, "Referrer-Policy": true,
	"Report-To": true, "Nel": true, "X-Vcap-Request-Id": true, "X-Request-Id": true,
	"X-Correlationid": true, "X-Correlation-Id": true, "Retry-After": true,
}

// CarriedHeaders returns the headers of a consumed message that a resend carries: every
// header of the consumption answer except those of the delivery and of the HTTP exchange
// (notCarried), Content-Type included.
func CarriedHeaders(h http.Header) http.Header {
	out := http.Header{}
	for name, values := range h {
		canonical := http.CanonicalHeaderKey(name)
		if notCarried[canonical] || strings.HasPrefix(canonical, "Proxy-") || strings.HasPrefix(canonical, "Access-Control-") {
			continue
		}
		out[canonical] = append([]string(nil), values...)
	}
	return out
}

// Outcome says what the answer to a call of a redrive proves.
type Outcome struct {
	// EarlierAttemptMayHaveApplied is set when an attempt before the answered one got no
	// answer or a 5xx: the call may have been carried out twice (a publish: the message
	// may be in the queue twice), or before the answer (an acknowledgement answered 400).
	EarlierAttemptMayHaveApplied bool
}

// Resend publishes a consumed message to queue with QoS 1: the same payload, its
// Content-Type and every header CarriedHeaders keeps. A 2xx answer means the service
// took the message.
func (m *Messaging) Resend(ctx context.Context, queue string, msg *Message) (Outcome, error) {
	h := CarriedHeaders(msg.Header)
	ct := msg.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("x-qos", "1")
	body := msg.Body
	if body == nil {
		body = []byte{}
	}
	path := messagesPath(queue)
	resp, err := m.h.Do(ctx, http.MethodPost, path, body, h)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{EarlierAttemptMayHaveApplied: resp.EarlierAttemptMayHaveApplied}
	return out, check(resp, http.MethodPost, path, "queue", queue)
}

// ErrDeliveryGone is returned (wrapped) by Acknowledge when the service answers 400 to the
// acknowledgement: the queue holds no unacknowledged delivery with this ID, because an
// earlier attempt acknowledged it or because the delivery returned to the queue.
var ErrDeliveryGone = errors.New("no unacknowledged delivery with this ID")

// Acknowledge acknowledges message id of queue; 200, 202 and 204 are accepted. A 400 is
// ErrDeliveryGone, wrapped in the *httpx.APIError's message.
func (m *Messaging) Acknowledge(ctx context.Context, queue, id string) (Outcome, error) {
	if id == "" {
		return Outcome{}, errors.New("the consumed message has no X-Message-Id to acknowledge")
	}
	path := messagesPath(queue) + "/" + url.PathEscape(id) + "/acknowledgement"
	resp, err := m.h.Do(ctx, http.MethodPost, path, nil, http.Header{"x-qos": {"1"}})
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{EarlierAttemptMayHaveApplied: resp.EarlierAttemptMayHaveApplied}
	if resp.StatusCode == http.StatusBadRequest {
		return out, &deliveryGoneError{api: httpx.NewAPIError(http.MethodPost, path, resp)}
	}
	return out, check(resp, http.MethodPost, path, "queue", queue)
}

type deliveryGoneError struct{ api *httpx.APIError }

func (e *deliveryGoneError) Error() string { return e.api.Error() }
func (e *deliveryGoneError) Unwrap() []error {
	return []error{ErrDeliveryGone, e.api}
}

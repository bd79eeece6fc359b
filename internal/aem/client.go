// Package aem is the client of SAP Integration Suite, advanced event mesh (AEM): the SEMP v2 API of one
// broker service (a Solace PubSub+ broker). It reads and writes queues and their subscriptions through the
// configuration API (/SEMP/v2/config), lists the messages of a queue through the monitoring API
// (/SEMP/v2/monitor) and copies and deletes messages through the action API (/SEMP/v2/action).
//
// It sends its requests through httpx: HTTP Basic authentication with the management user of the service,
// https unless the host is a loopback address, the retries of the other services, response caps, and logs
// that never hold the password. Lists are read in pages of 100 (SEMP's largest) following the cursor. SEMP's
// error envelope becomes an *Error whose message says what to do. Queue updates are PATCHes of the
// attributes the caller sets, so that nothing the configuration does not own is reset.
//
// Sources: the SEMP v2 specification (semp-v2-swagger-config-extended.10.25.11.3479.vm.json, SEMP 2.49, in
// SolaceProducts/terraform-provider-solacebroker), SEMP 2.34's monitor and action specifications (their
// info.description documents select, where and opaquePassword), docs.solace.com
// Admin/SEMP/SEMP-Error-Handling.htm and the project's reference note on AEM (shared/reference/aem.md). Copies
// of the three specifications are in shared/reference/specs/semp; spec_test.go checks every request of this
// client against them.
package aem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// Base paths of the SEMP v2 APIs below the SEMP URL.
const (
	ConfigBasePath  = "/SEMP/v2/config"
	MonitorBasePath = "/SEMP/v2/monitor"
	ActionBasePath  = "/SEMP/v2/action"
	// PageSize is the count of every list request: SEMP answers at most 100 objects per page.
	PageSize = 100
	// maxPages bounds a list, so that a broker whose cursor never ends cannot hold the client: 100,000 pages
	// of 100 are more than any broker service holds.
	maxPages = 100000
)

// HTTPConfig returns the httpx configuration of a broker service: its SEMP URL (as the cloud console shows
// it, without /SEMP/v2) and its management user. Set retries, timeouts and the other fields on the result
// before httpx.New.
func HTTPConfig(sempURL, username, password string) httpx.Config {
	return httpx.Config{BaseURL: strings.TrimRight(sempURL, "/"), Username: username, Password: password}
}

// Client is a SEMP v2 client of one Message VPN of one broker service. It is safe for concurrent use.
type Client struct {
	h   *httpx.Client
	vpn string
}

// New returns a client of Message VPN vpn over h, whose BaseURL is the SEMP URL of the broker service and
// whose credentials are the management user's (HTTPConfig).
func New(h *httpx.Client, vpn string) (*Client, error) {
	if strings.TrimSpace(vpn) == "" {
		return nil, errors.New("the Message VPN name is empty; set the Message VPN the cloud console shows for the broker service")
	}
	return &Client{h: h, vpn: vpn}, nil
}

// HTTP returns the underlying HTTP client.
func (c *Client) HTTP() *httpx.Client { return c.h }

// MsgVpnName returns the client's Message VPN.
func (c *Client) MsgVpnName() string { return c.vpn }

// QueuesPath returns the escaped configuration path of the Message VPN's queues.
func (c *Client) QueuesPath() string {
	return ConfigBasePath + "/msgVpns/" + url.PathEscape(c.vpn) + "/queues"
}

// QueuePath returns the escaped configuration path of queue name: every character that is not allowed in
// a path segment is escaped, "#" of #DEAD_MSG_QUEUE and "/" included.
func (c *Client) QueuePath(name string) string {
	return c.QueuesPath() + "/" + url.PathEscape(name)
}

// SubscriptionPath returns the escaped configuration path of a queue's subscription.
func (c *Client) SubscriptionPath(queue, topic string) string {
	return c.QueuePath(queue) + "/subscriptions/" + url.PathEscape(topic)
}

// envelope is the answer of every SEMP request ([SPEC] SempMeta).
type envelope struct {
	Data json.RawMessage `json:"data"`
	Meta struct {
		ResponseCode int `json:"responseCode"`
		Error        *struct {
			Code        int    `json:"code"`
			Status      string `json:"status"`
			Description string `json:"description"`
		} `json:"error"`
		Paging *struct {
			CursorQuery string `json:"cursorQuery"`
			NextPageURI string `json:"nextPageUri"`
		} `json:"paging"`
	} `json:"meta"`
}

// do sends one request and decodes the envelope of a 200 answer; anything else is an error (an *Error when
// the answer is SEMP's, an *httpx.APIError otherwise).
func (c *Client) do(ctx context.Context, method, path string, body any, what string) (*envelope, *httpx.Response, error) {
	var raw []byte
	var header http.Header
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", what, err)
		}
		raw = b
		header = http.Header{"Content-Type": {"application/json"}}
	}
	resp, err := c.h.Do(ctx, method, path, raw, header)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	var env envelope
	decodeErr := json.Unmarshal(resp.Body, &env)
	if resp.StatusCode == http.StatusOK && decodeErr == nil && env.Meta.Error == nil {
		return &env, resp, nil
	}
	if decodeErr == nil && env.Meta.Error != nil {
		return nil, resp, newError(method, path, resp.StatusCode, env, what, c.vpn)
	}
	if resp.StatusCode == http.StatusUnauthorized {
		return nil, resp, newError(method, path, resp.StatusCode, envelope{}, what, c.vpn)
	}
	if resp.StatusCode >= http.StatusInternalServerError {
		// The broker's own failure (after httpx's retries), explained as such whatever the body holds.
		e := newError(method, path, resp.StatusCode, envelope{}, what, c.vpn)
		e.Description = truncate(strings.TrimSpace(string(resp.Body)), 500)
		return nil, resp, e
	}
	if resp.StatusCode == http.StatusOK {
		return nil, resp, fmt.Errorf("%s: %s %s answered 200 with a body that is not a SEMP answer (%v); check that the SEMP URL is the broker service's", what, method, path, decodeErr)
	}
	return nil, resp, fmt.Errorf("%s: %w", what, httpx.NewAPIError(method, path, resp))
}

// list reads every page of the collection at path (which has no query) and hands each object to each.
func (c *Client) list(ctx context.Context, path, what string, each func(json.RawMessage) error) error {
	return c.listQuery(ctx, path, nil, what, each)
}

// listQuery is list with further query parameters on every page (select, where).
func (c *Client) listQuery(ctx context.Context, path string, extra url.Values, what string, each func(json.RawMessage) error) error {
	cursor := ""
	for range maxPages {
		items, next, err := c.listPage(ctx, path, extra, PageSize, cursor, what)
		if err != nil {
			return err
		}
		for _, it := range items {
			if err := each(it); err != nil {
				return fmt.Errorf("%s: GET %s: %w", what, path, err)
			}
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
	return fmt.Errorf("%s: GET %s: more than %d pages; try again", what, path, maxPages)
}

// listPage reads one page of at most count objects of the collection at path, from cursor ("" for the first
// page), and returns its objects and the cursor of the next page ("" after the last).
func (c *Client) listPage(ctx context.Context, path string, extra url.Values, count int, cursor, what string) ([]json.RawMessage, string, error) {
	q := url.Values{"count": {fmt.Sprint(count)}}
	for k, v := range extra {
		q[k] = v
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	// The next page is asked for on the configured SEMP URL with the answer's cursor, never at the host
	// the answer's nextPageUri names: the credentials go to the broker the configuration names only.
	env, _, err := c.do(ctx, http.MethodGet, path+"?"+q.Encode(), nil, what)
	if err != nil {
		return nil, "", err
	}
	var items []json.RawMessage
	if len(env.Data) > 0 && string(env.Data) != "null" {
		if err := json.Unmarshal(env.Data, &items); err != nil {
			return nil, "", fmt.Errorf("%s: GET %s: the answer's data is not a list: %w", what, path, err)
		}
	}
	if env.Meta.Paging == nil || env.Meta.Paging.CursorQuery == "" {
		return items, "", nil
	}
	if env.Meta.Paging.CursorQuery == cursor {
		return nil, "", fmt.Errorf("%s: GET %s: the broker answered the same cursor twice; try again, and report it to SAP if it persists", what, path)
	}
	return items, env.Meta.Paging.CursorQuery, nil
}

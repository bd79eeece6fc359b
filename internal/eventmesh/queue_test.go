package eventmesh

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

func TestDecodeQueueNullAndAbsentAlike(t *testing.T) {
	t.Parallel()
	withNulls, err := DecodeQueue([]byte(`{"name":"q","accessType":"EXCLUSIVE","respectTtl":null,"deadMsgQueue":null,"maxTtl":null,"maxRedeliveryCount":0}`))
	if err != nil {
		t.Fatal(err)
	}
	absent, err := DecodeQueue([]byte(`{"name":"q","accessType":"EXCLUSIVE","maxRedeliveryCount":0}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withNulls, absent) {
		t.Errorf("null and absent differ:\n%+v\n%+v", withNulls, absent)
	}
	if absent.RespectTTL != nil || absent.DeadMsgQueue != nil || absent.MaxTTL != nil {
		t.Errorf("unset fields are not nil: %+v", absent)
	}
	if absent.MaxRedeliveryCount == nil || *absent.MaxRedeliveryCount != 0 {
		t.Errorf("maxRedeliveryCount 0 must stay 0, not unset: %+v", absent.MaxRedeliveryCount)
	}
}

func TestDecodeQueueTolerance(t *testing.T) {
	t.Parallel()
	q, err := DecodeQueue([]byte(`{"name":"q","maxTtl":"3600","respectTtl":"true","maxQueueSizeInBytes":1.5728640e9,"deadMsgQueue":"","unknown":{"x":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if *q.MaxTTL != 3600 || !*q.RespectTTL || *q.MaxQueueSizeInBytes != 1572864000 || q.DeadMsgQueue != nil {
		t.Errorf("decoded %+v", q)
	}
	for _, bad := range []string{`[]`, `{"maxTtl":1.5}`, `{"maxTtl":"x"}`, `{"respectTtl":1}`, `{"name":5}`, `null`, ``} {
		if _, err := DecodeQueue([]byte(bad)); err == nil {
			t.Errorf("DecodeQueue(%s) succeeded", bad)
		}
	}
}

func TestDecodeQueues(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`[{"name":"a"},{"name":""},{"name":"b"}]`, `{"queues":[{"name":"a"},{"name":"b"}]}`, `{"value":[{"name":"a"},{"name":"b"}]}`} {
		qs, err := DecodeQueues([]byte(in))
		if err != nil || len(qs) != 2 || qs[0].Name != "a" || qs[1].Name != "b" {
			t.Errorf("DecodeQueues(%s) = %+v, %v", in, qs, err)
		}
	}
	if qs, err := DecodeQueues([]byte(`null`)); err != nil || len(qs) != 0 {
		t.Errorf("null list = %+v, %v", qs, err)
	}
	if _, err := DecodeQueues([]byte(`{"name":"a"}`)); err == nil {
		t.Error("a single object is not a list")
	}
}

func TestQueueJSONRoundTrip(t *testing.T) {
	t.Parallel()
	s := QueueSettings{MaxRedeliveryCount: ptr[int64](0), RespectTTL: ptr(false)}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"maxRedeliveryCount":0,"respectTtl":false}` {
		t.Errorf("settings JSON = %s (explicit zero values must be sent, nil ones left out)", b)
	}
	q := Queue{Name: "q", QueueSettings: QueueSettings{MaxTTL: ptr[int64](5)}, MessageCount: ptr[int64](2)}
	if got := q.Settings(); got.MaxTTL == q.MaxTTL || *got.MaxTTL != 5 {
		t.Errorf("Settings must copy: %+v", got)
	}
}

func TestQueuePathEscaping(t *testing.T) {
	t.Parallel()
	if got, want := QueuePath("acme/crm/prod/a b"), ManagementBasePath+"/queues/acme%2Fcrm%2Fprod%2Fa%20b"; got != want {
		t.Errorf("QueuePath = %q, want %q", got, want)
	}
	if got, want := SubscriptionPath("a/b", "t/x/*"), ManagementBasePath+"/queues/a%2Fb/subscriptions/t%2Fx%2F%2A"; got != want && got != ManagementBasePath+"/queues/a%2Fb/subscriptions/t%2Fx%2F*" {
		t.Errorf("SubscriptionPath = %q, want %q", got, want)
	}
}

// fake serves scripted management answers without authentication.
func fake(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	hc, err := httpx.New(httpx.Config{BaseURL: srv.URL, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return New(hc)
}

func TestPutQueueWithoutBodyGetsQueue(t *testing.T) {
	t.Parallel()
	var gets atomic.Int32
	c := fake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() != ManagementBasePath+"/queues/a%2Fb" {
			t.Errorf("path = %s", r.URL.EscapedPath())
		}
		switch r.Method {
		case http.MethodPut:
			body, _ := io.ReadAll(r.Body)
			if string(body) != `{"maxRedeliveryCount":4}` {
				t.Errorf("PUT body = %s", body)
			}
			w.WriteHeader(http.StatusCreated)
		case http.MethodGet:
			gets.Add(1)
			_, _ = io.WriteString(w, `{"maxRedeliveryCount":4,"deadMsgQueue":null}`)
		}
	})
	q, created, err := c.PutQueue(t.Context(), "a/b", QueueSettings{MaxRedeliveryCount: ptr[int64](4)})
	if err != nil {
		t.Fatal(err)
	}
	if !created.Created || q.Name != "a/b" || *q.MaxRedeliveryCount != 4 || gets.Load() != 1 {
		t.Errorf("got %+v created=%v after %d GETs", q, created, gets.Load())
	}
}

func TestDeleteQueueAccepts200And204(t *testing.T) {
	t.Parallel()
	for _, code := range []int{200, 202, 204} {
		c := fake(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
		if err := c.DeleteQueue(t.Context(), "q"); err != nil {
			t.Errorf("%d: %v", code, err)
		}
	}
	c := fake(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusConflict)
		_, _ = io.WriteString(w, `{"message":"queue has consumers"}`)
	})
	err := c.DeleteQueue(t.Context(), "q")
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 409 || apiErr.Message != "queue has consumers" {
		t.Errorf("409 = %v", err)
	}
}

func TestCachedGetQueueFallsBackWhenListRefused(t *testing.T) {
	t.Parallel()
	var lists, gets atomic.Int32
	c := fake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == ManagementBasePath+"/queues" {
			lists.Add(1)
			w.WriteHeader(http.StatusForbidden)
			return
		}
		gets.Add(1)
		_, _ = io.WriteString(w, `{"name":"q"}`)
	})
	for range 2 {
		q, err := c.CachedGetQueue(t.Context(), "q")
		if err != nil || q.Name != "q" {
			t.Fatalf("got %+v, %v", q, err)
		}
	}
	if lists.Load() != 2 || gets.Load() != 2 {
		t.Errorf("lists %d, gets %d; want 2 and 2", lists.Load(), gets.Load())
	}
}

func TestCachedGetQueueListErrorReturned(t *testing.T) {
	t.Parallel()
	c := fake(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadRequest) })
	_, err := c.CachedGetQueue(t.Context(), "q")
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Fatalf("error = %v, want the list's 400", err)
	}
}

func FuzzDecodeQueue(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"name":"q","maxTtl":"5","respectTtl":"false","deadMsgQueue":null}`))
	f.Add([]byte(`{"maxQueueSizeInBytes":1e400}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := DecodeQueue(data)
		if err != nil {
			return
		}
		// What decodes re-encodes and decodes to the same queue.
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		q2, err := DecodeQueue(b)
		if err != nil {
			t.Fatalf("re-decode %s: %v", b, err)
		}
		if !reflect.DeepEqual(q, q2) {
			t.Fatalf("round trip changed the queue:\n%+v\n%+v", q, q2)
		}
		_, _ = DecodeQueues(data)
	})
}

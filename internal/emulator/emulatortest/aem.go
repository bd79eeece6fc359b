package emulatortest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// AEM is an emulator with the Advanced Event Mesh credentials, talked to over raw HTTP so that the
// answers are checked as SEMP v2 writes them.
type AEM struct {
	t      *testing.T
	Server *emulator.Server
	Creds  emulator.AdvancedEventMeshCredentials
}

// StartAEM starts an emulator with opts and reads its Advanced Event Mesh credentials; it is closed
// when the test ends.
func StartAEM(t *testing.T, opts emulator.Options) *AEM {
	t.Helper()
	s := emulator.New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return &AEM{t: t, Server: s, Creds: s.AdvancedEventMeshCredentials()}
}

// SEMPAnswer is a SEMP v2 answer: the HTTP status and the envelope.
type SEMPAnswer struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Links  json.RawMessage `json:"links"`
	Meta   struct {
		ResponseCode int `json:"responseCode"`
		Request      struct {
			Method string `json:"method"`
			URI    string `json:"uri"`
		} `json:"request"`
		Error *struct {
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

// Raw sends a request with the broker's Basic credentials and returns the answer and its body.
func (e *AEM) Raw(method, path string, body any, header http.Header) (*http.Response, []byte) {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.Creds.SEMPURL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.SetBasicAuth(e.Creds.Username, e.Creds.Password)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// SEMP sends a SEMP request and checks the envelope's meta against the answer.
func (e *AEM) SEMP(method, path string, body any) SEMPAnswer {
	e.t.Helper()
	resp, b := e.Raw(method, path, body, nil)
	var a SEMPAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		e.t.Fatalf("%s %s: %d %s: not a SEMP envelope: %v", method, path, resp.StatusCode, b, err)
	}
	a.Status = resp.StatusCode
	if a.Meta.ResponseCode != resp.StatusCode {
		e.t.Errorf("%s %s: meta.responseCode %d, HTTP %d", method, path, a.Meta.ResponseCode, resp.StatusCode)
	}
	if a.Meta.Request.Method != method {
		e.t.Errorf("%s %s: meta.request.method %q", method, path, a.Meta.Request.Method)
	}
	return a
}

// OK sends a SEMP request that must answer 200.
func (e *AEM) OK(method, path string, body any) SEMPAnswer {
	e.t.Helper()
	a := e.SEMP(method, path, body)
	if a.Status != 200 {
		e.t.Fatalf("%s %s: %d %+v", method, path, a.Status, a.Meta.Error)
	}
	return a
}

// QueuesPath is the config path of the Message VPN's queues.
func (e *AEM) QueuesPath() string {
	return "/SEMP/v2/config/msgVpns/" + url.PathEscape(e.Creds.MsgVpnName) + "/queues"
}

// QueuePath is the config path of queue name.
func (e *AEM) QueuePath(name string) string { return e.QueuesPath() + "/" + url.PathEscape(name) }

// Queue reads the config of queue name.
func (e *AEM) Queue(name string) map[string]any {
	e.t.Helper()
	var q map[string]any
	if err := json.Unmarshal(e.OK(http.MethodGet, e.QueuePath(name), nil).Data, &q); err != nil {
		e.t.Fatal(err)
	}
	return q
}

// Publish sends "poison" to queue over REST messaging and returns the status.
func (e *AEM) Publish(queue string, header http.Header) int {
	e.t.Helper()
	resp, _ := e.Raw(http.MethodPost, "/QUEUE/"+url.PathEscape(queue), []byte("poison"), header)
	return resp.StatusCode
}

// WantSEMPError ends the test unless a is a SEMP client error with code and errStatus.
func WantSEMPError(t *testing.T, a SEMPAnswer, code int, errStatus string) {
	const status = http.StatusBadRequest // [SOL] SEMP-Error-Handling.htm: a client error is 400
	t.Helper()
	if a.Status != status || a.Meta.Error == nil || a.Meta.Error.Code != code || a.Meta.Error.Status != errStatus || a.Meta.Error.Description == "" {
		t.Fatalf("got %d %+v, want %d with error %d %s and a description", a.Status, a.Meta.Error, status, code, errStatus)
	}
}

// CreateQueue creates queue name with attrs on top of ingress and egress enabled.
func (e *AEM) CreateQueue(name string, attrs map[string]any) {
	e.t.Helper()
	body := map[string]any{"queueName": name, "ingressEnabled": true, "egressEnabled": true}
	for k, v := range attrs {
		body[k] = v
	}
	e.OK(http.MethodPost, e.QueuesPath(), body)
}

// MonitorQueuesPath is the monitor path of the Message VPN's queues.
func (e *AEM) MonitorQueuesPath() string {
	return "/SEMP/v2/monitor/msgVpns/" + url.PathEscape(e.Creds.MsgVpnName) + "/queues"
}

// AEMOf talks SEMP to s, an emulator the test started itself.
func AEMOf(t *testing.T, s *emulator.Server) *AEM {
	return &AEM{t: t, Server: s, Creds: s.AdvancedEventMeshCredentials()}
}

package emulator_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

func TestInjectedStatusFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind       emulator.FaultKind
		status     int
		retryAfter string
	}{
		{emulator.Fault429, 429, "2"},
		{emulator.Fault500, 500, ""},
		{emulator.Fault502, 502, ""},
		{emulator.Fault503, 503, "2"},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			t.Parallel()
			s, tok := startFaulted(t, emulator.Faults{RetryAfter: 1500 * time.Millisecond}, tc.kind)
			r := emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil)
			emulatortest.Expect(t, r, tc.status)
			if got := r.Header.Get("Retry-After"); got != tc.retryAfter {
				t.Fatalf("Retry-After %q, want %q", got, tc.retryAfter)
			}
			r.Message(t)
			// The fault is used up: the next request succeeds.
			emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusOK)
			st := s.Stats()
			if st.Faults[tc.kind] != 1 || st.FaultsInjected != 1 || st.Statuses[tc.status] != 1 || st.ManagementCalls != 2 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

func TestDropFault(t *testing.T) {
	t.Parallel()
	s, tok := startFaulted(t, emulator.Faults{}, emulator.FaultDrop)
	// A fresh connection, so that the transport cannot silently retry.
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	if _, err := emulatortest.Send(t, c, "PUT", emulatortest.QPath(s, "q"), tok, nil, nil); err == nil {
		t.Fatal("request succeeded although the connection was dropped")
	}
	expectUnprocessed(t, s, tok, emulator.FaultDrop)
}

// startFaulted starts a server and fetches a management token, then sets the fault settings f and queues the
// faults kinds for the next API requests.
func startFaulted(t *testing.T, f emulator.Faults, kinds ...emulator.FaultKind) (*emulator.Server, string) {
	t.Helper()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)
	s.SetFaults(f)
	s.InjectNext(kinds...)
	return s, tok
}

// expectUnprocessed checks that the PUT of queue "q" that a fault of kind ended made no queue, that a retry
// creates it, and that the server counted one fault of kind.
func expectUnprocessed(t *testing.T, s *emulator.Server, tok string, kind emulator.FaultKind) {
	t.Helper()
	if _, ok := s.Queue("q"); ok {
		t.Fatalf("the request that met the %s fault was processed", kind)
	}
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, tok, "q", ""), http.StatusCreated)
	if got := s.Stats().Faults[kind]; got != 1 {
		t.Fatalf("%s faults %d", kind, got)
	}
}

func TestSlowFault(t *testing.T) {
	t.Parallel()
	s, tok := startFaulted(t, emulator.Faults{SlowDelay: time.Minute}, emulator.FaultSlow)
	c := &http.Client{Timeout: 300 * time.Millisecond}
	begin := time.Now()
	if _, err := emulatortest.Send(t, c, "PUT", emulatortest.QPath(s, "q"), tok, nil, nil); err == nil {
		t.Fatal("slow request answered before the client timeout")
	}
	if time.Since(begin) > 20*time.Second {
		t.Fatal("the client timeout did not end the request")
	}
	// The abandoned request is not processed; a retry creates the queue.
	expectUnprocessed(t, s, tok, emulator.FaultSlow)
}

func TestSlowFaultAnswersAfterDelay(t *testing.T) {
	t.Parallel()
	s, tok := startFaulted(t, emulator.Faults{SlowDelay: 200 * time.Millisecond}, emulator.FaultSlow)
	begin := time.Now()
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, tok, "q", ""), http.StatusCreated)
	if time.Since(begin) < 200*time.Millisecond {
		t.Fatal("slow fault answered before its delay")
	}
}

func TestTokenExpiryFault(t *testing.T) {
	t.Parallel()
	s, tok := startFaulted(t, emulator.Faults{}, emulator.FaultTokenExpiry)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusUnauthorized)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusUnauthorized)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", emulatortest.Token(t, s, emulator.AudienceManagement), nil, nil), http.StatusOK)
}

func TestFaultsSkipTokenAndControlEndpoints(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	s.InjectNext(emulator.Fault503)
	tok := emulatortest.Token(t, s, emulator.AudienceManagement) // not hit by the queued fault
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulator.ControlBasePath+"/stats", "", nil, nil), http.StatusOK)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusServiceUnavailable)

	s.SetFaults(emulator.Faults{IncludeTokenEndpoint: true})
	s.InjectNext(emulator.Fault500)
	id, secret := emulatortest.Creds(t, s, emulator.AudienceManagement)
	emulatortest.Expect(t, emulatortest.FetchToken(t, s, id, secret), http.StatusInternalServerError)
	st := s.Stats()
	if st.TokenRequests != 2 || st.TokensIssued != 1 || st.Routes["POST /oauth/token"] != 2 {
		t.Fatalf("token stats %+v", st)
	}
}

// faultSequence returns the statuses of n requests under f.
func faultSequence(t *testing.T, f emulator.Faults, n int) []int {
	t.Helper()
	s, tok := startFaulted(t, f)
	out := make([]int, n)
	for i := range out {
		out[i] = emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil).Status
	}
	return out
}

func TestRandomFaultsAreDeterministic(t *testing.T) {
	t.Parallel()
	f := emulator.Faults{Rate: 0.5, Kinds: []emulator.FaultKind{emulator.Fault500, emulator.Fault503}, Seed: 42}
	a, b := faultSequence(t, f, 40), faultSequence(t, f, 40)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, different faults:\n%v\n%v", a, b)
	}
	counts := map[int]int{}
	for _, st := range a {
		counts[st]++
	}
	if counts[200] == 0 || counts[500]+counts[503] == 0 || counts[200]+counts[500]+counts[503] != 40 {
		t.Fatalf("statuses %v: want a mix of 200, 500 and 503 only", counts)
	}
	f.Seed = 7
	if c := faultSequence(t, f, 40); reflect.DeepEqual(a, c) {
		t.Fatal("different seeds gave the same faults")
	}
	if all := faultSequence(t, emulator.Faults{Rate: 1, Kinds: []emulator.FaultKind{emulator.Fault502}}, 5); !reflect.DeepEqual(all, []int{502, 502, 502, 502, 502}) {
		t.Fatalf("rate 1: %v", all)
	}
}

func TestLatency(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{Faults: emulator.Faults{Latency: 150 * time.Millisecond}})
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)
	begin := time.Now()
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusOK)
	if time.Since(begin) < 150*time.Millisecond {
		t.Fatal("latency not applied")
	}
}

func TestControlEndpoints(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	ctl := s.URL() + emulator.ControlBasePath
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)

	r := emulatortest.Do(t, "PUT", ctl+"/faults", "", []byte(`{"latency":"10ms","rate":0,"kinds":["503","drop"],"retryAfter":2,"slowDelay":"1s","seed":3}`), nil)
	emulatortest.Expect(t, r, http.StatusOK)
	got := s.Faults()
	want := emulator.Faults{Latency: 10 * time.Millisecond, Kinds: []emulator.FaultKind{emulator.Fault503, emulator.FaultDrop}, RetryAfter: 2 * time.Second, SlowDelay: time.Second, Seed: 3}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("faults %+v, want %+v", got, want)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", ctl+"/faults", "", []byte(`{"kinds":["teapot"]}`), nil), http.StatusBadRequest)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", ctl+"/faults", "", []byte(`{"rate":2}`), nil), http.StatusBadRequest)

	emulatortest.Expect(t, emulatortest.Do(t, "POST", ctl+"/faults/next", "", []byte(`{"kinds":["429"]}`), nil), http.StatusOK)
	r = emulatortest.Do(t, "GET", ctl+"/faults", "", nil, nil)
	var view struct {
		Latency string               `json:"latency"`
		Pending []emulator.FaultKind `json:"pending"`
	}
	r.JSON(t, &view)
	if view.Latency != "10ms" || len(view.Pending) != 1 || view.Pending[0] != emulator.Fault429 {
		t.Fatalf("GET faults %s", r.Body)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusTooManyRequests)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", emulatortest.QPath(s, "acme/crm/prod/q"), tok, nil, nil), http.StatusCreated)

	r = emulatortest.Do(t, "GET", ctl+"/stats", "", nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var st emulator.Stats
	r.JSON(t, &st)
	if st.Requests != 3 || st.ManagementCalls != 2 || st.Routes["GET /queues"] != 1 || st.Routes["PUT /queues/{queue}"] != 1 || st.Faults[emulator.Fault429] != 1 {
		t.Fatalf("stats %s", r.Body)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "POST", ctl+"/stats/reset", "", nil, nil), http.StatusNoContent)
	if st := s.Stats(); st.Requests != 0 || len(st.Routes) != 0 {
		t.Fatalf("stats after reset %+v", st)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", ctl+"/faults", "", nil, nil), http.StatusNoContent)
	if f := s.Faults(); f.Latency != 0 || len(s.PendingFaults()) != 0 {
		t.Fatalf("faults after DELETE %+v", f)
	}
	b, _ := json.Marshal(emulator.Faults{})
	if string(b) == "" {
		t.Fatal("empty JSON")
	}
}

// A fault queued for one route waits for a request of that route; others pass untouched.
func TestInjectNextOnRoute(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)
	s.InjectNextOn("PUT /queues/{queue}", emulator.Fault503)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusOK)
	if got := s.PendingFaults(); len(got) != 1 {
		t.Fatalf("pending faults %v after a list, want the PUT's fault", got)
	}
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, tok, "q", ""), http.StatusServiceUnavailable)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, tok, "q", ""), http.StatusCreated)
	if st := s.Stats(); st.Faults[emulator.Fault503] != 1 || len(s.PendingFaults()) != 0 {
		t.Fatalf("stats %+v, pending %v", st, s.PendingFaults())
	}
}

// With a response latency, a client that gives up before the answer still made its change.
func TestResponseLatencyAnswerAfterChange(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)
	s.SetFaults(emulator.Faults{ResponseLatency: time.Second})
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 100 * time.Millisecond}
	if _, err := emulatortest.Send(t, c, "PUT", emulatortest.QPath(s, "q"), tok, []byte(`{}`), map[string]string{"Content-Type": "application/json"}); err == nil {
		t.Fatal("the answer arrived before the response latency")
	}
	if _, ok := s.Queue("q"); !ok {
		t.Fatal("the queue was not created although the request was carried out before the answer")
	}
	s.SetFaults(emulator.Faults{ResponseLatency: 10 * time.Millisecond})
	emulatortest.Expect(t, emulatortest.Do(t, "GET", emulatortest.QPath(s, "q"), tok, nil, nil), http.StatusOK)
}

// ResponseBytes counts the bytes of the bodies the APIs sent.
func TestStatsCountResponseBytes(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, tok, "q", ""), http.StatusCreated)
	before := s.Stats().ResponseBytes
	r := emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	if got := s.Stats().ResponseBytes - before; got != int64(len(r.Body)) || got == 0 {
		t.Fatalf("ResponseBytes grew by %d for a list of %d bytes", got, len(r.Body))
	}
}

package emulator_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// A lost response makes the change, but the client sees a dropped connection.
func TestLostResponseFault(t *testing.T) {
	t.Parallel()
	s, tok := startFaulted(t, emulator.Faults{}, emulator.FaultLostResponse)
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	if _, err := emulatortest.Send(t, c, "PUT", emulatortest.QPath(s, "acme/crm/prod/q"), tok, []byte(`{"maxRedeliveryCount":4}`), nil); err == nil {
		t.Fatal("the client got an answer although the response was to be lost")
	}
	q, ok := s.Queue("acme/crm/prod/q")
	if !ok || q.MaxRedeliveryCount != 4 {
		t.Fatalf("the request was not processed: %v %+v", ok, q)
	}
	// Repeating the PUT adopts the queue: 200, not 201, and still one queue.
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, tok, "acme/crm/prod/q", `{"maxRedeliveryCount":4}`), http.StatusOK)
	if n := len(s.Queues()); n != 1 {
		t.Fatalf("%d queues after the repeat, want 1", n)
	}
	st := s.Stats()
	if st.Faults[emulator.FaultLostResponse] != 1 || st.Statuses[http.StatusCreated] != 0 || st.Statuses[http.StatusOK] != 2 { // the token and the repeat
		t.Fatalf("stats %+v", st)
	}
	if _, err := emulator.ParseFaultKind("lost-response"); err != nil {
		t.Fatal(err)
	}
}

// A late response makes the change at once and answers SlowDelay later: a client that gives up first never
// learns of the change; one that waits gets the answer.
func TestLateResponseFault(t *testing.T) {
	t.Parallel()
	s, tok := startFaulted(t, emulator.Faults{SlowDelay: 300 * time.Millisecond}, emulator.FaultLateResponse)
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 100 * time.Millisecond}
	if _, err := emulatortest.Send(t, c, "PUT", emulatortest.QPath(s, "acme/crm/prod/q"), tok, []byte(`{"maxRedeliveryCount":4}`), nil); err == nil {
		t.Fatal("the client got an answer before the delay")
	}
	if q, ok := s.Queue("acme/crm/prod/q"); !ok || q.MaxRedeliveryCount != 4 {
		t.Fatalf("the request was not carried out: %v %+v", ok, q)
	}
	s.InjectNext(emulator.FaultLateResponse)
	began := time.Now()
	emulatortest.Expect(t, emulatortest.PutQueue(t, s, tok, "acme/crm/prod/q", `{"maxRedeliveryCount":5}`), http.StatusOK)
	if d := time.Since(began); d < 300*time.Millisecond {
		t.Errorf("answered after %s, want at least 300ms", d)
	}
}

// TokenExpiryAfter expires the tokens once, at the request with that number.
func TestTokenExpiryAfter(t *testing.T) {
	t.Parallel()
	s, tok := startFaulted(t, emulator.Faults{TokenExpiryAfter: 3})
	var statuses []int
	for range 5 {
		statuses = append(statuses, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil).Status)
	}
	if want := []int{200, 200, 401, 401, 401}; !slices.Equal(statuses, want) {
		t.Fatalf("statuses %v, want %v", statuses, want)
	}
	fresh := emulatortest.Token(t, s, emulator.AudienceManagement)
	for range 3 {
		emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", fresh, nil, nil), http.StatusOK)
	}
	if got := s.Stats().Faults[emulator.FaultTokenExpiry]; got != 1 {
		t.Fatalf("token expiries %d, want 1", got)
	}
	// Both the expired and the current token are reported as issued.
	issued := s.IssuedTokens()
	if !slices.Contains(issued, tok) || !slices.Contains(issued, fresh) {
		t.Fatalf("IssuedTokens misses a token: %d reported", len(issued))
	}
	if err := (emulator.Faults{TokenExpiryAfter: -1}).Validate(); err == nil {
		t.Fatal("a negative TokenExpiryAfter was accepted")
	}
	// SetFaults restarts the count.
	s.SetFaults(emulator.Faults{TokenExpiryAfter: 1})
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", fresh, nil, nil), http.StatusUnauthorized)
}

// TokenExpiryEvery expires the tokens again and again, at every request whose number is a
// multiple of it; a token fetched after an expiry works until the next one.
func TestTokenExpiryEvery(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	s.SetFaults(emulator.Faults{TokenExpiryEvery: 3})
	var statuses []int
	for range 3 {
		tok := emulatortest.Token(t, s, emulator.AudienceManagement)
		for range 3 {
			statuses = append(statuses, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil).Status)
		}
	}
	if want := []int{200, 200, 401, 200, 200, 401, 200, 200, 401}; !slices.Equal(statuses, want) {
		t.Fatalf("statuses %v, want %v", statuses, want)
	}
	if got := s.Stats().Faults[emulator.FaultTokenExpiry]; got != 3 {
		t.Fatalf("token expiries %d, want 3", got)
	}
	if err := (emulator.Faults{TokenExpiryEvery: -1}).Validate(); err == nil {
		t.Fatal("a negative TokenExpiryEvery was accepted")
	}
}

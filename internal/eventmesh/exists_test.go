package eventmesh

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// Checking 250 queues before creating each of them, 10 at a time, costs one GET /queues in all:
// the client's own writes update what it knows instead of listing the queues again.
func TestQueueExistsListsOnceForManyCreates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	other := "acme/crm/prod/made/in/cockpit"
	if _, _, err := e.mgmt.PutQueue(ctx, other, QueueSettings{MaxRedeliveryCount: ptr[int64](2)}); err != nil {
		t.Fatal(err)
	}
	// A fresh client, as a new provider run has.
	c := New(e.mgmt.HTTP())
	lists, gets := e.routes("GET /queues"), e.routes("GET /queues/{queue}")

	const n = 249 // the emulator's limit of 250 queues, with the one above
	sem := make(chan struct{}, 10)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			name := fmt.Sprintf("acme/crm/prod/many/q%03d", i)
			exists, err := c.QueueExists(ctx, name)
			if err != nil || exists {
				t.Errorf("QueueExists(%s) = %t, %v before its create", name, exists, err)
				return
			}
			if _, _, err := c.PutQueue(ctx, name, QueueSettings{MaxRedeliveryCount: ptr[int64](3)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	expectCount(t, fmt.Sprintf("queue lists for %d checked creates", n), e.routes("GET /queues")-lists, 1)
	expectCount(t, "single GETs", e.routes("GET /queues/{queue}")-gets, 0)

	// What the client wrote or deleted, and what the list showed, it answers without a request.
	before := e.emu.Stats().ManagementCalls
	for name, want := range map[string]bool{other: true, "acme/crm/prod/many/q007": true, "acme/crm/prod/nowhere": false} {
		if got, err := c.QueueExists(ctx, name); err != nil || got != want {
			t.Errorf("QueueExists(%s) = %t, %v; want %t", name, got, err, want)
		}
	}
	if err := c.DeleteQueue(ctx, "acme/crm/prod/many/q007"); err != nil {
		t.Fatal(err)
	}
	if got, err := c.QueueExists(ctx, "acme/crm/prod/many/q007"); err != nil || got {
		t.Errorf("QueueExists after the delete = %t, %v; want false", got, err)
	}
	if got := e.emu.Stats().ManagementCalls - before; got != 1 {
		t.Errorf("management calls for 4 checks and a delete = %d, want 1 (the delete)", got)
	}
}

// A write whose outcome is unknown makes the next check of that queue ask the service.
func TestQueueExistsAsksAfterUnknownOutcome(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	c := New(e.mgmt.HTTP())
	name := "acme/crm/prod/unknown"
	if exists, err := c.QueueExists(ctx, name); err != nil || exists {
		t.Fatalf("QueueExists = %t, %v", exists, err)
	}
	// Every attempt of the PUT is carried out and its answer lost: the outcome is unknown.
	for range 10 {
		e.emu.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse)
	}
	if _, _, err := c.PutQueue(ctx, name, QueueSettings{}); err == nil || !MayHaveWritten(err) {
		t.Fatalf("a PUT whose answers were all lost: %v, want an error of unknown outcome", err)
	}
	e.emu.ClearFaults()
	// A PUT that never left changes nothing that the client knows.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := c.PutQueue(cctx, "acme/crm/prod/never", QueueSettings{}); err == nil || MayHaveWritten(err) {
		t.Fatalf("a PUT with a cancelled context: %v, want an error of a request never sent", err)
	}
	if exists, err := c.QueueExists(ctx, "acme/crm/prod/never"); err != nil || exists {
		t.Errorf("QueueExists after a PUT never sent = %t, %v; want false from the list", exists, err)
	}
	// Someone else creates it meanwhile; the client must not answer from its list.
	if _, _, err := e.mgmt.PutQueue(ctx, name, QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	gets := e.routes("GET /queues/{queue}")
	if exists, err := c.QueueExists(ctx, name); err != nil || !exists {
		t.Errorf("QueueExists after an unknown write = %t, %v; want true", exists, err)
	}
	expectCount(t, "single GETs", e.routes("GET /queues/{queue}")-gets, 1)
}

// The answer to a PUT says whether it created the queue (201), replaced one that existed before
// (200), or answered a repeat of an attempt that may have created it itself (200 after an attempt
// that got no answer or a 5xx): only the second is someone else's queue.
func TestPutQueueResult(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	c := New(e.mgmt.HTTP())
	cases := []struct {
		name   string
		before func(name string)
		want   PutResult
	}{
		{"created", func(string) {}, PutResult{Created: true}},
		{"made-elsewhere", func(name string) {
			if _, _, err := e.mgmt.PutQueue(ctx, name, QueueSettings{MaxRedeliveryCount: ptr[int64](9)}); err != nil {
				t.Fatal(err)
			}
		}, PutResult{Existed: true}},
		// The first attempt creates the queue and its answer is lost; the retry is answered 200.
		{"lost-answer-retried", func(string) { e.emu.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse) },
			PutResult{OwnEarlierWrite: true}},
		// A 500 may follow a change; here it did not, and the retry creates the queue.
		{"500-then-created", func(string) { e.emu.InjectNextOn("PUT /queues/{queue}", emulator.Fault500) }, PutResult{Created: true}},
		// A 429 refuses the request before carrying it out: the 200 after it is someone else's queue.
		{"429-then-existed", func(name string) {
			if _, _, err := e.mgmt.PutQueue(ctx, name, QueueSettings{}); err != nil {
				t.Fatal(err)
			}
			e.emu.InjectNextOn("PUT /queues/{queue}", emulator.Fault429)
		}, PutResult{Existed: true}},
	}
	for _, tc := range cases {
		name := "acme/crm/prod/put/" + tc.name
		tc.before(name)
		_, got, err := c.PutQueue(ctx, name, QueueSettings{MaxRedeliveryCount: ptr[int64](3)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s: PutResult = %+v, want %+v", tc.name, got, tc.want)
		}
	}

	// A PUT whose every attempt lost its answer leaves the outcome unknown; the next PUT of the
	// queue through the same client, answered 200, may answer that write.
	name := "acme/crm/prod/put/unknown-then-again"
	for range 10 {
		e.emu.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse)
	}
	if _, _, err := c.PutQueue(ctx, name, QueueSettings{}); err == nil {
		t.Fatal("a PUT whose answers were all lost succeeded")
	}
	e.emu.ClearFaults()
	if _, got, err := c.PutQueue(ctx, name, QueueSettings{}); err != nil || got != (PutResult{OwnEarlierWrite: true}) {
		t.Errorf("PUT after an unknown outcome: %+v, %v; want OwnEarlierWrite", got, err)
	}
}

// Which queues name a queue as their dead message queue comes from the first queue list and the
// client's own writes since, without listing again: a queue the client pointed elsewhere or
// deleted no longer counts, one it pointed at the queue does, and a write of unknown outcome
// counts both ways.
func TestDeadMessageQueueUsers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	const (
		dmq   = "acme/crm/prod/users/dmq"
		other = "acme/crm/prod/users/other-dmq"
	)
	named := func(n string) QueueSettings {
		return QueueSettings{MaxRedeliveryCount: ptr[int64](3), DeadMsgQueue: ptr(n)}
	}
	for _, q := range []string{dmq, other} {
		if _, _, err := e.mgmt.PutQueue(ctx, q, QueueSettings{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"a", "b", "c", "d"} {
		if _, _, err := e.mgmt.PutQueue(ctx, "acme/crm/prod/users/"+q, named(dmq)); err != nil {
			t.Fatal(err)
		}
	}
	c := New(e.mgmt.HTTP()) // a new run
	lists := e.routes("GET /queues")
	users := func() []string {
		t.Helper()
		u, err := c.DeadMessageQueueUsers(ctx, dmq)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	if got := fmt.Sprint(users()); got != "[acme/crm/prod/users/a acme/crm/prod/users/b acme/crm/prod/users/c acme/crm/prod/users/d]" {
		t.Errorf("users from the list = %s", got)
	}
	// a points elsewhere, b is deleted, a new queue e names the dead message queue.
	if _, _, err := c.PutQueue(ctx, "acme/crm/prod/users/a", named(other)); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteQueue(ctx, "acme/crm/prod/users/b"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PutQueue(ctx, "acme/crm/prod/users/e", named(dmq)); err != nil {
		t.Fatal(err)
	}
	// c points elsewhere with an unknown outcome: it may still name the dead message queue.
	for range 10 {
		e.emu.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse)
	}
	if _, _, err := c.PutQueue(ctx, "acme/crm/prod/users/c", named(other)); err == nil {
		t.Fatal("a PUT whose answers were all lost succeeded")
	}
	e.emu.ClearFaults()
	if got := fmt.Sprint(users()); got != "[acme/crm/prod/users/c acme/crm/prod/users/d acme/crm/prod/users/e]" {
		t.Errorf("users after the writes = %s", got)
	}
	if got, err := c.DeadMessageQueueUsers(ctx, other); err != nil || fmt.Sprint(got) != "[acme/crm/prod/users/a acme/crm/prod/users/c]" {
		t.Errorf("users of %s = %v, %v", other, got, err)
	}
	expectCount(t, "queue lists", e.routes("GET /queues")-lists, 1)
}

// usersByWalk is what DeadMessageQueueUsers answers, found by walking the first list and every
// record of the client's writes: the definition its indexes (Snapshot.usersOf, writtenBy) must keep.
func usersByWalk(c *Client, name string) []string {
	var users []string
	for q, l := range c.listed.queues {
		if q == name {
			continue
		}
		listedDMQ := ""
		if l.DeadMsgQueue != nil {
			listedDMQ = *l.DeadMsgQueue
		}
		if r, written := c.written[q]; written {
			if r.names(name, listedDMQ) {
				users = append(users, q)
			}
		} else if listedDMQ == name {
			users = append(users, q)
		}
	}
	for q, r := range c.written {
		if _, listed := c.listed.queues[q]; !listed && q != name && r.names(name, "") {
			users = append(users, q)
		}
	}
	sort.Strings(users)
	return users
}

// After any sequence of writes (sent, then succeeded, failed without effect or left unknown), each
// queue's users from the indexes are those a walk of the list and the records finds.
func TestDeadMessageQueueUsersIndexedAsWalked(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(41, 7))
	names := []string{"q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7"}
	dmqOf := func() string { return []string{"", "q0", "q1", "q2", "q5"}[rng.IntN(5)] }
	for round := range 300 {
		s := &Snapshot{queues: map[string]*Queue{}}
		for _, n := range names[:rng.IntN(len(names)+1)] {
			q := &Queue{Name: n}
			if d := dmqOf(); d != "" || rng.IntN(2) == 0 {
				q.DeadMsgQueue = &d
			}
			s.queues[n] = q
		}
		c := &Client{listed: s}
		for step := range 12 {
			name, put, dmq := names[rng.IntN(len(names))], rng.IntN(3) > 0, dmqOf()
			prev, had := c.beginWrite(name, put, dmq)
			switch rng.IntN(3) {
			case 0: // succeeded
				p := presenceGone
				if put {
					p = presenceExists
				}
				c.finishWrite(name, p, dmq)
			case 1: // refused: changed nothing
				c.refuseWrite(name, prev, had)
			} // 2: the outcome stays unknown
			for _, n := range names {
				got, err := c.DeadMessageQueueUsers(t.Context(), n)
				if want := usersByWalk(c, n); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("round %d, step %d: users of %s = %v, %v; a walk finds %v", round, step, n, got, err, want)
				}
			}
		}
	}
}

package runclaims

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func join(t *testing.T, base, run string) *Registry {
	t.Helper()
	if !Supported {
		t.Skip("no file locks on this platform")
	}
	r, err := Join(base, run)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func claim(t *testing.T, r *Registry, key, typ string) (Owner, bool) {
	t.Helper()
	o, taken, err := r.Claim(key, Owner{Type: typ})
	if err != nil {
		t.Fatal(err)
	}
	return o, taken
}

// Two members of one walk: the second claim of a key is taken and names the first claimant;
// keys are independent; a member's own second claim is not taken.
func TestClaimOnceAcrossMembers(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	a, b := join(t, base, "100"), join(t, base, "100")
	if _, taken := claim(t, a, "em|x|queue|q", "sapmessaging_queue"); taken {
		t.Fatal("the first claim is taken")
	}
	o, taken := claim(t, b, "em|x|queue|q", "sapmessaging_dead_message_queue")
	if !taken || o.Type != "sapmessaging_queue" || o.Member != a.Member() {
		t.Fatalf("second member's claim: %+v taken=%v, want taken by a's sapmessaging_queue", o, taken)
	}
	if _, taken := claim(t, a, "em|x|queue|q", "sapmessaging_queue"); taken {
		t.Fatal("a member's own second claim is taken")
	}
	if _, taken := claim(t, b, "em|x|queue|other", "sapmessaging_queue"); taken {
		t.Fatal("another key is taken")
	}
}

// A member that joins when every member of the walk has ended starts a new walk without claims,
// as Terraform's apply does after its plan; another Terraform process has its own walk.
func TestNewWalkAfterMembersEnd(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	a := join(t, base, "100")
	claim(t, a, "k", "t")
	other := join(t, base, "200")
	if _, taken := claim(t, other, "k", "t"); taken {
		t.Fatal("a claim of another Terraform process counts")
	}
	a.Close()
	b := join(t, base, "100")
	if _, taken := claim(t, b, "k", "t"); taken {
		t.Fatal("a claim of an ended walk counts")
	}
	c := join(t, base, "100") // b is alive: the same walk
	if _, taken := claim(t, c, "k", "t"); !taken {
		t.Fatal("a claim of the current walk does not count")
	}
}

// What an ended Terraform process left behind is removed when another process joins.
func TestEndedRunsRemoved(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	a := join(t, base, "100")
	a.Close()
	join(t, base, "200")
	if _, err := os.Stat(filepath.Join(base, "runs", "100")); !os.IsNotExist(err) {
		t.Fatalf("the ended run's directory is left: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(base, "members", "*")); len(m) != 1 {
		t.Fatalf("member files %v, want only the live one", m)
	}
}

// Of many members claiming one key at once, exactly one gets it.
func TestConcurrentClaims(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	var regs []*Registry
	for range 8 {
		regs = append(regs, join(t, base, "100"))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for _, r := range regs {
		wg.Go(func() {
			_, taken, err := r.Claim("k", Owner{Type: "t"})
			if err != nil {
				t.Error(err)
				return
			}
			if !taken {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d members own the key, want 1", won)
	}
}

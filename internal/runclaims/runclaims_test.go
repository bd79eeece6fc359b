package runclaims

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
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

// Claims cost no file per claimed object: a walk's claims live in one file, however many objects
// its members claim (a plan of 1,000 queues made 1,000 files before, most of the plan's own CPU time).
func TestClaimsMakeNoFilePerObject(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	a, b := join(t, base, "100"), join(t, base, "100")
	for i := range 200 {
		claim(t, a, "em|x|queue|"+strconv.Itoa(i), "sapmessaging_queue")
		claim(t, b, "em|y|queue|"+strconv.Itoa(i), "sapmessaging_queue")
	}
	var files int
	if err := filepath.WalkDir(filepath.Join(base, "runs"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// The walk's current pointer, two member entries and the claims.
	if files > 4 {
		t.Fatalf("%d files for 400 claims, want at most 4", files)
	}
	// And each still sees the other's claims.
	if o, taken := claim(t, b, "em|x|queue|7", "sapmessaging_dead_message_queue"); !taken || o.Member != a.Member() || o.Type != "sapmessaging_queue" {
		t.Fatalf("b's claim of a's object: %+v taken=%v", o, taken)
	}
}

// A line that a member ending mid-write left unfinished costs no later claim: the next claim
// starts a line of its own, and the other members read it.
func TestClaimAfterUnfinishedLine(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	a, b := join(t, base, "100"), join(t, base, "100")
	claim(t, a, "first", "t")
	f, err := os.OpenFile(filepath.Join(a.walk, claimsFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("0123abcd unfinished"); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	claim(t, b, "other", "t") // reads the unfinished line
	if _, taken := claim(t, b, "k", "sapmessaging_queue"); taken {
		t.Fatal("a new key is taken")
	}
	if o, taken := claim(t, a, "k", "t"); !taken || o.Member != b.Member() || o.Type != "sapmessaging_queue" {
		t.Fatalf("a's claim of b's key after the unfinished line: %+v taken=%v", o, taken)
	}
}

// BenchmarkClaim is one member's claims of new objects, as a plan of many resources makes them.
func BenchmarkClaim(b *testing.B) {
	if !Supported {
		b.Skip("no file locks on this platform")
	}
	r, err := Join(b.TempDir(), "100")
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, _, err := r.Claim("em|x|queue|"+strconv.Itoa(i), Owner{Type: "sapmessaging_queue"}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkJoin is a provider process joining the walk of its Terraform process and leaving it
// when it ends, as every process that Terraform starts does once.
func BenchmarkJoin(b *testing.B) {
	if !Supported {
		b.Skip("no file locks on this platform")
	}
	base := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		r, err := Join(base, "100")
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

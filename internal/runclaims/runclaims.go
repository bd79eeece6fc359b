// Package runclaims lets the provider processes that one Terraform process runs in one walk
// (a plan, or an apply) agree on which resource owns an object, through files in a directory of
// the machine.
//
// Terraform starts a provider process per provider configuration in each walk, so two aliased
// configurations that point at the same Event Mesh instance or Cloud Integration tenant plan
// their resources in two processes that share no memory. Each process joins the walk of its
// Terraform process (its parent) when it is configured, and claims each object it plans by
// appending a line to the walk's claims file under the file's lock: the first line of an object
// names its owner in this walk, and any other process that claims it learns who did. A member
// keeps what it has read of the file, so it reads each line once, and a claim costs a few system
// calls on one open file. A file per claimed object (created, linked and removed) cost about
// 0.3 ms of CPU per claim, about half of what a plan of 250 queues spent beyond the provider
// without an API; BenchmarkClaim measures a claim.
//
// A walk is the set of processes that joined while another member was alive. Terraform stops
// every provider process of a walk before it starts the next one (an apply after its plan), so
// a process that joins when no member of the current walk is alive starts a new walk, with no
// claims. A member is alive while it holds the lock on its member file, which the operating
// system releases when the process ends, however it ends.
package runclaims

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Owner is what a claim records about the resource that made it.
type Owner struct {
	// Member is the claiming process's member ID; set by Claim.
	Member string `json:"member"`
	// Type is the resource type, for example sapmessaging_queue_subscription.
	Type string `json:"type"`
	// InState is true when the resource holds the object in its state (or imports it).
	InState bool `json:"in_state"`
}

// Registry is one process's membership of the walk of its Terraform process.
type Registry struct {
	base   string
	walk   string // the walk's directory
	member string
	held   *os.File // the member file, locked for the life of the process

	mu     sync.Mutex
	claims *os.File         // the walk's claims file, opened for appending when first needed
	read   int64            // how much of the claims file this member has read
	torn   bool             // what it read ends inside a line
	owners map[string]Owner // by key hash: the first claim of each key read so far
}

// Member returns this process's member ID.
func (r *Registry) Member() string { return r.member }

// Join makes this process a member of the current walk of the Terraform process run, under the
// directory base (created when missing), or starts a new walk when no member of the current one
// is alive. It removes what ended walks of other Terraform processes left behind.
func Join(base, run string) (*Registry, error) {
	if err := os.MkdirAll(filepath.Join(base, "members"), 0o700); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(base, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	defer func() { _ = lock.Close() }()
	if err := lockFile(lock, true); err != nil {
		return nil, err
	}
	defer func() { _ = unlockFile(lock) }()

	r := &Registry{base: base, member: randomID()}
	held, err := os.OpenFile(r.memberFile(r.member), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockFile(held, false); err != nil {
		_ = held.Close()
		return nil, err
	}
	r.held = held

	runs := filepath.Join(base, "runs")
	runDir := filepath.Join(runs, run)
	walk, alive := r.currentWalk(runDir)
	if !alive {
		if err := os.RemoveAll(runDir); err != nil {
			r.Close()
			return nil, err
		}
		walk = randomID()
		if err := os.MkdirAll(filepath.Join(runDir, walk, "members"), 0o700); err != nil {
			r.Close()
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(runDir, "current"), []byte(walk), 0o600); err != nil {
			r.Close()
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(runDir, walk, "members", r.member), nil, 0o600); err != nil {
		r.Close()
		return nil, err
	}
	r.walk = filepath.Join(runDir, walk)

	// What ended walks of other Terraform processes left behind.
	if entries, err := os.ReadDir(runs); err == nil {
		for _, e := range entries {
			if e.Name() == run {
				continue
			}
			if _, alive := r.currentWalk(filepath.Join(runs, e.Name())); !alive {
				_ = os.RemoveAll(filepath.Join(runs, e.Name()))
			}
		}
	}
	if entries, err := os.ReadDir(filepath.Join(base, "members")); err == nil {
		for _, e := range entries {
			if id := trimLock(e.Name()); id != r.member {
				r.alive(id) // removes the file of a member that ended
			}
		}
	}
	return r, nil
}

// Close leaves the walk: the process is no longer a live member.
func (r *Registry) Close() {
	r.mu.Lock()
	if r.claims != nil {
		_ = r.claims.Close()
		r.claims = nil
	}
	r.mu.Unlock()
	if r.held != nil {
		_ = unlockFile(r.held)
		_ = r.held.Close()
		_ = os.Remove(r.held.Name())
		r.held = nil
	}
}

// currentWalk returns the current walk of a Terraform process's directory and whether one of
// its members is alive. Called under the base lock.
func (r *Registry) currentWalk(runDir string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(runDir, "current"))
	if err != nil || len(b) == 0 {
		return "", false
	}
	walk := string(b)
	entries, err := os.ReadDir(filepath.Join(runDir, walk, "members"))
	if err != nil {
		return walk, false
	}
	for _, e := range entries {
		if e.Name() == r.member || r.alive(e.Name()) {
			return walk, true
		}
	}
	return walk, false
}

// alive reports whether the member id holds its lock; the file of a member that does not is
// removed. Called under the base lock.
func (r *Registry) alive(id string) bool {
	f, err := os.OpenFile(r.memberFile(id), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	if err := lockFile(f, false); err != nil {
		return true // its process holds the lock
	}
	_ = unlockFile(f)
	_ = os.Remove(f.Name())
	return false
}

func (r *Registry) memberFile(id string) string {
	return filepath.Join(r.base, "members", id+".lock")
}

func trimLock(name string) string {
	if n := len(name) - len(".lock"); n > 0 && name[n:] == ".lock" {
		return name[:n]
	}
	return name
}

// claimsFile is the name of a walk's claims file in its directory. Each line is one claim:
// the key's SHA-256 in hex, the member, 1 or 0 for Owner.InState and the resource type.
const claimsFile = "claims"

// Claim records that this process's resource owner manages the object key in this walk. When
// another process of the walk claimed it first, it returns that claim and true. Claims of this
// process are its own affair: a second claim of a key by this process returns false.
func (r *Registry) Claim(key string, owner Owner) (Owner, bool, error) {
	owner.Member = r.member
	if strings.ContainsAny(owner.Type, " \n") {
		return Owner{}, false, fmt.Errorf("runclaims: the resource type %q holds a space or a line break", owner.Type)
	}
	sum := sha256.Sum256([]byte(key))
	hash := hex.EncodeToString(sum[:])
	r.mu.Lock()
	defer r.mu.Unlock()
	if earlier, ok := r.owners[hash]; ok { // read before: a claim stays for the walk
		return earlier, earlier.Member != r.member, nil
	}
	if r.claims == nil {
		f, err := os.OpenFile(filepath.Join(r.walk, claimsFile), os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return Owner{}, false, err
		}
		r.claims, r.owners = f, map[string]Owner{}
	}
	if err := lockFile(r.claims, true); err != nil {
		return Owner{}, false, err
	}
	defer func() { _ = unlockFile(r.claims) }()
	// What the other members appended since this member last read: every line is whole, since
	// each was written by one write under the lock.
	info, err := r.claims.Stat()
	if err != nil {
		return Owner{}, false, err
	}
	if size := info.Size(); size > r.read {
		b := make([]byte, size-r.read)
		if _, err := r.claims.ReadAt(b, r.read); err != nil && err != io.EOF {
			return Owner{}, false, err
		}
		r.read = size
		r.torn = b[len(b)-1] != '\n'
		r.parse(b)
		if earlier, ok := r.owners[hash]; ok {
			return earlier, earlier.Member != r.member, nil
		}
	}
	in := "0"
	if owner.InState {
		in = "1"
	}
	line := hash + " " + r.member + " " + in + " " + owner.Type + "\n"
	if r.torn {
		line = "\n" + line // a line of its own after an unfinished one
	}
	n, err := r.claims.WriteString(line)
	r.read += int64(n)
	if err != nil {
		return Owner{}, false, err
	}
	r.torn = false
	r.owners[hash] = owner
	return owner, false, nil
}

// parse records the claims of lines b, keeping the first claim of each key. A line that does not
// read as a claim (the end of a write that a process ending at that moment left unfinished) is
// skipped.
func (r *Registry) parse(b []byte) {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		fields := strings.SplitN(string(line), " ", 4)
		if len(fields) != 4 || len(fields[0]) != sha256.Size*2 || (fields[2] != "0" && fields[2] != "1") {
			continue
		}
		if _, ok := r.owners[fields[0]]; !ok {
			r.owners[fields[0]] = Owner{Member: fields[1], InState: fields[2] == "1", Type: fields[3]}
		}
	}
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

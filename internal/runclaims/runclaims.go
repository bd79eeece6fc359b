// Package runclaims lets the provider processes that one Terraform process runs in one walk
// (a plan, or an apply) agree on which resource owns an object, through files in a directory of
// the machine.
//
// Terraform starts a provider process per provider configuration in each walk, so two aliased
// configurations that point at the same Event Mesh instance or Cloud Integration tenant plan
// their resources in two processes that share no memory. Each process joins the walk of its
// Terraform process (its parent) when it is configured, and claims each object it plans by
// creating a file named after the object: the first process to create it owns the object in
// this walk, and any other process that claims it learns who did.
//
// A walk is the set of processes that joined while another member was alive. Terraform stops
// every provider process of a walk before it starts the next one (an apply after its plan), so
// a process that joins when no member of the current walk is alive starts a new walk, with no
// claims. A member is alive while it holds the lock on its member file, which the operating
// system releases when the process ends, however it ends.
package runclaims

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
		if err := os.MkdirAll(filepath.Join(runDir, walk, "claims"), 0o700); err != nil {
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

// Claim records that this process's resource owner manages the object key in this walk. When
// another process of the walk claimed it first, it returns that claim and true. Claims of this
// process are its own affair: a second claim of a key by this process returns false.
func (r *Registry) Claim(key string, owner Owner) (Owner, bool, error) {
	owner.Member = r.member
	sum := sha256.Sum256([]byte(key))
	path := filepath.Join(r.walk, "claims", hex.EncodeToString(sum[:]))
	b, err := json.Marshal(owner)
	if err != nil {
		return Owner{}, false, err
	}
	// Written whole under another name, then linked: a reader never sees a partial claim, and
	// the link fails when the name exists.
	tmp := filepath.Join(r.walk, "claims", "."+r.member+"-"+randomID())
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return Owner{}, false, err
	}
	defer func() { _ = os.Remove(tmp) }()
	err = os.Link(tmp, path)
	if err == nil {
		return owner, false, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return Owner{}, false, err
	}
	b, err = os.ReadFile(path)
	if err != nil {
		return Owner{}, false, err
	}
	var earlier Owner
	if err := json.Unmarshal(b, &earlier); err != nil {
		return Owner{}, false, fmt.Errorf("reading the claim of %q: %w", key, err)
	}
	if earlier.Member == r.member {
		return earlier, false, nil
	}
	return earlier, true, nil
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

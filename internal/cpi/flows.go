package cpi

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/sharedread"
)

// DefaultGather is how long the first change of a batch waits for other
// changes of the same flow before the batch is written.
const DefaultGather = 50 * time.Millisecond

// Flows coordinates what the resources of one provider run read from and
// write to integration flows, so that several resources on one flow (one
// per channel) neither lose each other's updates nor cost a download and a
// deploy each.
//
// Reads: Flow returns a flow from a cache that holds each flow once per
// run; readers that arrive together share one download, and every write
// through Flows drops the flow from the cache.
//
// Writes: Change serializes the writes to a flow (content upload,
// configuration updates, deploy) and computes each edit from the flow's
// content read after the earlier writes are done. Changes that arrive
// together form one batch: the changes queued while the flow's previous
// batch is written, or within Gather of the first one. A batch costs one
// download, at most one upload, one update per changed parameter and at most
// one deploy, whose result every change of the batch that asked for it
// receives.
type Flows struct {
	c *Client
	// Gather is how long the first change of a batch waits for others.
	Gather time.Duration
	// Backoff spaces the status reads of a deploy.
	Backoff Backoff

	mu    sync.Mutex
	flows map[flowKey]*flowEntry
	// writers holds the write queue of each flow by its ID alone: "active"
	// and an explicit version name the same design time, so the writes of
	// resources that address one flow both ways are serialized too, each
	// computed from the flow as the earlier ones left it.
	writers map[string]*flowWriter
	// runtimes holds the runtime artifact of each flow read in this run, and
	// runtimeGen counts the batches written to each flow; guarded by mu.
	runtimes   map[string]*runtimeRead
	runtimeGen map[string]uint64
}

// NewFlows returns a Flows that reads and writes through c, with
// DefaultGather and DefaultBackoff.
func NewFlows(c *Client) *Flows {
	return &Flows{c: c, Gather: DefaultGather, Backoff: DefaultBackoff, flows: map[flowKey]*flowEntry{}, writers: map[string]*flowWriter{}}
}

// Client returns the client Flows calls through.
func (fs *Flows) Client() *Client { return fs.c }

type flowKey struct{ id, version string }

func keyOf(id, version string) flowKey { return flowKey{id: id, version: versionOrActive(version)} }

// flowEntry is the cache of one flow in one version; guarded by Flows.mu.
type flowEntry struct {
	flow sharedread.Cell[*Flow]
}

// flowWriter is the write queue of one flow, whatever version its changes
// address; guarded by Flows.mu.
type flowWriter struct {
	queue   []*pendingChange
	writing bool
}

// dropFlowLocked forgets every cached version of flow id, so that later
// reads of this run see it as written. fs.mu is held.
func (fs *Flows) dropFlowLocked(id string) {
	for k, e := range fs.flows {
		if k.id == id {
			e.flow.Drop()
		}
	}
}

func (fs *Flows) entry(k flowKey) *flowEntry {
	e := fs.flows[k]
	if e == nil {
		e = &flowEntry{}
		fs.flows[k] = e
	}
	return e
}

// Flow returns integration flow id in version as read once in this run,
// reading it when it is not cached or was written since. The error matches
// ErrNotFound when the flow does not exist.
func (fs *Flows) Flow(ctx context.Context, id, version string) (*Flow, error) {
	fs.mu.Lock()
	e := fs.entry(keyOf(id, version))
	fs.mu.Unlock()
	return e.flow.Get(ctx, &fs.mu, func(ctx context.Context) (*Flow, error) { return fs.c.ReadFlow(ctx, id, version) })
}

// Change is one writer's change of a flow.
type Change struct {
	// Edit computes the change from the flow as it is when the change's turn
	// comes: read after every earlier write, with the edits of the changes
	// before it in the same batch applied. An error fails this change only.
	// A nil Edit changes nothing in the design time: with Deploy and
	// ForceDeploy it only deploys the flow, and a batch of such changes alone
	// downloads nothing.
	Edit func(*Flow) (*Edit, error)
	// Deploy asks for a deploy when the edit changed something; ForceDeploy
	// with Deploy asks for one in any case.
	Deploy      bool
	ForceDeploy bool
	// DeployTimeout bounds the wait for the deploy (default 10 minutes); a
	// batch waits for the longest timeout of its changes.
	DeployTimeout time.Duration
}

// DefaultDeployTimeout is the deploy wait of a Change without DeployTimeout.
const DefaultDeployTimeout = 10 * time.Minute

// Result is what happened to one change.
type Result struct {
	// ContentChanged and ParametersChanged report what this change altered.
	ContentChanged    bool
	ParametersChanged bool
	// Deployed reports that the flow was deployed for this change; Runtime
	// is the started runtime artifact, DeployErr the deploy's error (a
	// *DeployError, a *DeployTimeoutError or a request error). The writes are
	// saved even when the deploy failed.
	Deployed  bool
	Runtime   *RuntimeArtifact
	DeployErr error
	// Batch is the number of changes written together with this one,
	// itself included.
	Batch int
}

type pendingChange struct {
	Change
	// version is the version the change addresses, "active" for the current one.
	version string
	ctx     context.Context
	taken   bool // guarded by Flows.mu
	res     Result
	err     error
	params  []string
	done    chan struct{}
}

// Change writes ch to integration flow id in version and, when asked,
// deploys it, coalesced with the other changes of the flow that arrive
// together (see Flows). It returns when the change is written and its
// deploy, if any, has ended. The error reports a change that was not
// written; a failed deploy is Result.DeployErr.
func (fs *Flows) Change(ctx context.Context, id, version string, ch Change) (Result, error) {
	p := &pendingChange{Change: ch, version: versionOrActive(version), ctx: ctx, done: make(chan struct{})}
	fs.mu.Lock()
	if fs.writers == nil {
		fs.writers = map[string]*flowWriter{}
	}
	w := fs.writers[id]
	if w == nil {
		w = &flowWriter{}
		fs.writers[id] = w
	}
	w.queue = append(w.queue, p)
	if !w.writing {
		w.writing = true
		go fs.writer(context.WithoutCancel(ctx), id, w)
	}
	fs.mu.Unlock()
	select {
	case <-p.done:
		return p.res, p.err
	case <-ctx.Done():
	}
	fs.mu.Lock()
	if !p.taken {
		w.queue = slices.DeleteFunc(w.queue, func(q *pendingChange) bool { return q == p })
		fs.mu.Unlock()
		return Result{}, ctx.Err()
	}
	fs.mu.Unlock()
	// The batch holding this change is under way; it stops when all its
	// changes are abandoned, and its result says what was written.
	<-p.done
	return p.res, p.err
}

// writer writes the flow's queued changes batch by batch until none is left.
// A batch holds the queued changes that address the same version as the
// first one; changes addressing the flow by another version form the next
// batch, written after this one.
func (fs *Flows) writer(base context.Context, id string, w *flowWriter) {
	for {
		if fs.Gather > 0 {
			time.Sleep(fs.Gather)
		}
		fs.mu.Lock()
		if len(w.queue) == 0 {
			w.writing = false
			fs.mu.Unlock()
			return
		}
		k := flowKey{id: id, version: w.queue[0].version}
		deployOnly := true
		for _, p := range w.queue {
			if p.version == k.version {
				deployOnly = deployOnly && p.Edit == nil
			}
		}
		var from *Flow
		var readErr error
		if !deployOnly {
			fs.mu.Unlock()
			// Read after the earlier batches are written; changes that arrive
			// during the read join this batch.
			from, readErr = fs.c.ReadFlow(base, k.id, k.version)
			fs.mu.Lock()
		}
		var batch, rest []*pendingChange
		for _, p := range w.queue {
			switch {
			case p.version != k.version:
				rest = append(rest, p)
			case p.ctx.Err() == nil && (!deployOnly || p.Edit == nil):
				p.taken = true
				batch = append(batch, p)
			case p.ctx.Err() == nil:
				// An edit that arrived during a deploy-only batch's gathering
				// waits for the next batch, which reads the flow.
				rest = append(rest, p)
			}
		}
		// Abandoned changes are dropped; their callers return their context's error.
		w.queue = rest
		if len(batch) == 0 {
			if len(rest) > 0 {
				fs.mu.Unlock()
				continue
			}
			w.writing = false
			fs.mu.Unlock()
			return
		}
		fs.mu.Unlock()
		if deployOnly {
			fs.deployBatch(base, k, batch)
			continue
		}
		fs.writeBatch(base, k, batch, from, readErr)
	}
}

// writeBatch applies the edits of batch to from in order, writes the result
// once, deploys once when any change asks for it, and hands every change its
// result.
func (fs *Flows) writeBatch(base context.Context, k flowKey, batch []*pendingChange, from *Flow, readErr error) {
	ctx, done := batchContext(base, batch)
	defer done()
	defer fs.finishBatch(k, batch)
	if readErr != nil {
		for _, p := range batch {
			p.err = readErr
		}
		fs.mu.Lock()
		fs.dropFlowLocked(k.id)
		fs.mu.Unlock()
		return
	}

	work := from
	for _, p := range batch {
		if p.Edit == nil {
			continue
		}
		edit, err := p.Edit(work)
		var next *Flow
		if err == nil {
			next, err = work.apply(edit)
		}
		if err != nil {
			p.err = err
			continue
		}
		p.res.ContentChanged = !bytes.Equal(next.Content, work.Content)
		p.params = changedParameters(work, next)
		p.res.ParametersChanged = len(p.params) > 0
		work = next
	}

	// The cache keeps what was just read when nothing is written, and is
	// dropped otherwise: later reads of this run see the flow as it is now.
	written := work != from
	defer func() {
		fs.mu.Lock()
		fs.dropFlowLocked(k.id)
		if !written {
			fs.entry(k).flow.Set(from)
		}
		fs.mu.Unlock()
	}()
	if !bytes.Equal(work.Content, from.Content) {
		meta, err := fs.c.GetArtifact(ctx, k.id, k.version)
		if err == nil {
			err = fs.c.UpdateContent(ctx, k.id, k.version, meta.Name, work.Content)
		}
		if err != nil {
			for _, p := range batch {
				if p.err == nil {
					p.err = &WriteError{IFlowID: k.id, What: "uploading the changed content", Err: err}
				}
			}
			return
		}
	}
	for _, key := range changedParameters(from, work) {
		c := work.Configurations[key]
		if err := fs.c.SetConfiguration(ctx, k.id, k.version, c.Key, c.Value, c.DataType); err != nil {
			for _, p := range batch {
				if p.err == nil && slices.Contains(p.params, key) {
					p.err = &WriteError{IFlowID: k.id, What: "setting parameter " + strconv.Quote(key), Err: err}
				}
			}
		}
	}

	fs.deploy(ctx, k, batch)
}

// deployBatch deploys the flow for a batch of changes that edit nothing, as
// writeBatch does after its writes, without reading the flow: its design time
// stays as it is, and so does the flow cached in this run.
func (fs *Flows) deployBatch(base context.Context, k flowKey, batch []*pendingChange) {
	ctx, done := batchContext(base, batch)
	defer done()
	defer fs.finishBatch(k, batch)
	fs.deploy(ctx, k, batch)
}

// finishBatch hands every change of batch its result. A batch may have
// deployed the flow, so later reads see its runtime as it is then.
func (fs *Flows) finishBatch(k flowKey, batch []*pendingChange) {
	fs.dropRuntime(k.id)
	for _, p := range batch {
		close(p.done)
	}
}

// deploy deploys the flow once when a change of batch asks for it, within the
// longest timeout of those changes, and hands them its result.
func (fs *Flows) deploy(ctx context.Context, k flowKey, batch []*pendingChange) {
	var deployers []*pendingChange
	var timeout time.Duration
	for _, p := range batch {
		if p.err == nil && p.Deploy && (p.ForceDeploy || p.res.ContentChanged || p.res.ParametersChanged) {
			deployers = append(deployers, p)
			t := p.DeployTimeout
			if t <= 0 {
				t = DefaultDeployTimeout
			}
			timeout = max(timeout, t)
		}
	}
	if len(deployers) == 0 {
		return
	}
	dctx, dcancel := context.WithTimeout(ctx, timeout)
	defer dcancel()
	rt, err := fs.c.DeployAndWaitBackoff(dctx, k.id, k.version, fs.Backoff)
	for _, p := range deployers {
		p.res.Deployed, p.res.Runtime, p.res.DeployErr = true, rt, err
	}
}

// batchContext returns the context of the requests of batch, canceled once
// every change of the batch is abandoned, and sets each change's Batch. done
// releases it.
func batchContext(base context.Context, batch []*pendingChange) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(base)
	var left atomic.Int64
	left.Store(int64(len(batch)))
	stops := make([]func() bool, 0, len(batch))
	for _, p := range batch {
		stops = append(stops, context.AfterFunc(p.ctx, func() {
			if left.Add(-1) == 0 {
				cancel()
			}
		}))
		p.res.Batch = len(batch)
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

// WriteError is a write to the tenant that failed.
type WriteError struct {
	IFlowID string
	// What is the write, e.g. "uploading the changed content".
	What string
	Err  error
}

// Error names the write and its cause.
func (e *WriteError) Error() string {
	return e.What + " of integration flow " + strconv.Quote(e.IFlowID) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *WriteError) Unwrap() error { return e.Err }

// runtimeRead is a read of a flow's runtime artifact, shared by the readers
// that arrive while it runs and kept for the run until a write to the flow.
type runtimeRead struct {
	done chan struct{}
	gen  uint64
	rt   *RuntimeArtifact
	err  error
}

// RuntimeArtifact returns the runtime artifact of flow id (ErrNotFound when it
// is not deployed), read once per run however many channel resources of the
// flow ask for it. Every batch written through Flows drops it, so a read after
// a write or deploy sees the runtime as it is then. A failed read is not kept.
func (fs *Flows) RuntimeArtifact(ctx context.Context, id string) (*RuntimeArtifact, error) {
	fs.mu.Lock()
	if fs.runtimes == nil {
		fs.runtimes = map[string]*runtimeRead{}
	}
	r := fs.runtimes[id]
	if r != nil {
		fs.mu.Unlock()
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if r.err == nil || errors.Is(r.err, ErrNotFound) {
			return r.rt, r.err
		}
		// The shared read failed, perhaps for its caller's context only: read again.
		return fs.c.RuntimeArtifact(ctx, id)
	}
	r = &runtimeRead{done: make(chan struct{}), gen: fs.runtimeGen[id]}
	fs.runtimes[id] = r
	fs.mu.Unlock()

	r.rt, r.err = fs.c.RuntimeArtifact(ctx, id)
	fs.mu.Lock()
	if (r.err != nil && !errors.Is(r.err, ErrNotFound)) || fs.runtimeGen[id] != r.gen {
		if fs.runtimes[id] == r {
			delete(fs.runtimes, id)
		}
	}
	fs.mu.Unlock()
	close(r.done)
	return r.rt, r.err
}

// dropRuntime forgets the runtime artifact of flow id read in this run.
func (fs *Flows) dropRuntime(id string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.runtimeGen == nil {
		fs.runtimeGen = map[string]uint64{}
	}
	fs.runtimeGen[id]++
	delete(fs.runtimes, id)
}

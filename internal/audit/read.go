package audit

import (
	"context"
	"errors"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// DefaultConcurrency is how many flow contents Read downloads at once.
const DefaultConcurrency = 8

// Sources are the clients Read reads through; a nil client leaves its product out.
type Sources struct {
	// EventMesh lists the queues once (its run's snapshot, shared with the resources).
	EventMesh *eventmesh.Client
	// Messaging lists the webhook subscriptions once; nil with EventMesh set means the
	// connection has no messaging credentials, which the audit reports.
	Messaging *eventmesh.Messaging
	// Flows reads each deployed flow once per run (shared with the resources).
	Flows *cpi.Flows
	// Concurrency bounds the parallel content downloads; 0 means DefaultConcurrency.
	Concurrency int
	// Packages also reads the design time list, for the package of each flow.
	Packages bool
	// AEM lists the Advanced Event Mesh queues once (an *aem.Client, whose list is paged, or the run's
	// list shared with the resources); nil leaves AEM out.
	AEM AEMQueueLister
}

// AEMQueueLister lists the queues of an AEM broker's Message VPN.
type AEMQueueLister interface {
	ListQueues(ctx context.Context) ([]aem.Queue, error)
}

// ErrNoMessaging is Input.WebhooksErr when the Event Mesh connection has no messaging credentials.
var ErrNoMessaging = errors.New("the Event Mesh connection has no messaging REST credentials")

// Read fetches the landscape: one queue list per broker (Event Mesh, AEM), one webhook subscription list, one runtime list
// (and the design time list with Packages), and the content of each deployed integration flow,
// at most Concurrency at once. A flow whose content cannot be read or parsed is recorded in
// Input.Unreadable, and a failed webhook list in Input.WebhooksErr, not returned as an error;
// the error is a failed queue or flow list, or ctx ending.
func Read(ctx context.Context, src Sources) (Input, error) {
	in := Input{EventMesh: src.EventMesh != nil, CloudIntegration: src.Flows != nil}
	// The Event Mesh lists run beside the Cloud Integration reads.
	var queues []eventmesh.Queue
	var queuesErr error
	queuesDone := make(chan struct{})
	go func() {
		defer close(queuesDone)
		if src.EventMesh == nil {
			return
		}
		s, err := src.EventMesh.Snapshot(ctx)
		if err != nil {
			queuesErr = &ListError{What: "the Event Mesh queues", Err: err}
			return
		}
		queues = s.Queues()
	}()
	hooksDone := make(chan struct{})
	go func() {
		defer close(hooksDone)
		switch {
		case src.EventMesh == nil:
		case src.Messaging == nil:
			in.WebhooksErr = ErrNoMessaging
		default:
			hooks, err := src.Messaging.ListWebhooks(ctx)
			if err != nil {
				in.WebhooksErr = &ListError{What: "the Event Mesh webhook subscriptions", Err: err}
				return
			}
			in.Webhooks, in.WebhooksRead = hooks, true
		}
	}()
	var aemErr error
	aemDone := make(chan struct{})
	go func() {
		defer close(aemDone)
		if src.AEM == nil {
			return
		}
		qs, err := src.AEM.ListQueues(ctx)
		if err != nil {
			aemErr = &ListError{What: "the Advanced Event Mesh queues", Err: err}
			return
		}
		in.AEM, in.AEMQueues = true, qs
	}()
	err := readFlows(ctx, src, &in)
	<-queuesDone
	<-hooksDone
	<-aemDone
	in.Queues = queues
	if queuesErr != nil {
		return in, queuesErr
	}
	if aemErr != nil {
		return in, aemErr
	}
	return in, err
}

// readFlows fills the Cloud Integration part of in.
func readFlows(ctx context.Context, src Sources, in *Input) error {
	if src.Flows == nil {
		return nil
	}
	c := src.Flows.Client()
	rts, err := c.ListRuntimeArtifacts(ctx)
	if err != nil {
		return &ListError{What: "the deployed Cloud Integration artifacts", Err: err}
	}
	in.Deployed = rts
	if src.Packages {
		arts, err := c.ListArtifacts(ctx)
		if err != nil {
			return &ListError{What: "the Cloud Integration design time artifacts", Err: err}
		}
		in.Packages = make(map[string]string, len(arts))
		for _, a := range arts {
			in.Packages[a.ID] = a.PackageID
		}
	}
	in.Flows, in.Unreadable = map[string]*cpi.Flow{}, map[string]error{}
	limit := src.Concurrency
	if limit <= 0 {
		limit = DefaultConcurrency
	}
	ids := make([]string, 0, len(rts))
	for _, rt := range rts {
		if rt.Type == "" || rt.Type == cpi.TypeIntegrationFlow {
			ids = append(ids, rt.ID)
		}
	}
	for _, r := range src.Flows.ReadFlows(ctx, ids, "active", limit) {
		if r.Err != nil {
			in.Unreadable[r.ID] = r.Err
			continue
		}
		in.Flows[r.ID] = r.Flow
	}
	return ctx.Err()
}

// ListError is a list call of the audit that failed.
type ListError struct {
	What string
	Err  error
}

// Error names the list and its cause.
func (e *ListError) Error() string { return "listing " + e.What + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *ListError) Unwrap() error { return e.Err }

package framework

import (
	"context"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// dmqLinks holds, for one run of the provider, each queue's dead message queue as the service
// held it when first needed (one GET /queues, shared with the reads of the run) and as the plans
// of this run set it. Terraform plans one resource at a time, so a cycle of several queues shows
// only across resources: each queue's plan is checked against what the service holds and what
// the other plans set, and the last queue of a cycle to be planned reports it. Before each write
// the check runs again.
type dmqLinks struct {
	mu      sync.Mutex
	current map[string]string // nil until loaded
	planned map[string]string
	// deleted holds the queues this run's plans delete: destroyed, or renamed away (PlanQueueDeletion).
	deleted map[string]bool
}

// currentLinks returns the dead message queues the service held at the run's first queue list
// (shared with the existence check before creates); the links this run writes are in links.planned.
func (d *ProviderData) currentLinks(ctx context.Context) (map[string]string, error) {
	d.links.mu.Lock()
	cur := d.links.current
	d.links.mu.Unlock()
	if cur != nil {
		return cur, nil
	}
	s, err := d.EventMesh.FirstSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	cur = s.DeadMessageQueues()
	d.links.mu.Lock()
	defer d.links.mu.Unlock()
	if d.links.current == nil {
		d.links.current = cur
	}
	return d.links.current, nil
}

// CheckDMQLinks checks that queue naming dmq ("" for none) forms no dead message queue cycle and,
// at plan (warn), that dmq exists or a resource planned earlier in this run creates it, and warns
// about a chain; then it records dmq as what this run plans for queue. At plan a queue list that
// cannot be read is an error. It returns false when it added an error. Without an Event Mesh
// connection it checks nothing.
func (d *ProviderData) CheckDMQLinks(ctx context.Context, queue, dmq string, warn bool, diags *diag.Diagnostics) bool {
	if d == nil || d.EventMesh == nil || queue == "" {
		return true
	}
	if dmq == "" {
		// A queue without a dead message queue closes no cycle: record it, list nothing.
		d.RecordDMQLink(queue, dmq, diags)
		return true
	}
	cur, err := d.currentLinks(ctx)
	if err != nil && warn {
		// A plan that cannot read fails: it cannot tell whether the dead message queue exists or
		// leads back to the queue.
		if !d.EventMeshCredential.AddRefused(diags, path.Root("dead_message_queue"), err) {
			diags.AddAttributeError(path.Root("dead_message_queue"), "Cannot Check Dead Message Queue",
				ListErrorDetail("checking that the dead message queue of "+queue+" exists and does not lead back to it", err))
		}
		return false
	}
	plannedEarlier := warn && d.queuePlanned(dmq)
	d.links.mu.Lock()
	defer d.links.mu.Unlock()
	if d.links.planned == nil {
		d.links.planned = map[string]string{}
	}
	var findings []rules.Finding
	if warn {
		_, listed := cur[dmq]
		_, linked := d.links.planned[dmq]
		findings = rules.CheckPlannedDeadMessageQueue(queue, dmq, listed || linked || plannedEarlier)
		if d.links.deleted[dmq] {
			findings = append(findings, rules.CheckDestroyedDeadMessageQueue(queue, dmq, true)...)
		}
	}
	if dmq != "" && !rules.HasErrors(findings) {
		findings = append(findings, rules.CheckDeadMessageQueueLinks(queue, dmq, rules.LinkSet{Current: cur, Planned: d.links.planned})...)
	}
	d.links.planned[queue] = dmq
	if !warn {
		findings = slices.DeleteFunc(findings, func(f rules.Finding) bool { return f.Severity != rules.SeverityError })
	}
	AppendFindings(diags, findings)
	return !rules.HasErrors(findings)
}

// CheckHeldDMQ checks at plan the dead message queue dmq ("" for none) that queue keeps as its state holds it
// (rules.CheckHeldDeadMessageQueue): whether the service still holds it, from the run's queue list (the one
// GET /queues the refresh took, so the check adds no management call) or a queue resource of this run plans
// it. A plan without refresh (terraform plan -refresh=false) took no list and reads nothing of the service, so
// the check is left out there, as the rest of the drift is. writes says whether the plan writes the queue;
// allowMissing is allow_missing_dead_message_queue. Without an Event Mesh connection it checks nothing.
func (d *ProviderData) CheckHeldDMQ(ctx context.Context, queue, dmq string, writes, allowMissing bool, diags *diag.Diagnostics) {
	if d == nil || d.EventMesh == nil || queue == "" {
		return
	}
	d.links.mu.Lock()
	loaded := d.links.current != nil
	d.links.mu.Unlock()
	if !loaded && !d.EventMesh.Listed() {
		return
	}
	exists := true
	if dmq != "" && dmq != queue {
		cur, err := d.currentLinks(ctx)
		if err != nil {
			if !d.EventMeshCredential.AddRefused(diags, path.Root("dead_message_queue"), err) {
				diags.AddAttributeError(path.Root("dead_message_queue"), "Cannot Check Dead Message Queue",
					ListErrorDetail("checking that the dead message queue of "+queue+" still exists", err))
			}
			return
		}
		_, listed := cur[dmq]
		planned := d.queuePlanned(dmq)
		d.links.mu.Lock()
		_, linked := d.links.planned[dmq]
		d.links.mu.Unlock()
		exists = listed || linked || planned
	}
	AppendFindings(diags, rules.CheckHeldDeadMessageQueue(queue, dmq, exists, writes, allowMissing))
}

// RecordDMQLink records dmq ("" for none) as what this run plans for queue, checking only that no
// plan of this run deletes dmq (PlanQueueDeletion). A plan that keeps a queue's dead message queue as
// the state holds it records the link this way: an unchanged link closes no new cycle (the queue
// whose link changes is checked against it), and a plan without refresh then needs no queue list.
func (d *ProviderData) RecordDMQLink(queue, dmq string, diags *diag.Diagnostics) {
	if d == nil || queue == "" {
		return
	}
	d.links.mu.Lock()
	defer d.links.mu.Unlock()
	if d.links.planned == nil {
		d.links.planned = map[string]string{}
	}
	d.links.planned[queue] = dmq
	if d.links.deleted[dmq] {
		AppendFindings(diags, rules.CheckDestroyedDeadMessageQueue(queue, dmq, true))
	}
}

// PlanQueueDeletion records at plan that this run deletes queue (a destroy, or a new name of its
// resource), and refuses the delete when a queue planned earlier in this run names it as its dead
// message queue (rules.CheckDestroyedDeadMessageQueue), or another resource planned earlier creates it
// (RefuseDeletedCreate refuses one planned later). A queue planned later is refused by
// CheckDMQLinks or RecordDMQLink, so the plan fails in whichever order Terraform plans the two, which
// nothing orders when the queue names the dead message queue by its text. The delete's own check at
// apply (eventmesh.Client.DeadMessageQueueUsers) may run before the other queue's write.
func (d *ProviderData) PlanQueueDeletion(queue string, diags *diag.Diagnostics) {
	if d == nil || queue == "" {
		return
	}
	d.links.mu.Lock()
	defer d.links.mu.Unlock()
	if d.links.deleted == nil {
		d.links.deleted = map[string]bool{}
	}
	d.links.deleted[queue] = true
	if created := d.createdInRun(ServiceEventMesh, QueueClaimKey(queue)); created != "" {
		addDestroyedAndCreated(diags, queue, created)
	}
	refuseNamedDeletion(queue, d.links.planned, d.links.deleted, diags)
}

// refuseNamedDeletion refuses the delete of queue that this run plans when a queue of the run's planned
// links (queue → dead message queue) names it and is not deleted itself, in name order.
func refuseNamedDeletion(queue string, links map[string]string, deleted map[string]bool, diags *diag.Diagnostics) {
	var users []string
	for q, dmq := range links {
		if dmq == queue && !deleted[q] {
			users = append(users, q)
		}
	}
	slices.Sort(users)
	for _, q := range users {
		AppendFindings(diags, rules.CheckDestroyedDeadMessageQueue(q, queue, false))
	}
}

// EventMeshQueueExistsOrPlanned reports whether the Event Mesh queue name is planned in this run (claimed by a
// queue resource planned before, owners.go) or exists, from the run's first queue list and this provider's own
// writes since (eventmesh.Client.QueueExists): one GET /queues per run, shared with the refresh and the checks
// of the queue resources.
func (d *ProviderData) EventMeshQueueExistsOrPlanned(ctx context.Context, name string) (bool, error) {
	if d.queuePlanned(name) {
		return true, nil
	}
	return d.EventMesh.QueueExists(ctx, name)
}

// queuePlanned reports whether a queue resource planned earlier in this run creates or holds the
// queue name (owners.go).
func (d *ProviderData) queuePlanned(name string) bool {
	instance := d.instanceKey(ServiceEventMesh)
	if instance == "" {
		return false
	}
	d.Owners.mu.Lock()
	defer d.Owners.mu.Unlock()
	_, ok := d.Owners.Planned[instance+"\x00queue|"+name]
	return ok
}

// RefuseDeletedCreate refuses, at the plan of a create of the Event Mesh queue name, a queue that a plan of
// this run deletes with another resource (PlanQueueDeletion): nothing orders the two.
func (d *ProviderData) RefuseDeletedCreate(name, typeName string, diags *diag.Diagnostics) {
	if d == nil {
		return
	}
	d.links.mu.Lock()
	deleted := d.links.deleted[name]
	d.links.mu.Unlock()
	if deleted {
		addDestroyedAndCreated(diags, name, typeName)
	}
}

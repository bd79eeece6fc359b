package framework

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ resource.Resource                = (*SubscriptionResource[struct{}])(nil)
	_ resource.ResourceWithConfigure   = (*SubscriptionResource[struct{}])(nil)
	_ resource.ResourceWithImportState = (*SubscriptionResource[struct{}])(nil)
	_ resource.ResourceWithModifyPlan  = (*SubscriptionResource[struct{}])(nil)
	_ resource.ResourceWithIdentity    = (*SubscriptionResource[struct{}])(nil)
)

// SubscriptionResource is the one implementation of the topic subscription resources of both brokers
// (sapmessaging_queue_subscription, sapmessaging_aem_queue_subscription): a queue's subscription to a
// topic, which is created, read and deleted and never updated, since both arguments replace it. Its ID joins
// the queue name and the topic with the identity's separator (a comma when it has none). The plan requires
// the broker's connection and claims the subscription for this run (owners.go); Read removes a subscription
// that is gone, and Delete takes one that is gone as deleted.
//
// The broker configures the schema (of the model M, whose topic attribute is TopicAttr), the identity, the
// connection, the client's calls and the diagnostics of their errors, and what it adds: the checks of the queue
// at plan (PlanQueue), the time limits (Timeouts), what a read adds before the lookup (PrepareRead) and the
// forms of the import ID (ImportNames).
type SubscriptionResource[M any] struct {
	TypeSuffix string
	// ResourceSchema is the resource's schema.
	ResourceSchema func(ctx context.Context) schema.Schema
	// Identity is the resource's identity; its separator joins the parts of the ID.
	Identity *ResourceIdentity
	// TopicAttr is the topic's attribute; the queue's is queue_name.
	TopicAttr string
	// Need is the connection the plan requires (RequireAtPlan); Connected reports it missing at apply.
	Need      ConnectionNeed
	Connected func(d *ProviderData, diags *diag.Diagnostics) bool

	// Names returns the queue name and the topic of m; SetID sets its ID. Created, when set, records what
	// the connection adds to a subscription just created.
	Names   func(m *M) (queue, topic string)
	SetID   func(m *M, id string)
	Created func(d *ProviderData, m *M)
	// Owned is the object that a plan of queue and topic claims (InState is set here).
	Owned func(queue, topic string) OwnedObject
	// QueueKey is the object key under which the queue resources claim queue (QueueClaimKey,
	// AEMQueueClaimKey): a subscription whose queue this run replaces under the same name is replaced
	// with it (ReplacedInRun).
	QueueKey func(queue string) string
	// PlanQueue, when set, checks the queue of a planned subscription after its claim.
	PlanQueue func(ctx context.Context, d *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, queue string)
	// Timeouts, when set, returns the time limits of m; DefaultTimeout bounds what they leave unset.
	Timeouts       func(m *M) timeouts.Value
	DefaultTimeout time.Duration
	// PrepareRead, when set, completes the state read before the lookup (and sets the identity from it);
	// false stops the read. Without it, the identity is set from the prior state.
	PrepareRead func(ctx context.Context, d *ProviderData, m *M, resp *resource.ReadResponse) bool

	// Subscribe creates the subscription; Subscribed reports whether the queue holds it; Unsubscribe deletes
	// it. An error for which NotFound is true says the subscription or its queue does not exist.
	Subscribe   func(ctx context.Context, d *ProviderData, queue, topic string) error
	Subscribed  func(ctx context.Context, d *ProviderData, queue, topic string) (bool, error)
	Unsubscribe func(ctx context.Context, d *ProviderData, queue, topic string) error
	NotFound    func(err error) bool
	// Failed reports the error of Subscribe (SubscriptionCreate), Subscribed (SubscriptionRead) or Unsubscribe
	// (SubscriptionDelete).
	Failed func(op SubscriptionOp, queue, topic string, err error, diags *diag.Diagnostics)
	// ImportNames reads the import ID or the import identity: the queue name and the topic, or false after an
	// error. It may set further attributes of resp.State.
	ImportNames func(ctx context.Context, d *ProviderData, req resource.ImportStateRequest, resp *resource.ImportStateResponse) (queue, topic string, ok bool)

	data *ProviderData
}

// SubscriptionOp is the operation of a subscription resource whose call failed (SubscriptionResource.Failed).
type SubscriptionOp uint8

const (
	SubscriptionCreate SubscriptionOp = iota
	SubscriptionRead
	SubscriptionDelete
)

// Data is the provider data the resource was configured with (nil before Configure).
func (r *SubscriptionResource[M]) Data() *ProviderData { return r.data }

// ID is the ID of the subscription of queue to topic.
func (r *SubscriptionResource[M]) ID(queue, topic string) string {
	sep := r.Identity.Sep
	if sep == "" {
		sep = ","
	}
	return queue + sep + topic
}

func (r *SubscriptionResource[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.TypeSuffix
}

func (r *SubscriptionResource[M]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.ResourceSchema(ctx)
}

func (r *SubscriptionResource[M]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = r.Identity.Schema()
}

func (r *SubscriptionResource[M]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan requires the broker's connection and proves its credentials at plan, so that a plan without
// them fails instead of the apply, and refuses a subscription that another resource of this run manages too
// (see owners): a second resource on one queue and topic, for example one generated again by a later
// terraform query, would record the subscription the first one owns, and destroying either unsubscribes both.
func (r *SubscriptionResource[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.RequireAtPlan(ctx, &resp.Diagnostics, r.Need) || req.Plan.Raw.IsNull() {
		return
	}
	var queue, topic types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("queue_name"), &queue)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(r.TopicAttr), &topic)...)
	if resp.Diagnostics.HasError() || queue.IsUnknown() || topic.IsUnknown() {
		return
	}
	q, t := queue.ValueString(), topic.ValueString()
	owned := r.Owned(q, t)
	owned.InState = !req.State.Raw.IsNull()
	if conflict := r.data.ClaimObject(ctx, owned, req, resp); conflict != "" {
		resp.Diagnostics.AddAttributeError(path.Root(r.TopicAttr), "Subscription Managed Twice", conflict+
			" Remove one of the two resources. When both come from generated configuration (terraform query -generate-config-out) "+
			"or import blocks, import the subscription only once: delete the second resource block with its import block.")
		return
	}
	if owned.InState && r.QueueKey != nil && SubscriptionQueueKept(ctx, req, q, &resp.Diagnostics) && r.data.ReplacedInRun(owned.Service, r.QueueKey(q)) {
		// The broker deletes a queue's subscriptions with the queue: left alone, this one would be in the
		// state and on no queue after the apply. An update in place, which Terraform applies after the
		// queue's create, subscribes the queue again (Update). It is not replaced: a replacement would
		// delete it before the queue, also when the queue's create comes first (create_before_destroy)
		// and fails on the queue it finds. The id, the same after the apply, is unknown until then.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringUnknown())...)
	}
	if r.PlanQueue != nil {
		r.PlanQueue(ctx, r.data, req, resp, q)
	}
}

// limit bounds ctx by the time limit of m that limit reads (Timeouts), when the resource has them.
func (r *SubscriptionResource[M]) limit(ctx context.Context, m *M, limit func(timeouts.Value, context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	diags *diag.Diagnostics) (context.Context, context.CancelFunc, bool) {
	if r.Timeouts == nil {
		return ctx, func() {}, true
	}
	timeout, d := limit(r.Timeouts(m), ctx, r.DefaultTimeout)
	diags.Append(d...)
	if diags.HasError() {
		return ctx, nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	return ctx, cancel, true
}

func (r *SubscriptionResource[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.Identity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan M
	resp.Diagnostics.Append(GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !r.Connected(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel, ok := r.limit(ctx, &plan, timeouts.Value.Create, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	queue, topic := r.Names(&plan)
	if err := r.Subscribe(ctx, r.data, queue, topic); err != nil {
		r.Failed(SubscriptionCreate, queue, topic, err, &resp.Diagnostics)
		return
	}
	r.SetID(&plan, r.ID(queue, topic))
	if r.Created != nil {
		r.Created(r.data, &plan)
	}
	resp.Diagnostics.Append(SetState(ctx, &resp.State, &plan)...)
}

func (r *SubscriptionResource[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state M
	resp.Diagnostics.Append(GetState(ctx, req.State, &state)...)
	connected := !resp.Diagnostics.HasError() && r.Connected(r.data, &resp.Diagnostics)
	if !connected || r.PrepareRead == nil {
		r.Identity.Set(ctx, &req.State, resp.Identity, &resp.Diagnostics) // identity.go: also when the subscription is gone
	}
	if !connected || r.PrepareRead != nil && !r.PrepareRead(ctx, r.data, &state, resp) {
		return
	}
	ctx, cancel, ok := r.limit(ctx, &state, timeouts.Value.Read, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	queue, topic := r.Names(&state)
	found, err := r.Subscribed(ctx, r.data, queue, topic)
	switch {
	case err != nil && r.NotFound(err), err == nil && !found:
		resp.State.RemoveResource(ctx) // the subscription or its queue is gone: the plan creates it again
	case err != nil:
		r.Failed(SubscriptionRead, queue, topic, err, &resp.Diagnostics)
	default:
		r.SetID(&state, r.ID(queue, topic))
		resp.Diagnostics.Append(SetState(ctx, &resp.State, &state)...)
	}
}

// Update changes at most the time limits: every other argument replaces the subscription.
// Update subscribes the queue again when the subscription is missing, then writes the plan to the state.
// An update follows a queue replaced under the same name in this run (ModifyPlan plans the id unknown): the
// broker deleted the subscription with the old queue. The apply's final plan, in another provider process,
// may plan the id known again, so the update looks whatever the plan holds: one read, in an update that
// otherwise changes only the time limits.
func (r *SubscriptionResource[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.Identity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan M
	resp.Diagnostics.Append(GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !r.Connected(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel, ok := r.limit(ctx, &plan, timeouts.Value.Update, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	queue, topic := r.Names(&plan)
	found, err := r.Subscribed(ctx, r.data, queue, topic)
	if err == nil && !found || err != nil && r.NotFound(err) {
		err = r.Subscribe(ctx, r.data, queue, topic) // a missing queue fails here, with the create's words
	}
	if err != nil {
		r.Failed(SubscriptionCreate, queue, topic, err, &resp.Diagnostics)
		return
	}
	r.SetID(&plan, r.ID(queue, topic))
	resp.Diagnostics.Append(SetState(ctx, &resp.State, &plan)...)
}

func (r *SubscriptionResource[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.Connected(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel, ok := r.limit(ctx, &state, timeouts.Value.Delete, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	queue, topic := r.Names(&state)
	if err := r.Unsubscribe(ctx, r.data, queue, topic); err != nil && !r.NotFound(err) {
		r.Failed(SubscriptionDelete, queue, topic, err, &resp.Diagnostics)
	}
}

func (r *SubscriptionResource[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	queue, topic, ok := r.ImportNames(ctx, r.data, req, resp)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), r.ID(queue, topic))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("queue_name"), queue)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.TopicAttr), topic)...)
}

// SubscriptionQueueKept reports whether the plan of a topic subscription keeps the queue q of its prior
// state (or a read of it failed, in diags): the plan-time check that the subscription's queue exists then
// has nothing to check, since it ran when the subscription was planned.
func SubscriptionQueueKept(ctx context.Context, req resource.ModifyPlanRequest, q string, diags *diag.Diagnostics) bool {
	if req.State.Raw.IsNull() {
		return false
	}
	var priorQueue types.String
	diags.Append(req.State.GetAttribute(ctx, path.Root("queue_name"), &priorQueue)...)
	return diags.HasError() || !priorQueue.IsNull() && priorQueue.ValueString() == q
}

package eventmesh

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// putQueue creates or updates a queue. It returns what the answer says about the queue before
// the write (eventmesh.PutResult). On failure it adds an error and returns the queue as the
// service now holds it (nil when it does not exist or cannot be read), so that the caller can keep
// state true, and whether the failed write may have changed the service while the queue could not
// be read back (the outcome is unknown).
// When the write may have reached the service but got no answer, and the queue now holds the
// settings written, the service did carry the PUT out and only its answer was lost: PUT is
// idempotent, so the queue is adopted without an error.
func putQueue(ctx context.Context, c *eventmesh.Client, name string, s eventmesh.QueueSettings, diags *diag.Diagnostics) (q *eventmesh.Queue, res eventmesh.PutResult, unknown bool, err error) {
	q, res, err = c.PutQueue(ctx, name, s)
	if err == nil {
		if !framework.LogsOff.Load() { // once per queue of an apply: no fields for a line that is discarded
			tflog.Debug(ctx, "queue written", map[string]any{"queue": name, "created": res.Created, "existed": res.Existed})
		}
		return q, res, false, nil
	}
	written := eventmesh.MayHaveWritten(err)
	var current *eventmesh.Queue
	getErr := ctx.Err() // after a cancellation there is no read back: the next refresh reads the queue
	if getErr == nil {
		current, getErr = c.GetQueue(ctx, name)
	}
	if getErr == nil && written && HoldsSettings(current, s) {
		tflog.Warn(ctx, "the queue write got no answer, but the queue holds the settings written; adopting it",
			map[string]any{"queue": name, "error": err.Error()})
		return current, res, false, nil
	}
	switch {
	case getErr == nil:
		addWriteError(ctx, c, name, s, err, diags)
		return current, res, false, err
	case errors.Is(getErr, eventmesh.ErrNotFound) || !written:
		addWriteError(ctx, c, name, s, err, diags)
		return nil, res, false, err
	}
	return nil, res, true, err
}

// queueFromSettings is the queue a PUT of s creates, as far as s tells.
func queueFromSettings(name string, s eventmesh.QueueSettings) *eventmesh.Queue {
	return &eventmesh.Queue{Name: name, QueueSettings: s}
}

// mayExistDetail explains a create whose outcome is unknown.
func mayExistDetail(typeName, name string, err error) string {
	return fmt.Sprintf("The request that creates the queue %q was sent, but the outcome is unknown (%s), and the queue could not "+
		"be read back, so the queue may or may not exist now. So that no queue is left behind that no state knows of, Terraform "+
		"records it as tainted. The next terraform apply reads the queue: if it does not exist, the apply creates it; if it exists, "+
		"the apply replaces it (the queue, still empty, is deleted and created again with the configured settings; a queue that "+
		"received messages meanwhile is not deleted, and the error then says how to keep it). Run terraform apply again once the "+
		"service is reachable; to keep the queue as it is instead, run terraform untaint on the %s resource first.",
		name, framework.Clause(err), typeName)
}

// alreadyExistsDetail explains a create refused because the queue exists, with the import block that adopts it.
func alreadyExistsDetail(typeName, name string) string {
	return fmt.Sprintf("A queue named %q already exists on the Event Mesh instance - to be managed via Terraform this resource "+
		"needs to be imported into the State. It was created outside this configuration (in the cockpit, by another tool, or by "+
		"another Terraform state), and creating it here would overwrite its settings, so nothing was changed. To adopt it, add "+
		"an import block and run terraform plan to review the settings the apply would change:\n\n", name) +
		framework.ImportBlock(typeName, name) +
		fmt.Sprintf("or run terraform import %s.<resource name> %q. If another state manages the queue, give this one another name instead. "+
			"If this resource is tainted and declared with `create_before_destroy`, the queue is its own tainted one: run terraform "+
			"untaint on the resource and apply again.", typeName, name)
}

// existedAtCreateDetail explains a create whose PUT the management API answered with 200 (the
// queue was replaced) instead of 201 (created), while no earlier write of this run may have made it.
func existedAtCreateDetail(typeName, name string) string {
	return fmt.Sprintf("A queue named %q already existed when this apply created it: the Event Mesh management API answered the "+
		"create with 200 (an existing queue was replaced), not 201 (created). It was made outside this configuration after this "+
		"run checked that the name was free (in the cockpit, by another tool, or by another Terraform state). A PUT replaces all "+
		"settings of a queue and the API offers no create that fails on an existing queue, so the queue now holds the settings "+
		"of this resource; it is not recorded in this state. If the queue is this configuration's to manage, import it:\n\n", name) +
		framework.ImportBlock(typeName, name) +
		"Otherwise restore its settings where it is managed and give this resource another name."
}

// repeatedCreateDetail explains a create whose first request got no answer or a server error and
// whose repeat found the queue existing.
func repeatedCreateDetail(name string) string {
	return fmt.Sprintf("The request that creates the queue %q got no answer or a server error and was repeated, and the repeat "+
		"found the queue existing (the management API answered 200, not 201). The first request most likely created it, so "+
		"the queue is recorded in the state with the configured settings; a queue of this name made elsewhere at the same "+
		"moment would have had its settings replaced, and the answer cannot tell the two apart. Check with the owners of the "+
		"namespace that %q is this configuration's queue; if it is not, run terraform state rm on this resource and give it "+
		"another name.", name, name)
}

// addWriteError reports a failed queue write: a refusal because the dead message queue does not
// exist names that queue and how to create it first; any other failure says what went wrong.
func addWriteError(ctx context.Context, c *eventmesh.Client, name string, s eventmesh.QueueSettings, err error, diags *diag.Diagnostics) {
	if dmq := missingDeadMessageQueue(ctx, c, s, err); dmq != "" {
		diags.AddAttributeError(path.Root("dead_message_queue"), "Dead Message Queue Does Not Exist",
			fmt.Sprintf("Event Mesh refused queue %q because its dead message queue %q does not exist (%s). "+
				"A queue must exist before another queue names it as its dead message queue. Create %q first: declare it as a "+
				"`sapmessaging_dead_message_queue` resource and set `dead_message_queue` to its name attribute (for example "+
				"`sapmessaging_dead_message_queue.dmq.name`), so that Terraform creates it before this queue.", name, dmq, framework.Clause(err), dmq))
		return
	}
	diags.AddError("Cannot Write Queue", queueErrorDetail(name, err))
}

// missingDeadMessageQueue returns the dead message queue that s names when the service
// refused the write (an API error, not a transport failure) and that queue does not exist;
// otherwise "". SAP documents that a dead message queue must exist first, but not the
// error the management API answers with, so the queue is looked up instead of the
// error text being parsed.
func missingDeadMessageQueue(ctx context.Context, c *eventmesh.Client, s eventmesh.QueueSettings, err error) string {
	var apiErr *httpx.APIError
	if s.DeadMsgQueue == nil || *s.DeadMsgQueue == "" || !errors.As(err, &apiErr) || apiErr.StatusCode >= 500 {
		return ""
	}
	if _, getErr := c.GetQueue(ctx, *s.DeadMsgQueue); errors.Is(getErr, eventmesh.ErrNotFound) {
		return *s.DeadMsgQueue
	}
	return ""
}

// HoldsSettings reports whether q holds every setting of s. A dead message queue or time to
// live that s leaves out must be unset in q, since a PUT replaces all settings.
func HoldsSettings(q *eventmesh.Queue, s eventmesh.QueueSettings) bool {
	if !sameOrUnset(s.DeadMsgQueue, q.DeadMsgQueue, "") || !sameOrUnset(s.MaxTTL, q.MaxTTL, 0) {
		return false
	}
	return sameIfSet(s.AccessType, q.AccessType) &&
		sameIfSet(s.MaxQueueSizeInBytes, q.MaxQueueSizeInBytes) &&
		sameIfSet(s.MaxMessageSizeInBytes, q.MaxMessageSizeInBytes) &&
		sameIfSet(s.MaxQueueMessageCount, q.MaxQueueMessageCount) &&
		sameIfSet(s.MaxDeliveredUnackedMsgsPerFlow, q.MaxDeliveredUnackedMsgsPerFlow) &&
		sameIfSet(s.MaxRedeliveryCount, q.MaxRedeliveryCount) &&
		sameIfSet(s.RespectTTL, q.RespectTTL)
}

// sameIfSet reports whether have equals want, or want is not set.
func sameIfSet[T comparable](want, have *T) bool {
	return want == nil || (have != nil && *have == *want)
}

// sameOrUnset reports whether have equals want; with want not set, have must be unset or zero.
func sameOrUnset[T comparable](want, have *T, zero T) bool {
	if want == nil {
		return have == nil || *have == zero
	}
	return have != nil && *have == *want
}

// deleteQueue deletes a queue unless it holds messages and force is false, or another queue still
// names it as its dead message queue. Whether another queue names it comes from the run's first
// queue list and this provider's own writes since (eventmesh.Client.DeadMessageQueueUsers), as the
// existence check before a create does, not from a list of every queue per queue. Any queue can be
// a dead message queue (Event Mesh takes the name of any existing queue), so the guard covers
// sapmessaging_queue as well as sapmessaging_dead_message_queue, with or without force.
//
// Without force the message count is read fresh, with a GET of the queue right before the DELETE:
// a destroy of N queues costs one GET /queues, N GETs and N DELETEs per instance. With force the
// user has said the messages may be discarded, so the count is not read and the DELETE is sent
// directly: one GET /queues and N DELETEs. (A queue that another queue still names is read in
// both cases, so that one deleted meanwhile is gone rather than refused.) Either way a queue found
// gone (404 on the GET or the DELETE) is no error.
func deleteQueue(ctx context.Context, c *eventmesh.Client, name string, force bool, diags *diag.Diagnostics) {
	users, err := c.DeadMessageQueueUsers(ctx, name)
	if err != nil {
		diags.AddError("Cannot List Queues Before Deleting", framework.ListErrorDetail(
			fmt.Sprintf("checking whether the queue %q is another queue's dead message queue", name), err))
		return
	}
	// Without force the message count is read fresh. With force it is not needed, but a queue
	// that others still name is read too: if it is gone already, there is nothing to refuse.
	if !force || len(users) > 0 {
		q, err := c.GetQueue(ctx, name)
		if errors.Is(err, eventmesh.ErrNotFound) {
			return
		}
		if err != nil {
			diags.AddError("Cannot Read Queue Before Deleting", queueErrorDetail(name, err))
			return
		}
		if held, unacked := heldMessages(q); held > 0 && !force {
			diags.AddError("Queue Holds Messages",
				fmt.Sprintf("The queue %q holds %d message(s), %d of them delivered and not yet acknowledged. Deleting it would discard them, so it was not deleted. "+
					"If Terraform replaces the queue because it is tainted (an earlier apply was interrupted while creating it, and the "+
					"messages arrived since), run terraform untaint on this resource and apply again: the apply then updates the queue in "+
					"place and keeps the messages. Otherwise consume or move the messages first, or set `force_destroy = true` and apply it "+
					"before destroying the queue.",
					name, held, unacked))
			return
		}
	}
	if len(users) > 0 {
		diags.AddError("Dead Message Queue Still In Use",
			fmt.Sprintf("The queue %q is still named as `dead_message_queue` by %s. Deleting it would make their dead messages "+
				"disappear, so it was not deleted. Point those queues at another dead message queue, or remove the setting, before destroying this one. "+
				"When one apply both removes the setting and destroys this queue, Terraform destroys the dead message queue first: "+
				"apply the change of the queues alone first (terraform apply -target=<queue address>), and declare dead message queues "+
				"with `lifecycle { create_before_destroy = true }` so that one apply does both in the safe order.",
				name, strings.Join(users, ", ")))
		return
	}
	if err := c.DeleteQueue(ctx, name); err != nil && !errors.Is(err, eventmesh.ErrNotFound) {
		diags.AddError("Cannot Delete Queue", queueErrorDetail(name, err))
	}
}

// heldMessages returns how many messages q holds and how many of them are delivered but not yet
// acknowledged. messageCount is the number of messages in the queue; a message delivered with
// QoS 1 stays in the queue until it is acknowledged, so unacknowledgedMessageCount counts a part
// of messageCount, not an addition to it (the management API lists both as read-only counters of
// the queue, see the reference notes on the Event Mesh management API, and the emulator counts them so). The larger
// of the two stands for the total in case a service reports them apart.
func heldMessages(q *eventmesh.Queue) (held, unacked int64) {
	unacked = framework.Deref(q.UnacknowledgedMessageCount)
	return max(framework.Deref(q.MessageCount), unacked), unacked
}

func queueErrorDetail(name string, err error) string {
	return fmt.Sprintf("The Event Mesh management API failed for queue %q: %s. Check the provider's connection and "+
		"the service's status, then run the command again; TF_LOG=debug shows each request.", name, framework.Clause(err))
}

// queueModelPtr is a pointer to a resource model that maps onto an Event Mesh queue. The model is
// comparable (primitive attribute values only): a refresh and an update compare what the service holds
// with what the state or the plan held, and the plan whether it writes the queue.
type queueModelPtr[M comparable] interface {
	*M
	settings() eventmesh.QueueSettings
	// settingsModel is the part of the model that Event Mesh holds (queueResourceModel): a plan that
	// leaves it as the state holds it writes nothing.
	settingsModel() queueSettingsModel
	fromAPI(q *eventmesh.Queue)
	queueName() string
	forceDestroy() bool
	// configRules is the configured queue as the rules read it at validation.
	configRules() rules.Queue
	// planQueue is the resource's own plan (ModifyPlan), given the planned model.
	planQueue(ctx context.Context, d *framework.ProviderData, typeName string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
}

var (
	_ resource.Resource                   = (*queueResourceBase[QueueModel, *QueueModel])(nil)
	_ resource.ResourceWithConfigure      = (*queueResourceBase[QueueModel, *QueueModel])(nil)
	_ resource.ResourceWithImportState    = (*queueResourceBase[QueueModel, *QueueModel])(nil)
	_ resource.ResourceWithValidateConfig = (*queueResourceBase[QueueModel, *QueueModel])(nil)
	_ resource.ResourceWithModifyPlan     = (*queueResourceBase[QueueModel, *QueueModel])(nil)
)

// queueResourceBase is sapmessaging_queue and sapmessaging_dead_message_queue: M is the resource's model,
// which maps onto an Event Mesh queue and holds what the two differ in (the rules of the configuration and
// the plan); schema is the resource's schema.
type queueResourceBase[M comparable, P queueModelPtr[M]] struct {
	typeName string
	schema   func() schema.Schema
	data     *framework.ProviderData
}

func (r *queueResourceBase[M, P]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(r.typeName, "sapmessaging")
}

func (r *queueResourceBase[M, P]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema()
}

func (r *queueResourceBase[M, P]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *queueResourceBase[M, P]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m M
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.AppendFindings(&resp.Diagnostics, rules.CheckQueue(P(&m).configRules()))
}

// ModifyPlan requires the Event Mesh connection and proves its credentials at plan, refuses the destroy
// or replacement of a queue that holds messages (refuseHeldAtPlan), then plans the queue as its resource
// does (planQueue).
func (r *queueResourceBase[M, P]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedEventMesh) {
		return
	}
	deleted := framework.DeletedName(ctx, req, &resp.Diagnostics)
	if deleted != "" {
		// A queue of this plan may name it as dead message queue, or another resource create it.
		r.data.PlanQueueDeletion(deleted, &resp.Diagnostics)
		refuseHeldAtPlan(ctx, r.data, req, deleted, &resp.Diagnostics)
	}
	if req.Plan.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}
	var plan M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if name := P(&plan).queueName(); name != "" && (req.State.Raw.IsNull() || deleted != "") {
		r.data.RefuseDeletedCreate(name, r.typeName, &resp.Diagnostics) // another resource of this plan deletes it
	}
	P(&plan).planQueue(ctx, r.data, r.typeName, req, resp)
	if req.State.Raw.IsNull() && !resp.Diagnostics.HasError() {
		refuseHeldReplacement(ctx, r.data, P(&plan).queueName(), P(&plan).forceDestroy(), req, &resp.Diagnostics) // queue_held_messages.go
	}
}

// priorState reads the prior state of a plan, the zero model when there is none; false after an error.
func priorState[M any](ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) (state M, ok bool) {
	if !req.State.Raw.IsNull() {
		diags.Append(framework.GetState(ctx, req.State, &state)...)
	}
	return state, !diags.HasError()
}

func (r *queueResourceBase[M, P]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer QueueIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	createQueueResource[M, P](ctx, r.data, r.typeName, req, resp)
}

func (r *queueResourceBase[M, P]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	QueueIdentity.Set(ctx, &req.State, resp.Identity, &resp.Diagnostics) // identity.go: first, also when the queue is gone
	readQueueResource[M, P](ctx, r.data, req, resp)
}

func (r *queueResourceBase[M, P]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer QueueIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	updateQueueResource[M, P](ctx, r.data, req, resp)
}

func (r *queueResourceBase[M, P]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteQueueResource[M, P](ctx, r.data, req, resp)
}

func (r *queueResourceBase[M, P]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !QueueIdentity.ResolveImport(&req, resp) { // identity.go
		return
	}
	importQueueByName(ctx, req, resp)
}

func createQueueResource[M comparable, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, typeName string, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !d.EventMeshOrError(&resp.Diagnostics) {
		return
	}
	p := P(&plan)
	name, settings := p.queueName(), p.settings()
	// One create per queue name and run: a second resource naming the queue writes nothing.
	if !d.ReserveQueueCreate(typeName, name, &resp.Diagnostics) {
		return
	}
	// Before the first write: a queue that exists belongs to someone else and is imported, not
	// overwritten. The check reads the run's queue list, so many creates cost one list call.
	exists, err := d.EventMesh.QueueExists(ctx, name)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Check Whether Queue Exists", fmt.Sprintf(
			"Before creating the queue %q, the provider reads whether it already exists, so that it never overwrites a queue "+
				"this configuration does not own; that read failed: %s. Nothing was written. Check the provider's connection and "+
				"the service's status, then run terraform apply again.", name, framework.Clause(err)))
		return
	}
	if exists {
		resp.Diagnostics.AddError("Queue Already Exists", alreadyExistsDetail(typeName, name))
		return
	}
	if !d.CheckDMQLinks(ctx, name, framework.Deref(settings.DeadMsgQueue), false, &resp.Diagnostics) {
		return
	}
	// On failure putQueue reports the error and returns the queue only if the service holds it,
	// so the state records exactly what exists.
	q, res, unknown, err := putQueue(ctx, d.EventMesh, name, settings, &resp.Diagnostics)
	switch {
	case res.Existed:
		// The management API answered 200 (replaced), not 201 (created): the queue was made
		// outside this configuration after the existence check. It is not adopted.
		resp.Diagnostics.AddError("Queue Already Exists", existedAtCreateDetail(typeName, name))
		return
	case res.OwnEarlierWrite && q != nil:
		resp.Diagnostics.AddWarning("Queue Create Was Repeated", repeatedCreateDetail(name))
	}
	switch {
	case q != nil:
		p.fromAPI(q)
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
	case unknown:
		// The queue may exist: record it with the error, so that Terraform taints it and the next
		// apply reads and replaces it instead of leaving it behind unknown to any state.
		resp.Diagnostics.AddError("Queue May Exist", mayExistDetail(typeName, name, err))
		p.fromAPI(queueFromSettings(name, settings))
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
	}
}

// connectedState reads the state of a queue resource and requires the Event Mesh connection; false after an error.
func connectedState[M comparable, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, st tfsdk.State, diags *diag.Diagnostics) (P, bool) {
	var state M
	diags.Append(framework.GetState(ctx, st, &state)...)
	if diags.HasError() || !d.EventMeshOrError(diags) {
		return nil, false
	}
	return P(&state), true
}

func readQueueResource[M comparable, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, req resource.ReadRequest, resp *resource.ReadResponse) {
	p, ok := connectedState[M, P](ctx, d, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	before := *p
	q, err := d.EventMesh.CachedGetQueue(ctx, p.queueName())
	if errors.Is(err, eventmesh.ErrNotFound) {
		tflog.Info(ctx, "queue no longer exists; removing it from state", map[string]any{"queue": p.queueName()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Queue", queueErrorDetail(p.queueName(), err))
		return
	}
	if r, ok := any(p).(missingDMQReader); ok {
		r.readMissingDMQ(q, func(name string) bool {
			exists, err := d.EventMesh.QueueExists(ctx, name) // the run's queue list: no call of its own
			return exists || err != nil
		})
	}
	p.fromAPI(q)
	if *p != before {
		// The response starts as the current state: a queue without drift, the common refresh, is
		// not encoded again.
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, p)...)
	}
	if resp.Private != nil {
		dropHeldRecord(ctx, resp.Private, &resp.Diagnostics) // queue_held_messages.go
	}
	// A tainted queue is planned as a create next, in this process (refuseHeldReplacement).
	d.NoteStateRead(framework.ServiceEventMesh, framework.QueueClaimKey(p.queueName()), !p.forceDestroy())
}

func updateQueueResource[M comparable, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !d.EventMeshOrError(&resp.Diagnostics) {
		return
	}
	pp, planned := P(&plan), plan
	if !d.CheckDMQLinks(ctx, pp.queueName(), framework.Deref(pp.settings().DeadMsgQueue), false, &resp.Diagnostics) {
		return
	}
	if resp.Private != nil {
		// The plan's claim of the queue name means nothing beyond this run.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, framework.OwnerClaimKey, nil)...)
	}
	// The run's first queue list is taken before its first write (one list per provider process,
	// shared with the checks above), so that an AMQP sender of this apply that takes R from this
	// queue sees the R its plan showed, not the one this write sets. A failed list changes nothing here.
	_, _ = d.EventMesh.FirstSnapshot(ctx)
	var state M
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if pp.settingsModel() == P(&state).settingsModel() && req.Plan.Raw.IsFullyKnown() {
		// The plan changes no setting of the queue, only what the provider keeps (force_destroy, the
		// allow_* attributes): nothing is written, as the plan said (planQueue). Event Mesh refuses any
		// write of a queue whose dead message queue is missing, so this is also how such a queue takes
		// allow_missing_dead_message_queue.
		resp.State.Raw = req.Plan.Raw
		return
	}
	q, _, unknown, err := putQueue(ctx, d.EventMesh, pp.queueName(), pp.settings(), &resp.Diagnostics)
	if unknown {
		// The prior state stays: the next refresh reads which settings the queue holds.
		resp.Diagnostics.AddError("Cannot Write Queue", fmt.Sprintf("The update of the queue %q was sent, but the outcome is "+
			"unknown (%s), and the queue could not be read back: it holds either the old or the new settings. The state keeps the "+
			"old ones; the next plan reads the queue and shows what is left to change. Run terraform apply again once the service "+
			"is reachable.", pp.queueName(), framework.Clause(err)))
	}
	switch {
	case err == nil:
		pp.fromAPI(q)
		if plan == planned && req.Plan.Raw.IsFullyKnown() {
			// The service holds what the plan shows, the common update: the plan is the new state as it is.
			resp.State.Raw = req.Plan.Raw
			return
		}
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
	case q != nil:
		// The update failed: record what the service holds now, keeping force_destroy as it was.
		P(&state).fromAPI(q)
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
	}
}

func deleteQueueResource[M comparable, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	p, ok := connectedState[M, P](ctx, d, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	deleteQueue(ctx, d.EventMesh, p.queueName(), p.forceDestroy(), &resp.Diagnostics)
	if !resp.Diagnostics.HasError() {
		// A create of the name in this apply replaces the queue (ReplacedObject): its subscriptions follow.
		d.NoteDeleted(framework.ServiceEventMesh, framework.QueueClaimKey(p.queueName()))
	}
}

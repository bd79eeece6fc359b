package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// putQueue creates or updates a queue. On failure it adds an error and returns the queue as the
// service now holds it (nil when it does not exist), so that the caller can keep state true.
func putQueue(ctx context.Context, c *eventmesh.Client, name string, s eventmesh.QueueSettings, diags *diag.Diagnostics) (*eventmesh.Queue, error) {
	q, created, err := c.PutQueue(ctx, name, s)
	if err == nil {
		tflog.Debug(ctx, "queue written", map[string]any{"queue": name, "created": created})
		return q, nil
	}
	diags.AddError("Cannot Write Queue", queueErrorDetail(name, err))
	current, getErr := c.GetQueue(ctx, name)
	if getErr != nil {
		return nil, err
	}
	return current, err
}

// deleteQueue deletes a queue unless it holds messages and force is false. With dmq set it also
// refuses while another queue still names it as its dead message queue.
func deleteQueue(ctx context.Context, c *eventmesh.Client, name string, force, dmq bool, diags *diag.Diagnostics) {
	q, err := c.GetQueue(ctx, name)
	if errors.Is(err, eventmesh.ErrNotFound) {
		return
	}
	if err != nil {
		diags.AddError("Cannot Read Queue Before Deleting", queueErrorDetail(name, err))
		return
	}
	held := deref(q.MessageCount) + deref(q.UnacknowledgedMessageCount)
	if held > 0 && !force {
		diags.AddError("Queue Holds Messages",
			fmt.Sprintf("The queue %q holds %d message(s) (%d unacknowledged). Deleting it would discard them, so it was not deleted. "+
				"Consume or move the messages first, or set force_destroy = true and apply it before destroying the queue.",
				name, held, deref(q.UnacknowledgedMessageCount)))
		return
	}
	if dmq {
		all, err := c.ListQueues(ctx)
		if err != nil {
			diags.AddError("Cannot List Queues Before Deleting", queueErrorDetail(name, err))
			return
		}
		var users []string
		for _, other := range all {
			if other.Name != name && other.DeadMsgQueue != nil && *other.DeadMsgQueue == name {
				users = append(users, other.Name)
			}
		}
		if len(users) > 0 {
			diags.AddError("Dead Message Queue Still In Use",
				fmt.Sprintf("The dead message queue %q is still named as dead_message_queue by %s. Deleting it would make their dead messages "+
					"disappear. Point those queues at another dead message queue, or remove the setting, before destroying this one.",
					name, strings.Join(users, ", ")))
			return
		}
	}
	if err := c.DeleteQueue(ctx, name); err != nil && !errors.Is(err, eventmesh.ErrNotFound) {
		diags.AddError("Cannot Delete Queue", queueErrorDetail(name, err))
	}
}

func queueErrorDetail(name string, err error) string {
	return fmt.Sprintf("The Event Mesh management API failed for queue %q: %s. Check the provider's connection and "+
		"the service's status, then run the command again; TF_LOG=debug shows each request.", name, err)
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func int64Ptr(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	x := v.ValueInt64()
	return &x
}

func stringPtr(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	x := v.ValueString()
	return &x
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	x := v.ValueBool()
	return &x
}

func int64OrNull(p *int64) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*p)
}

func nonEmptyStringOrNull(p *string) types.String {
	if p == nil || *p == "" {
		return types.StringNull()
	}
	return types.StringValue(*p)
}

func stringOr(p *string, fallback string) types.String {
	if p == nil || *p == "" {
		return types.StringValue(fallback)
	}
	return types.StringValue(*p)
}

// queueModelPtr is a pointer to a resource model that maps onto an Event Mesh queue.
type queueModelPtr[M any] interface {
	*M
	settings() eventmesh.QueueSettings
	fromAPI(q *eventmesh.Queue)
	queueName() string
	forceDestroy() bool
}

func createQueueResource[M any, P queueModelPtr[M]](ctx context.Context, d *providerData, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !d.eventMeshOrError(&resp.Diagnostics) {
		return
	}
	// On failure putQueue reports the error and returns the queue only if the service holds it,
	// so the state records exactly what exists.
	p := P(&plan)
	if q, _ := putQueue(ctx, d.eventMesh, p.queueName(), p.settings(), &resp.Diagnostics); q != nil {
		p.fromAPI(q)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

func readQueueResource[M any, P queueModelPtr[M]](ctx context.Context, d *providerData, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !d.eventMeshOrError(&resp.Diagnostics) {
		return
	}
	p := P(&state)
	q, err := d.eventMesh.CachedGetQueue(ctx, p.queueName())
	if errors.Is(err, eventmesh.ErrNotFound) {
		tflog.Info(ctx, "queue no longer exists; removing it from state", map[string]any{"queue": p.queueName()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Queue", queueErrorDetail(p.queueName(), err))
		return
	}
	p.fromAPI(q)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func updateQueueResource[M any, P queueModelPtr[M]](ctx context.Context, d *providerData, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !d.eventMeshOrError(&resp.Diagnostics) {
		return
	}
	pp, sp := P(&plan), P(&state)
	q, err := putQueue(ctx, d.eventMesh, pp.queueName(), pp.settings(), &resp.Diagnostics)
	switch {
	case err == nil:
		pp.fromAPI(q)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	case q != nil:
		// The update failed: record what the service holds now, keeping force_destroy as it was.
		sp.fromAPI(q)
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	}
}

func deleteQueueResource[M any, P queueModelPtr[M]](ctx context.Context, d *providerData, dmq bool, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !d.eventMeshOrError(&resp.Diagnostics) {
		return
	}
	p := P(&state)
	deleteQueue(ctx, d.eventMesh, p.queueName(), p.forceDestroy(), dmq, &resp.Diagnostics)
}

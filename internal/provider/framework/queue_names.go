package framework

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// queueNames reserves queue names within the apply of one run of the provider. Event Mesh holds
// one queue per name, and a PUT of a name that exists replaces the queue's settings (the
// management API answers 200, not 201; see the reference notes on the Event Mesh management API,
// section 1), so two resources that name one queue would overwrite each other, both states would
// record the one queue, and destroying either would delete the queue the other uses.
// sapmessaging_queue and sapmessaging_dead_message_queue share the names: a dead message queue is
// an ordinary queue.
//
// The plan claims the name of every queue resource it plans (claimQueueName, see owners); the
// apply reserves the name again in Create, before the existence check, for names the plan did
// not know yet.
type queueNames struct {
	mu      sync.Mutex
	created map[string]string // by queue name: the type of the resource whose create took it
}

// ClaimQueueName claims name for the queue resource of type typeName being planned (inState:
// its state already holds the queue; guarded: without force_destroy, see OwnedObject.Guarded). It returns false when another resource of this run planned
// the name first and adds the error on the name. Without an Event Mesh connection it claims
// nothing (the apply reports the missing connection).
func (d *ProviderData) ClaimQueueName(ctx context.Context, typeName, name string, inState, guarded bool, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	return d.ClaimQueue(ctx, OwnedObject{
		Service: ServiceEventMesh, Key: QueueClaimKey(name), TypeName: typeName, InState: inState, Guarded: inState && guarded,
		Manage: fmt.Sprintf("name the queue %q", name),
		Why: "Event Mesh holds one queue per name, and writing it replaces all its settings, so the two would overwrite each " +
			"other's settings, both states would record the one queue, the plan would never settle, and destroying either " +
			"would delete the queue the other uses.",
		Match: fmt.Sprintf("name = %q", name),
	}, req, resp)
}

// QueueClaimKey is the object key of the Event Mesh queue name in the run's claims.
func QueueClaimKey(name string) string { return "queue|" + name }

// ClaimQueue claims the queue o names (its `name`) for the resource being planned; false, with the error on
// `name`, when another resource of this run claimed it first.
func (d *ProviderData) ClaimQueue(ctx context.Context, o OwnedObject, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	conflict := d.ClaimObject(ctx, o, req, resp)
	if conflict == "" {
		return true
	}
	resp.Diagnostics.AddAttributeError(path.Root("name"), "Duplicate Queue Name", conflict+
		" Give each resource its own queue name, or remove one of the two resources. When both come from generated configuration "+
		"(terraform query -generate-config-out) or import blocks, import the queue only once: delete the second resource block with its import block.")
	return false
}

// ReserveQueueCreate reserves name for the create of a queue resource of type typeName in this
// apply. It returns false when another resource's create in this run took the name first, and
// adds the error: nothing is written for this one.
func (d *ProviderData) ReserveQueueCreate(typeName, name string, diags *diag.Diagnostics) bool {
	d.names.mu.Lock()
	defer d.names.mu.Unlock()
	if d.names.created == nil {
		d.names.created = map[string]string{}
	}
	other, taken := d.names.created[name]
	if !taken {
		d.names.created[name] = typeName
		return true
	}
	diags.AddAttributeError(path.Root("name"), "Duplicate Queue Name", fmt.Sprintf(
		"Two resources of this configuration create the queue %q in this apply: this %s resource and a %s resource whose "+
			"create began first. Event Mesh holds one queue per name, and writing it replaces all its settings, so this "+
			"resource's create wrote nothing: the queue keeps what the other resource's create writes. Terraform does not tell a "+
			"provider the address of a resource, so the other one is named by its queue name only: it is the other resource "+
			"with name = %q. Give each resource its own queue name, or remove one of the two resources.",
		name, typeName, other, name))
	return false
}

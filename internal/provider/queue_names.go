package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// queueNames reserves queue names within one run of the provider, that is within one provider
// configuration and so one Event Mesh instance. Event Mesh holds one queue per name, and a PUT of
// a name that exists replaces the queue's settings (the management API answers 200, not 201; see
// the reference notes on the Event Mesh management API, section 1), so two resources that name one
// queue would overwrite each other, both states would record the one queue, and destroying either
// would delete the queue the other uses. sapmessaging_queue and sapmessaging_dead_message_queue
// share the names: a dead message queue is an ordinary queue.
//
// The plan reserves the name of every queue resource it plans (ModifyPlan), and the second
// resource to plan a name gets the error. Terraform plans a replaced resource twice, the second
// time without its prior state, and hands the private data of the first plan to the second
// (PriorPrivate), so the reservation's token travels in the plan's private data and the second
// plan of the same resource finds its own reservation. The token carries a random run identifier:
// a token of another run, kept in a state's private data, never matches. The apply reserves the
// name again in Create, before the existence check, for names the plan did not know yet.
type queueNames struct {
	mu      sync.Mutex
	run     string // random per provider run
	next    int
	planned map[string]queueClaim // by queue name
	created map[string]string     // by queue name: the type of the resource whose create took it
}

// queueClaim is a plan's reservation of a queue name.
type queueClaim struct {
	token    string
	typeName string
	// inState is set when the resource already holds the queue in its state (an update or no
	// change), unset when it plans to create it.
	inState bool
}

// queueClaimKey is the key of the reservation token in a plan's private data.
const queueClaimKey = "queue_name_claim"

// newToken returns a token unique to this run.
func (n *queueNames) newToken() string {
	if n.run == "" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		n.run = hex.EncodeToString(b)
	}
	n.next++
	return fmt.Sprintf("%s-%d", n.run, n.next)
}

// claimQueueName reserves name for the queue resource of type typeName being planned (inState:
// its state already holds the queue). It returns false when another resource of this run planned
// the name first and adds the error on the name. Without an Event Mesh connection it reserves
// nothing (the apply reports the missing connection).
func (d *providerData) claimQueueName(ctx context.Context, typeName, name string, inState bool, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	if d == nil || name == "" {
		return true
	}
	var own string
	if req.Private != nil {
		raw, diags := req.Private.GetKey(ctx, queueClaimKey)
		if !diags.HasError() && len(raw) > 0 {
			_ = json.Unmarshal(raw, &own)
		}
	}
	d.names.mu.Lock()
	defer d.names.mu.Unlock()
	if d.names.planned == nil {
		d.names.planned = map[string]queueClaim{}
	}
	if c, taken := d.names.planned[name]; taken {
		if own != "" && c.token == own {
			return true // the second plan of a replaced resource
		}
		other := fmt.Sprintf("a %s resource that plans to create it", c.typeName)
		if c.inState {
			other = fmt.Sprintf("a %s resource that holds it in its state", c.typeName)
		}
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Duplicate Queue Name", fmt.Sprintf(
			"Two resources of this configuration name the queue %q: this %s resource and %s, planned earlier in this run. "+
				"Event Mesh holds one queue per name, and writing it replaces all its settings, so the two would overwrite each "+
				"other's settings, both states would record the one queue, the plan would never settle, and destroying either "+
				"would delete the queue the other uses. Terraform does not tell a provider the address of a resource, so the other "+
				"one is named by its queue name only: it is the other resource with name = %q in the plan (terraform state list "+
				"and terraform state show find it when it is in the state). Give each resource its own queue name, or remove one "+
				"of the two resources.", name, typeName, other, name))
		return false
	}
	token := d.names.newToken()
	d.names.planned[name] = queueClaim{token: token, typeName: typeName, inState: inState}
	raw, _ := json.Marshal(token)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, queueClaimKey, raw)...)
	return true
}

// reserveQueueCreate reserves name for the create of a queue resource of type typeName in this
// apply. It returns false when another resource's create in this run took the name first, and
// adds the error: nothing is written for this one.
func (d *providerData) reserveQueueCreate(typeName, name string, diags *diag.Diagnostics) bool {
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

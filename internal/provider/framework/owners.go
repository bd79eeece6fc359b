package framework

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/runclaims"
)

// owners gives every object a run of the provider plans one owner: one resource per queue name
// (sapmessaging_queue and sapmessaging_dead_message_queue share the names), per subscription of
// a queue to a topic, per webhook subscription name, per sender channel of an integration flow
// and per flow deployment. Two resources that manage one object overwrite each other's settings,
// both states record the one object, the plan never settles, and destroying either deletes (or
// forgets) what the other still manages. That happens when list blocks added to a query file
// generate a resource for an object that another resource already manages.
//
// The plan claims the object of every resource it plans (ModifyPlan), and the second resource to
// claim an object gets the error. Terraform plans a replaced resource twice, the second time
// without its prior state, and hands the private data of the first plan to the second
// (PriorPrivate), so the claim's token travels in the plan's private data and the second plan of
// the same resource finds its own claim. The token carries a random run identifier: a token of
// another run, kept in a state's private data, never matches.
//
// Aliased provider configurations run in provider processes of their own, so a claim is also
// recorded, by instance or tenant, in the claims file of the Terraform process's walk
// (internal/runclaims), when Terraform started this process. Claims of another process of the
// walk for the same Event Mesh instance or Cloud Integration tenant count as well.
type owners struct {
	mu      sync.Mutex
	run     string // random per provider run
	next    int
	Planned map[string]OwnerClaim // by service and object key
	// Shared is the walk's claim registry, nil when this process coordinates with no other.
	Shared *runclaims.Registry
	// read holds the objects a refresh of this process read from a state (NoteStateRead), by
	// claimKey, with whether the state guards them.
	read map[string]bool
	// replaced holds the objects this run replaces under the same key (ReplacedObject), by claimKey.
	replaced map[string]bool
	// deleted holds the objects this process deleted (NoteDeleted), by claimKey.
	deleted map[string]bool
}

// OwnerClaim is a plan's claim of an object.
type OwnerClaim struct {
	token    string
	TypeName string
	// inState is set when the resource already holds the object in its state (an update, no
	// change, or an import), unset when it plans to create it.
	inState bool
	// guarded is OwnedObject.Guarded of the claim.
	guarded bool
}

// OwnerClaimKey is the key of the claim token in a plan's private data.
const OwnerClaimKey = "owner_claim"

// newToken returns a token unique to this run. Called under mu.
func (o *owners) newToken() string {
	if o.run == "" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		o.run = hex.EncodeToString(b)
	}
	o.next++
	return fmt.Sprintf("%s-%d", o.run, o.next)
}

// The services whose objects are claimed.
const (
	ServiceEventMesh        = "Event Mesh instance"
	ServiceCloudIntegration = "Cloud Integration tenant"
	ServiceAEM              = "Advanced Event Mesh broker and Message VPN"
)

// OwnedObject is the object a resource being planned manages, and how to tell the user about a
// second resource that manages it.
type OwnedObject struct {
	Service string // serviceEventMesh or serviceCloudIntegration
	Key     string // the object, unique within the service: "queue|NAME", "deploy|IFLOW", ...
	// TypeName is the planning resource's type; inState as for ownerClaim.
	TypeName string
	InState  bool
	// Guarded is set when the state holds the object and its delete is refused while it holds data
	// (a queue without force_destroy): a replacement of it is refused at plan (ReplacedObject).
	Guarded bool
	// Manage says what both resources do, after "Two resources of this configuration", for
	// example `name the queue "acme/crm/prod/orders"`.
	Manage string
	// Why says what two owners would do to each other; match how the user finds the other
	// resource ("with name = ...").
	Why, Match string
}

// instanceKey identifies the service instance a claim is made in: the Event Mesh instance
// (management URL and OAuth client, which BTP issues per instance) or the Cloud Integration
// tenant (its URL). "" when the service is not configured: nothing is claimed then, and the apply
// reports the missing connection.
func (d *ProviderData) instanceKey(service string) string {
	if d == nil {
		return ""
	}
	if service == ServiceEventMesh {
		return d.eventMeshInstance
	}
	if service == ServiceAEM {
		return d.AEMBroker
	}
	return d.cloudIntegrationTenant
}

// ClaimObject claims o for the resource being planned. When another resource of this run, in this
// provider configuration or in another one that points at the same instance or tenant, claimed it
// first, it returns the start of the error's detail, which the caller ends with the fix (written
// there, so that TestDiagnosticStyle reads it); "" when the object is this resource's.
func (d *ProviderData) ClaimObject(ctx context.Context, o OwnedObject, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) string {
	instance := d.instanceKey(o.Service)
	if instance == "" || o.Key == "" {
		return ""
	}
	own := ownClaimToken(ctx, req)
	key := claimKey(instance, o.Key)
	d.Owners.mu.Lock()
	defer d.Owners.mu.Unlock()
	if d.Owners.Planned == nil {
		d.Owners.Planned = map[string]OwnerClaim{}
	}
	if c, taken := d.Owners.Planned[key]; taken {
		if own != "" && c.token == own {
			return "" // the second plan of a replaced resource
		}
		return o.conflict(c.TypeName, c.inState, false)
	}
	if d.Owners.Shared != nil {
		earlier, taken, err := d.Owners.Shared.Claim(key, runclaims.Owner{Type: o.TypeName, InState: o.InState})
		switch {
		case err != nil:
			tflog.Warn(ctx, "the claim could not be shared with the other provider configurations of this run", map[string]any{"object": o.Key, "error": err.Error()})
		case taken:
			return o.conflict(earlier.Type, earlier.InState, true)
		}
	}
	token := d.Owners.newToken()
	d.Owners.Planned[key] = OwnerClaim{token: token, TypeName: o.TypeName, inState: o.InState, guarded: o.Guarded}
	raw, _ := json.Marshal(token)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, OwnerClaimKey, raw)...)
	return ""
}

// ReplacedObject reports, and records for ReplacedInRun, whether the plan being made, which has no prior
// state, replaces the object key of service that a state of this run holds under the same key, and
// whether that state guards it (OwnedObject.Guarded: the delete is refused while the object holds data). Terraform plans such a
// create in two cases:
//
//   - the second plan of a resource it replaces (terraform apply -replace, or an attribute that
//     requires replacement): it plans it twice in one provider process, the second time with no prior
//     state and the first plan's private data, which carries the token of the first plan's claim
//     (ClaimObject), made holding the object in its state;
//   - the only plan of a tainted resource: a create without prior state or private data. The refresh
//     before it read the object from the tainted state in this process (NoteStateRead). A plan
//     without refresh (-refresh=false) reads nothing, and such a create is not seen here.
//
// The apply plans the create once more, in a provider process of its own without prior state or private
// data; there, the queue's delete that this process made just before tells it (NoteDeleted).
func (d *ProviderData) ReplacedObject(ctx context.Context, service, key string, req resource.ModifyPlanRequest) (replaced, guarded bool) {
	instance := d.instanceKey(service)
	if instance == "" || key == "" || !req.State.Raw.IsNull() {
		return false, false
	}
	own := ownClaimToken(ctx, req)
	k := claimKey(instance, key)
	d.Owners.mu.Lock()
	defer d.Owners.mu.Unlock()
	if c, taken := d.Owners.Planned[k]; taken && own != "" && c.token == own && c.inState {
		replaced, guarded = true, c.guarded
	} else if guarded, replaced = d.Owners.read[k]; !replaced {
		replaced = d.Owners.deleted[k]
	}
	if replaced {
		if d.Owners.replaced == nil {
			d.Owners.replaced = map[string]bool{}
		}
		d.Owners.replaced[k] = true
	}
	return replaced, guarded
}

// NoteDeleted records that this process deleted the object key of service: in an apply, the delete of an
// object replaced under the same key, which the apply's plan of the create then finds (ReplacedObject).
// The plan refuses a delete and a create of one object by two resources (PlanQueueDeletion).
func (d *ProviderData) NoteDeleted(service, key string) {
	instance := d.instanceKey(service)
	if instance == "" || key == "" {
		return
	}
	d.Owners.mu.Lock()
	defer d.Owners.mu.Unlock()
	if d.Owners.deleted == nil {
		d.Owners.deleted = map[string]bool{}
	}
	d.Owners.deleted[claimKey(instance, key)] = true
}

// ReplacedInRun reports whether a plan of this process found that this run replaces the object key of
// service under the same key (ReplacedObject).
func (d *ProviderData) ReplacedInRun(service, key string) bool {
	instance := d.instanceKey(service)
	if instance == "" || key == "" {
		return false
	}
	d.Owners.mu.Lock()
	defer d.Owners.mu.Unlock()
	return d.Owners.replaced[claimKey(instance, key)]
}

// createdInRun returns the type of the resource that a plan of this run creates the object key of service
// with (its claim, made without the object in its state); "" when none does.
func (d *ProviderData) createdInRun(service, key string) string {
	instance := d.instanceKey(service)
	if instance == "" || key == "" {
		return ""
	}
	d.Owners.mu.Lock()
	defer d.Owners.mu.Unlock()
	if c, taken := d.Owners.Planned[claimKey(instance, key)]; taken && !c.inState {
		return c.TypeName
	}
	return ""
}

// addDestroyedAndCreated reports that this run deletes queue name with one resource and creates it with a
// resource of type created.
func addDestroyedAndCreated(diags *diag.Diagnostics, name, created string) {
	diags.AddError("Queue Destroyed And Created", fmt.Sprintf("This plan deletes the queue %q with one resource (a destroy, or a new "+
		"`name`) and creates it with a %s resource. Nothing orders the two: the create may run first and find the queue, or the "+
		"delete may take the queue the other resource has just made, with its messages when the state sets `force_destroy`. When the "+
		"queue moves from one resource address to another, add a moved block (moved { from = <old address> to = <new address> }) "+
		"so that Terraform keeps it; otherwise destroy the old resource in an apply of its own first (terraform apply "+
		"-target=<old address>), then create the new one. When the delete is of a deposed object of the same resource (a "+
		"replacement with `create_before_destroy` that failed on the existing queue), remove `create_before_destroy`, run terraform "+
		"state rm on the resource and import the queue again.", name, created))
}

// NoteStateRead records that a refresh of this process read the object key of service from a
// resource's state, and whether the state guards it (OwnedObject.Guarded), for ReplacedObject.
func (d *ProviderData) NoteStateRead(service, key string, guarded bool) {
	instance := d.instanceKey(service)
	if instance == "" || key == "" {
		return
	}
	d.Owners.mu.Lock()
	defer d.Owners.mu.Unlock()
	if d.Owners.read == nil {
		d.Owners.read = map[string]bool{}
	}
	d.Owners.read[claimKey(instance, key)] = guarded
}

// ownClaimToken is the claim token in the plan's prior private data: the first plan's, in the second
// plan of a replaced resource; "" without one.
func ownClaimToken(ctx context.Context, req resource.ModifyPlanRequest) string {
	var own string
	if req.Private != nil {
		raw, diags := req.Private.GetKey(ctx, OwnerClaimKey)
		if !diags.HasError() && len(raw) > 0 {
			_ = json.Unmarshal(raw, &own)
		}
	}
	return own
}

// claimKey is the key of a claim of the object key in the service instance instance.
func claimKey(instance, key string) string { return instance + "\x00" + key }

// conflict is the start of the error on o, which a resource of type otherType (holding it in its
// state or not, in another provider configuration or not) claimed first.
func (o OwnedObject) conflict(otherType string, otherInState, otherConfiguration bool) string {
	other := fmt.Sprintf("a %s resource that plans to create it", otherType)
	if otherInState {
		other = fmt.Sprintf("a %s resource that holds it in its state or imports it", otherType)
	}
	where := "planned earlier in this run"
	if otherConfiguration {
		where = fmt.Sprintf("planned earlier in this run by another provider configuration (an aliased provider block) that points at the same %s", o.Service)
	}
	return fmt.Sprintf("Two resources of this configuration %s: this %s resource and %s, %s. %s Terraform does not tell a provider the address "+
		"of a resource, so the other one is named by its type and settings only: it is the other %s resource with %s in the plan "+
		"(terraform state list and terraform state show find it when it is in the state).",
		o.Manage, o.TypeName, other, where, o.Why, otherType, o.Match)
}

// SetInstanceKeys records which Event Mesh instance and Cloud Integration tenant this
// configuration manages, for claimObject, and joins the claims of the other provider processes
// of this Terraform walk when Terraform started this process.
func (d *ProviderData) SetInstanceKeys(ctx context.Context, managementURL, clientID, tenantURL string) {
	if managementURL != "" {
		d.eventMeshInstance = "event-mesh " + NormalURL(managementURL) + " " + clientID
	}
	if tenantURL != "" {
		d.cloudIntegrationTenant = "cloud-integration " + NormalURL(tenantURL)
	}
	if d.eventMeshInstance == "" && d.cloudIntegrationTenant == "" {
		return
	}
	d.Owners.Shared = JoinWalk(ctx) // joined when the process started (NewWithHTTPClient)
}

// NormalURL is u with its scheme and host in lower case and without a trailing slash.
func NormalURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return strings.TrimRight(u, "/")
	}
	p.Scheme, p.Host = strings.ToLower(p.Scheme), strings.ToLower(p.Host)
	p.Path = strings.TrimRight(p.Path, "/")
	return p.String()
}

var (
	walkOnce sync.Once
	walk     *runclaims.Registry
)

// JoinWalk joins the claims of this process's Terraform walk once per process, when the process
// starts: a walk ends when none of its members is alive, so a configuration whose process joined
// only when it was configured could find the process of another configuration with few resources
// ended already, and start a walk of its own. Only a process
// that Terraform (or OpenTofu) started joins: go-plugin hands it the magic cookie, and its
// parent is the Terraform process. A provider served in process (acceptance tests, debug mode)
// serves every provider configuration from one process and needs no files.
func JoinWalk(ctx context.Context) *runclaims.Registry {
	walkOnce.Do(func() {
		if !runclaims.Supported || os.Getenv("TF_PLUGIN_MAGIC_COOKIE") == "" || os.Getppid() <= 1 {
			return
		}
		base := filepath.Join(os.TempDir(), "terraform-provider-sapmessaging-"+strconv.Itoa(os.Getuid()))
		r, err := runclaims.Join(base, strconv.Itoa(os.Getppid()))
		if err != nil {
			tflog.Warn(ctx, "this provider configuration cannot share its claims with the other provider configurations of this run; "+
				"duplicates are found within this configuration only", map[string]any{"dir": base, "error": err.Error()})
			return
		}
		walk = r
	})
	return walk
}

package aem

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The list resources of Advanced Event Mesh queues (Terraform 1.14 and later, `terraform query`): every
// queue of the broker's Message VPN, listed by the type that matches what it is (aemListedAsDeadMessageQueue,
// the one place that decides), so that each queue is listed by exactly one of the two. Both list from the
// run's queue list (one paged SEMP list per run, shared with the refreshes and the plan's dead message queue
// checks): whether a queue is a dead message queue depends on the queues that name it, which a list filtered
// by the prefix (SEMP's where=queueName==prefix*) would not show when they lie outside the prefix, so the
// prefix filters the run's full list.

// NewAEMQueueListResource returns the sapmessaging_aem_queue list resource.
func NewAEMQueueListResource() list.ListResource {
	return aemQueueList[AEMQueueModel](false)
}

// aemQueueList is the list resource of one of the two AEM queue resources, whose model is M: the shared
// skeleton (framework.QueueList) given the run's AEM queue list, the name filter name_prefix (or the
// deprecated prefix) and the classifier aemListedAsDeadMessageQueue.
func aemQueueList[M any, P aemQueueModelPtr[M]](deadMessageQueues bool) *framework.QueueList[*aem.Queue] {
	suffix := "_aem_queue"
	if deadMessageQueues {
		suffix = "_aem_dead_message_queue"
	}
	return &framework.QueueList[*aem.Queue]{
		TypeSuffix:        suffix,
		DeadMessageQueues: deadMessageQueues,
		Schema:            func() schema.Schema { return aemQueueListSchema(deadMessageQueues) },
		Filter: func(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) (types.String, string) {
			var cfg aemQueueListModel
			diags.Append(config.Get(ctx, &cfg)...)
			if cfg.NamePrefix.IsNull() {
				return cfg.Prefix, "prefix"
			}
			return cfg.NamePrefix, "name_prefix"
		},
		CheckFilter:              checkAEMQueueNamePrefix,
		Snapshot:                 aemQueueSnapshot[M, P](deadMessageQueues),
		Name:                     func(q *aem.Queue) string { return q.Name },
		Users:                    AEMDMQUsers,
		ListedAsDeadMessageQueue: aemListedAsDeadMessageQueue,
	}
}

type aemQueueListModel struct {
	NamePrefix types.String `tfsdk:"name_prefix"`
	Prefix     types.String `tfsdk:"prefix"`
}

func aemQueueListSchema(deadMessageQueues bool) schema.Schema {
	what := "Lists every queue of the Advanced Event Mesh broker's Message VPN that is not a dead message queue, or those whose name " +
		"starts with `name_prefix`: every queue that no other queue names as its dead message queue, and every queue that another queue names " +
		"but that has a `max_redelivery_count` above 0 or a dead message queue of its own other than the broker's `#DEAD_MSG_QUEUE` " +
		"(a chained error queue, which consumers read). The others are listed by the `sapmessaging_aem_dead_message_queue` list resource, " +
		"so each queue is listed once. With `include_resource` (and `terraform query -generate-config-out`) each result carries every " +
		"setting of the queue as the broker holds it (`ingress_enabled = false` included, where the provider's default is `true`), " +
		"`allow_unlimited_redelivery = true` for a queue at `max_redelivery_count` 0 and `allow_missing_dead_message_queue = true` for a " +
		"queue whose dead message queue does not exist, takes no messages, is `\"\"`, is the queue itself or leads back to it, and " +
		"`allow_ineffective_ttl = true` for a queue with a `max_ttl` but `respect_ttl = false` (the plan warns about these instead of refusing them)."
	if deadMessageQueues {
		what = "Lists every queue of the Advanced Event Mesh broker's Message VPN that another queue names as its dead message queue " +
			"(`#DEAD_MSG_QUEUE` included, when the broker holds it) and that has no redelivery count (0) and no dead message queue of its " +
			"own (the broker's `#DEAD_MSG_QUEUE`), or those whose name starts with `name_prefix`. The others are listed by the " +
			"`sapmessaging_aem_queue` list resource, so each queue is listed once. With `include_resource` (and " +
			"`terraform query -generate-config-out`) each result carries every setting of the queue as the broker holds it, " +
			"`allow_no_ttl = true` for a dead message queue without a time to live and `allow_ingress_disabled = true` for one whose " +
			"ingress is off (the plan warns about these instead of refusing them)."
	}
	return schema.Schema{
		MarkdownDescription: what + " So the generated resource block plans no change after its import.\n\n" +
			"Both list from the run's one queue list (SEMP pages of 100), however many list blocks. Terraform returns at most `limit` " +
			"results per list block, 100 unless the block sets `limit`; a block whose results stop at its `limit` warns with the number of " +
			"queues it selects.",
		Attributes: map[string]schema.Attribute{
			"name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only queues whose name starts with this prefix, for example `acme/aem/prod/`, as the Event Mesh list " +
					"resources' `name_prefix`. A prefix that matches no queue lists nothing; one no queue name can start with (longer than 200 " +
					"characters, or holding one of `* ? ' < > & ;`) is an error.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("prefix"))},
			},
			"prefix": schema.StringAttribute{
				MarkdownDescription: "Deprecated: the former name of `name_prefix`, which it means.",
				DeprecationMessage:  "Use `name_prefix`, the name by which the queue list resources of Event Mesh and Advanced Event Mesh and the queue data sources filter queue names; `prefix` means the same and will be removed in a later major version.",
				Optional:            true,
			},
		},
	}
}

// checkAEMQueueNamePrefix reports a prefix no AEM queue name can start with.
func checkAEMQueueNamePrefix(prefix, attribute string, diags *diag.Diagnostics) {
	if err := rules.ValidAEMQueueNamePrefix(prefix); err != nil {
		diags.AddAttributeError(path.Root(attribute), "Invalid Queue Name Prefix",
			fmt.Sprintf("The prefix cannot start any queue name: %s. No queue could match it, so the list would be empty. "+
				"Set `name_prefix` to the start of a queue name, for example acme/aem/prod/.", framework.Clause(err)))
	}
}

// aemQueueSnapshot reads the run's queue list of the broker (one paged SEMP list per run, shared with the
// refreshes and the plan's dead message queue checks), sorted by name, whose results are queues of the
// resource whose model is M, of the dead message queue list resource when deadMessageQueues is set.
func aemQueueSnapshot[M any, P aemQueueModelPtr[M]](deadMessageQueues bool) func(context.Context, *framework.ProviderData, string, *diag.Diagnostics) (framework.QueueSnapshot[*aem.Queue], bool) {
	return func(ctx context.Context, d *framework.ProviderData, _ string, diags *diag.Diagnostics) (framework.QueueSnapshot[*aem.Queue], bool) {
		return aemQueueListSnapshot[M, P](ctx, d, deadMessageQueues, diags)
	}
}

func aemQueueListSnapshot[M any, P aemQueueModelPtr[M]](ctx context.Context, d *framework.ProviderData, deadMessageQueues bool, diags *diag.Diagnostics) (framework.QueueSnapshot[*aem.Queue], bool) {
	if !d.AEMOrError(diags) {
		return framework.QueueSnapshot[*aem.Queue]{}, false
	}
	qs, err := d.AEMQueues(ctx)
	if err != nil {
		if !d.AEMCredential.AddRefused(diags, path.Empty(), err) {
			diags.AddError("Cannot List Queues", fmt.Sprintf("The SEMP API failed listing the queues of the broker: %s. Check the provider's "+
				"`advanced_event_mesh` connection and the broker service's status, then run terraform query again; TF_LOG=debug shows each request.", framework.Clause(err)))
		}
		return framework.QueueSnapshot[*aem.Queue]{}, false
	}
	d.AEMQueueList.Mu.Lock()
	all := make([]*aem.Queue, 0, len(qs))
	for _, q := range qs {
		all = append(all, q)
	}
	d.AEMQueueList.Mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	byName := make(map[string]*aem.Queue, len(all))
	for _, q := range all {
		byName[q.Name] = q
	}
	lookup := func(name string) (*aem.Queue, bool) { return byName[name], true }
	vpn := d.AEM.MsgVpnName()
	return framework.QueueSnapshot[*aem.Queue]{All: all, Result: func(ctx context.Context, req list.ListRequest, q *aem.Queue, users []string) list.ListResult {
		return aemQueueResult[M, P](ctx, req, q, users, deadMessageQueues, vpn, lookup)
	}}, true
}

// aemListedAsDeadMessageQueue decides, for both AEM queue list resources, which type lists queue q, which
// the queues users name as their dead message queue: sapmessaging_aem_dead_message_queue when it is one, a
// queue that others name and that has neither a redelivery count (0, as the resource keeps it) nor a dead
// message queue of its own (the broker's #DEAD_MSG_QUEUE); sapmessaging_aem_queue otherwise. A queue that
// others name but that has a redelivery count or a dead message queue (a chained error queue, read by
// consumers) is an ordinary queue: as a dead message queue its plan would reset both.
func aemListedAsDeadMessageQueue(q *aem.Queue, users []string) bool {
	if len(users) == 0 {
		return false
	}
	if q.MaxRedeliveryCount != nil && *q.MaxRedeliveryCount != 0 {
		return false
	}
	return q.DeadMsgQueue == nil || *q.DeadMsgQueue == "" || *q.DeadMsgQueue == framework.AEMDefaultDMQ
}

// AEMDMQUsers maps each queue that other queues name as their dead message queue to those queues, sorted.
// A queue that leaves deadMsgQueue out names the broker's #DEAD_MSG_QUEUE; one that names "" names none
// (what it removes is deleted, as the rules and the dead message queue resource read it too).
func AEMDMQUsers(all []*aem.Queue) map[string][]string {
	users := map[string][]string{}
	for _, q := range all {
		dmq := framework.AEMDefaultDMQ
		if q.DeadMsgQueue != nil {
			dmq = *q.DeadMsgQueue
		}
		if dmq != "" && dmq != q.Name {
			users[dmq] = append(users[dmq], q.Name)
		}
	}
	for _, u := range users {
		sort.Strings(u)
	}
	return users
}

// result is the list result of queue q, which the queues users name as their dead message queue; lookup
// gives the other queues of the list.
func aemQueueResult[M any, P aemQueueModelPtr[M]](ctx context.Context, req list.ListRequest, q *aem.Queue, users []string, deadMessageQueues bool, vpn string, lookup aemQueueLookup) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = q.Name
	if len(users) > 0 && deadMessageQueues {
		shown := users
		if len(shown) > 5 {
			shown = append(append([]string{}, shown[:5]...), fmt.Sprintf("%d more", len(users)-5))
		}
		r.DisplayName = q.Name + " (dead message queue of " + strings.Join(shown, ", ") + ")"
	}
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("msg_vpn_name"), vpn)...)
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("name"), q.Name)...)
	if !req.IncludeResource {
		return r
	}
	var m M
	p := P(&m)
	// fromBroker fills every attribute as an import and its read do: each setting as the broker holds it,
	// force_destroy false and the adoption attribute where the broker's values break a rule.
	p.FromBroker(q, vpn, lookup)
	r.Diagnostics.Append(framework.Set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r
}

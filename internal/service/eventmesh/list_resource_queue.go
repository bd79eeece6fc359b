package eventmesh

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The list resources of queues (Terraform 1.14 and later, `terraform query`, see the reference
// note terraform-1.14.md): every queue of the instance, listed by the type that matches what it
// is (listedAsDeadMessageQueue, the one place that decides), so that each queue is listed by
// exactly one of the two. Both list from the run's one queue list
// (GET /queues, eventmesh.Client.Snapshot): one management call however many queues and
// however many list blocks.

// NewQueueListResource returns the sapmessaging_queue list resource.
func NewQueueListResource() list.ListResource {
	return queueList[QueueModel](false)
}

// NewDeadMessageQueueListResource returns the sapmessaging_dead_message_queue list resource.
func NewDeadMessageQueueListResource() list.ListResource {
	return queueList[DeadMessageQueueModel](true)
}

// queueList is the list resource of one of the two queue resources, whose model is M: the shared
// skeleton (framework.QueueList) given the run's queue list of the Event Mesh client, the name filter
// name_prefix and the classifier ListedAsDeadMessageQueue.
func queueList[M comparable, P queueModelPtr[M]](deadMessageQueues bool) *framework.QueueList[*eventmesh.Queue] {
	suffix := "_queue"
	if deadMessageQueues {
		suffix = "_dead_message_queue"
	}
	return &framework.QueueList[*eventmesh.Queue]{
		TypeSuffix:        suffix,
		DeadMessageQueues: deadMessageQueues,
		Schema:            func() schema.Schema { return queueListSchema(deadMessageQueues) },
		Filter: func(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) (types.String, string) {
			var cfg queueListModel
			diags.Append(config.Get(ctx, &cfg)...)
			return cfg.NamePrefix, "name_prefix"
		},
		CheckFilter:              checkQueueNamePrefix,
		Snapshot:                 queueSnapshot[M, P],
		Name:                     func(q *eventmesh.Queue) string { return q.Name },
		Users:                    dmqUsers,
		ListedAsDeadMessageQueue: ListedAsDeadMessageQueue,
	}
}

type queueListModel struct {
	NamePrefix types.String `tfsdk:"name_prefix"`
}

func queueListSchema(deadMessageQueues bool) schema.Schema {
	what := "Lists every Event Mesh queue of the instance that is not a dead message queue, or those whose name starts with `name_prefix`: " +
		"every queue that no other queue names as its dead message queue, and every queue that another queue names but that has " +
		"a `max_redelivery_count` above 0 or a dead message queue of its own (a chained error queue, which consumers read). " +
		"The others are listed by the `sapmessaging_dead_message_queue` list resource, so each queue is listed once. " +
		"With `include_resource` (and `terraform query -generate-config-out`) each result carries every setting of the queue as " +
		"Event Mesh holds it, `allow_unlimited_redelivery = true` for a queue whose `max_redelivery_count` is 0 or unset, and " +
		"`allow_ineffective_ttl = true` for one whose time to live takes no effect (`respect_ttl` without `max_ttl`, or `max_ttl` without " +
		"`respect_ttl`), `allow_dead_message_queue_outside_namespace = true` for one whose dead message queue lies in another " +
		"namespace, `allow_self_as_dead_message_queue = true` for one that names itself as its dead message queue, " +
		"`allow_missing_dead_message_queue = true` for one whose dead message queue the instance no longer holds, " +
		"`allow_no_queue_limits = true` for one whose `max_queue_size_in_bytes` or `max_queue_message_count` is 0 (no limit of its own), and " +
		"`allow_message_size_above_documented_max = true` for one whose `max_message_size_in_bytes` is above the 1 MB SAP documents: " +
		"the plan warns about them instead of refusing them."
	if deadMessageQueues {
		what = "Lists every Event Mesh queue of the instance that another queue names as its dead message queue and that has no " +
			"redelivery count (0 or unset) and no dead message queue of its own, or those whose name starts with `name_prefix`. " +
			"The others are listed by the `sapmessaging_queue` list resource, so each queue is listed once. " +
			"With `include_resource` (and `terraform query -generate-config-out`) each result carries every setting of the queue as " +
			"Event Mesh holds it, `allow_no_ttl = true` for a dead message queue without a time to live (the plan warns about it " +
			"instead of switching the time to live on), `allow_no_queue_limits = true` for one whose `max_queue_size_in_bytes` or " +
			"`max_queue_message_count` is 0 (no limit of its own), and `allow_message_size_above_documented_max = true` for one whose " +
			"`max_message_size_in_bytes` is above the 1 MB SAP documents (the plan warns about these two instead of refusing them)."
	}
	return schema.Schema{
		MarkdownDescription: what + " So the generated resource block plans no change after its import.\n\n" +
			"Both list from the run's one queue list: one management call however many list blocks. " +
			"Terraform returns at most `limit` results per list block, 100 unless the block sets `limit`; SAP allows 250 queues per instance, " +
			"so set `limit = 250` to list a full instance. A block whose results stop at its `limit` warns with the number of queues it selects.",
		Attributes: map[string]schema.Attribute{
			"name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only queues whose full name starts with this prefix, for example `acme/crm/prod/`. " +
					"A prefix that matches no queue lists nothing.",
				Optional: true,
			},
		},
	}
}

// checkQueueNamePrefixOf reports, on attribute, a prefix no queue name can start with.
func checkQueueNamePrefixOf(attribute string) func(prefix string, diags *diag.Diagnostics) {
	return func(prefix string, diags *diag.Diagnostics) { checkQueueNamePrefix(prefix, attribute, diags) }
}

// checkQueueNamePrefix reports a prefix no queue name can start with.
func checkQueueNamePrefix(prefix, attribute string, diags *diag.Diagnostics) {
	if err := rules.ValidQueueNamePrefix(prefix); err != nil {
		diags.AddAttributeError(path.Root(attribute), "Invalid Queue Name Prefix",
			fmt.Sprintf("The name prefix cannot start any queue name: %s. No queue could match it, so the list would be empty. "+
				"Use the start of a full queue name, for example acme/crm/prod/.", framework.Clause(err)))
	}
}

// queueSnapshot is the run's queue list (GET /queues, eventmesh.Client.Snapshot), whose results are
// queues of the resource whose model is M.
func queueSnapshot[M comparable, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, prefix string, diags *diag.Diagnostics) (framework.QueueSnapshot[*eventmesh.Queue], bool) {
	if !d.EventMeshOrError(diags) {
		return framework.QueueSnapshot[*eventmesh.Queue]{}, false
	}
	snap, err := d.EventMesh.Snapshot(ctx)
	if err != nil {
		diags.AddError("Cannot List Queues", framework.ListErrorDetail(fmt.Sprintf("listing the queues whose names start with %q", prefix), err))
		return framework.QueueSnapshot[*eventmesh.Queue]{}, false
	}
	queues := snap.Queues()
	all := make([]*eventmesh.Queue, len(queues))
	for i := range queues {
		all[i] = &queues[i]
	}
	exists := func(name string) bool { _, ok := snap.Queue(name); return ok }
	result := func(ctx context.Context, req list.ListRequest, q *eventmesh.Queue, users []string) list.ListResult {
		return queueResult[M, P](ctx, req, q, users, exists)
	}
	return framework.QueueSnapshot[*eventmesh.Queue]{All: all, Result: result}, true
}

// ListedAsDeadMessageQueue decides, for both queue list resources, which type lists queue q,
// which the queues users name as their dead message queue: sapmessaging_dead_message_queue when
// it is one, a queue that others name and that has neither a redelivery count (0 or unset, as
// the resource writes it) nor a dead message queue of its own; sapmessaging_queue otherwise. A
// queue that others name but that has a redelivery count or a dead message queue (a chained
// error queue, read by consumers) is an ordinary queue: as a dead message queue its plan would
// reset both.
func ListedAsDeadMessageQueue(q *eventmesh.Queue, users []string) bool {
	if len(users) == 0 {
		return false
	}
	if q.MaxRedeliveryCount != nil && *q.MaxRedeliveryCount != 0 {
		return false
	}
	return q.DeadMsgQueue == nil || *q.DeadMsgQueue == ""
}

// queueResult is the list result of queue q, which the queues users name as their dead message queue; exists
// reports whether the list holds a queue.
func queueResult[M comparable, P queueModelPtr[M]](ctx context.Context, req list.ListRequest, q *eventmesh.Queue, users []string, exists func(name string) bool) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = q.Name
	if len(users) > 0 {
		r.DisplayName = q.Name + " (dead message queue of " + strings.Join(users, ", ") + ")"
	}
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("name"), q.Name)...)
	if !req.IncludeResource {
		return r
	}
	var m M
	p := P(&m)
	// fromAPI fills every attribute: id, name, each setting as the service holds it, and
	// force_destroy false, as an import does.
	if r, ok := any(p).(missingDMQReader); ok {
		r.readMissingDMQ(q, exists)
	}
	p.fromAPI(q)
	r.Diagnostics.Append(framework.Set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r
}

// dmqUsers maps each queue that other queues name as their dead message queue to those
// queues, sorted.
func dmqUsers(all []*eventmesh.Queue) map[string][]string {
	users := map[string][]string{}
	for _, q := range all {
		if q.DeadMsgQueue != nil && *q.DeadMsgQueue != "" && *q.DeadMsgQueue != q.Name {
			users[*q.DeadMsgQueue] = append(users[*q.DeadMsgQueue], q.Name)
		}
	}
	for _, u := range users {
		sort.Strings(u)
	}
	return users
}

package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The list resources of queues (Terraform 1.14 and later, `terraform query`, see the reference
// note terraform-1.14.md): every queue of the instance, listed as sapmessaging_dead_message_queue
// when another queue names it as its dead message queue and as sapmessaging_queue otherwise, so
// that each queue is listed by exactly one of the two. Both list from the run's one queue list
// (GET /queues, eventmesh.Client.Snapshot): one management call however many queues and
// however many list blocks.

var (
	_ list.ListResource                   = (*queueListResource[queueModel, *queueModel])(nil)
	_ list.ListResourceWithConfigure      = (*queueListResource[queueModel, *queueModel])(nil)
	_ list.ListResourceWithValidateConfig = (*queueListResource[queueModel, *queueModel])(nil)
)

// NewQueueListResource returns the sapmessaging_queue list resource.
func NewQueueListResource() list.ListResource {
	return &queueListResource[queueModel, *queueModel]{typeSuffix: "_queue"}
}

// NewDeadMessageQueueListResource returns the sapmessaging_dead_message_queue list resource.
func NewDeadMessageQueueListResource() list.ListResource {
	return &queueListResource[deadMessageQueueModel, *deadMessageQueueModel]{typeSuffix: "_dead_message_queue", deadMessageQueues: true}
}

// queueListResource lists the queues of one of the two queue resources, whose model is M.
type queueListResource[M any, P queueModelPtr[M]] struct {
	typeSuffix string
	// deadMessageQueues lists the queues another queue names as its dead message queue; without
	// it, the others.
	deadMessageQueues bool
	data              *providerData
}

type queueListModel struct {
	NamePrefix types.String `tfsdk:"name_prefix"`
}

func (l *queueListResource[M, P]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + l.typeSuffix
}

func (l *queueListResource[M, P]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	what := "Lists every Event Mesh queue of the instance that no other queue names as its dead message queue (those are " +
		"listed by the `sapmessaging_dead_message_queue` list resource), or those whose name starts with `name_prefix`."
	if l.deadMessageQueues {
		what = "Lists every Event Mesh queue of the instance that another queue names as its dead message queue (the others " +
			"are listed by the `sapmessaging_queue` list resource), or those whose name starts with `name_prefix`."
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: what + " With `include_resource` (and `terraform query -generate-config-out`) each result " +
			"carries every setting of the queue, so that the generated resource block plans no change after its import.",
		Attributes: map[string]schema.Attribute{
			"name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only queues whose full name starts with this prefix, for example `acme/crm/prod/`. " +
					"A prefix that matches no queue lists nothing.",
				Optional: true,
			},
		},
	}
}

func (l *queueListResource[M, P]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *queueListResource[M, P]) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var cfg queueListModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.NamePrefix.IsNull() || cfg.NamePrefix.IsUnknown() {
		return
	}
	if err := rules.ValidQueueNamePrefix(cfg.NamePrefix.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("name_prefix"), "Invalid Queue Name Prefix",
			fmt.Sprintf("The name prefix cannot start any queue name: %s. No queue could match it, so the list would be empty. "+
				"Use the start of a full queue name, for example acme/crm/prod/.", clause(err)))
	}
}

func (l *queueListResource[M, P]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg queueListModel
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !l.data.eventMeshOrError(&diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	prefix := cfg.NamePrefix.ValueString()
	snap, err := l.data.eventMesh.Snapshot(ctx)
	if err != nil {
		diags.AddError("Cannot List Queues", listErrorDetail(fmt.Sprintf("listing the queues whose names start with %q", prefix), err))
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	all := snap.Queues()
	users := dmqUsers(all)
	stream.Results = func(push func(list.ListResult) bool) {
		var n int64
		for i := range all {
			q := &all[i]
			if !strings.HasPrefix(q.Name, prefix) || (len(users[q.Name]) > 0) != l.deadMessageQueues {
				continue
			}
			if req.Limit > 0 && n >= req.Limit {
				return
			}
			n++
			if !push(l.result(ctx, req, q, users[q.Name])) {
				return
			}
		}
	}
}

// result is the list result of queue q, which the queues users name as their dead message queue.
func (l *queueListResource[M, P]) result(ctx context.Context, req list.ListRequest, q *eventmesh.Queue, users []string) list.ListResult {
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
	p.fromAPI(q)
	r.Diagnostics.Append(set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r
}

// dmqUsers maps each queue that other queues name as their dead message queue to those
// queues, sorted.
func dmqUsers(all []eventmesh.Queue) map[string][]string {
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

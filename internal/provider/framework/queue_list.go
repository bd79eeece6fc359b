package framework

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// QueueList is the one implementation of the queue-like list resources of both brokers
// (sapmessaging_queue and sapmessaging_dead_message_queue of Event Mesh, sapmessaging_aem_queue and
// sapmessaging_aem_dead_message_queue of Advanced Event Mesh). Each lists, from the run's one queue
// list, the queues whose name starts with the block's prefix and that its broker's classifier gives
// to this type, so that each queue is listed by exactly one of a broker's two types; the broker
// configures the client (Snapshot), the name filter (Filter, CheckFilter) and the classifier
// (Users, ListedAsDeadMessageQueue), and what a result holds (QueueSnapshot.Result).
type QueueList[Q any] struct {
	TypeSuffix string
	// DeadMessageQueues lists the queues the classifier calls dead message queues; without it, the others.
	DeadMessageQueues bool
	// Schema is the schema of a list block.
	Schema func() schema.Schema
	// Filter reads the name prefix of a list block and the attribute that sets it.
	Filter func(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) (prefix types.String, attribute string)
	// CheckFilter reports, on attribute, a known prefix that no queue name can start with.
	CheckFilter func(prefix, attribute string, diags *diag.Diagnostics)
	// Snapshot reads the run's queue list, in the order of the results, for a block filtering by prefix;
	// false after it reported an error.
	Snapshot func(ctx context.Context, d *ProviderData, prefix string, diags *diag.Diagnostics) (QueueSnapshot[Q], bool)
	// Name is a queue's name.
	Name func(q Q) string
	// Users maps each queue that other queues name as their dead message queue to those queues, sorted.
	Users func(all []Q) map[string][]string
	// ListedAsDeadMessageQueue is the classifier: whether the dead message queue type lists q, which
	// the queues users name as their dead message queue.
	ListedAsDeadMessageQueue func(q Q, users []string) bool

	data *ProviderData
}

var (
	_ list.ListResource                   = (*QueueList[string])(nil)
	_ list.ListResourceWithConfigure      = (*QueueList[string])(nil)
	_ list.ListResourceWithValidateConfig = (*QueueList[string])(nil)
)

// QueueSnapshot is the run's queue list of a broker and how one of its queues becomes a list result.
type QueueSnapshot[Q any] struct {
	All []Q
	// Result is the list result of q (display name, identity, and with include_resource the state an
	// import would read), which the queues users name as their dead message queue.
	Result func(ctx context.Context, req list.ListRequest, q Q, users []string) list.ListResult
}

func (l *QueueList[Q]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + l.TypeSuffix
}

func (l *QueueList[Q]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = l.Schema()
}

func (l *QueueList[Q]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *QueueList[Q]) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	prefix, attribute := l.Filter(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || prefix.IsNull() || prefix.IsUnknown() {
		return
	}
	l.CheckFilter(prefix.ValueString(), attribute, &resp.Diagnostics)
}

func (l *QueueList[Q]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	prefix, _ := l.Filter(ctx, req.Config, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	snap, ok := l.Snapshot(ctx, l.data, prefix.ValueString(), &diags)
	if !ok {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	users := l.Users(snap.All)
	var selected []Q
	for _, q := range snap.All {
		name := l.Name(q)
		if strings.HasPrefix(name, prefix.ValueString()) && l.ListedAsDeadMessageQueue(q, users[name]) == l.DeadMessageQueues {
			selected = append(selected, q)
		}
	}
	stream.Results = func(push func(list.ListResult) bool) {
		lim := LimitedResults{Limit: req.Limit, Total: int64(len(selected)), What: "queues"}
		for _, q := range selected {
			if !lim.Push(push, snap.Result(ctx, req, q, users[l.Name(q)])) {
				return
			}
		}
	}
}

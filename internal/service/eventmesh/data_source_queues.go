package eventmesh

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// NewQueuesDataSource returns the sapmessaging_queues data source: the shared skeleton
// (framework.QueuesDataSource) given the Event Mesh queue list.
func NewQueuesDataSource() datasource.DataSource {
	return &framework.QueuesDataSource[QueueInfoModel]{
		TypeSuffix: "_queues",
		Description: "All SAP Event Mesh queues of the instance, or those whose name starts with `name_prefix`, with their " +
			"settings, live counters and an `unbounded_redelivery` flag. Use it in a `check` block to warn when any queue of a " +
			"landscape redelivers without limit.",
		PrefixDescription: "Only queues whose name starts with this prefix, for example `acme/crm/prod/`.",
		QueuesDescription: "The queues, sorted by name.",
		InfoAttributes: func() map[string]schema.Attribute {
			attrs := queueInfoAttributes()
			attrs["name"] = schema.StringAttribute{MarkdownDescription: "The full queue name.", Computed: true}
			return attrs
		},
		Need: framework.NeedEventMesh,
		List: readQueues,
	}
}

// readQueues lists the queues whose name starts with prefix, sorted by name.
func readQueues(ctx context.Context, d *framework.ProviderData, prefix string, diags *diag.Diagnostics) ([]string, []QueueInfoModel, bool) {
	all, err := d.EventMesh.ListQueues(ctx)
	if err != nil {
		diags.AddError("Cannot List Queues", framework.ListErrorDetail(fmt.Sprintf("reading the queues whose names start with %q", prefix), err))
		return nil, nil, false
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	used := usedAsDMQ(all)
	var names []string
	var queues []QueueInfoModel
	for i := range all {
		if !strings.HasPrefix(all[i].Name, prefix) {
			continue
		}
		names = append(names, all[i].Name)
		queues = append(queues, queueInfo(&all[i], used[all[i].Name]))
	}
	return names, queues, true
}

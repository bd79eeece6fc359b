package eventmesh

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*queuesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*queuesDataSource)(nil)
)

// NewQueuesDataSource returns the sapmessaging_queues data source.
func NewQueuesDataSource() datasource.DataSource {
	return &queuesDataSource{}
}

type queuesDataSource struct {
	data *framework.ProviderData
}

type queuesModel struct {
	NamePrefix types.String     `tfsdk:"name_prefix"`
	Names      []string         `tfsdk:"names"`
	Queues     []QueueInfoModel `tfsdk:"queues"`
}

func (d *queuesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_queues"
}

func (d *queuesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := queueInfoAttributes()
	attrs["name"] = schema.StringAttribute{MarkdownDescription: "The full queue name.", Computed: true}
	resp.Schema = schema.Schema{
		MarkdownDescription: "All SAP Event Mesh queues of the instance, or those whose name starts with `name_prefix`, with their " +
			"settings, live counters and an `unbounded_redelivery` flag. Use it in a `check` block to warn when any queue of a " +
			"landscape redelivers without limit.",
		Attributes: map[string]schema.Attribute{
			"name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only queues whose name starts with this prefix, for example `acme/crm/prod/`.",
				Optional:            true,
			},
			"names": schema.ListAttribute{
				MarkdownDescription: "The names of the queues, sorted.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"queues": schema.ListNestedAttribute{
				MarkdownDescription: "The queues, sorted by name.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: attrs},
			},
		},
	}
}

func (d *queuesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *queuesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg queuesModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || !d.data.EventMeshOrError(&resp.Diagnostics) || !d.data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedEventMesh) {
		return
	}
	all, err := d.data.EventMesh.ListQueues(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot List Queues", framework.ListErrorDetail(fmt.Sprintf("reading the queues whose names start with %q", cfg.NamePrefix.ValueString()), err))
		return
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	used := usedAsDMQ(all)
	prefix := cfg.NamePrefix.ValueString()
	cfg.Names, cfg.Queues = []string{}, []QueueInfoModel{}
	for i := range all {
		if !strings.HasPrefix(all[i].Name, prefix) {
			continue
		}
		cfg.Names = append(cfg.Names, all[i].Name)
		cfg.Queues = append(cfg.Queues, queueInfo(&all[i], used[all[i].Name]))
	}
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &cfg)...)
}

package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*QueuesDataSource[struct{}])(nil)
	_ datasource.DataSourceWithConfigure = (*QueuesDataSource[struct{}])(nil)
)

// QueuesDataSource is the one implementation of the plural queue data sources of both brokers
// (sapmessaging_queues, sapmessaging_aem_queues): every queue, or those whose name starts with
// name_prefix, sorted by name, each as the broker's single queue data source shows one (the model I).
// The broker configures the descriptions, the attributes of one queue, the connection (Need) and
// the client's reading (Read).
type QueuesDataSource[I any] struct {
	TypeSuffix string
	// Description, PrefixDescription and QueuesDescription describe the data source, name_prefix and queues.
	Description, PrefixDescription, QueuesDescription string
	// InfoAttributes are the attributes of one queue.
	InfoAttributes func() map[string]schema.Attribute
	// Need is the connection the data source reads through (ProviderData.Connected).
	Need ConnectionNeed
	// List lists the queues whose name starts with prefix, sorted by name; false after it reported an error.
	List func(ctx context.Context, d *ProviderData, prefix string, diags *diag.Diagnostics) (names []string, queues []I, ok bool)

	data *ProviderData
}

// queuesModel is the model of a plural queue data source.
type queuesModel[I any] struct {
	NamePrefix types.String `tfsdk:"name_prefix"`
	Names      []string     `tfsdk:"names"`
	Queues     []I          `tfsdk:"queues"`
}

func (d *QueuesDataSource[I]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + d.TypeSuffix
}

func (d *QueuesDataSource[I]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: d.Description,
		Attributes: map[string]schema.Attribute{
			"name_prefix": schema.StringAttribute{
				MarkdownDescription: d.PrefixDescription,
				Optional:            true,
			},
			"names": schema.ListAttribute{
				MarkdownDescription: "The names of the queues, sorted.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"queues": schema.ListNestedAttribute{
				MarkdownDescription: d.QueuesDescription,
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: d.InfoAttributes()},
			},
		},
	}
}

func (d *QueuesDataSource[I]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *QueuesDataSource[I]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg queuesModel[I]
	resp.Diagnostics.Append(GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || !d.data.Connected(ctx, &resp.Diagnostics, d.Need) {
		return
	}
	names, queues, ok := d.List(ctx, d.data, cfg.NamePrefix.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	cfg.Names, cfg.Queues = names, queues
	if cfg.Names == nil {
		cfg.Names = []string{}
	}
	if cfg.Queues == nil {
		cfg.Queues = []I{}
	}
	resp.Diagnostics.Append(SetState(ctx, &resp.State, &cfg)...)
}

var (
	_ datasource.DataSource              = (*QueueDataSource[struct{}])(nil)
	_ datasource.DataSourceWithConfigure = (*QueueDataSource[struct{}])(nil)
)

// QueueDataSource is the one implementation of the single queue data sources of both brokers
// (sapmessaging_queue, sapmessaging_aem_queue): the queue its name attribute names, read when Terraform
// plans, as the model I. The broker configures the description, the attributes (name among them), the
// connection (Connected), the client's reading (Find) and the error of a queue that does not exist.
type QueueDataSource[I any] struct {
	TypeSuffix, Description string
	// InfoAttributes are the attributes of the queue read; NameDescription and NameValidator describe and check
	// its name, the data source's one argument.
	InfoAttributes  func() map[string]schema.Attribute
	NameDescription string
	NameValidator   validator.String
	// Need is the connection the data source reads through (ProviderData.Connected).
	Need ConnectionNeed
	// Find reads the queue name; found is false for a queue the broker does not hold, ok false after an error it reported.
	Find func(ctx context.Context, d *ProviderData, name string, diags *diag.Diagnostics) (queue I, found, ok bool)
	// NotFound reports, on the name attribute, that the broker has no queue name.
	NotFound func(d *ProviderData, name string, diags *diag.Diagnostics)

	data *ProviderData
}

func (d *QueueDataSource[I]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + d.TypeSuffix
}

func (d *QueueDataSource[I]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := d.InfoAttributes()
	attrs["name"] = schema.StringAttribute{
		MarkdownDescription: d.NameDescription,
		Required:            true,
		Validators:          []validator.String{d.NameValidator},
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.Description, Attributes: attrs}
}

func (d *QueueDataSource[I]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *QueueDataSource[I]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	if resp.Diagnostics.HasError() || !d.data.Connected(ctx, &resp.Diagnostics, d.Need) {
		return
	}
	info, found, ok := d.Find(ctx, d.data, name.ValueString(), &resp.Diagnostics)
	switch {
	case !ok:
	case found:
		resp.Diagnostics.Append(SetState(ctx, &resp.State, &info)...)
	default:
		d.NotFound(d.data, name.ValueString(), &resp.Diagnostics)
	}
}

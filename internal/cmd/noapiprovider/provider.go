package main

import (
	"context"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	sapprovider "github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
)

var (
	_ provider.Provider = (*noAPIProvider)(nil)
	_ resource.Resource = (*queueResource)(nil)
)

// noAPIProvider is a provider without settings that serves queueResource.
type noAPIProvider struct{}

func newProvider() provider.Provider { return &noAPIProvider{} }

func (p *noAPIProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "sapmessaging"
}

func (p *noAPIProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{MarkdownDescription: "The sapmessaging_queue schema without an API, for the provider benchmark."}
}

func (p *noAPIProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *noAPIProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &queueResource{schemaOf: sapprovider.NewQueueResource()} }}
}

func (p *noAPIProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// queueResource has the name and schema of the real sapmessaging_queue and keeps everything in
// the state.
type queueResource struct {
	schemaOf resource.Resource
}

func (r *queueResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.schemaOf.Metadata(ctx, req, resp)
}

func (r *queueResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.schemaOf.Schema(ctx, req, resp)
}

func (r *queueResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = known(req.Plan.Raw)
}

func (r *queueResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *queueResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = known(req.Plan.Raw)
}

func (r *queueResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// known replaces the unknown values of a plan, which only computed attributes hold, with zero
// values of their type, as a service would fill them in.
func known(plan tftypes.Value) tftypes.Value {
	v, err := tftypes.Transform(plan, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		switch t := v.Type(); {
		case t.Is(tftypes.String):
			return tftypes.NewValue(t, ""), nil
		case t.Is(tftypes.Number):
			return tftypes.NewValue(t, big.NewFloat(0)), nil
		case t.Is(tftypes.Bool):
			return tftypes.NewValue(t, false), nil
		default:
			return tftypes.NewValue(t, nil), nil
		}
	})
	if err != nil {
		return plan
	}
	return v
}

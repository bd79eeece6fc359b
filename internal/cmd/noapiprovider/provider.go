package main

import (
	"context"
	"io"
	"math/big"
	"net/http"
	"os"
	"sync"
	"time"

	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ provider.Provider = (*noAPIProvider)(nil)
	_ resource.Resource = (*queueResource)(nil)
)

// envWait names a duration, such as 100ms, that Create and Update wait before they answer, as a
// provider waits for the one API call each makes, and Delete once per call the provider makes to
// delete the queue (see Delete): the provider benchmark sets it with -noapi-wait to the emulator's
// latency, to measure what the waiting alone costs a provider process.
const envWait = "SAPMESSAGING_NOAPI_WAIT"

// envCall names a URL that Create and Update call with one GET instead of waiting, as the provider
// makes its one API call, and Delete once per call the provider makes to delete the queue; the first
// Read, Create, Update or Delete of a process calls it once more, as the provider lists the queues
// once per process. The provider benchmark sets it with -noapi-call to a server that waits the
// emulator's latency, to measure what the calls alone cost a provider process: the connection,
// the request and the answer through Go's HTTP client, without the provider's work around them.
const envCall = "SAPMESSAGING_NOAPI_CALL"

// noAPIProvider is a provider without settings that serves queueResource.
type noAPIProvider struct {
	wait time.Duration
	call *caller // nil without envCall
}

func newProvider() provider.Provider {
	return &noAPIProvider{wait: waitFrom(os.Getenv(envWait)), call: callerFor(os.Getenv(envCall))}
}

// caller makes the calls of envCall.
type caller struct {
	url    string
	client *http.Client
	listed sync.Once
}

// callerFor returns the caller of url, nil for "".
func callerFor(url string) *caller {
	if url == "" {
		return nil
	}
	t := &http.Transport{Proxy: http.ProxyFromEnvironment, MaxIdleConns: 100, IdleConnTimeout: 90 * time.Second}
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		t = dt.Clone()
	}
	t.MaxIdleConnsPerHost = 32 // as the provider's HTTP clients keep (internal/httpx)
	return &caller{url: url, client: &http.Client{Transport: t}}
}

// do makes one GET of c.url and reads the answer, after the process's list call when it is the
// process's first; nothing without a caller.
func (c *caller) do(ctx context.Context) {
	if c == nil {
		return
	}
	c.listed.Do(func() { c.get(ctx) })
	c.get(ctx)
}

func (c *caller) get(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
}

// waitFrom reads the value of envWait: a duration, 0 when it is empty, negative or not a duration.
func waitFrom(v string) time.Duration {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0
	}
	return d
}

func (p *noAPIProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "sapmessaging"
}

func (p *noAPIProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{MarkdownDescription: "The sapmessaging_queue, sapmessaging_aem_queue and sapmessaging_aem_dead_message_queue schemas without an API, for the provider benchmark."}
}

func (p *noAPIProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

// Resources are the real provider's queue resources, each with its name and schema and no API:
// sapmessaging_queue first, then the Advanced Event Mesh queue and dead message queue of the
// bench's AEM section.
func (p *noAPIProvider) Resources(context.Context) []func() resource.Resource {
	var out []func() resource.Resource
	for _, newReal := range []func() resource.Resource{tfeventmesh.NewQueueResource, tfaem.NewAEMQueueResource, tfaem.NewAEMDeadMessageQueueResource} {
		out = append(out, func() resource.Resource { return &queueResource{schemaOf: newReal(), wait: p.wait, call: p.call} })
	}
	return out
}

func (p *noAPIProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// queueResource has the name and schema of a real queue resource and keeps everything in
// the state.
type queueResource struct {
	schemaOf resource.Resource
	wait     time.Duration // see envWait
	call     *caller       // see envCall
}

// waitAsForAPI makes the call of envCall when it is set, else waits r.wait, or until ctx ends.
func (r *queueResource) waitAsForAPI(ctx context.Context) {
	if r.call != nil {
		r.call.do(ctx)
		return
	}
	if r.wait <= 0 {
		return
	}
	t := time.NewTimer(r.wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func (r *queueResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.schemaOf.Metadata(ctx, req, resp)
}

func (r *queueResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.schemaOf.Schema(ctx, req, resp)
}

func (r *queueResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.waitAsForAPI(ctx)
	resp.State.Raw = known(req.Plan.Raw)
}

// Read keeps the state; with envCall, the process's first Read makes the list call.
func (r *queueResource) Read(ctx context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
	if r.call != nil {
		r.call.listed.Do(func() { r.call.get(ctx) })
	}
}

func (r *queueResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.waitAsForAPI(ctx)
	resp.State.Raw = known(req.Plan.Raw)
}

// Delete waits as for the API calls the real provider makes to delete a queue and forgets the
// queue: without force_destroy two (a GET that reads its message count fresh, then the DELETE),
// with force_destroy = true the DELETE alone.
func (r *queueResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var force types.Bool
	if !req.State.Raw.IsNull() {
		_ = req.State.GetAttribute(ctx, path.Root("force_destroy"), &force)
	}
	if !force.ValueBool() {
		r.waitAsForAPI(ctx)
	}
	r.waitAsForAPI(ctx)
}

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

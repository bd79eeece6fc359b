package aem

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// The sapmessaging_aem_queues data source: every Advanced Event Mesh queue of the Message VPN, or those whose
// name starts with a prefix, as sapmessaging_aem_queue shows one. It costs one paged list of the queues'
// configuration and one paged list of their counters (SEMP monitor API), and per queue under the prefix one
// paged list each of its messages and consumer flows (their counts: the monitor API has no counter of either).

var (
	_ datasource.DataSource              = (*aemQueuesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*aemQueuesDataSource)(nil)
)

// NewAEMQueuesDataSource returns the sapmessaging_aem_queues data source.
func NewAEMQueuesDataSource() datasource.DataSource {
	return &aemQueuesDataSource{}
}

type aemQueuesDataSource struct {
	data *framework.ProviderData
}

type aemQueuesModel struct {
	NamePrefix types.String        `tfsdk:"name_prefix"`
	Names      []string            `tfsdk:"names"`
	Queues     []AEMQueueInfoModel `tfsdk:"queues"`
}

func (d *aemQueuesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_aem_queues"
}

func (d *aemQueuesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "All SAP Integration Suite, advanced event mesh (AEM) queues of the Message VPN, or those whose name starts " +
			"with `name_prefix`, each with its settings, live counters, the findings of the provider's AEM queue rules and what the " +
			"broker does with a poison message. Use it in a `check` block to warn when any queue of a broker retries forever or a dead " +
			"message queue fills up. It costs one paged list of the queues' configuration and one paged list of their counters " +
			"(SEMP monitor API), 100 queues per page, and per queue under the prefix one paged list each of its messages and consumer " +
			"flows, which give `message_count` and `bind_count` (eight queues at a time).",
		Attributes: map[string]schema.Attribute{
			"name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only queues whose name starts with this prefix, for example `acme/`.",
				Optional:            true,
			},
			"names": schema.ListAttribute{
				MarkdownDescription: "The names of the queues, sorted.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"queues": schema.ListNestedAttribute{
				MarkdownDescription: "The queues, sorted by name, with the attributes of the `sapmessaging_aem_queue` data source.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: aemQueueInfoAttributes()},
			},
		},
	}
}

func (d *aemQueuesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *aemQueuesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg aemQueuesModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() || !d.data.AEMOrError(&resp.Diagnostics) || !d.data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedAEM) {
		return
	}
	prefix := cfg.NamePrefix.ValueString()
	all, err := d.data.AEM.ListQueues(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot List AEM Queues", aemListErrorDetail(fmt.Sprintf("listing the queues whose names start with %q", prefix), err))
		return
	}
	stats, err := d.data.AEM.ListQueueStats(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot List AEM Queues", aemListErrorDetail(fmt.Sprintf("listing the counters of the queues whose names start with %q", prefix), err))
		return
	}
	byName := make(map[string]*aem.QueueStats, len(stats))
	for i := range stats {
		byName[stats[i].Name] = &stats[i]
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	names, used := aemQueueLinks(all)
	cycles := aemQueueCycles(all)
	var picked []int
	for i := range all {
		if strings.HasPrefix(all[i].Name, prefix) {
			picked = append(picked, i)
		}
	}
	counts, err := countAEMQueues(ctx, d.data.AEM, all, picked)
	if err != nil {
		resp.Diagnostics.AddError("Cannot List AEM Queues", aemListErrorDetail(fmt.Sprintf("counting the messages and consumers of the queues whose names start with %q", prefix), err))
		return
	}
	cfg.Names, cfg.Queues = []string{}, []AEMQueueInfoModel{}
	for k, i := range picked {
		info, err := aemQueueInfo(aemView(&all[i], byName[all[i].Name], counts[k], names, used, cycles))
		if err != nil {
			resp.Diagnostics.AddError("Cannot List AEM Queues", fmt.Sprintf("The findings of queue %q could not be written: %s. Report this as a bug of the provider.", all[i].Name, framework.Clause(err)))
			return
		}
		cfg.Names = append(cfg.Names, all[i].Name)
		cfg.Queues = append(cfg.Queues, info)
	}
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &cfg)...)
}

// aemCountParallel is how many queues countAEMQueues counts at once.
const aemCountParallel = 8

// countAEMQueues counts the messages and consumer flows of the queues all[picked[k]], a few at a time; the
// k-th result is nil for a queue deleted since the list.
func countAEMQueues(ctx context.Context, c *aem.Client, all []aem.Queue, picked []int) ([]*aemQueueCounts, error) {
	out := make([]*aemQueueCounts, len(picked))
	errs := make([]error, len(picked))
	sem := make(chan struct{}, aemCountParallel)
	var wg sync.WaitGroup
	for k, i := range picked {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[k], errs[k] = countAEMQueue(ctx, c, all[i].Name)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err // the first: the others are most likely the same
		}
	}
	return out, nil
}

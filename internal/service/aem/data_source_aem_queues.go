package aem

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// The sapmessaging_aem_queues data source: every Advanced Event Mesh queue of the Message VPN, or those whose
// name starts with a prefix, as sapmessaging_aem_queue shows one. It costs one paged list of the queues'
// configuration and one paged list of their counters (SEMP monitor API), and per queue under the prefix one
// paged list each of its messages and consumer flows (their counts: the monitor API has no counter of either).

// NewAEMQueuesDataSource returns the sapmessaging_aem_queues data source: the shared skeleton
// (framework.QueuesDataSource) given the SEMP client's queue lists.
func NewAEMQueuesDataSource() datasource.DataSource {
	return &framework.QueuesDataSource[AEMQueueInfoModel]{
		TypeSuffix: "_aem_queues",
		Description: "All SAP Integration Suite, advanced event mesh (AEM) queues of the Message VPN, or those whose name starts " +
			"with `name_prefix`, each with its settings, live counters, the findings of the provider's AEM queue rules and what the " +
			"broker does with a poison message. Use it in a `check` block to warn when any queue of a broker retries forever or a dead " +
			"message queue fills up. It costs one paged list of the queues' configuration and one paged list of their counters " +
			"(SEMP monitor API), 100 queues per page, and per queue under the prefix one paged list each of its messages and consumer " +
			"flows, which give `message_count` and `bind_count` (eight queues at a time).",
		PrefixDescription: "Only queues whose name starts with this prefix, for example `acme/`.",
		QueuesDescription: "The queues, sorted by name, with the attributes of the `sapmessaging_aem_queue` data source.",
		InfoAttributes:    aemQueueInfoAttributes,
		Need:              framework.NeedAEM,
		List:              readAEMQueues,
	}
}

// readAEMQueues lists the queues whose name starts with prefix, sorted by name.
func readAEMQueues(ctx context.Context, d *framework.ProviderData, prefix string, diags *diag.Diagnostics) ([]string, []AEMQueueInfoModel, bool) {
	all, err := d.AEM.ListQueues(ctx)
	if err != nil {
		diags.AddError("Cannot List AEM Queues", aemListErrorDetail(fmt.Sprintf("listing the queues whose names start with %q", prefix), err))
		return nil, nil, false
	}
	stats, err := d.AEM.ListQueueStats(ctx)
	if err != nil {
		diags.AddError("Cannot List AEM Queues", aemListErrorDetail(fmt.Sprintf("listing the counters of the queues whose names start with %q", prefix), err))
		return nil, nil, false
	}
	byName := make(map[string]*aem.QueueStats, len(stats))
	for i := range stats {
		byName[stats[i].Name] = &stats[i]
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	links, used := aemQueueLinks(all)
	cycles := aemQueueCycles(all)
	var picked []int
	for i := range all {
		if strings.HasPrefix(all[i].Name, prefix) {
			picked = append(picked, i)
		}
	}
	counts, err := countAEMQueues(ctx, d.AEM, all, picked)
	if err != nil {
		diags.AddError("Cannot List AEM Queues", aemListErrorDetail(fmt.Sprintf("counting the messages and consumers of the queues whose names start with %q", prefix), err))
		return nil, nil, false
	}
	var names []string
	var queues []AEMQueueInfoModel
	for k, i := range picked {
		info, err := aemQueueInfo(aemView(&all[i], byName[all[i].Name], counts[k], links, used, cycles))
		if err != nil {
			diags.AddError("Cannot List AEM Queues", fmt.Sprintf("The findings of queue %q could not be written: %s. Report this as a bug of the provider.", all[i].Name, framework.Clause(err)))
			return nil, nil, false
		}
		names = append(names, all[i].Name)
		queues = append(queues, info)
	}
	return names, queues, true
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

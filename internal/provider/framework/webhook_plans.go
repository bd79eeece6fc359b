package framework

import (
	"slices"
	"sync"
)

// webhookPlans records the webhook subscriptions this run plans, per queue, so that two
// webhooks planned on one queue warn although neither exists yet.
type webhookPlans struct {
	mu      sync.Mutex
	byQueue map[string][]string
}

func (p *webhookPlans) Record(queue, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byQueue == nil {
		p.byQueue = map[string][]string{}
	}
	if !slices.Contains(p.byQueue[queue], name) {
		p.byQueue[queue] = append(p.byQueue[queue], name)
	}
}

// Others returns the webhooks this run planned on queue, other than name.
func (p *webhookPlans) Others(queue, name string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, n := range p.byQueue[queue] {
		if n != name {
			out = append(out, n)
		}
	}
	return out
}

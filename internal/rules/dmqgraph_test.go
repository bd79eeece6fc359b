package rules

import (
	"fmt"
	"strings"
	"testing"
)

func TestCheckDeadMessageQueueLinks(t *testing.T) {
	t.Parallel()
	tests := []linkCase{
		{"no dmq", "a", "", LinkSet{Current: map[string]string{"b": "a"}}, nil, ""},
		{"self is `queue.dmq_self`", "a", "a", LinkSet{}, nil, ""},
		{"dmq unknown to the service", "a", "b", LinkSet{}, nil, ""},
		{"dmq without a dmq", "a", "b", LinkSet{Current: map[string]string{"b": ""}}, nil, ""},
		{"direct cycle on the service", "a", "b", LinkSet{Current: map[string]string{"b": "a"}},
			[]string{"queue.dmq_cycle"}, "a → b → a"},
		{"direct cycle in the plans", "a", "b", LinkSet{Planned: map[string]string{"b": "a"}},
			[]string{"queue.dmq_cycle"}, "a → b → a"},
		{"longer cycle", "a", "b", LinkSet{Current: map[string]string{"b": "c", "c": "d"}, Planned: map[string]string{"d": "a"}},
			[]string{"queue.dmq_cycle"}, "a → b → c → d → a"},
		{"cycle through the link a plan replaces", "a", "b", LinkSet{Current: map[string]string{"b": "a"}, Planned: map[string]string{"b": "x"}},
			[]string{"queue.dmq_cycle"}, "a → b → a"},
		{"cycle through the planned link", "a", "b", LinkSet{Current: map[string]string{"b": "x"}, Planned: map[string]string{"b": "a"}},
			[]string{"queue.dmq_cycle"}, "a → b → a"},
		{"shortest cycle", "a", "b", LinkSet{Current: map[string]string{"b": "c", "c": "d", "d": "a"}, Planned: map[string]string{"b": "a"}},
			[]string{"queue.dmq_cycle"}, "a → b → a"},
		{"cycle not through the queue", "a", "b", LinkSet{Current: map[string]string{"b": "c", "c": "b"}},
			[]string{"queue.dmq_chain"}, `its own, "c"`},
		{"chain", "a", "b", LinkSet{Current: map[string]string{"b": "c"}},
			[]string{"queue.dmq_chain"}, `The dead message queue "b" of "a" names a dead message queue of its own, "c"`},
		{"chain removed by a plan", "a", "b", LinkSet{Current: map[string]string{"b": "c"}, Planned: map[string]string{"b": ""}}, nil, ""},
		{"chain added by a plan", "a", "b", LinkSet{Current: map[string]string{"b": ""}, Planned: map[string]string{"b": "c"}},
			[]string{"queue.dmq_chain"}, `"c"`},
		{"the queue's own current link is not followed", "a", "b", LinkSet{Current: map[string]string{"a": "x", "x": "a"}}, nil, ""},
	}
	runLinkCases(t, tests, CheckDeadMessageQueueLinks, func(t *testing.T, f Finding) {
		expectAttribute(t, []Finding{f}, "dead_message_queue")
	})
}

// linkCase is a case of a dead message queue graph check: a queue, its dead message queue and
// the links around them; the rules found, and a text the first finding's detail holds.
type linkCase struct {
	name       string
	queue, dmq string
	links      LinkSet
	want       []string
	contains   string
}

func (c linkCase) caseName() string { return c.name }

// runLinkCases runs check on each case and each with each finding.
func runLinkCases(t *testing.T, tests []linkCase, check func(queue, dmq string, links LinkSet) []Finding, each func(*testing.T, Finding)) {
	t.Helper()
	runCases(t, tests, func(t *testing.T, tt linkCase) {
		fs := check(tt.queue, tt.dmq, tt.links)
		expectRules(t, fs, tt.want...)
		if tt.contains != "" && (len(fs) == 0 || !strings.Contains(fs[0].Detail, tt.contains)) {
			t.Errorf("findings %+v do not contain %q", fs, tt.contains)
		}
		for _, f := range fs {
			each(t, f)
		}
	})
}

// A long chain is walked without recursion and ends.
func TestCheckDeadMessageQueueLinksLongChain(t *testing.T) {
	t.Parallel()
	s := LinkSet{Current: map[string]string{}}
	for i := range 10000 {
		s.Current[name(i)] = name(i + 1)
	}
	s.Current[name(10000)] = "q"
	fs := CheckDeadMessageQueueLinks("q", name(0), s)
	expectRules(t, fs, "queue.dmq_cycle")
	if got := strings.Count(fs[0].Detail, "→"); got != 10002 {
		t.Errorf("the cycle has %d arrows, want 10002", got)
	}
}

func name(i int) string { return fmt.Sprintf("acme/crm/prod/q%d", i) }

func TestCheckPlannedDeadMessageQueue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		queue, dmq string
		exists     bool
		want       []string
	}{
		{"no dmq", "a/b/c/q", "", false, nil},
		{"self is `queue.dmq_self`", "a/b/c/q", "a/b/c/q", false, nil},
		{"exists or planned", "a/b/c/q", "a/b/c/q/dmq", true, nil},
		{"missing", "a/b/c/q", "a/b/c/q/dmq", false, []string{"queue.dmq_not_found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckPlannedDeadMessageQueue(tt.queue, tt.dmq, tt.exists)
			expectRules(t, fs, tt.want...)
			for _, f := range fs {
				if f.Attribute != "dead_message_queue" || !strings.Contains(f.Detail, "name attribute") {
					t.Errorf("finding %+v: want it on `dead_message_queue`, saying to refer to the creating resource's name", f)
				}
			}
		})
	}
}

// The AEM broker's dead message queues are checked by the same graph, in its words: a cycle and a chain of AEM
// queues, fixed with sapmessaging_aem_dead_message_queue.
func TestCheckAEMDeadMessageQueueLinks(t *testing.T) {
	t.Parallel()
	tests := []linkCase{
		{"no dmq", "orders", "", LinkSet{Current: map[string]string{"x": "orders"}}, nil, ""},
		{"self", "orders", "orders", LinkSet{}, nil, ""},
		{"dmq without a dmq", "orders", "orders.dmq", LinkSet{Current: map[string]string{"orders.dmq": ""}}, nil, ""},
		{"cycle", "orders", "orders.dmq", LinkSet{Current: map[string]string{"orders": "orders.dmq", "orders.dmq": "orders"}},
			[]string{"aem.dmq_cycle"}, "orders → orders.dmq → orders"},
		{"chain", "orders", "orders.dmq", LinkSet{Current: map[string]string{"orders": "orders.dmq", "orders.dmq": "orders.dmq.dmq"}},
			[]string{"aem.dmq_chain"}, `The dead message queue "orders.dmq" of "orders" names a dead message queue of its own, "orders.dmq.dmq"`},
	}
	runLinkCases(t, tests, CheckAEMDeadMessageQueueLinks, func(t *testing.T, f Finding) {
		if f.Attribute != "dead_message_queue" || !strings.Contains(f.Detail, "sapmessaging_aem_dead_message_queue") ||
			strings.Contains(f.Detail, "`sapmessaging_dead_message_queue`") {
			t.Errorf("finding %s: attribute %q, detail %q: want `dead_message_queue` and the AEM resource", f.Rule, f.Attribute, f.Detail)
		}
	})
}

func TestCheckDestroyedDeadMessageQueue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		queue, dmq string
		onQueue    bool
		want       []string
	}{
		{"no dmq", "a/b/c/q", "", true, nil},
		{"self is `queue.dmq_self`", "a/b/c/q", "a/b/c/q", true, nil},
		{"on the queue", "a/b/c/q", "a/b/c/q/dmq", true, []string{"queue.dmq_destroyed"}},
		{"on the delete", "a/b/c/q", "a/b/c/q/dmq", false, []string{"queue.dmq_destroyed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckDestroyedDeadMessageQueue(tt.queue, tt.dmq, tt.onQueue)
			expectRules(t, fs, tt.want...)
			for _, f := range fs {
				if wantAttr := map[bool]string{true: "dead_message_queue"}[tt.onQueue]; f.Attribute != wantAttr {
					t.Errorf("attribute %q, want %q", f.Attribute, wantAttr)
				}
				if !strings.Contains(f.Detail, `destroys the queue "a/b/c/q/dmq"`) || !strings.Contains(f.Detail, "Set `dead_message_queue` of \"a/b/c/q\"") {
					t.Errorf("detail %q names neither the queue nor the fix", f.Detail)
				}
			}
		})
	}
}

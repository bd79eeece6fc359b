package framework

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// aemPlanCycleAllLinks is aemPlanCycle as it was first written: the link set of every queue of the
// broker and of the run, built for each queue planned. The test holds it as the reference that the
// plan's cycle check must agree with.
func (l *aemQueueList) aemPlanCycleAllLinks(queue, dmq string, qs map[string]*aem.Queue) []string {
	takes := l.cycleLinkTakes(queue, qs)
	s := rules.LinkSet{Current: map[string]string{}, Planned: map[string]string{}}
	for name, q := range qs {
		if to := AEMLinkOf(q); to != "" && to != name && takes(to) {
			s.Current[name] = to
		}
	}
	for name := range l.planned {
		if q := qs[name]; (q == nil || AEMLinkOf(q) != "") && takes(AEMDefaultDMQ) {
			s.Planned[name] = AEMDefaultDMQ
		}
	}
	for name, to := range l.links {
		if to != "" && to != name && takes(to) {
			s.Planned[name] = to
		}
	}
	if !takes(dmq) {
		return nil
	}
	return rules.AEMDeadMessageQueueCycle(queue, dmq, s)
}

// randomAEMLandscape is a broker's queues and a run's plans over a few names, so that links,
// cycles, queues with ingress off, "" and the broker's default DMQ meet often.
func randomAEMLandscape(rng *rand.Rand) (map[string]*aem.Queue, *aemQueueList) {
	names := []string{"a", "b", "c", "d", "e", "f", AEMDefaultDMQ}
	pick := func() string {
		switch rng.IntN(8) {
		case 0:
			return ""
		default:
			return names[rng.IntN(len(names))]
		}
	}
	qs := map[string]*aem.Queue{}
	for _, n := range names {
		if rng.IntN(3) == 0 {
			continue
		}
		q := &aem.Queue{Name: n}
		switch rng.IntN(3) {
		case 0: // the broker's default DMQ
		default:
			q.DeadMsgQueue = aem.Ptr(pick())
		}
		if rng.IntN(4) != 0 {
			q.IngressEnabled = aem.Ptr(rng.IntN(5) != 0)
		}
		qs[n] = q
	}
	l := &aemQueueList{planned: map[string]rules.Value[bool]{}, links: map[string]string{}}
	for _, n := range names {
		switch rng.IntN(4) {
		case 0:
			l.planned[n] = rules.Value[bool]{V: rng.IntN(2) == 0, Known: rng.IntN(4) != 0, Null: rng.IntN(6) == 0}
		case 1:
			l.links[n] = pick()
		}
	}
	return qs, l
}

// The plan's cycle check follows only the links it reaches and finds what the link set of every
// queue finds: the same path, or none, for every queue and dead message queue of many landscapes.
func TestAEMPlanCycle_matchesAllLinks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(41, 36))
	names := []string{"a", "b", "c", "d", "e", "f", "g", AEMDefaultDMQ}
	cycles := 0
	for i := range 3000 {
		qs, l := randomAEMLandscape(rng)
		for _, queue := range names {
			for _, dmq := range names {
				want := l.aemPlanCycleAllLinks(queue, dmq, qs)
				got := l.aemPlanCycle(queue, dmq, qs)
				if !slices.Equal(got, want) {
					t.Fatalf("landscape %d, queue %q, dmq %q: %v, the link set of every queue finds %v\nqueues %v\nplanned %v\nlinks %v",
						i, queue, dmq, got, want, describeQueues(qs), l.planned, l.links)
				}
				if want != nil {
					cycles++
				}
			}
		}
	}
	if cycles == 0 {
		t.Fatal("no landscape held a cycle")
	}
}

func describeQueues(qs map[string]*aem.Queue) map[string]string {
	out := map[string]string{}
	for n, q := range qs {
		out[n] = fmt.Sprintf("dmq=%q ingress=%v", AEMLinkOf(q), q.IngressEnabled != nil && *q.IngressEnabled)
	}
	return out
}

// BenchmarkAEMPlanCycle is the cycle check of one queue of the AEM section's plan: 1,000 queues
// naming one dead message queue on the broker and in the run's plans.
func BenchmarkAEMPlanCycle(b *testing.B) {
	const n = 1000
	dmq := "acme/aem/prod/dmq"
	qs := map[string]*aem.Queue{dmq: {Name: dmq, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}}
	l := aemQueueList{planned: map[string]rules.Value[bool]{dmq: rules.Known(true)}, links: map[string]string{}}
	for i := range n {
		name := fmt.Sprintf("acme/aem/prod/q%04d", i)
		qs[name] = &aem.Queue{Name: name, QueueSettings: aem.QueueSettings{DeadMsgQueue: aem.Ptr(dmq), IngressEnabled: aem.Ptr(true)}}
		l.links[name] = dmq
	}
	b.ReportAllocs()
	for b.Loop() {
		if l.aemPlanCycle("acme/aem/prod/q0500", dmq, qs) != nil {
			b.Fatal("a cycle")
		}
	}
}

package rules

import (
	"slices"
	"strings"
)

// CheckDeadMessageQueueLinks checks the dead message queue dmq that queue is about to name,
// following each queue's links in s:
//
//   - a path from dmq back to queue is a cycle (error): a message that dies in one queue of it is
//     moved to the next and redelivered there, round the cycle for ever, and never comes to rest
//     where someone inspects it;
//   - a dmq that names a dead message queue of its own is a chain (warning): a dead message that
//     is not picked up in time moves on again, further from where someone looks.
//
// An empty dmq, or dmq equal to queue (reported by CheckQueue as queue.dmq_self), gives no
// finding here.
func CheckDeadMessageQueueLinks(queue, dmq string, s LinkSet) []Finding {
	return checkDMQLinks(queue, dmq, s, dmqGraphWords{rule: "queue", dmqResource: "sapmessaging_dead_message_queue",
		namesNone: "which names no dead message queue itself", chainNamesNone: "which names none", removeChain: "remove the dead message queue of %q"})
}

// CheckAEMDeadMessageQueueLinks is CheckDeadMessageQueueLinks for the queues of an AEM broker (aem.dmq_cycle,
// aem.dmq_chain): the broker moves what it removes from a dead message queue to that queue's own dead message
// queue as from any queue ([SOL] DMQ). s holds, for each queue, the dead message queue the broker would move a
// message to: "" when it names none (`deadMsgQueue = ""`: removed messages are deleted) or when the one it names
// does not exist.
func CheckAEMDeadMessageQueueLinks(queue, dmq string, s LinkSet) []Finding {
	return checkDMQLinks(queue, dmq, s, dmqGraphWords{rule: "aem", dmqResource: "sapmessaging_aem_dead_message_queue",
		namesNone: "whose own dead message queue is left to the broker (as the resource keeps it)", chainNamesNone: "whose own dead message queue is left to the broker (as the resource keeps it)",
		removeChain: "manage %q with `sapmessaging_aem_dead_message_queue`, which leaves its dead message queue to the broker"})
}

// dmqGraphWords are the words of one broker in the graph's findings.
type dmqGraphWords struct {
	rule, dmqResource, namesNone, chainNamesNone, removeChain string
}

func checkDMQLinks(queue, dmq string, s LinkSet, w dmqGraphWords) []Finding {
	var r report
	if dmq == "" || dmq == queue {
		return nil
	}
	if cycle := dmqCycle(queue, dmq, s.Links); cycle != nil {
		// The rule IDs as literals: the adoption catalogue reads them.
		if w.rule == "aem" {
			r.errorf("aem.dmq_cycle", attrDeadMessageQueue, "Dead Message Queue Cycle", dmqCycleDetail, dmqCycleArgs(dmq, cycle, queue, w)...)
		} else {
			r.errorf("queue.dmq_cycle", attrDeadMessageQueue, "Dead Message Queue Cycle", dmqCycleDetail, dmqCycleArgs(dmq, cycle, queue, w)...)
		}
		return r.fs
	}
	if next := s.Final(dmq); next != "" {
		r.warnf(w.rule+".dmq_chain", attrDeadMessageQueue, "Dead Message Queue Chain",
			"The dead message queue %q of %q names a dead message queue of its own, %q: a dead message that expires or is redelivered too often there "+
				"moves on again, further from where someone looks for it. A dead message queue is inspected, not consumed, and needs none. "+
				"Set `dead_message_queue` to a `%s`, %s, or "+w.removeChain+".",
			dmq, queue, next, w.dmqResource, w.chainNamesNone, dmq)
	}
	return r.fs
}

// dmqCycle returns the path queue → dmq → … → queue when following links from dmq leads back
// to queue, or nil. It searches breadth first, so the cycle is one of the shortest; queues are
// visited in the order links returns them.
func dmqCycle(queue, dmq string, links func(string) []string) []string {
	parent := map[string]string{dmq: queue}
	frontier := []string{dmq}
	for len(frontier) > 0 {
		var next []string
		for _, q := range frontier {
			for _, to := range links(q) {
				if to == queue {
					path := []string{queue}
					for at := q; at != queue; at = parent[at] {
						path = append(path, at)
					}
					slices.Reverse(path[1:])
					return append(path, queue)
				}
				if _, seen := parent[to]; seen || to == "" {
					continue
				}
				parent[to] = q
				next = append(next, to)
			}
		}
		frontier = next
	}
	return nil
}

// LinkSet holds the dead message queue of each queue as the service holds it (Current) and as
// plans set it (Planned), with "" for none. A cycle follows both links of a queue, so that a
// cycle that any order of applying the plans could create is found; a chain looks at the link
// a queue has once the plans are applied.
type LinkSet struct {
	Current map[string]string
	Planned map[string]string
}

// Links returns the distinct non-empty dead message queues of queue, current one first.
func (s LinkSet) Links(queue string) []string {
	var out []string
	if d := s.Current[queue]; d != "" {
		out = append(out, d)
	}
	if d, ok := s.Planned[queue]; ok && d != "" && (len(out) == 0 || out[0] != d) {
		out = append(out, d)
	}
	return out
}

// Final returns the dead message queue of queue once the plans are applied: the planned one if
// a plan sets it, else the current one.
func (s LinkSet) Final(queue string) string {
	if d, ok := s.Planned[queue]; ok {
		return d
	}
	return s.Current[queue]
}

// CheckPlannedDeadMessageQueue checks at plan that the dead message queue dmq that queue is about
// to name exists: Event Mesh refuses a queue whose dead message queue does not exist ("You must
// first create a queue to use it as a dead message queue"). exists reports whether the service
// holds dmq or a resource planned earlier in this run creates or holds it. Terraform plans a
// resource after the resources it references, so a dead message queue that the configuration
// creates is planned first when dead_message_queue refers to that resource's name. An empty dmq
// or one equal to queue (reported by CheckQueue) gives no finding.
func CheckPlannedDeadMessageQueue(queue, dmq string, exists bool) []Finding {
	var r report
	if dmq == "" || dmq == queue || exists {
		return nil
	}
	r.errorf("queue.dmq_not_found", attrDeadMessageQueue, "Dead Message Queue Does Not Exist",
		"The dead message queue %q of %q does not exist on the Event Mesh instance, and no resource planned before this one in this run "+
			"creates it. Event Mesh refuses a queue whose dead message queue does not exist, so the apply would fail. If this configuration "+
			"creates %q, set `dead_message_queue` to that resource's name attribute (for example `sapmessaging_dead_message_queue.dmq.name`) "+
			"instead of the text, so that Terraform plans and creates it first; otherwise create the queue before this plan. "+
			"Set `dead_message_queue` to a queue that exists or that this configuration creates, for example %q.",
		dmq, queue, dmq, exampleDMQ(queue, true))
	return r.fs
}

// CheckDestroyedDeadMessageQueue reports that queue names dmq as its dead message queue in a plan that
// deletes dmq (a destroy, or a new name of its resource). Nothing orders the two when the queue names
// dmq by its text, and the delete's check that no queue names dmq may run before the queue's write: the
// queue would name a queue that does not exist. onQueue puts the finding on the queue's
// dead_message_queue (the queue planned after the delete), else on the plan of the delete.
func CheckDestroyedDeadMessageQueue(queue, dmq string, onQueue bool) []Finding {
	var r report
	if dmq == "" || dmq == queue {
		return nil
	}
	attr := ""
	if onQueue {
		attr = attrDeadMessageQueue
	}
	r.errorf("queue.dmq_destroyed", attr, "Dead Message Queue Destroyed",
		"This plan destroys the queue %q (or renames its resource), and the queue %q names it as its dead message queue in this plan. "+
			"The apply would refuse the delete while %q names it, unless the delete checks before %q is written, when nothing orders the "+
			"two (the queue names the dead message queue by its text): %q would then name a dead message queue that does not exist, and a "+
			"message that uses up its redeliveries there would be dropped. Set `dead_message_queue` of %q to a queue that stays, or keep "+
			"%q in the configuration.",
		dmq, queue, queue, queue, queue, queue, dmq)
	return r.fs
}

// dmqCycleDetail is the detail of the dead message queue cycle rules of both brokers (dmqCycleArgs).
const dmqCycleDetail = "With `dead_message_queue = %q` the dead message queues form a cycle: %s. A message that dies in one of these queues is moved to the next one " +
	"and redelivered there, round the cycle for ever, so it never comes to rest and every round costs executions. " +
	"The cycle counts each queue's dead message queue as the service holds it now and as this plan sets it; when the plan changes a queue " +
	"of the cycle elsewhere, apply that change first (terraform apply -target=<address>). " +
	"Set `dead_message_queue` to a `%s`, %s, for example %q."

func dmqCycleArgs(dmq string, cycle []string, queue string, w dmqGraphWords) []any {
	return []any{dmq, strings.Join(cycle, " → "), w.dmqResource, w.namesNone, exampleDMQ(queue, true)}
}

// CheckHeldDeadMessageQueue checks at plan the dead message queue dmq that queue keeps: the plan leaves
// `dead_message_queue` as the state holds it (CheckPlannedDeadMessageQueue checks a new one). exists reports
// whether the service holds dmq (the run's queue list) or a resource of this run creates it; writes whether the
// plan writes the queue, which Event Mesh refuses while dmq does not exist; allowMissing is
// allow_missing_dead_message_queue, which keeps a queue adopted as it is. An empty dmq, or one equal to queue
// (CheckQueue reports it), counts as existing.
func CheckHeldDeadMessageQueue(queue, dmq string, exists, writes, allowMissing bool) []Finding {
	var r report
	exists = exists || dmq == "" || dmq == queue
	switch {
	case exists && allowMissing:
		r.warnf("queue.allow_missing_dmq_unused", attrAllowMissingDMQ, "Allow Missing Dead Message Queue Has No Effect",
			"The queue %q names no dead message queue that is missing, so `%s = true` changes nothing. Set `%s = false`, or remove it.",
			queue, attrAllowMissingDMQ, attrAllowMissingDMQ)
	case exists:
	case writes:
		r.errorf("queue.dmq_gone", attrDeadMessageQueue, "Dead Message Queue Does Not Exist",
			"The queue %q names the dead message queue %q, which the Event Mesh instance no longer holds (it was deleted outside this "+
				"configuration), and no resource of this run creates it. This plan writes the queue, and Event Mesh refuses a queue whose "+
				"dead message queue does not exist, so the apply would fail; until then a message that uses up its redeliveries on %q is dropped. "+
				"Create the queue %q again (for example as a `sapmessaging_dead_message_queue` resource that `dead_message_queue` refers to), "+
				"or set `dead_message_queue` to a queue that exists (or, only to import a queue that already works this way as it is, "+
				"set `%s = true` for now and leave its other settings as the queue holds them, so that the plan writes nothing).",
			queue, dmq, queue, dmq, attrAllowMissingDMQ)
	case allowMissing:
		r.warnf("queue.dmq_missing_allowed", attrDeadMessageQueue, "Dead Message Queue Missing Allowed",
			"`%s = true` keeps the queue %q as it is, naming the dead message queue %q, which the Event Mesh instance does not hold: a "+
				"message that uses up its redeliveries is dropped, and any change of the queue fails at apply. "+
				"Create the queue %q again and remove `%s`.", attrAllowMissingDMQ, queue, dmq, dmq, attrAllowMissingDMQ)
	default:
		r.errorf("queue.dmq_gone", attrDeadMessageQueue, "Dead Message Queue Does Not Exist",
			"The queue %q names the dead message queue %q, which the Event Mesh instance no longer holds (it was deleted outside this "+
				"configuration), and no resource of this run creates it. A message that uses up its redeliveries on %q, or whose time to "+
				"live expires, is dropped instead of kept, and any change of the queue would fail at apply, since Event Mesh refuses a queue "+
				"whose dead message queue does not exist. Create the queue %q again (for example as a `sapmessaging_dead_message_queue` "+
				"resource that `dead_message_queue` refers to), or set `dead_message_queue` to a queue that exists (or, only to import a "+
				"queue that already works this way as it is, set `%s = true` for now).", queue, dmq, queue, dmq, attrAllowMissingDMQ)
	}
	return r.fs
}

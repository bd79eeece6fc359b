package audit

import (
	"fmt"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// diagram draws the paths as a Mermaid flowchart: queue → flow/channel (or webhook) → dead
// message queue, N_max on the edges (a webhook's tries, or "lost after one try" for QoS 0), unbounded paths as thick red edges, and every queue and channel with an
// error or a warning coloured by its worst finding. GitHub renders it in Markdown, for example
// in a workflow's job summary.
func diagram(paths []Path, findings []Finding) string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	if len(paths) == 0 {
		b.WriteString("  none[\"no sender channel or webhook reads a queue\"]\n")
		return b.String()
	}
	worst := map[string]rules.Severity{}
	for _, fd := range findings {
		if fd.Severity == rules.SeverityInfo {
			continue
		}
		for _, o := range fd.Objects {
			key := o.String()
			if s, ok := worst[key]; !ok || fd.Severity < s {
				worst[key] = fd.Severity
			}
		}
	}
	ids := map[string]string{}
	var classes [][2]string
	node := func(key string) (string, bool) {
		if id, ok := ids[key]; ok {
			return id, false
		}
		id := fmt.Sprintf("n%d", len(ids)+1)
		ids[key] = id
		if s, ok := worst[key]; ok {
			classes = append(classes, [2]string{id, s.String()})
		}
		return id, true
	}
	for _, p := range paths {
		qKey := p.queueObject().String()
		qLabel := p.Queue
		switch {
		case p.Adapter == AdapterAEM && strings.EqualFold(p.ConsumerMode, rules.AEMConsumerDirect):
			qLabel = "AEM direct messages"
		case p.Queue == "":
			qLabel = "no queue"
		case p.Adapter == AdapterJMS:
			qLabel = "JMS " + p.Queue
		case p.Adapter == AdapterAEM:
			qLabel = "AEM " + p.Queue
		}
		q, isNew := node(qKey)
		if isNew {
			switch {
			case (p.Adapter == AdapterAMQP || p.Adapter == AdapterAEM) && p.QueueKnown && !p.QueueExists:
				fmt.Fprintf(&b, "  %s[(\"%s<br/>missing\")]\n", q, label(qLabel))
				classes = append(classes, [2]string{q, "missing"})
			case p.RedeliveryCount != nil:
				fmt.Fprintf(&b, "  %s[(\"%s<br/>R = %d\")]\n", q, label(qLabel), *p.RedeliveryCount)
			default:
				fmt.Fprintf(&b, "  %s[(\"%s\")]\n", q, label(qLabel))
			}
		}
		if p.Adapter == AdapterWebhook {
			webhookNode(&b, p, q, node)
			continue
		}
		chKey := Object{ObjectChannel, p.ChannelLabel()}.String()
		c, isNew := node(chKey)
		if isNew {
			n := ""
			switch p.Adapter {
			case AdapterAMQP:
				n = ", n = empty"
				if p.Retries != nil {
					n = fmt.Sprintf(", n = %d", *p.Retries)
				}
			case AdapterAEM:
				n = aemChannelLabel(p)
			}
			fmt.Fprintf(&b, "  %s[\"%s<br/>%s (%s%s)\"]\n", c, label(p.Flow), label(p.Channel), p.Adapter, n)
			if _, ok := worst[chKey]; !ok {
				if s, ok := worst[Object{ObjectFlow, p.Flow}.String()]; ok {
					classes = append(classes, [2]string{c, s.String()})
				}
			}
		}
		switch {
		case p.Unbounded:
			fmt.Fprintf(&b, "  %s ==>|\"unbounded\"| %s\n", q, c)
			classes = append(classes, [2]string{c, "unbounded"})
		case p.Adapter == AdapterAEM && p.WorstCase != nil:
			aemEdge(&b, p, q, c)
		case p.WorstCase != nil && p.DeletedAfterDays != nil:
			fmt.Fprintf(&b, "  %s -->|\"N_max = %d, deleted after %d d\"| %s\n", q, *p.WorstCase, *p.DeletedAfterDays, c)
		case p.WorstCase != nil:
			fmt.Fprintf(&b, "  %s -->|\"N_max = %d\"| %s\n", q, *p.WorstCase, c)
		default:
			fmt.Fprintf(&b, "  %s -->|\"N_max unknown\"| %s\n", q, c)
		}
		if p.DeadMessageQueue != "" && p.DeliveryStatus != "MODIFIED_FAILED_UNDELIVERABLE" {
			deadLetters(&b, p, c, node)
		}
	}
	b.WriteString("  classDef error fill:#ffd6d6,stroke:#c92a2a,color:#000\n")
	b.WriteString("  classDef warning fill:#fff3bf,stroke:#e67700,color:#000\n")
	b.WriteString("  classDef unbounded stroke:#c92a2a,stroke-width:3px\n")
	b.WriteString("  classDef missing stroke-dasharray:5 5\n")
	for _, c := range classes {
		fmt.Fprintf(&b, "  class %s %s\n", c[0], c[1])
	}
	return b.String()
}

// webhookNode draws a webhook path: the webhook (QoS, endpoint host, paused), the edge from its
// queue with its tries, and its dead message queue under QoS 1.
func webhookNode(b *strings.Builder, p Path, q string, node func(string) (string, bool)) {
	w, isNew := node(Object{ObjectWebhook, p.Webhook}.String())
	if isNew {
		qos := "QoS ?"
		if p.QoS != nil {
			qos = fmt.Sprintf("QoS %d", *p.QoS)
		}
		paused := ""
		if p.Paused != nil && *p.Paused {
			paused = ", paused"
		}
		fmt.Fprintf(b, "  %s{{\"webhook %s<br/>%s, %s%s\"}}\n", w, label(p.Webhook), qos, label(p.EndpointHost), paused)
	}
	switch {
	case p.QoS != nil && *p.QoS == 0:
		fmt.Fprintf(b, "  %s ==>|\"lost after one try\"| %s\n", q, w)
		return
	case p.WorstCase != nil && p.GiveUpMinutes != nil:
		fmt.Fprintf(b, "  %s -->|\"%d tries in %d min\"| %s\n", q, *p.WorstCase, *p.GiveUpMinutes, w)
	default:
		fmt.Fprintf(b, "  %s -->|\"tries unknown\"| %s\n", q, w)
	}
	if p.DeadMessageQueue != "" {
		deadLetters(b, p, w, node)
	}
}

// deadLetters draws the edge from consumer c to the path's dead message queue, and the queue.
func deadLetters(b *strings.Builder, p Path, c string, node func(string) (string, bool)) {
	dmq := Object{ObjectQueue, p.DeadMessageQueue}
	if p.Adapter == AdapterAEM {
		dmq.Kind = ObjectAEMQueue
	}
	d, isNew := node(dmq.String())
	if isNew {
		ttl := "no TTL"
		if p.DeadMessageQueueTTL != nil {
			ttl = "TTL " + seconds(*p.DeadMessageQueueTTL)
		}
		fmt.Fprintf(b, "  %s[(\"%s<br/>%s\")]\n", d, label(p.DeadMessageQueue), ttl)
	}
	fmt.Fprintf(b, "  %s -.->|\"dead letters\"| %s\n", c, d)
}

// label escapes text for a quoted Mermaid label.
func label(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ")
	return r.Replace(s)
}

// seconds writes a time to live in the largest whole unit.
func seconds(s int64) string {
	switch {
	case s > 0 && s%86400 == 0:
		return fmt.Sprintf("%d d", s/86400)
	case s > 0 && s%3600 == 0:
		return fmt.Sprintf("%d h", s/3600)
	}
	return fmt.Sprintf("%d s", s)
}

// aemChannelLabel is the AEM sender's part of its channel node: m and the outcome, or the mode that
// makes the outcome not apply.
func aemChannelLabel(p Path) string {
	m := "m = empty"
	if p.MaxAttempts != nil {
		m = fmt.Sprintf("m = %d", *p.MaxAttempts)
	}
	mode := p.SettlementOutcome
	switch {
	case strings.EqualFold(p.ConsumerMode, rules.AEMConsumerDirect):
		mode = "direct"
	case strings.EqualFold(p.AcknowledgementMode, rules.AEMAckImmediate):
		mode = "acknowledged on receipt"
	case mode == "":
		mode = "outcome empty"
	}
	via := ""
	if strings.EqualFold(p.AEMAdapter, iflow.ComponentTypeSolace) {
		via = " via " + iflow.ComponentTypeSolace // Solace's own adapter, read with the AEM sender's keys
	}
	return via + ", " + m + ", " + label(mode)
}

// aemEdge draws the edge from an AEM queue to the channel with N_max, the time until the message leaves
// the queue, and where it ends when not in the dead message queue: deleted, deleted unless its publisher flagged
// it DMQ-eligible, or lost (a thick edge).
func aemEdge(b *strings.Builder, p Path, q, c string) {
	when := ""
	if p.TimeToEnd != nil && *p.TimeToEnd > 0 {
		when = " in " + formatTimeToEnd(*p.TimeToEnd)
	}
	switch p.End {
	case rules.AEMEndLost:
		fmt.Fprintf(b, "  %s ==>|\"N_max = %d%s, then lost\"| %s\n", q, *p.WorstCase, when, c)
	case rules.AEMEndDeleted:
		fmt.Fprintf(b, "  %s ==>|\"N_max = %d%s, then deleted\"| %s\n", q, *p.WorstCase, when, c)
	case rules.AEMEndDeletedUnlessEligible:
		fmt.Fprintf(b, "  %s ==>|\"N_max = %d%s, then deleted unless DMQ-eligible\"| %s\n", q, *p.WorstCase, when, c)
	default:
		fmt.Fprintf(b, "  %s -->|\"N_max = %d%s\"| %s\n", q, *p.WorstCase, when, c)
	}
}

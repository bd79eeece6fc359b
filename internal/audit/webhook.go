package audit

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// webhooks joins each Event Mesh webhook subscription with the queue it pushes: a path with its
// worst case from rules.WebhookGiveUp and the findings of rules.CheckWebhook. Without the list,
// the audit says why (rules.WebhooksNotRead).
func (j *joined) webhooks() {
	if j.in.WebhooksErr != nil {
		reason := ""
		if !errors.Is(j.in.WebhooksErr, ErrNoMessaging) {
			reason = j.in.WebhooksErr.Error()
		}
		j.add(rules.WebhooksNotRead(reason), "")
	}
	if !j.in.WebhooksRead {
		return
	}
	hooks := slices.Clone(j.in.Webhooks)
	slices.SortFunc(hooks, func(a, b eventmesh.Webhook) int { return strings.Compare(a.Name, b.Name) })
	byQueue := map[string][]string{}
	for _, w := range hooks {
		byQueue[w.Queue] = append(byQueue[w.Queue], w.Name)
	}
	for i := range hooks {
		others := slices.DeleteFunc(slices.Clone(byQueue[hooks[i].Queue]), func(n string) bool { return n == hooks[i].Name })
		j.webhookPath(&hooks[i], others)
	}
}

// webhookPath joins one webhook subscription with its queue; others names the other webhooks on
// the same queue.
func (j *joined) webhookPath(w *eventmesh.Webhook, others []string) {
	p := Path{Adapter: AdapterWebhook, Queue: w.Queue, Webhook: w.Name, QueueKnown: j.in.EventMesh}
	if w.Present.QoS {
		qos := int64(w.QoS)
		p.QoS = &qos
	}
	if u, err := url.Parse(w.Endpoint); err == nil {
		p.EndpointHost = u.Host
	}
	if paused, known := w.Paused(); known {
		p.Paused = &paused
	}
	objs := []Object{{ObjectWebhook, w.Name}}
	if w.Queue != "" {
		objs = append(objs, Object{ObjectQueue, w.Queue})
	}

	// The audit cannot see a configuration's accept_message_loss, so every QoS 0 webhook is
	// reported (what it loses is the point of the audit) unless the caller names it as accepted.
	in := rules.Webhook{
		QoS: rules.Unknown[int64](), AcceptMessageLoss: rules.Known(slices.Contains(j.acceptLoss, w.Name)), Endpoint: rules.Unknown[string](),
		ExemptHandshake: rules.Unknown[bool](), HasAuthentication: rules.Unknown[bool](), Queue: rules.Known(w.Queue),
		QueueDeadMessageQueue: rules.Unknown[string](), QueueMaxRedeliveryCount: rules.Unknown[int64](), QueueTTLSeconds: rules.Unknown[int64](),
		OtherWebhooks: others,
	}
	if p.QoS != nil {
		in.QoS = rules.Known(*p.QoS)
	}
	if w.Present.Endpoint {
		in.Endpoint = rules.Known(w.Endpoint)
	}
	if w.Present.ExemptHandshake {
		in.ExemptHandshake = rules.Known(w.ExemptHandshake)
	}
	if w.Present.SecuritySchema {
		in.HasAuthentication = rules.Known(w.AuthType != "")
	}
	var ttl int64
	if q := j.queues[w.Queue]; q != nil {
		p.QueueExists = true
		j.queueFacts(&p, q)
		ttl = rules.WebhookTTLSeconds(valueOf(q.RespectTTL), valueOf(q.MaxTTL))
		in.QueueDeadMessageQueue = rules.Known(p.DeadMessageQueue)
		in.QueueMaxRedeliveryCount = rules.Known(*p.RedeliveryCount)
		in.QueueTTLSeconds = rules.Known(ttl)
	}
	// An accepted QoS 0 webhook keeps its warning (webhook.qos0_loses_messages_accepted), as the resource's plan
	// does; a name accepted for a webhook that is not QoS 0 is the caller's to report (the retry audit data
	// source warns about it), not a finding of the landscape.
	findings := slices.DeleteFunc(rules.CheckWebhook(in), func(f rules.Finding) bool { return f.Rule == "webhook.accept_message_loss_unused" })
	j.add(findings, fmt.Sprintf("Webhook subscription %q pushing %q", w.Name, w.Queue), objs...)
	webhookWorstCase(&p, ttl)
	j.paths = append(j.paths, p)
}

// webhookWorstCase sets the tries one always-failing message gets from the webhook: one for QoS
// 0, else the QoS 1 schedule until the queue's redelivery count or time to live ends it.
func webhookWorstCase(p *Path, ttlSeconds int64) {
	switch {
	case p.QoS == nil:
		p.WorstCaseNote = "the subscription's QoS is unknown: the service's answer had none"
	case *p.QoS == 0:
		one := int64(1)
		p.WorstCase = &one
		p.WorstCaseNote = "QoS 0: lost after one try; Event Mesh deletes the message whatever the endpoint answers, and nothing reaches a dead message queue"
	case !p.QueueKnown:
		p.WorstCaseNote = "the queue's redelivery count is unknown without an Event Mesh connection"
	case !p.QueueExists:
		p.WorstCaseNote = "the queue does not exist"
	default:
		tries, minutes, byTTL := rules.WebhookGiveUp(*p.RedeliveryCount, ttlSeconds)
		p.WorstCase, p.GiveUpMinutes = &tries, &minutes
		ends := fmt.Sprintf("max_redelivery_count = %d ends the retries", *p.RedeliveryCount)
		if byTTL {
			ends = fmt.Sprintf("the queue's time to live of %d s ends the retries", ttlSeconds)
		}
		p.WorstCaseNote = fmt.Sprintf("QoS 1: %s (%s)", rules.WebhookScheduleText(*p.RedeliveryCount, ttlSeconds, p.DeadMessageQueue != ""), ends)
	}
	if p.Paused != nil && *p.Paused {
		p.WorstCaseNote += "; the subscription is paused: nothing is pushed until it is resumed"
	}
}

// valueOf is *p, or the zero value for nil.
func valueOf[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

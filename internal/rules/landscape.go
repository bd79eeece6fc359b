package rules

import (
	"fmt"
	"math"
	"strings"
)

// The rules of the landscape audit (the sapmessaging_retry_audit data source): findings that
// only the join of Event Mesh queues and the deployed Cloud Integration flows can make. The
// settings of each queue and channel go through CheckQueue, CheckAMQPSender, CheckJMSSender,
// CheckExceptionSubprocesses and CheckDeadMessageQueueLinks like the resources' settings do.

// CheckConsumedQueueExists reports an AMQP sender channel that reads a queue Event Mesh does
// not hold: the channel connects to nothing, so the messages meant for it pile up elsewhere or
// are never produced, and its retry arithmetic has no R.
func CheckConsumedQueueExists(channel, queue string, exists bool) []Finding {
	if exists {
		return nil
	}
	var r report
	if strings.TrimSpace(queue) == "" {
		r.errorf("audit.queue_not_found", "", "Sender Reads No Queue",
			"The AMQP sender channel %s names no queue in its destinationName, so it consumes nothing and no retry bound can be computed for it. "+
				"Set the channel's destinationName to queue:<full queue name> of an existing Event Mesh queue.", channel)
		return r.fs
	}
	r.errorf("audit.queue_not_found", "", "Sender Reads Missing Queue",
		"The AMQP sender channel %s reads the queue %q, which Event Mesh does not hold: the channel receives nothing (Cloud Integration retries the connection and logs errors), "+
			"and messages meant for the flow go nowhere. "+
			"Set the channel's destinationName to an existing queue, or create the queue %q with a `sapmessaging_queue`.", channel, queue, queue)
	return r.fs
}

// CheckExclusiveConsumers reports several consumers of one exclusive Event Mesh queue (sender
// channels of flows, webhook subscriptions): only one consumer of an exclusive queue receives
// messages at a time, the others stand by, so which one handles a message is accidental.
// consumers names each consumer.
func CheckExclusiveConsumers(queue, accessType string, consumers []string) []Finding {
	return exclusiveCompeting(queue, accessType == accessExclusive, consumers, "Event Mesh", accessNonExclusive)
}

// exclusiveCompeting is the rule of CheckExclusiveConsumers and CheckAEMExclusiveConsumers: broker names
// who delivers, shared the access type that shares the load.
func exclusiveCompeting(queue string, exclusive bool, consumers []string, broker, shared string) []Finding {
	if !exclusive || len(consumers) < 2 {
		return nil
	}
	var r report
	r.warnf("audit.exclusive_competing", "", "Consumers Compete on Exclusive Queue",
		"The exclusive queue %q is consumed by %d consumers (%s). %s delivers the messages of an exclusive queue to one consumer at a time, "+
			"so only one of them receives messages while the others stand by, and which one that is changes with every reconnect. "+
			"Set `access_type = %q` on the queue if the consumers are meant to share the load, or give each consumer its own queue.",
		queue, len(consumers), strings.Join(consumers, ", "), broker, shared)
	return r.fs
}

// CheckUnconsumedQueue informs that no deployed flow consumes queue, nor, when webhooks were
// read, a webhook subscription. Other applications may consume it, so it is information, not a
// warning. unread names the deployed flows whose content could not be analysed: any of them may
// read the queue, which the finding then says.
func CheckUnconsumedQueue(queue string, webhooksRead bool, unread []string) []Finding {
	var r report
	nor, maybe := "", ""
	if webhooksRead {
		nor = ", and no webhook subscription pushes it"
	}
	if len(unread) > 0 {
		maybe = fmt.Sprintf(" The deployed integration flow(s) %s could not be analysed (`audit.flow_not_analysable`) and may read it.", strings.Join(unread, ", "))
	}
	r.infof("audit.queue_unconsumed", "Queue Without Flow Consumer",
		"No deployed integration flow reads the queue %q with an AMQP sender channel%s, as far as the audit can see.%s Another application may consume it; otherwise its messages accumulate until the queue is full. "+
			"Set the AMQP sender of the flow that should consume it to this queue and deploy the flow, or remove the queue if nothing consumes it.", queue, nor, maybe)
	return r.fs
}

// WebhooksNotRead reports that the audit could not list the Event Mesh webhook subscriptions, so
// the queues they consume look unconsumed and their retry paths are missing. reason "" means the
// provider has no messaging credentials (information, audit.webhooks_not_configured); otherwise
// it is why the list failed (a warning, audit.webhooks_not_read; a 403 Forbidden means the
// messaging client may not list subscriptions).
func WebhooksNotRead(reason string) []Finding {
	var r report
	if reason == "" {
		r.infof("audit.webhooks_not_configured", "Webhooks Not Read",
			"The provider's `event_mesh` connection has no messaging REST credentials, so the audit did not list the webhook subscriptions: a queue that only a webhook consumes "+
				"is reported as unconsumed, and no webhook has a path. Set `event_mesh` to a service key with a messaging entry of protocol httprest to audit the webhooks too.")
		return r.fs
	}
	fix := "Set the `event_mesh` connection's messaging REST credentials right (TF_LOG=debug shows the request), and run the audit again."
	if strings.Contains(reason, "403") {
		fix = "Set the messaging client's rules (the service descriptor's queueRules) to allow it to read the subscriptions, or use the credentials of a client that may, and run the audit again."
	}
	r.warnf("audit.webhooks_not_read", "", "Webhooks Not Read",
		"The webhook subscriptions could not be listed: %s. A queue that only a webhook consumes is reported as unconsumed, and no webhook has a path. %s",
		strings.TrimRight(reason, ". "), fix)
	return r.fs
}

// CheckDeadMessageQueueExists reports a queue whose dead message queue Event Mesh does not
// hold, so a message that has used up its redeliveries has nowhere to go.
func CheckDeadMessageQueueExists(queue, dmq string, exists bool) []Finding {
	if exists || dmq == "" {
		return nil
	}
	var r report
	r.warnf("audit.dmq_not_found", attrDeadMessageQueue, "Dead Message Queue Missing",
		"The queue %q names the dead message queue %q, which Event Mesh does not hold, so a message that has used up its redeliveries is not kept where someone looks for it. "+
			"Set `dead_message_queue` to an existing queue, or create %q with a `sapmessaging_dead_message_queue`.", queue, dmq, dmq)
	return r.fs
}

// CheckDeployedVersion reports a flow whose deployed version differs from its design time
// version. The Cloud Integration API reads content only in the design time's current version
// (IntegrationDesigntimeArtifacts(Id,Version='active')), so what runs may differ from what was
// analysed.
func CheckDeployedVersion(flow, deployed, design string) []Finding {
	if deployed == "" || design == "" || deployed == design {
		return nil
	}
	var r report
	r.warnf("audit.version_differs", "", "Deployed Version Differs",
		"The integration flow %q runs version %s, but its design time holds version %s; the API serves the content of the design time only, so the audit analysed %s, "+
			"and its paths leave the running settings unknown (`unbounded` null): version %s may retry without end. A deploy of the flow ships version %s, not only its retry settings. "+
			"Set the runtime to the design time once version %s is released (the team's deploy, or `deploy_other_changes = true` on the flow's deployment), so that what runs is what was analysed.",
		flow, deployed, design, design, deployed, design, design)
	return r.fs
}

// FlowNotAnalysable reports a deployed flow whose content could not be read or parsed. reason
// is the error; a 403 Forbidden usually means the service key's role lacks read access to the
// design time.
func FlowNotAnalysable(flow, reason string) []Finding {
	var r report
	fix := "Set the flow's content right in Cloud Integration so that it opens there, and run the audit again."
	switch {
	case strings.Contains(reason, "403"):
		fix = "Set the Cloud Integration service instance's roles to include one that reads the design time (for example WorkspacePackagesRead), and run the audit again."
	case strings.Contains(reason, "404"):
		fix = "Set the design time back (import the flow's package again), or undeploy the flow if it is no longer wanted, and run the audit again: the flow runs, but its design time is gone."
	}
	r.warnf("audit.flow_not_analysable", "", "Flow Not Analysable",
		"The content of the deployed integration flow %q could not be analysed: %s. Its sender channels and exception subprocesses are therefore missing from the audit, and their retries are not bounded by anything the audit can see. %s",
		flow, strings.TrimRight(reason, ". "), fix)
	return r.fs
}

// QueuesOnly informs that the audit saw only Event Mesh: without a Cloud Integration
// connection no flow, channel or retry count n is known, so no path and no N_max.
func QueuesOnly() []Finding { return QueuesOnlyOf("the Event Mesh queues") }

// JMSWorstCase returns the executions of one always-failing message on a JMS sender whose flow
// ends it on retry stop (JMSGuardStopRetry): the first execution and stop retries.
func JMSWorstCase(limit int64, operator string) int64 {
	stop := JMSGuardStopRetry(limit, operator)
	if stop == math.MaxInt64 {
		return stop
	}
	return stop + 1
}

// FlowsOnly informs that the audit saw only Cloud Integration: without an Event Mesh connection
// no queue is known, so the redelivery count R of every AMQP path is unknown and so is its N_max.
func FlowsOnly() []Finding {
	var r report
	r.infof("audit.flows_only", "Flows Only",
		"The provider has no `event_mesh` connection, so the audit read the deployed flows alone: the queues their AMQP senders read, their redelivery counts and dead message queues are unknown, and no AMQP path has a worst case. "+
			"Set `event_mesh` in the provider configuration to join the flows with the queues they consume.")
	return r.fs
}

// CheckDiscoveredRedelivery applies the rules that depend on the queue's redelivery count R to an
// AMQP sender whose R was not configured but taken from the Event Mesh queue its channel reads.
// Each finding is a warning that names the queue: the queue may be fixed by the same apply, so
// what the queue holds now must not block it. The sender's own settings are checked by
// CheckAMQPSender as configured; only the findings about R and the budget come from here.
func CheckDiscoveredRedelivery(s AMQPSender, queue string) []Finding {
	var in report
	checkAttempts(&in, AMQPSender{
		MaxNumberOfRetries: s.MaxNumberOfRetries, QueueMaxRedeliveryCount: s.QueueMaxRedeliveryCount,
		MaxTotalAttempts: s.MaxTotalAttempts,
	})
	var r report
	for _, f := range in.fs {
		switch f.Rule {
		case "amqp.queue_redelivery_unlimited", "amqp.queue_redelivery_range", "amqp.attempt_budget_exceeded":
		default:
			continue
		}
		r.add(SeverityWarning, f.Rule, f.Attribute, f.Summary,
			fmt.Sprintf("Without `queue_max_redelivery_count` on this sender, R comes from the Event Mesh queue %q its channel reads. %s", queue, f.Detail))
	}
	return r.fs
}

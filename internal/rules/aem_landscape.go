package rules

import (
	"fmt"
	"strings"
)

// The rules of the landscape audit (the sapmessaging_retry_audit data source) about Advanced Event Mesh:
// findings that only the join of the AEM queues (one SEMP queue list) with the AdvancedEventMesh sender
// channels of the deployed Cloud Integration flows can make (shared/reference/aem.md §4–5). The settings
// of each queue and channel go through CheckAEMQueue and CheckAEMSender like the resources' settings do.

// AEM access types of a queue as SEMP writes them ([SPEC] MsgVpnQueue accessType).
const (
	AEMAccessExclusive    = "exclusive"
	AEMAccessNonExclusive = "non-exclusive"
)

// CheckAEMConsumedQueueExists reports an AdvancedEventMesh sender channel (a guaranteed consumer) that
// reads a queue the AEM broker does not hold: the channel binds to nothing, so the flow receives no
// message, and its retry arithmetic has no R.
func CheckAEMConsumedQueueExists(channel, queue string, exists bool) []Finding {
	if exists {
		return nil
	}
	var r report
	if strings.TrimSpace(queue) == "" {
		r.errorf("audit.aem_queue_not_found", "", "Sender Reads No Queue",
			"The AdvancedEventMesh sender channel %s is a guaranteed consumer but names no queue in its Queue Name, so it consumes nothing and no retry bound can be computed for it. "+
				"Set the channel's Queue Name to an existing queue of the AEM broker, for example one a `sapmessaging_aem_queue` creates.", channel)
		return r.fs
	}
	r.errorf("audit.aem_queue_not_found", "", "Sender Reads Missing Queue",
		"The AdvancedEventMesh sender channel %s reads the queue %q, which the AEM broker's Message VPN does not hold: the adapter cannot bind to it, so the flow receives nothing "+
			"(Cloud Integration retries the connection and logs errors), and messages meant for the flow are not kept anywhere. "+
			"Set the channel's Queue Name to an existing queue, or create the queue %q with a `sapmessaging_aem_queue`.", channel, queue, queue)
	return r.fs
}

// CheckAEMExclusiveConsumers reports several consumers of one exclusive AEM queue: the broker delivers the
// messages of an exclusive queue to one consumer at a time, so which flow handles a message is accidental.
// It is the rule of CheckExclusiveConsumers with the AEM broker's values.
func CheckAEMExclusiveConsumers(queue, accessType string, consumers []string) []Finding {
	return exclusiveCompeting(queue, strings.EqualFold(accessType, AEMAccessExclusive), consumers, "The AEM broker", AEMAccessNonExclusive)
}

// CheckUnconsumedAEMQueue informs that no deployed flow reads the AEM queue with an AdvancedEventMesh
// sender channel. Other applications may consume it, so it is information. unread names the deployed flows
// whose content could not be analysed: any of them may read the queue.
func CheckUnconsumedAEMQueue(queue string, unread []string) []Finding {
	var r report
	maybe := ""
	if len(unread) > 0 {
		maybe = fmt.Sprintf(" The deployed integration flow(s) %s could not be analysed (`audit.flow_not_analysable`) and may read it.", strings.Join(unread, ", "))
	}
	r.infof("audit.aem_queue_unconsumed", "AEM Queue Without Flow Consumer",
		"No deployed integration flow reads the AEM queue %q with an AdvancedEventMesh sender channel, as far as the audit can see.%s Another application may consume it; otherwise its messages accumulate until its spool quota is full. "+
			"Set the AdvancedEventMesh sender of the flow that should consume it to this queue and deploy the flow, or remove the queue if nothing consumes it.", queue, maybe)
	return r.fs
}

// AEMNotConfigured informs that deployed flows have AdvancedEventMesh sender channels while the provider
// has no advanced_event_mesh connection: the queues they read, their redelivery counts and dead message
// queues are unknown, so a path whose channel hands failures back to the broker (FAILED) has no N_max.
// channels names the channels.
func AEMNotConfigured(channels []string) []Finding {
	return brokerNotRead("audit.aem_not_configured", "AEM Queues Not Read", "AdvancedEventMesh sender", "advanced_event_mesh", "AEM",
		"a path whose channel settles failures as FAILED has no worst case", channels)
}

// EventMeshNotConfigured informs that the audit read the AEM broker and the flows, but not Event Mesh,
// while deployed flows have AMQP sender channels: their queues' redelivery counts are unknown, so no AMQP
// path has a worst case. channels names the channels.
func EventMeshNotConfigured(channels []string) []Finding {
	return brokerNotRead("audit.event_mesh_not_configured", "Event Mesh Queues Not Read", "AMQP sender", "event_mesh", "Event Mesh",
		"no AMQP path has a worst case", channels)
}

// brokerNotRead is the rule of AEMNotConfigured and EventMeshNotConfigured: channels of the adapter read
// queues of a broker whose connection block the provider lacks.
func brokerNotRead(rule, summary, adapter, block, broker, consequence string, channels []string) []Finding {
	if len(channels) == 0 {
		return nil
	}
	var r report
	r.infof(rule, summary,
		"The deployed flows have %d %s channel(s) (%s), but the provider has no `%s` connection, so the audit did not read the %s queues: "+
			"whether they exist, their redelivery counts and dead message queues are unknown, and %s. "+
			"Set `%s` in the provider configuration to join the channels with the queues they read.",
		len(channels), adapter, strings.Join(channels, ", "), block, broker, consequence, block)
	return r.fs
}

// AEMSenderUnconfirmed informs that an AEM sender channel holds values the sources do not confirm (internal/iflow
// AEMSenderSettings.Unconfirmed): the audit reads them, but what the adapter does with them is assumed. adapter is
// the channel's ComponentType: AdvancedEventMesh, or SolacePubSubPlus for Solace's own adapter, whose behaviour no
// source documents. reasons are the sentences of each value.
func AEMSenderUnconfirmed(channel, adapter string, reasons []string) []Finding {
	if len(reasons) == 0 {
		return nil
	}
	if adapter == "" {
		adapter = "AdvancedEventMesh"
	}
	fix := "Set the channel in the Cloud Integration editor (adapter version 1.3.x, a Settlement Outcome chosen from the list) and deploy it, or check the path against a replay of a poison message."
	if strings.EqualFold(adapter, "SolacePubSubPlus") {
		fix = "Set the channel to SAP's AdvancedEventMesh adapter (version 1.3.x), whose behaviour SAP documents, or check the path against a replay of a poison message."
	}
	var r report
	r.infof("audit.aem_value_unconfirmed", "Unconfirmed Adapter Values",
		"The %s sender channel %s holds values no source confirms, so its path is computed on an assumption: %s %s",
		adapter, channel, strings.Join(reasons, " "), fix)
	return r.fs
}

// QueuesOnlyOf is QueuesOnly for the brokers read, named in what (for example "the Event Mesh and AEM
// queues").
func QueuesOnlyOf(what string) []Finding {
	var r report
	r.infof("audit.queues_only", "Queues Only",
		"The provider has no `cloud_integration` connection, so the audit checked %s alone: no flow consumes a queue as far as it can see, and no path has a worst case. "+
			"Set `cloud_integration` in the provider configuration to join the queues with the flows that consume them.", what)
	return r.fs
}

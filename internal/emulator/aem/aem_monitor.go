package aem

import (
	"net/http"
)

// The monitoring API of the Advanced Event Mesh room's queues: GET /SEMP/v2/monitor/msgVpns/{vpn}/queues (paged,
// select, where), GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue} and the queue's consumer flows, GET
// .../queues/{queue}/txFlows. A monitor object of a queue holds its configuration and its operational counters
// ([SPEC monitor 2.34] MsgVpnQueue, SEMP 2.34's monitor specification, in shared/reference/specs/semp; cited
// [MON] below). Only the attributes [MON] lists are answered: respectDmqEligibleEnabled (config 2.49) is not
// one of them, and "any non-identifying attribute may not be returned in a GET" ([MON] info.description).
//
//	| counter          | what the emulator answers                                                        | source |
//	|------------------|----------------------------------------------------------------------------------|--------|
//	| spooledMsgCount  | how many messages were ever spooled on the queue (a running total: a message taken off the queue does not lower it) | [MON] MsgVpnQueue.spooledMsgCount "The number of guaranteed messages that were spooled in the Queue", worded as its cumulative twin spooledByteCount; that a copy or a move to the DMQ counts as a spool is assumed |
//	| spooledByteCount | the bytes of those messages' payloads, a running total                          | [MON] MsgVpnQueue.spooledByteCount; payload bytes assumed as for msgSpoolUsage |
//	| msgSpoolUsage    | the bytes of the payloads of the messages on the queue now (after expiring those whose TTL has passed) | [MON] MsgVpnQueue.msgSpoolUsage ("The message spool usage by the Queue, in bytes"); the payload without the broker's per-message overhead is assumed |
//	| txFlows          | an empty collection: the room has no SMF consumers that bind to a queue (the poison run and the AEM sender flows consume without a bind) | [MON] /msgVpns/{msgVpnName}/queues/{queueName}/txFlows (MsgVpnQueueTxFlow); empty assumed for the reason given |
//
// The queue's current depth has no counter in [MON]; a client counts the msgs collection (aem_broker.go).
// Paging, select and where work as in the config API (aem.go: at most 100 per page, opaque cursor; a select
// or where name that is not an attribute of [MON]'s object is refused).

// aemMonitorQueueAttrs are the attributes of [MON] MsgVpnQueue: select and where names are checked against
// them. The room answers those it has (its configuration, the identifying names and the counters above); a
// where condition on one it does not answer matches as on an absent value (aem.go).
var aemMonitorQueueAttrs = []string{
	"accessType", "alreadyBoundBindFailureCount", "averageBindRequestRate", "averageRxByteRate", "averageRxMsgRate", "averageTxByteRate",
	"averageTxMsgRate", "bindRequestCount", "bindRequestRate", "bindSuccessCount", "bindTimeForwardingMode", "clientProfileDeniedDiscardedMsgCount",
	"consumerAckPropagationEnabled", "createdByManagement", "deadMsgQueue", "deletedMsgCount", "deliveryCountEnabled", "deliveryDelay",
	"destinationGroupErrorDiscardedMsgCount", "disabledBindFailureCount", "disabledDiscardedMsgCount", "durable", "egressEnabled", "eventBindCountThreshold",
	"eventMsgSpoolUsageThreshold", "eventRejectLowPriorityMsgLimitThreshold", "highestAckedMsgId", "highestMsgId", "inProgressAckMsgCount", "ingressEnabled",
	"invalidSelectorBindFailureCount", "lastReplayCompleteTime", "lastReplayFailureReason", "lastReplayFailureTime", "lastReplayStartTime", "lastReplayedMsgTxTime",
	"lastSpooledMsgId", "lowPriorityMsgCongestionDiscardedMsgCount", "lowPriorityMsgCongestionState", "lowestAckedMsgId", "lowestMsgId", "maxBindCount",
	"maxBindCountExceededBindFailureCount", "maxDeliveredUnackedMsgsPerFlow", "maxMsgSize", "maxMsgSizeExceededDiscardedMsgCount", "maxMsgSpoolUsage", "maxMsgSpoolUsageExceededDiscardedMsgCount",
	"maxRedeliveryCount", "maxRedeliveryExceededDiscardedMsgCount", "maxRedeliveryExceededToDmqFailedMsgCount", "maxRedeliveryExceededToDmqMsgCount", "maxTtl", "maxTtlExceededDiscardedMsgCount",
	"maxTtlExpiredDiscardedMsgCount", "maxTtlExpiredToDmqFailedMsgCount", "maxTtlExpiredToDmqMsgCount", "msgSpoolPeakUsage", "msgSpoolUsage", "msgVpnName",
	"networkTopic", "noLocalDeliveryDiscardedMsgCount", "otherBindFailureCount", "owner", "partitionClientName", "partitionCount",
	"partitionNumber", "partitionOperationalCount", "partitionQueueName", "partitionRebalanceDelay", "partitionRebalanceMaxHandoffTime", "partitionRebalanceStatus",
	"partitionScaleStatus", "partitionStatus", "permission", "queueName", "redeliveredMsgCount", "redeliveryDelayEnabled",
	"redeliveryDelayInitialInterval", "redeliveryDelayMaxInterval", "redeliveryDelayMultiplier", "redeliveryEnabled", "rejectLowPriorityMsgEnabled", "rejectLowPriorityMsgLimit",
	"rejectMsgToSenderOnDiscardBehavior", "replayFailureCount", "replayStartCount", "replayState", "replaySuccessCount", "replayedAckedMsgCount",
	"replayedTxMsgCount", "replicationActiveAckPropTxMsgCount", "replicationStandbyAckPropRxMsgCount", "replicationStandbyAckedByAckPropMsgCount", "replicationStandbyRxMsgCount", "respectMsgPriorityEnabled",
	"respectTtlEnabled", "rxByteRate", "rxMsgRate", "spooledByteCount", "spooledMsgCount", "transportRetransmitMsgCount",
	"txByteRate", "txMsgRate", "txSelector", "txUnackedMsgCount", "virtualRouter", "xaTransactionNotSupportedDiscardedMsgCount",
}

// aemTxFlowAttrs are the attributes of a consumer flow ([MON] MsgVpnQueueTxFlow; the room has none to answer,
// the names are those select and where may use).
var aemTxFlowAttrs = []string{"ackedMsgCount", "activationTime", "activityState", "activityUpdateState", "bindTime", "clientName",
	"consumerRedeliveryRequestAllowed", "cutThroughAckedMsgCount", "deliveryState", "flowId", "highestAckPendingMsgId", "lastAckedMsgId",
	"lastSelectorExaminedMsgId", "lowestAckPendingMsgId", "maxUnackedMsgsExceededMsgCount", "msgVpnName", "noLocalDelivery", "queueName",
	"redeliveredMsgCount", "redeliveryRequestCount", "selector", "selectorExaminedMsgCount", "selectorMatchedMsgCount",
	"selectorNotMatchedMsgCount", "sessionName", "storeAndForwardAckedMsgCount", "transportRetransmitMsgCount", "unackedMsgCount",
	"usedWindowSize", "windowClosedCount", "windowSize"}

// mountMonitor adds the monitor routes of queues (Mount calls it after mountConfig).
func (a *AdvancedEventMesh) mountMonitor(mux *http.ServeMux) {
	m := a.sempRoutes(mux)
	mon := AEMMonitorBasePath + "/msgVpns/{vpn}/queues"
	view := queueView{attrs: aemMonitorQueueAttrs, obj: a.monitorObject, links: a.monitorLinks}
	m(http.MethodGet, mon, a.listQueues(view))
	m(http.MethodGet, mon+"/{queue}", a.getQueue(view))
	m(http.MethodGet, mon+"/{queue}/txFlows", a.handleTxFlows)
}

// monitorObject is queue q's monitor object; the caller holds a.mu.
func (a *AdvancedEventMesh) monitorObject(q *aemQueue) map[string]any {
	a.expire(q, a.AEMNow())
	obj := a.queueObject(q)
	delete(obj, "respectDmqEligibleEnabled")
	var usage int64
	for _, m := range q.msgs {
		usage += int64(len(m.payload))
	}
	obj["spooledMsgCount"] = q.spooledTotal
	obj["spooledByteCount"] = q.spooledBytes
	obj["msgSpoolUsage"] = usage
	return obj
}

func (a *AdvancedEventMesh) monitorLinks(r *http.Request, q *aemQueue) map[string]any {
	uri := objectURI(r, AEMMonitorBasePath, "msgVpns", a.vpn, "queues", q.name)
	return map[string]any{"uri": uri, "msgsUri": uri + "/msgs"}
}

// handleTxFlows answers the queue's consumer flows: none (see the table above).
func (a *AdvancedEventMesh) handleTxFlows(w http.ResponseWriter, r *http.Request) *sempError {
	return a.onQueue(r, true, aemTxFlowAttrs, func(*aemQueue, pageQuery) *sempError {
		respondSEMP(w, r, []map[string]any{}, []map[string]any{}, nil)
		return nil
	})
}

// Mount registers SEMP v2 (config, monitor and action) and REST messaging on mux.
func (a *AdvancedEventMesh) Mount(mux *http.ServeMux) {
	a.mountConfig(mux)
	a.mountMonitor(mux)
}

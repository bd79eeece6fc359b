package core

import "time"

// The brokers' side that Cloud Integration's runtime sees: the runtime reaches a broker the way a tenant
// does, over these interfaces, which the product rooms implement and the emulator wires. No product room
// imports another.

// AEMOutcome settles a delivery, as a consumer's acknowledgement or settlement outcome does ([SAP] AEM
// sender adapter: Failed and Rejected; Accepted is the acknowledgement).
type AEMOutcome int

// The outcomes of a delivery.
const (
	AEMAccepted AEMOutcome = iota
	AEMFailed
	AEMRejected
)

// AEMDelivery is one delivery of a message to a consumer.
type AEMDelivery struct {
	MsgID         int64
	Payload       []byte
	DeliveryCount int64     // 1 for the first delivery
	At            time.Time // AEM clock: when the message became available to the bound consumer
}

// AEMBroker is the Advanced Event Mesh broker as the AdvancedEventMesh sender channels of deployed flows
// consume it: receive a queue's next message, settle or release its delivery, and the broker's clock.
type AEMBroker interface {
	// AEMReceive delivers the next available message of queue to its bound consumer.
	AEMReceive(queue string) (AEMDelivery, bool)
	// AEMQueueDepth returns the queue's messages, or -1 when it does not exist.
	AEMQueueDepth(queue string) int
	// AEMSettleAt settles a delivery with outcome at a time of the AEM clock (zero: now) and says where the
	// message went.
	AEMSettleAt(queue string, msgID int64, outcome AEMOutcome, at time.Time) (string, error)
	// AEMRelease gives back a delivery its consumer did not settle.
	AEMRelease(queue string, msgID int64)
	// AEMDiscard removes a message without a DMQ.
	AEMDiscard(queue string, msgID int64)
	// AEMRedeliversForever reports whether queue redelivers without limit.
	AEMRedeliversForever(queue string) bool
	// AEMNow returns the AEM clock.
	AEMNow() time.Time
	// AEMReal converts a duration of the AEM clock into real time.
	AEMReal(d time.Duration) time.Duration
}

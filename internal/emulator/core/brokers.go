package core

import (
	"errors"
	"time"
)

// The brokers' side that Cloud Integration's runtime sees: the runtime reaches a broker the way a tenant
// does, over these interfaces, which the product rooms implement (their Broker methods) and the emulator wires. No product room
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

// Errors of the broker's Go API.
var (
	// ErrQueueNotFound is returned when the named queue does not exist.
	ErrQueueNotFound = errors.New("emulator: queue not found")
	// ErrMessageNotFound is returned when no unacknowledged message has the given ID.
	ErrMessageNotFound = errors.New("emulator: no unacknowledged message with this ID")
	// ErrQueueFull is returned when a queue's message count or size limit is reached.
	ErrQueueFull = errors.New("emulator: queue is full")
	// ErrMessageTooLarge is returned when a message exceeds the queue's maxMessageSizeInBytes.
	ErrMessageTooLarge = errors.New("emulator: message is larger than the queue's maxMessageSizeInBytes")
)

// Message is a message as the emulator's Go API and control endpoints show it.
type Message struct {
	ID          string `json:"id"`
	Body        string `json:"body"`
	ContentType string `json:"contentType,omitempty"`
	// DeliveryCount is how often the message was delivered to a consumer.
	DeliveryCount int64 `json:"deliveryCount"`
	// Unacknowledged is true while a QoS 1 delivery awaits its acknowledgement or rejection.
	Unacknowledged bool      `json:"unacknowledged"`
	Enqueued       time.Time `json:"enqueued"`
	// DeadFrom names the queue the message was dead-lettered from, if any.
	DeadFrom string `json:"deadFrom,omitempty"`
	// Headers are the message properties the messaging REST API carries (ce-* headers).
	Headers map[string]string `json:"headers,omitempty"`
}

// RejectOutcome says what happened to a rejected message.
type RejectOutcome string

// Outcomes of Reject.
const (
	// OutcomeRedelivered: the message is available again for the next consumption.
	OutcomeRedelivered RejectOutcome = "redelivered"
	// OutcomeDeadLettered: the deliveries exceeded maxRedeliveryCount; the message moved to the dead message queue.
	OutcomeDeadLettered RejectOutcome = "deadLettered"
	// OutcomeDiscarded: the deliveries exceeded maxRedeliveryCount and no usable dead message queue exists.
	OutcomeDiscarded RejectOutcome = "discarded"
	// OutcomeRedeliveryCapReached: the queue redelivers without limit (maxRedeliveryCount 0)
	// and the message reached Options.RedeliveryCap deliveries; the emulator discarded it.
	OutcomeRedeliveryCapReached RejectOutcome = "redeliveryCapReached"
)

// RejectResult reports the fate of a rejected message.
type RejectResult struct {
	Outcome       RejectOutcome `json:"outcome"`
	Queue         string        `json:"queue"`
	MessageID     string        `json:"messageId"`
	DeliveryCount int64         `json:"deliveryCount"`
	// DeadMsgQueue names the queue the message moved to (OutcomeDeadLettered).
	DeadMsgQueue string `json:"deadMsgQueue,omitempty"`
	// Reason explains discards.
	Reason string `json:"reason,omitempty"`
}

// EventMeshBroker is the Event Mesh broker as the AMQP sender channels of deployed flows consume it:
// consume a queue's next message, settle it (acknowledge, reject), release it when its lock runs out or the
// flow stops, and count the queue's consumers.
type EventMeshBroker interface {
	// Consume takes the next message of queue name; qos 1 keeps it until it is settled.
	Consume(name string, qos int) (msg Message, ok bool, err error)
	// Ack acknowledges message id of queue name.
	Ack(name, id string) error
	// Reject rejects message id of queue name: redelivered, dead-lettered or discarded.
	Reject(name, id string) (RejectResult, error)
	// CountConsumer adds delta to the consumers of queue.
	CountConsumer(queue string, delta int64)
	// ReleaseMessage gives back an unsettled message without counting a rejection.
	ReleaseMessage(name, id string)
	// ExpireLock returns a message whose redelivery lock ran out to its queue.
	ExpireLock(name, id string) (res RejectResult, ok bool)
	// DiscardMessage removes an unacknowledged message without dead-lettering it.
	DiscardMessage(name, id string)
}

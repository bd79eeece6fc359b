// Code of the core that the emulator's callers use under its own name.

package emulator

import (
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/integration"
)

// The types of the core that are part of the emulator's API.
type (
	// Options configure a Server. The zero value is usable.
	Options = core.Options
	// Faults are the fault settings (core.Faults).
	Faults = core.Faults
	// FaultKind names an injectable fault (core.FaultKind).
	FaultKind = core.FaultKind
	// KeyType selects the credentials of the service keys (core.KeyType).
	KeyType = core.KeyType
	// CA is the emulator's certificate authority (core.CA).
	CA = core.CA
	// Stats are the request statistics (core.Stats).
	Stats = core.Stats
)

// The constants of the core that are part of the emulator's API.
const (
	TokenPath                = core.TokenPath
	ManagementBasePath       = core.ManagementBasePath
	MessagingBasePath        = core.MessagingBasePath
	CloudIntegrationBasePath = core.CloudIntegrationBasePath
	ControlBasePath          = core.ControlBasePath
	AudienceManagement       = core.AudienceManagement
	AudienceMessaging        = core.AudienceMessaging
	AudienceCloudIntegration = core.AudienceCloudIntegration
	DefaultTokenTTL          = core.DefaultTokenTTL
	DefaultNamespace         = core.DefaultNamespace
	DefaultMaxQueues         = core.DefaultMaxQueues
	DefaultMaxSubscriptions  = core.DefaultMaxSubscriptions
	DefaultRedeliveryCap     = core.DefaultRedeliveryCap
	Fault429                 = core.Fault429
	Fault500                 = core.Fault500
	Fault502                 = core.Fault502
	Fault503                 = core.Fault503
	FaultDrop                = core.FaultDrop
	FaultSlow                = core.FaultSlow
	FaultTokenExpiry         = core.FaultTokenExpiry
	FaultLostResponse        = core.FaultLostResponse
	FaultLateResponse        = core.FaultLateResponse
	KeySecret                = core.KeySecret
	KeyCertificate           = core.KeyCertificate
	KeyExternalCertificate   = core.KeyExternalCertificate
)

// AllFaultKinds lists every fault kind.
var AllFaultKinds = core.AllFaultKinds

// The functions of the core that are part of the emulator's API.
var (
	// NewCA makes a certificate authority (core.NewCA).
	NewCA = core.NewCA
	// ParseKeyType reads a key type (core.ParseKeyType).
	ParseKeyType = core.ParseKeyType
	// ParseFaultKind reads a fault kind (core.ParseFaultKind).
	ParseFaultKind = core.ParseFaultKind
	// LoopbackAddr checks that addr names a loopback interface (core.LoopbackAddr).
	LoopbackAddr = core.LoopbackAddr
)

// The Advanced Event Mesh room's API (package aem) under the emulator's name.
type (
	// AdvancedEventMeshCredentials is what the cloud console shows of a broker service's management access.
	AdvancedEventMeshCredentials = aem.AdvancedEventMeshCredentials
)

// The Advanced Event Mesh room's constants under the emulator's name.
const (
	AdvancedEventMeshKeyFile = aem.AdvancedEventMeshKeyFile
	DefaultAEMMsgVpn         = aem.DefaultAEMMsgVpn
	DefaultAEMMinute         = aem.DefaultAEMMinute
	AEMAccepted              = core.AEMAccepted
)

// SampleAEMQueues are the AEM queues LoadSampleContent creates (aem.SampleAEMQueues).
var SampleAEMQueues = aem.SampleAEMQueues

// The brokers' types of the core under the emulator's name.
type (
	// RejectResult reports the fate of a rejected message.
	RejectResult = core.RejectResult
)

// Outcomes of Reject.
const (
	OutcomeRedelivered          = core.OutcomeRedelivered
	OutcomeDeadLettered         = core.OutcomeDeadLettered
	OutcomeDiscarded            = core.OutcomeDiscarded
	OutcomeRedeliveryCapReached = core.OutcomeRedeliveryCapReached
)

// Errors of the broker's Go API.
var (
	ErrQueueNotFound   = core.ErrQueueNotFound
	ErrMessageNotFound = core.ErrMessageNotFound
	ErrMessageTooLarge = core.ErrMessageTooLarge
)

// The Event Mesh room's API (package eventmesh) under the emulator's name.
type (
	// Queue is a queue as the management API serialises it.
	Queue = eventmesh.Queue
	// Subscription is a topic subscription of a queue.
	Subscription = eventmesh.Subscription
	// WebhookReport counts what a webhook did with the messages of its queue.
	WebhookReport = eventmesh.WebhookReport
	// WebhookSubscription is a webhook subscription as the messaging REST API shows it.
	WebhookSubscription = eventmesh.WebhookSubscription
)

// The Event Mesh room's constants under the emulator's name.
const (
	DefaultWebhookMinute       = eventmesh.DefaultWebhookMinute
	WebhookMaxInFlight         = eventmesh.WebhookMaxInFlight
	WebhookActive              = eventmesh.WebhookActive
	WebhookPaused              = eventmesh.WebhookPaused
	HandshakeCompleted         = eventmesh.HandshakeCompleted
	HandshakeFailed            = eventmesh.HandshakeFailed
	HandshakeExempted          = eventmesh.HandshakeExempted
	DefaultMessagingAckTimeout = eventmesh.DefaultMessagingAckTimeout
)

// The Cloud Integration room's API (package integration) under the emulator's name.
type (
	// AEMConsumer describes one AdvancedEventMesh sender channel of a deployed flow that consumes an AEM queue.
	AEMConsumer = integration.AEMConsumer
	// Behaviour sets how the executions of one deployed integration flow end.
	Behaviour = integration.Behaviour
	// Consumer describes one AMQP sender channel of a deployed flow that consumes a queue.
	Consumer = integration.Consumer
	// JMSMessageInput is a message put on a JMS queue through the control endpoint.
	JMSMessageInput = integration.JMSMessageInput
	// MessageProcessingLog is the log of one execution of a deployed flow, as GET /api/v1/MessageProcessingLogs lists it (property names as SAP's MessageProcessingLog entity).
	MessageProcessingLog = integration.MessageProcessingLog
	// MessageRun is what one deployed flow did with one message.
	MessageRun = integration.MessageRun
	// RunOutcome says where a message consumed by a deployed flow ended.
	RunOutcome = integration.RunOutcome
	// RuntimeStats count what deployed flows did with messages.
	RuntimeStats = integration.RuntimeStats
)

// The Cloud Integration room's constants under the emulator's name.
const (
	DefaultJMSMaxQueues     = integration.DefaultJMSMaxQueues
	DefaultJMSMaxCapacity   = integration.DefaultJMSMaxCapacity
	DefaultJMSMinute        = integration.DefaultJMSMinute
	JMSNonExclusive         = integration.JMSNonExclusive
	JMSExclusive            = integration.JMSExclusive
	MPLStatusFailed         = integration.MPLStatusFailed
	MPLStatusRetry          = integration.MPLStatusRetry
	MPLStatusEscalated      = integration.MPLStatusEscalated
	DefaultRetryInterval    = integration.DefaultRetryInterval
	DefaultLockDuration     = integration.DefaultLockDuration
	DefaultRetryCap         = integration.DefaultRetryCap
	DeliveryStateRejected   = integration.DeliveryStateRejected
	FlowSuccess             = integration.FlowSuccess
	FlowError               = integration.FlowError
	RunDeleted              = integration.RunDeleted
	RunLost                 = integration.RunLost
	RunExpired              = integration.RunExpired
	RunGuardEnded           = integration.RunGuardEnded
	RunPending              = integration.RunPending
	RunCompleted            = integration.RunCompleted
	RunEscalated            = integration.RunEscalated
	RunDeadLettered         = integration.RunDeadLettered
	RunDiscarded            = integration.RunDiscarded
	RunRedeliveryCapReached = integration.RunRedeliveryCapReached
	RunUndeliverable        = integration.RunUndeliverable
	RunRetryCapReached      = integration.RunRetryCapReached
	DefaultDeployDelay      = integration.DefaultDeployDelay
)

// ErrIFlowNotFound is returned when no integration flow has the given id.
var ErrIFlowNotFound = integration.ErrIFlowNotFound

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
	// BrokerStats are the broker's counters (core.BrokerStats).
	BrokerStats = core.BrokerStats
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
	DefaultSlowDelay         = core.DefaultSlowDelay
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
	// SampleAEMQueue is an AEM queue of the sample content.
	SampleAEMQueue = aem.SampleAEMQueue
	// AEMOutcome settles a delivery of the AEM broker.
	AEMOutcome = core.AEMOutcome
	// AEMDelivery is one delivery of a message of the AEM broker to a consumer.
	AEMDelivery = core.AEMDelivery
)

// The Advanced Event Mesh room's constants under the emulator's name.
const (
	AEMConfigBasePath        = aem.AEMConfigBasePath
	AEMMonitorBasePath       = aem.AEMMonitorBasePath
	AEMActionBasePath        = aem.AEMActionBasePath
	AdvancedEventMeshKeyFile = aem.AdvancedEventMeshKeyFile
	DefaultAEMMsgVpn         = aem.DefaultAEMMsgVpn
	DefaultAEMUsername       = aem.DefaultAEMUsername
	DefaultAEMMinute         = aem.DefaultAEMMinute
	AEMAccepted              = core.AEMAccepted
	AEMFailed                = core.AEMFailed
	AEMRejected              = core.AEMRejected
)

// SampleAEMQueues are the AEM queues LoadSampleContent creates (aem.SampleAEMQueues).
var SampleAEMQueues = aem.SampleAEMQueues

// The brokers' types of the core under the emulator's name.
type (
	// Message is a message of an Event Mesh queue as the broker's Go API returns it.
	Message = core.Message
	// RejectOutcome says what happened to a rejected message.
	RejectOutcome = core.RejectOutcome
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
	ErrQueueFull       = core.ErrQueueFull
	ErrMessageTooLarge = core.ErrMessageTooLarge
)

// The Event Mesh room's API (package eventmesh) under the emulator's name.
type (
	// Queue is a queue as the management API serialises it.
	Queue = eventmesh.Queue
	// Subscription is a topic subscription of a queue.
	Subscription = eventmesh.Subscription
	// WebhookPushConfig is a webhook's pushConfig.
	WebhookPushConfig = eventmesh.WebhookPushConfig
	// WebhookReport counts what a webhook did with the messages of its queue.
	WebhookReport = eventmesh.WebhookReport
	// WebhookSecurity is a webhook's securitySchema (OAuth2 client credentials).
	WebhookSecurity = eventmesh.WebhookSecurity
	// WebhookSubscription is a webhook subscription as the messaging REST API shows it.
	WebhookSubscription = eventmesh.WebhookSubscription
	// WebhookView is what GET /emulator/v1/webhooks/{name} answers.
	WebhookView = eventmesh.WebhookView
)

// The Event Mesh room's constants under the emulator's name.
const (
	DefaultAccessType                     = eventmesh.DefaultAccessType
	DefaultMaxQueueSizeInBytes            = eventmesh.DefaultMaxQueueSizeInBytes
	DefaultMaxMessageSizeInBytes          = eventmesh.DefaultMaxMessageSizeInBytes
	MaxMaxMessageSizeInBytes              = eventmesh.MaxMaxMessageSizeInBytes
	DefaultPlanMaxMessageSizeInBytes      = eventmesh.DefaultPlanMaxMessageSizeInBytes
	DefaultMaxDeliveredUnackedMsgsPerFlow = eventmesh.DefaultMaxDeliveredUnackedMsgsPerFlow
	MaxRedeliveryCountLimit               = eventmesh.MaxRedeliveryCountLimit
	MaxTTLLimit                           = eventmesh.MaxTTLLimit
	MaxQueueNameLength                    = eventmesh.MaxQueueNameLength
	DefaultMaxWebhooks                    = eventmesh.DefaultMaxWebhooks
	DefaultWebhookMinute                  = eventmesh.DefaultWebhookMinute
	WebhookMaxInFlight                    = eventmesh.WebhookMaxInFlight
	WebhookFirstRetryMinutes              = eventmesh.WebhookFirstRetryMinutes
	WebhookMaxRetryMinutes                = eventmesh.WebhookMaxRetryMinutes
	WebhookActive                         = eventmesh.WebhookActive
	WebhookPaused                         = eventmesh.WebhookPaused
	HandshakeNotInitiated                 = eventmesh.HandshakeNotInitiated
	HandshakeRequested                    = eventmesh.HandshakeRequested
	HandshakeCompleted                    = eventmesh.HandshakeCompleted
	HandshakeFailed                       = eventmesh.HandshakeFailed
	HandshakeExempted                     = eventmesh.HandshakeExempted
	DefaultMessagingAckTimeout            = eventmesh.DefaultMessagingAckTimeout
)

// The Cloud Integration room's API (package integration) under the emulator's name.
type (
	// AEMConsumer describes one AdvancedEventMesh sender channel of a deployed flow that consumes an AEM queue.
	AEMConsumer = integration.AEMConsumer
	// Behaviour sets how the executions of one deployed integration flow end.
	Behaviour = integration.Behaviour
	// Consumer describes one AMQP sender channel of a deployed flow that consumes a queue.
	Consumer = integration.Consumer
	// DeployedIFlow is what the runtime of an integration flow runs: the version, parameter values and content of the deploy in force.
	DeployedIFlow = integration.DeployedIFlow
	// FlowOutcome is how the executions of an integration flow end.
	FlowOutcome = integration.FlowOutcome
	// JMSMessageInput is a message put on a JMS queue through the control endpoint.
	JMSMessageInput = integration.JMSMessageInput
	// JMSQueueView is a queue as the control endpoint lists it.
	JMSQueueView = integration.JMSQueueView
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
	DefaultJMSMaxQueues        = integration.DefaultJMSMaxQueues
	DefaultJMSMaxCapacity      = integration.DefaultJMSMaxCapacity
	JMSQueueMaxBytes           = integration.JMSQueueMaxBytes
	DefaultJMSMinute           = integration.DefaultJMSMinute
	JMSNonExclusive            = integration.JMSNonExclusive
	JMSExclusive               = integration.JMSExclusive
	DefaultJMSExpirationDays   = integration.DefaultJMSExpirationDays
	MaxJMSExpirationDays       = integration.MaxJMSExpirationDays
	MPLStatusCompleted         = integration.MPLStatusCompleted
	MPLStatusFailed            = integration.MPLStatusFailed
	MPLStatusRetry             = integration.MPLStatusRetry
	MPLStatusEscalated         = integration.MPLStatusEscalated
	DefaultRetryInterval       = integration.DefaultRetryInterval
	DefaultLockDuration        = integration.DefaultLockDuration
	DefaultRetryCap            = integration.DefaultRetryCap
	DefaultMaxRetries          = integration.DefaultMaxRetries
	DefaultQueuePrefetch       = integration.DefaultQueuePrefetch
	DeliveryStateRejected      = integration.DeliveryStateRejected
	DeliveryStateUndeliverable = integration.DeliveryStateUndeliverable
	FlowSuccess                = integration.FlowSuccess
	FlowError                  = integration.FlowError
	FlowEscalation             = integration.FlowEscalation
	FlowException              = integration.FlowException
	RunDeleted                 = integration.RunDeleted
	RunLost                    = integration.RunLost
	RunExpired                 = integration.RunExpired
	RunGuardEnded              = integration.RunGuardEnded
	RunPending                 = integration.RunPending
	RunCompleted               = integration.RunCompleted
	RunEscalated               = integration.RunEscalated
	RunDeadLettered            = integration.RunDeadLettered
	RunDiscarded               = integration.RunDiscarded
	RunRedeliveryCapReached    = integration.RunRedeliveryCapReached
	RunUndeliverable           = integration.RunUndeliverable
	RunRetryCapReached         = integration.RunRetryCapReached
	DefaultDeployDelay         = integration.DefaultDeployDelay
)

// ErrIFlowNotFound is returned when no integration flow has the given id.
var ErrIFlowNotFound = integration.ErrIFlowNotFound

package core

import "time"

// OrDefault returns v, or def when v is zero or negative: an option left unset takes its default.
func OrDefault[T ~int | ~int64 | ~float64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Base paths of the emulated APIs.
const (
	// TokenPath is the OAuth 2.0 token endpoint shared by all clients.
	TokenPath = "/oauth/token"
	// ManagementBasePath is the base path of the Event Mesh management API.
	ManagementBasePath = "/hub/rest/api/v1/management/messaging"
	// MessagingBasePath is the base path of the Event Mesh messaging REST API.
	MessagingBasePath = "/messagingrest/v1"
	// CloudIntegrationBasePath is the base path of the Cloud Integration OData API.
	CloudIntegrationBasePath = "/api/v1"
	// ControlBasePath is the base path of the emulator's own control endpoints.
	ControlBasePath = "/emulator/v1"
)

// Client audiences: each OAuth client may call one API only.
const (
	AudienceManagement       = "management"
	AudienceMessaging        = "messaging"
	AudienceCloudIntegration = "cloudintegration"
)

// Defaults of Options.
const (
	DefaultTokenTTL         = 12 * time.Hour
	DefaultNamespace        = "acme/crm/prod"
	DefaultMaxQueues        = 250
	DefaultMaxSubscriptions = 3000
	DefaultRedeliveryCap    = 1000
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// TokenTTL is the lifetime of issued access tokens (default 12h).
	TokenTTL time.Duration
	// Logf, when set, receives one line per request and notable events.
	// Secrets, tokens and Authorization headers are never passed to it.
	Logf func(format string, args ...any)
	// StateFile, when set, is loaded at New if it exists and rewritten
	// atomically after every mutation. It holds the client secrets, so keys
	// written by WriteKeys stay valid across restarts.
	StateFile string
	// RequireCSRF makes the Cloud Integration API demand an X-CSRF-Token on writes.
	RequireCSRF bool
	// Namespace is the Event Mesh namespace put into the service key (default "acme/crm/prod").
	Namespace string
	// IdleTimeout closes a keep-alive connection that stays idle that long (default 0: no limit of the
	// emulator's own). Assumed: the notes document no idle timeout of SAP's endpoints; BenchmarkWalks sets it
	// so that the connections of the provider servers it discards end, as a provider process's do when it exits.
	IdleTimeout time.Duration
	// MaxQueues limits the number of queues per instance (default 250).
	MaxQueues int
	// MaxSubscriptions limits the number of subscriptions per instance (default 3000).
	MaxSubscriptions int
	// JMSMinute is the real duration of one minute of the JMS retry
	// schedule and message expiration (default 1m, real time); 100µs lets
	// the 30 days of the default expiration pass in about 4 seconds.
	JMSMinute time.Duration
	// JMSMaxQueues and JMSMaxCapacity are the tenant's JMS limits (default
	// 30 queues and 9.3 GB, SAP's defaults).
	JMSMaxQueues   int
	JMSMaxCapacity int64
	// RedeliveryCap bounds the redeliveries of a message on a queue with
	// maxRedeliveryCount 0 (unlimited); past it the message is discarded and
	// the event reported (default 1000).
	RedeliveryCap int64
	// Faults are the fault settings in force from the start.
	Faults Faults
	// Now is the clock used for token expiry and message TTL (default time.Now).
	Now func() time.Time
	// RetryInterval is the pause between two executions of a deployed
	// flow's retry loop and before a rejected message is fetched again
	// (default 1ms). The real services retry within seconds, without backoff.
	RetryInterval time.Duration
	// LockDuration is the redelivery lock of a batch of prefetched messages
	// (default 1m): one clock per batch, started when a deployed flow begins
	// processing the batch's first message. Messages of the batch still
	// unsettled when it runs out go back to the broker and are delivered again.
	LockDuration time.Duration
	// MessagingAckTimeout is how long a message consumed with x-qos 1 through the
	// messaging REST API stays unacknowledged before it returns to its queue
	// (default DefaultMessagingAckTimeout; see eventmesh/messaging_consume.go).
	MessagingAckTimeout time.Duration
	// RetryCap bounds the retries of one delivery when a deployed flow's
	// AMQP sender has an empty maxRetries (endless); past it the message is
	// discarded and the event reported (default 1000).
	RetryCap int64
	// KeyType selects the credentials of the service keys (default
	// KeySecret). The certificate types serve the token endpoint on an extra
	// HTTPS listener that requires the client certificate (mutual TLS).
	KeyType KeyType
	// CA signs the HTTPS token endpoint's certificate and the client
	// certificates; one is made at New when it is nil and KeyType needs it.
	CA *CA
	// WebhookMinute is the real duration of one minute of the webhook
	// clock, on which QoS 1 retries wait and held messages reach their time
	// to live (default 1m, real time); 1ms lets the 7 days of the longest
	// time to live pass in about 10 seconds (eventmesh/webhooks.go).
	WebhookMinute time.Duration
	// MaxWebhooks limits the webhook subscriptions per instance (default 10).
	MaxWebhooks int
	// AEMMinute is the real duration of one minute of the Advanced Event
	// Mesh broker's clock, on which redelivery delays and message TTLs run
	// (default 1m, real time; aem/aem.go).
	AEMMinute time.Duration
	// TokenHost, when set, is the loopback IP (for example "127.0.0.2") the
	// token endpoint listens on, apart from the API's host.
	TokenHost string
}

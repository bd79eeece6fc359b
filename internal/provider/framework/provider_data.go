package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// ProviderData is what resources and data sources receive from Configure.
type ProviderData struct {
	EventMesh        *eventmesh.Client
	Messaging        *eventmesh.Messaging
	CloudIntegration *cpi.Client
	// Flows reads integration flows once per run and serializes and
	// coalesces the writes to each flow; set together with cloudIntegration.
	Flows *cpi.Flows
	// links holds the dead message queue links of this run, for the cycle check.
	links dmqLinks
	// owners holds the object each resource of this run plans to manage, so that two resources
	// that would overwrite each other are refused at plan (owners.go); names reserves queue names
	// again at apply (queue_names.go).
	Owners owners
	names  queueNames
	// eventMeshInstance and cloudIntegrationTenant identify the instance and tenant this
	// configuration manages (owners.go); "" when not configured.
	eventMeshInstance, cloudIntegrationTenant string
	// webhookPlans holds the webhook subscriptions this run plans, per queue (resource_webhook_subscription.go).
	WebhookPlans webhookPlans
	// EventMeshUnknown and cloudIntegrationUnknown are set when a setting of that connection is
	// known only after apply (for example a service key from another resource): the plan then
	// requires no such connection.
	EventMeshUnknown, CloudIntegrationUnknown bool
	// EventMeshKeyError and cloudIntegrationKeyError hold the error of a service key that the
	// environment names and that cannot be used, when no provider block attribute is set for
	// that service. Configure does not report it: Terraform puts its generic "requires explicit
	// configuration" error before any error of a provider configured without a provider block.
	// The resources, data sources and actions that need the service report it instead, so that
	// the provider's own message is the first (and only) one the user reads.
	EventMeshKeyError, CloudIntegrationKeyError diag.Diagnostics
	// Each connection's credentials, proven once per run at plan (credentials.go).
	EventMeshCredential, MessagingCredential, CloudIntegrationCredential Credential

	// aem is the SEMP v2 client of the Advanced Event Mesh broker service (aem_connection.go); aemBroker
	// identifies the broker and Message VPN for the owners of this run; aemUnknown and aemKeyError are as
	// for the other connections.
	AEM           *aem.Client
	AEMBroker     string
	AEMUnknown    bool
	AEMKeyError   diag.Diagnostics
	AEMCredential Credential
	// aemQueueList is the run's queue list of the broker and the dead message queues the run plans (aem_queue_shared.go).
	AEMQueueList aemQueueList
}

package emulator

import (
	"fmt"
	"net/http"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// SampleIFlow is one integration flow of the sample content: an iFlow whose
// first sender channel (message flow) is named Channel and reads Queue, as the
// examples under examples/ name them.
type SampleIFlow struct {
	ID      string
	Package string
	Channel string
	Queue   string
	// Adapter is "" for an AMQP sender reading an Event Mesh queue, "JMS" for a
	// JMS sender reading a Cloud Integration JMS queue.
	Adapter string
	// RetryGuard is, for a JMS sender, the limit of the flow's guard: an
	// exception subprocess whose router ends the message when
	// ${header.SAPJMSRetries} > RetryGuard; 0 means no guard.
	RetryGuard int

	// MaxRetries and DeliveryState replace the AMQP sender's maxRetries and
	// deliveryState of SAP's EMIS_AMQP_Consumer template ("5", REJECTED) when
	// set.
	MaxRetries    string
	DeliveryState string
	// Parameters are the externalized parameters of the flow (parameters.prop),
	// for a MaxRetries or DeliveryState of the form {{KEY}}.
	Parameters map[string]string
	// ExceptionEnd is the end event of an AMQP flow's exception subprocess:
	// "" or "error" for an Error End, "escalation" for an Escalation End.
	ExceptionEnd string
	// More are further AMQP sender channels of the flow.
	More []SampleChannel
	// Deployed flows are deployed (STARTED) when the content is loaded, so
	// that their senders consume their queues from the start.
	Deployed bool
	// Note says what the flow shows in the sample landscape: "healthy", or
	// what is wrong with it on purpose.
	Note string
}

// SampleChannel is a further AMQP sender channel of a sample flow.
type SampleChannel struct {
	Name, Queue, MaxRetries, DeliveryState string
	Note                                   string
}

// SampleQueue is an Event Mesh queue of the sample landscape, created through
// the management API's rules as a person creates it in the cockpit.
type SampleQueue struct {
	Name string
	// MaxRedeliveryCount is the queue's maxRedeliveryCount; 0, the service's
	// default, means unlimited redelivery.
	MaxRedeliveryCount int64
	DeadMessageQueue   string
	// MaxTTL, when above 0, sets respectTtl with this maxTtl in seconds.
	MaxTTL int64
	// Topics are the queue's topic subscriptions.
	Topics []string
	// Note says what the queue shows: "healthy", or what is wrong with it on purpose.
	Note string
}

// SampleIFlows are the integration flows the examples under examples/ configure
// (sapmessaging_amqp_sender, sapmessaging_jms_sender, the retry-policy module and
// its landscapes). They are not deployed: the examples deploy them. An AMQP flow
// has one AMQP sender with the settings of SAP's EMIS_AMQP_Consumer template and
// an exception subprocess that ends in an Error End, so that a REJECTED delivery
// status takes effect. A JMS flow has one JMS sender with SAP's defaults and
// SAP's retry pattern: an exception subprocess whose router ends the message
// (Escalation End) once SAPJMSRetries exceeds the limit and hands it back for a
// retry (Error End) otherwise [SAP "Apply the Retry Pattern with JMS Queue",
// da17d2d].
var SampleIFlows = []SampleIFlow{
	{ID: "Acme_Orders_Inbound", Package: "AcmeOrders", Channel: "AMQP_Orders", Queue: "acme/crm/prod/orders"},
	{ID: "OrdersInbound", Package: "Orders", Channel: "EventMesh", Queue: "acme/crm/prod/orders"},
	{ID: "Acme_Orders_Retry", Package: "AcmeOrders", Channel: "JMS_OrdersRetry", Queue: "Acme_Orders_Retry", Adapter: "JMS", RetryGuard: 5},
	// Externalized retry settings, as a team that configures them per tenant
	// keeps them: the sender's keys hold {{KEY}} and parameters.prop the values
	// (SAP's Externalize Parameters of an Integration Flow).
	{ID: "Acme_Orders_Parameterized", Package: "AcmeOrders", Channel: "AMQP_OrdersParameterized", Queue: "acme/crm/prod/orders",
		MaxRetries: "{{Orders_MaxRetries}}", DeliveryState: "{{Orders_DeliveryStatus}}",
		Parameters: map[string]string{"Orders_MaxRetries": "2", "Orders_DeliveryStatus": "REJECTED"}},
}

// SampleLandscapePrefix is the start of every queue name of the sample landscape.
const SampleLandscapePrefix = "acme/erp/prod/"

// SampleQueues are the Event Mesh queues of the sample landscape: queues an
// ERP team made by hand in the Event Mesh cockpit, before Terraform, with the
// healthy and the broken settings that such a landscape has. Dead message
// queues come before the queues that name them (SAP refuses a dead message
// queue that does not exist yet, create-a-queue-95357fa.md step 9). The
// landscape itself is invented (assumed: no SAP source describes a customer
// landscape); each object shows one setting the provider's rules and its
// audit speak about, said in its Note. No example under examples/ manages a
// queue under SampleLandscapePrefix, so they run beside it.
var SampleQueues = []SampleQueue{
	{Name: SampleLandscapePrefix + "dmq", MaxTTL: 604800,
		Note: "healthy: dead message queue of invoices, shipments and returns; dead messages are kept for 7 days"},
	{Name: SampleLandscapePrefix + "payments/dmq",
		Note: "broken: dead message queue without a time to live (respectTtl off), so dead messages pile up until someone deletes them"},
	{Name: SampleLandscapePrefix + "invoices", MaxRedeliveryCount: 3, DeadMessageQueue: SampleLandscapePrefix + "dmq",
		Topics: []string{SampleLandscapePrefix + "ce/sap/s4/Invoice/*"},
		Note:   "healthy: consumed by Acme_Invoices_Inbound (2 retries): at most (3 + 1) × 2 + 1 = 9 executions, then the dead message queue"},
	{Name: SampleLandscapePrefix + "credit-notes", MaxRedeliveryCount: 2,
		Topics: []string{SampleLandscapePrefix + "ce/sap/s4/CreditNote/*"},
		Note:   "broken: consumed by Acme_Invoices_Inbound, but without a dead message queue: a message that keeps failing is dropped after its last redelivery"},
	{Name: SampleLandscapePrefix + "shipments", DeadMessageQueue: SampleLandscapePrefix + "dmq",
		Topics: []string{SampleLandscapePrefix + "ce/sap/s4/OutboundDelivery/*"},
		Note:   "broken: maxRedeliveryCount 0 (the cockpit's default, unlimited) on a queue Acme_Shipments_Inbound consumes: a poison message runs for ever"},
	{Name: SampleLandscapePrefix + "payments", MaxRedeliveryCount: 5, DeadMessageQueue: SampleLandscapePrefix + "payments/dmq",
		Topics: []string{SampleLandscapePrefix + "ce/sap/s4/Payment/*"},
		Note:   "broken: its consumer Acme_Payments_Inbound settles failures as MODIFIED_FAILED_UNDELIVERABLE, so the 5 redeliveries and the dead message queue never happen"},
	{Name: SampleLandscapePrefix + "returns", MaxRedeliveryCount: 2, DeadMessageQueue: SampleLandscapePrefix + "dmq",
		Topics: []string{SampleLandscapePrefix + "ce/sap/s4/CustomerReturn/*"},
		Note:   "broken: its consumer Acme_Returns_Inbound ends failures in an Escalation End, so a failed message is acknowledged and lost instead of redelivered"},
	{Name: SampleLandscapePrefix + "audit", MaxRedeliveryCount: 1,
		Note: "information: no integration flow consumes it; the webhook audit-push pushes it to another application with QoS 0"},
	{Name: SampleLandscapePrefix + "sales-orders/errors", MaxRedeliveryCount: 2, DeadMessageQueue: SampleLandscapePrefix + "dmq",
		Note: "information: a chained error queue: the dead message queue of sales-orders, and itself an ordinary queue that the webhook " +
			"sales-orders-errors-push hands to an error-handling application, with its own redelivery count and dead message queue"},
	{Name: SampleLandscapePrefix + "sales-orders", MaxRedeliveryCount: 3, DeadMessageQueue: SampleLandscapePrefix + "sales-orders/errors",
		Topics: []string{SampleLandscapePrefix + "ce/sap/s4/SalesOrder/*"},
		Note:   "information: consumed by Acme_SalesOrders_Inbound (0 retries); its dead messages go to the chained error queue sales-orders/errors"},
}

// SampleWebhook is an Event Mesh webhook subscription of the sample landscape.
type SampleWebhook struct {
	Name, Queue string
	QoS         int
	// Endpoint is where it pushes: a host under the reserved .example domain
	// (RFC 2606), so its handshake fails and nothing is pushed.
	Endpoint string
	// Note says what the webhook shows.
	Note string
}

// SampleWebhooks are the webhook subscriptions of the sample landscape,
// created through the messaging API's handler after the queues. Their
// endpoints cannot be reached, so the handshake fails and they push nothing:
// they are there to be listed and adopted, not to take messages from the
// landscape's queues.
var SampleWebhooks = []SampleWebhook{
	{Name: "audit-push", Queue: SampleLandscapePrefix + "audit", QoS: 0, Endpoint: "https://audit.acme.example/events",
		Note: "broken: QoS 0, so a message the endpoint fails to take is lost"},
	{Name: "sales-orders-errors-push", Queue: SampleLandscapePrefix + "sales-orders/errors", QoS: 1, Endpoint: "https://errors.acme.example/events",
		Note: "healthy: QoS 1, a message stays in the queue until the endpoint takes it"},
}

// SampleLandscapeIFlows are the integration flows of the sample landscape, in
// the package AcmeERP, deployed when the content is loaded. Their AMQP
// senders read SampleQueues; their JMS senders read JMS queues of the tenant.
var SampleLandscapeIFlows = []SampleIFlow{
	{ID: "Acme_Invoices_Inbound", Package: "AcmeERP", Channel: "AMQP_Invoices", Queue: SampleLandscapePrefix + "invoices", MaxRetries: "2",
		More:     []SampleChannel{{Name: "AMQP_CreditNotes", Queue: SampleLandscapePrefix + "credit-notes", MaxRetries: "2", Note: "reads a queue without a dead message queue"}},
		Deployed: true, Note: "healthy: two AMQP senders, 2 retries each, REJECTED, exception subprocess ending in an Error End"},
	{ID: "Acme_Shipments_Inbound", Package: "AcmeERP", Channel: "AMQP_Shipments", Queue: SampleLandscapePrefix + "shipments",
		Deployed: true, Note: "broken: reads a queue with unlimited redelivery"},
	{ID: "Acme_Payments_Inbound", Package: "AcmeERP", Channel: "AMQP_Payments", Queue: SampleLandscapePrefix + "payments",
		DeliveryState: "MODIFIED_FAILED_UNDELIVERABLE",
		Deployed:      true, Note: "broken: MODIFIED_FAILED_UNDELIVERABLE after the retries, so Event Mesh never redelivers"},
	{ID: "Acme_Returns_Inbound", Package: "AcmeERP", Channel: "AMQP_Returns", Queue: SampleLandscapePrefix + "returns",
		ExceptionEnd: "escalation",
		Deployed:     true, Note: "broken: the exception subprocess ends in an Escalation End, so a failed message counts as processed"},
	{ID: "Acme_SalesOrders_Inbound", Package: "AcmeERP", Channel: "AMQP_SalesOrders", Queue: SampleLandscapePrefix + "sales-orders", MaxRetries: "0",
		Deployed: true, Note: "broken: Max. Number of Retries 0, so a redelivered message gets its outcome at once, unprocessed, and the queue's redeliveries are spent without a real attempt"},
	{ID: "Acme_Invoices_Archive", Package: "AcmeERP", Channel: "JMS_InvoicesArchive", Queue: "Acme_Invoices_Archive", Adapter: "JMS", RetryGuard: 5,
		Deployed: true, Note: "healthy: JMS sender with the retry guard ${header.SAPJMSRetries} > 5"},
	{ID: "Acme_Payments_Retry", Package: "AcmeERP", Channel: "JMS_PaymentsRetry", Queue: "Acme_Payments_Retry", Adapter: "JMS",
		Deployed: true, Note: "broken: JMS sender without a retry guard: a failing message is retried until its expiration deletes it (30 days)"},
}

// options returns what iflowbuild builds for the flow.
func (f SampleIFlow) options() iflowbuild.Options {
	if f.Adapter != "JMS" {
		amqp := func(name, queue, retries, state string) iflowbuild.Sender {
			p := iflowbuild.DefaultSenderProperties(queue)
			if retries != "" {
				p["maxRetries"] = retries
			}
			if state != "" {
				p["deliveryState"] = state
			}
			return iflowbuild.Sender{Name: name, Properties: p}
		}
		senders := []iflowbuild.Sender{amqp(f.Channel, f.Queue, f.MaxRetries, f.DeliveryState)}
		for _, c := range f.More {
			senders = append(senders, amqp(c.Name, c.Queue, c.MaxRetries, c.DeliveryState))
		}
		end := f.ExceptionEnd
		if end == "" {
			end = "error"
		}
		return iflowbuild.Options{Name: f.ID, Senders: senders, ExceptionEnds: [][]string{{end}}, Parameters: f.Parameters}
	}
	o := iflowbuild.Options{
		Name:    f.ID,
		Senders: []iflowbuild.Sender{{Name: f.Channel, Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties(f.Queue)}},
	}
	if f.RetryGuard > 0 {
		o.ExceptionEnds = [][]string{{"escalation", "error"}}
		o.Routers = []iflowbuild.Router{{Condition: fmt.Sprintf("${header.SAPJMSRetries} > %d", f.RetryGuard), InException: 1}}
	}
	return o
}

// LoadSampleContent creates the integration flows of SampleIFlows on the
// tenant, and the sample landscape: the queues of SampleQueues with their
// subscriptions, and the flows of SampleLandscapeIFlows, deployed. An object
// that already exists (for example from a state file) is kept as it is; a
// missing one is created again.
func (s *Server) LoadSampleContent() error {
	if s.loadErr != nil {
		// Creating a flow rewrites the state file: never over one that could not be read.
		return fmt.Errorf("emulator: sample content not loaded because the state file %s could not be loaded: %w", s.Opts.StateFile, s.loadErr)
	}
	for _, f := range SampleIFlows {
		if err := s.createSampleIFlow(f); err != nil {
			return err
		}
	}
	for _, q := range SampleQueues {
		if err := s.createSampleQueue(q); err != nil {
			return err
		}
	}
	for _, w := range SampleWebhooks {
		if err := s.createSampleWebhook(w); err != nil {
			return err
		}
	}
	if err := s.LoadSample(); err != nil { // aem/aem_sample.go
		return err
	}
	if err := s.loadAEMSampleFlows(); err != nil { // aem_sample_flows.go
		return err
	}
	for _, f := range SampleLandscapeIFlows {
		if err := s.createSampleIFlow(f); err != nil {
			return err
		}
	}
	return nil
}

// createSampleIFlow creates flow f unless it exists, and deploys it when f says so.
func (s *Server) createSampleIFlow(f SampleIFlow) error {
	if s.HasIFlow(f.ID) {
		return nil
	}
	if err := s.CreateIFlow(f.ID, f.ID, f.Package, iflowbuild.Build(f.options())); err != nil {
		return fmt.Errorf("emulator: sample content: %w", err)
	}
	if !f.Deployed {
		return nil
	}
	if err := s.DeployNow(f.ID); err != nil {
		return fmt.Errorf("emulator: sample content: %w", err)
	}
	return nil
}

// createSampleQueue creates queue q and its subscriptions unless the queue
// exists. It goes through the management API's handlers, so that the sample
// landscape obeys every rule a person in the cockpit meets.
func (s *Server) createSampleQueue(q SampleQueue) error {
	if _, exists := s.Queue(q.Name); exists {
		return nil
	}
	settings := map[string]any{"maxRedeliveryCount": q.MaxRedeliveryCount}
	if q.DeadMessageQueue != "" {
		settings["deadMsgQueue"] = q.DeadMessageQueue
	}
	if q.MaxTTL > 0 {
		settings["respectTtl"], settings["maxTtl"] = true, q.MaxTTL
	}
	if err := core.Call(s.HandlePutQueue, http.MethodPut, settings, []string{"queue", q.Name}, http.StatusCreated,
		"creating queue "+q.Name); err != nil {
		return err
	}
	for _, topic := range q.Topics {
		if err := core.Call(s.HandlePutSubscription, http.MethodPut, nil, []string{"queue", q.Name, "topic", topic}, http.StatusCreated,
			fmt.Sprintf("subscribing queue %s to %s", q.Name, topic)); err != nil {
			return err
		}
	}
	return nil
}

// createSampleWebhook creates webhook subscription w unless it exists, through
// the messaging API's handler, so that it obeys the API's rules.
func (s *Server) createSampleWebhook(w SampleWebhook) error {
	if _, _, exists := s.Webhook(w.Name); exists {
		return nil
	}
	body := eventmesh.WebhookSubscription{Name: w.Name, Address: "queue:" + w.Queue, QoS: w.QoS,
		PushConfig: eventmesh.WebhookPushConfig{Type: "webhook", Endpoint: w.Endpoint}}
	return core.Call(s.HandleCreateWebhook, http.MethodPost, body, nil, http.StatusCreated, "creating webhook "+w.Name)
}

package emulator

import (
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// SampleIFlow is one integration flow of the sample content: an iFlow with a
// single sender channel (message flow) named Channel that reads Queue, as the
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
}

// SampleIFlows are the integration flows the examples under examples/ configure
// (sapmessaging_amqp_sender, sapmessaging_jms_sender, the retry-policy module and
// its landscapes). An AMQP flow has one AMQP sender with the settings of SAP's
// EMIS_AMQP_Consumer template and an exception subprocess that ends in an Error
// End, so that a REJECTED delivery status takes effect. A JMS flow has one JMS
// sender with SAP's defaults and SAP's retry pattern: an exception subprocess
// whose router ends the message (Escalation End) once SAPJMSRetries exceeds the
// limit and hands it back for a retry (Error End) otherwise [SAP "Apply the Retry
// Pattern with JMS Queue", da17d2d].
var SampleIFlows = []SampleIFlow{
	{ID: "Acme_Orders_Inbound", Package: "AcmeOrders", Channel: "AMQP_Orders", Queue: "acme/crm/prod/orders"},
	{ID: "OrdersInbound", Package: "Orders", Channel: "EventMesh", Queue: "acme/crm/prod/orders"},
	{ID: "Acme_Orders_Retry", Package: "AcmeOrders", Channel: "JMS_OrdersRetry", Queue: "Acme_Orders_Retry", Adapter: "JMS", RetryGuard: 5},
}

// options returns what iflowbuild builds for the flow.
func (f SampleIFlow) options() iflowbuild.Options {
	if f.Adapter != "JMS" {
		return iflowbuild.Options{
			Name:          f.ID,
			Senders:       []iflowbuild.Sender{{Name: f.Channel, Properties: iflowbuild.DefaultSenderProperties(f.Queue)}},
			ExceptionEnds: [][]string{{"error"}},
		}
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
// tenant. A flow that already exists (for example from a state file) is kept
// as it is.
func (s *Server) LoadSampleContent() error {
	if s.loadErr != nil {
		// Creating a flow rewrites the state file: never over one that could not be read.
		return fmt.Errorf("emulator: sample content not loaded because the state file %s could not be loaded: %w", s.opts.StateFile, s.loadErr)
	}
	for _, f := range SampleIFlows {
		s.cloudIntegration.cpi.mu.Lock()
		_, exists := s.cloudIntegration.cpi.iflows[f.ID]
		s.cloudIntegration.cpi.mu.Unlock()
		if exists {
			continue
		}
		zip := iflowbuild.Build(f.options())
		if err := s.CreateIFlow(f.ID, f.ID, f.Package, zip); err != nil {
			return fmt.Errorf("emulator: sample content: %w", err)
		}
	}
	return nil
}

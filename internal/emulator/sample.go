package emulator

import (
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowtest"
)

// SampleIFlow is one integration flow of the sample content: an iFlow with a
// single AMQP sender channel (message flow) named Channel that reads Queue, as
// the examples under examples/ name them.
type SampleIFlow struct {
	ID      string
	Package string
	Channel string
	Queue   string
}

// SampleIFlows are the integration flows the examples under examples/ configure
// (sapmessaging_amqp_sender, the retry-policy module and its landscapes). Each has
// one AMQP sender with the settings of SAP's EMIS_AMQP_Consumer template and an
// exception subprocess that ends in an Error End, so that a REJECTED delivery
// status takes effect.
var SampleIFlows = []SampleIFlow{
	{ID: "Acme_Orders_Inbound", Package: "AcmeOrders", Channel: "AMQP_Orders", Queue: "acme/crm/prod/orders"},
	{ID: "OrdersInbound", Package: "Orders", Channel: "EventMesh", Queue: "acme/crm/prod/orders"},
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
		zip := iflowtest.Build(iflowtest.Options{
			Name:          f.ID,
			Senders:       []iflowtest.Sender{{Name: f.Channel, Properties: iflowtest.DefaultSenderProperties(f.Queue)}},
			ExceptionEnds: [][]string{{"error"}},
		})
		if err := s.CreateIFlow(f.ID, f.ID, f.Package, zip); err != nil {
			return fmt.Errorf("emulator: sample content: %w", err)
		}
	}
	return nil
}

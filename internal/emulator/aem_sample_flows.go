package emulator

import (
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// SampleAEMIFlow is an integration flow of the sample content whose one sender channel is an
// AdvancedEventMesh sender (adapter 1.3.0), or a sender of Solace's own adapter, reading a queue of
// SampleAEMQueues. Its settings are those of the
// tenant-written channels (iflowbuild.DefaultAEMSenderProperties: 5 attempts, FAILED,
// AUTOMATIC_ON_EXCHANGE_COMPLETE, waits of 1000 ms ×3.0 up to 30000 ms), with AckMode replacing the
// acknowledgement mode when set.
type SampleAEMIFlow struct {
	ID, Package, Channel, Queue string
	AckMode                     string
	// Adapter is "" for SAP's AdvancedEventMesh adapter, or "SolacePubSubPlus" for Solace's own adapter (1.2.0),
	// which consumes AEM queues with the same keys (the fixed keys of its sender in SolaceLabs/solace-ep-codegen's
	// src/test/resources/sap/iflow/Inventory Service.iflw, written by iflowbuild).
	Adapter string
	// Note says what the flow shows: "healthy", or what is wrong with it on purpose.
	Note string
}

// SampleAEMIFlowPackage is the integration package of SampleAEMIFlows.
const SampleAEMIFlowPackage = "AcmeAEM"

// SampleAEMIFlows are the flows of package AcmeAEM that consume the AEM sample landscape (aem/aem_sample.go).
// They are not deployed: the examples of sapmessaging_aem_sender deploy them. Each has an exception
// subprocess that ends in an Error End, so that a failure reaches the adapter's retry loop.
var SampleAEMIFlows = []SampleAEMIFlow{
	{ID: "Acme_AEM_Orders_Inbound", Package: SampleAEMIFlowPackage, Channel: "AEM_Orders", Queue: "acme/aem/prod/orders",
		Note: "healthy: 5 attempts on each of 6 deliveries (the queue's maxRedeliveryCount 5), FAILED, then acme/aem/prod/orders/dmq"},
	{ID: "Acme_AEM_Legacy_Inbound", Package: SampleAEMIFlowPackage, Channel: "AEM_Legacy", Queue: "acme/aem/prod/legacy",
		Note: "runs for ever: FAILED on a queue whose maxRedeliveryCount is 0 (retry forever)"},
	{ID: "Acme_AEM_Audit_Inbound", Package: SampleAEMIFlowPackage, Channel: "AEM_Audit", Queue: "acme/aem/prod/audit",
		AckMode: "AUTOMATIC_IMMEDIATE", Note: "loses failed messages: AUTOMATIC_IMMEDIATE acknowledges each message on receipt"},
	{ID: "Acme_AEM_Payments_Inbound", Package: SampleAEMIFlowPackage, Channel: "From_SolacePubSubPlus_1", Queue: "acme/aem/prod/payments",
		Adapter: "SolacePubSubPlus",
		Note: "Solace's own adapter (SolacePubSubPlus 1.2.0): 5 attempts on each of 6 deliveries, FAILED, then acme/aem/prod/payments/errors, " +
			"assuming it settles and counts attempts as SAP's AdvancedEventMesh adapter does (no source documents it)"},
}

// options returns what iflowbuild builds for the flow.
func (f SampleAEMIFlow) options() iflowbuild.Options {
	p := iflowbuild.DefaultAEMSenderProperties(f.Queue)
	if f.AckMode != "" {
		p["ackMode"] = f.AckMode
	}
	adapter := "AEM"
	if f.Adapter != "" {
		adapter = f.Adapter
	}
	return iflowbuild.Options{Name: f.ID, Senders: []iflowbuild.Sender{{Name: f.Channel, Adapter: adapter, Properties: p}},
		ExceptionEnds: [][]string{{"error"}}}
}

// loadAEMSampleFlows creates the flows of SampleAEMIFlows that do not exist.
func (s *Server) loadAEMSampleFlows() error {
	for _, f := range SampleAEMIFlows {
		if s.HasIFlow(f.ID) {
			continue
		}
		if err := s.CreateIFlow(f.ID, f.ID, f.Package, iflowbuild.Build(f.options())); err != nil {
			return fmt.Errorf("emulator: sample content: %w", err)
		}
	}
	return nil
}

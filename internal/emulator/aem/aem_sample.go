package aem

import (
	"net/http"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// SampleAEMQueue is a queue of the sample landscape on the Advanced Event Mesh broker: the settings it is
// created with (attributes of SEMP's MsgVpnQueue), the others at the broker's defaults.
type SampleAEMQueue struct {
	Name     string
	Settings map[string]any
}

// SampleAEMQueues are the AEM queues LoadSampleContent creates under acme/aem/prod/, in an order in which
// each dead message queue exists before the queue that names it (as a person in the cloud console would
// create them; the broker itself accepts a dead message queue that does not exist, [SPEC] deadMsgQueue).
// The shapes a landscape that grew in the cloud console holds:
//
//   - acme/aem/prod/legacy: a queue as the cloud console's defaults leave it, but taking and delivering
//     messages: maxRedeliveryCount 0 (retry forever) and the default dead message queue #DEAD_MSG_QUEUE,
//     which does not exist.
//   - acme/aem/prod/orders with its dead message queue acme/aem/prod/orders/dmq (7 days' time to live): the
//     settings the provider recommends.
//   - acme/aem/prod/audit with acme/aem/prod/audit/dmq, a dead message queue without a time to live.
//   - acme/aem/prod/payments, whose dead message queue acme/aem/prod/payments/errors is itself consumed: it
//     has a redelivery count and a dead message queue of its own, acme/aem/prod/payments/errors/dmq (a chain).
var SampleAEMQueues = []SampleAEMQueue{
	{Name: "acme/aem/prod/legacy", Settings: map[string]any{"ingressEnabled": true, "egressEnabled": true}},
	{Name: "acme/aem/prod/orders/dmq", Settings: map[string]any{"ingressEnabled": true, "respectTtlEnabled": true, "maxTtl": 604800}},
	{Name: "acme/aem/prod/orders", Settings: map[string]any{
		"ingressEnabled": true, "egressEnabled": true, "maxRedeliveryCount": 5, "deadMsgQueue": "acme/aem/prod/orders/dmq",
		"redeliveryDelayEnabled": true, "deliveryCountEnabled": true,
	}},
	{Name: "acme/aem/prod/audit/dmq", Settings: map[string]any{"ingressEnabled": true}},
	{Name: "acme/aem/prod/audit", Settings: map[string]any{
		"ingressEnabled": true, "egressEnabled": true, "maxRedeliveryCount": 3, "deadMsgQueue": "acme/aem/prod/audit/dmq",
	}},
	{Name: "acme/aem/prod/payments/errors/dmq", Settings: map[string]any{"ingressEnabled": true, "respectTtlEnabled": true, "maxTtl": 1209600}},
	{Name: "acme/aem/prod/payments/errors", Settings: map[string]any{
		"ingressEnabled": true, "egressEnabled": true, "maxRedeliveryCount": 2, "deadMsgQueue": "acme/aem/prod/payments/errors/dmq",
		"redeliveryDelayEnabled": true, "redeliveryDelayInitialInterval": 5000,
	}},
	{Name: "acme/aem/prod/payments", Settings: map[string]any{
		"ingressEnabled": true, "egressEnabled": true, "maxRedeliveryCount": 5, "deadMsgQueue": "acme/aem/prod/payments/errors",
		"redeliveryDelayEnabled": true,
	}},
}

// LoadSample creates the queues of SampleAEMQueues that do not exist. It goes through the SEMP create
// handler, so that the sample obeys every rule of the API (names, ranges, enums).
func (a *AdvancedEventMesh) LoadSample() error {
	for _, q := range SampleAEMQueues {
		a.mu.Lock()
		_, exists := a.queues[q.Name]
		a.mu.Unlock()
		if exists {
			continue
		}
		body := map[string]any{"queueName": q.Name}
		for k, v := range q.Settings {
			body[k] = v
		}
		create := func(w http.ResponseWriter, r *http.Request) {
			if err := a.handleCreateQueue(w, r); err != nil {
				respondSEMPError(w, r, err)
			}
		}
		if err := core.Call(create, http.MethodPost, body, []string{"vpn", a.vpn}, http.StatusOK, "creating AEM queue "+q.Name); err != nil {
			return err
		}
	}
	return nil
}

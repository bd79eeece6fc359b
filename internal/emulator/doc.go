// Package emulator is a loopback HTTP server that emulates the SAP APIs the
// provider calls: the OAuth token endpoint, the SAP Event Mesh management API,
// the Event Mesh messaging REST API (with a small broker that counts deliveries,
// redelivers rejected messages and moves them to a dead message queue) and the
// Cloud Integration OData API, and the webhook subscriptions that push a
// queue's messages to an HTTP endpoint (eventmesh/webhooks.go).
//
// Deployed integration flows run: every flow in status STARTED whose content
// has an AMQP sender channel consumes its queue with the channel's
// maxRetries, deliveryState, queuePrefetch and NumberConcurrentProcesses,
// so that a poison message takes (R + 1) × n + 1 executions and lands in the
// dead message queue as on the real services (see integration/runtime.go); JMS sender
// channels consume the tenant's JMS queues (integration/jms_runtime.go) and
// AdvancedEventMesh sender channels the AEM room's queues, m runs per
// delivery with the adapter's backoff, then the settlement outcome
// (integration/aem_runtime.go; their runs end "deadLettered", "deleted" or "lost"). How the
// executions end is set per flow with SetBehaviour or
// PUT /emulator/v1/iflows/{id}/behaviour, and every execution is listed by
// GET /api/v1/MessageProcessingLogs.
//
// With Options.StateFile (the -state flag of internal/cmd/emulator) the OAuth
// clients, queues with their messages and subscriptions, and the Cloud
// Integration tenant survive a restart. Processing logs, message runs and
// statistics live in memory only: a restarted emulator starts them afresh,
// and it keeps the last 20000 processing logs.
//
// Every API request passes one middleware that counts it and can inject faults
// (429, 5xx, dropped connections, slow answers, expired tokens), so that the
// provider's real HTTP client and its acceptance tests can be exercised without
// network access. Control endpoints under /emulator/v1 expose the fault settings,
// the statistics, the broker's rejection path and what each webhook
// subscription delivered (GET /emulator/v1/webhooks/{name}).
//
// # Rooms
//
// The emulator has one package, a room, per emulated product, over a core that every room uses. This
// package only assembles them: New creates the core and the rooms and wires them, Server serves them, and
// the rooms' exported methods are Server's through embedding, so callers (emulatortest, emulatorcontrol,
// internal/cmd/*, the provider's tests) keep one API. Each room owns its state, the lock that guards it,
// its HTTP handlers and its control endpoints, and cites its sources in its own doc.go.
//
//	| Package                        | Room                                                                 | Imports of the project |
//	|--------------------------------|----------------------------------------------------------------------|------------------------|
//	| core                           | options, clock, log, statistics, route labels, state-file save; the token service (OAuth clients, token endpoint, bearer check, CA, mutual TLS listener); the fault middleware; the brokers' interfaces | none |
//	| eventmesh                      | Event Mesh: queues, subscriptions, the management and messaging APIs, the broker, webhook subscriptions and their push delivery | core |
//	| integration                    | Cloud Integration: design time, OData and deploy APIs, processing logs, the runtime of deployed flows (AMQP, JMS and AEM senders), the JMS broker | core, integration/flowreader |
//	| integration/flowreader         | Cloud Integration's iFlow reader: archives, flow model, Camel Simple guards | none |
//	| aem                            | Advanced Event Mesh: SEMP v2 config, monitor and action, REST messaging, the broker and its clock | core |
//	| . (this package)               | the assembler: Server, New, keys, the state file, control mux, sample content | core and every room, iflow/iflowbuild |
//
// No room imports another room: Cloud Integration's runtime reaches the brokers the way a tenant does,
// over core.EventMeshBroker and core.AEMBroker, which eventmesh.EventMesh.Broker and
// aem.AdvancedEventMesh.Broker return and New wires. TestRoomImports enforces this; TestEmulatorImportsNoCodeItChecks keeps every
// package of the emulator (emulatortest aside) away from the code it checks.
//
// A new emulated endpoint goes into the room of its product: a handler method of the room, registered by
// the room's mount function, guarded by the room's lock, its source cited in a comment and in the table
// of the room's doc.go. A new product gets a room of its own, wired in New.
//
// Tests start an emulator with internal/emulator/emulatortest.
//
// # Enforced limits and behaviours
//
// The emulator is never more lenient than SAP documents. Each room's doc.go lists the limits and
// behaviours it enforces and their sources ("assumed" where nothing public exists, with the reason in the
// code comment): core (certificate keys, the token endpoint), eventmesh, integration,
// integration/flowreader and aem.
//
// # Sample content
//
// LoadSampleContent (the -sample-content flag, used by make sandbox and
// TestAccExamples) creates the integration flows the examples configure
// (SampleIFlows, not deployed) and a sample landscape: the queues of
// SampleQueues under SampleLandscapePrefix with their subscriptions (a
// chained error queue among them), the webhook subscriptions of
// SampleWebhooks (endpoints under .example, so their handshake fails and they
// push nothing), and the deployed flows of SampleLandscapeIFlows that consume
// them. The landscape is
// invented (assumed: no SAP source describes a customer landscape); it is
// made through the same handlers and rules as the API's requests, dead
// message queues before the queues that name them, and each object says in
// its Note whether its path is healthy or what is wrong with it on purpose: a
// consumed queue with maxRedeliveryCount 0, a consumed queue without a dead
// message queue, a dead message queue without a time to live, an AMQP sender
// with MODIFIED_FAILED_UNDELIVERABLE, an exception subprocess ending in an
// Escalation End, a JMS sender without a retry guard, and a queue no flow
// consumes. Its flows are deployed without the deploy delay.
//
// The package is for tests and local use only; the provider binary never links it.
package emulator

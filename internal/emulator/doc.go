// Package emulator is a loopback HTTP server that emulates the SAP APIs the
// provider calls: the OAuth token endpoint, the SAP Event Mesh management API,
// the Event Mesh messaging REST API (with a small broker that counts deliveries,
// redelivers rejected messages and moves them to a dead message queue) and the
// Cloud Integration OData API.
//
// Deployed integration flows run: every flow in status STARTED whose content
// has an AMQP sender channel consumes its queue with the channel's
// maxRetries, deliveryState, queuePrefetch and NumberConcurrentProcesses,
// so that a poison message takes (R + 1) × n + 1 executions and lands in the
// dead message queue as on the real services (see runtime.go). How the
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
// the statistics and the broker's rejection path.
//
// The package is for tests and local use only; the provider binary never links it.
package emulator

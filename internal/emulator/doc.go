// Package emulator is a loopback HTTP server that emulates the SAP APIs the
// provider calls: the OAuth token endpoint, the SAP Event Mesh management API,
// the Event Mesh messaging REST API (with a small broker that counts deliveries,
// redelivers rejected messages and moves them to a dead message queue) and the
// Cloud Integration OData API.
//
// Every API request passes one middleware that counts it and can inject faults
// (429, 5xx, dropped connections, slow answers, expired tokens), so that the
// provider's real HTTP client and its acceptance tests can be exercised without
// network access. Control endpoints under /emulator/v1 expose the fault settings,
// the statistics and the broker's rejection path.
//
// The package is for tests and local use only; the provider binary never links it.
package emulator

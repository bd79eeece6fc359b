// Package core is what every room of the emulator uses: the options, the clock, the log, the request
// statistics and route labels, the state-file save (Core); the emulated XSUAA (TokenService: OAuth
// clients, the token endpoint, the bearer check every API runs, the CA and the HTTPS listener with mutual
// TLS for certificate keys); the middleware around all rooms that labels and counts requests and injects
// faults (FaultInjector); the HTTP helpers of the rooms; and the brokers' interfaces (EventMeshBroker,
// AEMBroker) through which Cloud Integration's runtime consumes the brokers' queues the way a tenant does.
//
// It imports no room and nothing else of the project.
//
// # Enforced limits and behaviours
//
//	| What                                        | Enforced as                                       | Source |
//	|---------------------------------------------|---------------------------------------------------|--------|
//	| certificate keys (Options.KeyType)          | Event Mesh x509 binding (oa2 certificate, key, granttype client_x509); Cloud Integration "Certificate" and "External Certificate" keys | SAP-docs btp-integration-suite "Creating Service Instance and Service Key for Inbound Authentication" |
//	| token endpoint of certificate keys          | HTTPS with a CA made at start; a token only for the client_id whose certificate the TLS peer presented; secrets refused | XSUAA X.509 client credentials (token on the authentication.cert. host); the CA is the emulator's own |
//
// The fault middleware and the control endpoints are the emulator's own (for tests): they emulate no SAP
// behaviour beyond the status codes the SAP APIs document (429 with Retry-After, 5xx).
package core

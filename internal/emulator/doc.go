// Package emulator is a loopback HTTP server that emulates the SAP APIs the
// provider calls: the OAuth token endpoint, the SAP Event Mesh management API,
// the Event Mesh messaging REST API (with a small broker that counts deliveries,
// redelivers rejected messages and moves them to a dead message queue) and the
// Cloud Integration OData API, and the webhook subscriptions that push a
// queue's messages to an HTTP endpoint (webhooks.go).
//
// Deployed integration flows run: every flow in status STARTED whose content
// has an AMQP sender channel consumes its queue with the channel's
// maxRetries, deliveryState, queuePrefetch and NumberConcurrentProcesses,
// so that a poison message takes (R + 1) × n + 1 executions and lands in the
// dead message queue as on the real services (see runtime.go); JMS sender
// channels consume the tenant's JMS queues (jms_runtime.go) and
// AdvancedEventMesh sender channels the AEM room's queues, m runs per
// delivery with the adapter's backoff, then the settlement outcome
// (aem_runtime.go; their runs end "deadLettered", "deleted" or "lost"). How the
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
// The package has one part, a room, per emulated product. Each room owns its
// state, the lock that guards it, its HTTP handlers and its control
// endpoints; rooms reach each other only through the fields they are given
// at New. Server only wires the rooms and serves them, and the rooms'
// exported methods are Server's through embedding.
//
//	| Room               | Owns                                                                 | Lock                     | Files |
//	|--------------------|----------------------------------------------------------------------|--------------------------|-------|
//	| tokenService       | OAuth clients, issued and expired tokens, the token endpoint, the bearer check of every API, the CA and the HTTPS (mutual TLS) or Options.TokenHost listener | tokenService.mu, lnMu | auth.go, tls.go |
//	| eventMesh          | queues with messages and subscriptions, flow consumer counts, readiness; the management and messaging APIs and the broker the deployed flows consume through | eventMesh.mu | management.go, broker.go, messaging_consume.go |
//	| cloudIntegration   | the tenant's design time and deployments (cpiState), the OData API with its CSRF check, the deploy API, the processing-log endpoints | cpiState.mu | cloudintegration.go, cpi_handlers.go, cpi_admin.go, cpi_odata.go, mpl.go |
//	| integrationRuntime | the deployed flows: AMQP sender consumers, behaviours, message runs, processing logs, statistics; the JMS broker (tenant limits, monitoring API) and the JMS sender consumers; the AdvancedEventMesh sender consumers of the AEM room's queues | runtimeState.mu, jmsState.mu | runtime.go, behaviour.go, jms.go, jms_runtime.go, aem_runtime.go |
//	| webhookService     | webhook subscriptions of the messaging REST API, their handshake and push delivery loops, the webhook clock | webhookService.mu (takes eventMesh.mu for the queues) | webhooks.go |
//	| advancedEventMesh  | the Advanced Event Mesh broker service: queues with subscriptions and messages, SEMP v2 (config, monitor, action) with Basic auth, REST messaging publish, redelivery on the AEM clock; its own table of limits and sources is in aem.go; not kept in the state file | advancedEventMesh.mu | aem.go, aem_config.go, aem_broker.go, aem_monitor.go |
//	| faultInjector      | the middleware around all rooms: route labels, request counts, injected faults, held-back answers | faultState.mu | faults.go |
//
// What every room shares is core (core.go): the options, the clock, the
// log, the statistics, the route labels and the state file save. Server
// (server.go) creates the rooms, mounts their routes on the API and control
// muxes, runs the listeners and writes the state file (state.go) from the
// rooms' parts, in the same format as before the rooms.
//
// A new emulated endpoint goes into the room of its product: its handler is
// a method of the room, registered by the room's mount function, guarded by
// the room's lock, and it reaches another product only through the room
// fields (for example the runtime's broker). A new product gets a room of
// its own, wired in New.
//
// Tests start an emulator with internal/emulator/emulatortest.
//
// # Enforced limits and behaviours
//
// The emulator is never more lenient than SAP documents. Each limit or
// behaviour it enforces, and its source ("assumed" where nothing public
// exists, with the reason in the code comment):
//
//	| What                                        | Enforced as                                       | Source |
//	|---------------------------------------------|---------------------------------------------------|--------|
//	| queue name characters and segments          | ^[a-zA-Z0-9-_.]{1,111}(?:/[a-zA-Z0-9-_.]{1,109}){0,19}$, else 400 | management API spec (help.sap.com rest-management-messaging) |
//	| queue name length                           | at most 164 characters, else 400                  | SAP-docs btp-integration-suite ISuite_Event_Mesh/create-a-queue-95357fa.md |
//	| dead message queue exists                   | PUT naming a missing deadMsgQueue: 400            | create-a-queue-95357fa.md step 9 ("You must first create a queue"); status and body assumed (no documented error response) |
//	| accessType                                  | EXCLUSIVE or NON_EXCLUSIVE, default NON_EXCLUSIVE | create-a-queue-95357fa.md step 4; default: management API spec |
//	| maxQueueSizeInBytes                         | 0..1572864000, default 1572864000 (1.5 GB); 0 = no limit of the queue's own (held to 1.5 GB) | create-a-queue-95357fa.md step 5; 0: SAP-archive/teched2020-developer-keynote s4hana/event/README.md (a queue created without it reads 0 and takes messages) |
//	| maxQueueMessageCount                        | 0 or more, default none; 0 = no limit of the queue's own | the same README (reads 0 on a queue created without it) |
//	| maxMessageSizeInBytes                       | 1..1000000, default 1000000 (1 MB); larger messages refused on publish | create-a-queue-95357fa.md step 6; 0 refused, assumed: SAP documents no meaning of 0 |
//	| maxMessageSizeInBytes above 1 MB            | refused on create and update; 10000000 held by a queue seeded as the default plan holds it (SeedQueue, or a state file) and kept by a PUT that writes it back; no message above 1 MB taken on any queue | 10000000 seen on the default plan: reference note sap-apis.md section 1; keeping it on a PUT assumed (SAP documents no refusal of a value the service holds); the 1 MB message cap: create-a-queue-95357fa.md step 6 |
//	| maxDeliveredUnackedMsgsPerFlow              | 1 or more, default 10000 (assumed)                 | create-a-queue-95357fa.md step 7; 0 refused, assumed: SAP documents no meaning of 0 |
//	| maxRedeliveryCount                          | 0..255, default 0 = redelivered until max TTL     | create-a-queue-95357fa.md step 8; SAP Note 3469268 |
//	| maxTtl                                      | 1..604800 seconds (7 days)                        | create-a-queue-95357fa.md step 10; 0 refused, assumed: SAP documents no meaning of 0 |
//	| messages leave for the DMQ                  | after maxRedeliveryCount, or on TTL expiry with respectTtl | create-a-queue-95357fa.md steps 8 to 10 |
//	| queues and subscriptions per instance       | 250 and 3000 (Options.MaxQueues, MaxSubscriptions) | limits of the Integration Suite capability (reference notes, section 1) |
//	| topic pattern length                        | at most 150 characters                            | assumed: no documented limit; a bound of the emulator's own |
//	| unlimited redelivery                        | capped at Options.RedeliveryCap (1000) redeliveries | assumed: keeps an endless loop finite in tests |
//	| REST consumption with x-qos 1               | the message stays in the queue, unacknowledged, until acknowledged; 204 when none is available | SAP-docs btp-integration-suite publish-and-consume-events-8e296d9.md ("At Least Once"); specs/messaging.json |
//	| unacknowledged REST delivery                | returns to the queue after Options.MessagingAckTimeout (60 s), as a failed delivery; its acknowledgement then 400 | assumed: SAP documents no timeout; at least once rules out a delivery hidden for ever (messaging_consume.go) |
//	| unacknowledged messages at a restart        | given back to their queues; acknowledgements of earlier deliveries 400 | assumed: the consumers' sessions end with the broker (messaging_consume.go) |
//	| message properties over REST                | Content-Type and ce-* headers kept and given back on consumption, at most 64; no other header | assumed: no documented list; CloudEvents HTTP binary binding (messaging_consume.go) |
//	| integration flow Name                       | ^[A-Za-z_][A-Za-z0-9_ .\-]*$, not ending in "."    | Integration Content API description (specs/IntegrationContent.json) |
//	| upload of a design-time artifact            | replaces the content, version from the archive's Bundle-Version (the same one or a new one); the runtime keeps running what it was deployed with, and its DeployedOn, until the next deploy | Integration Content API description (specs/IntegrationContent.json: PUT IntegrationDesigntimeArtifacts, IntegrationRuntimeArtifact.DeployedOn); reference note sap-apis.md ("take effect only after a redeploy"); the design time has no modification time in the API |
//	| uploaded archive vs. artifact Id            | Bundle-SymbolicName must equal the Id, else 400   | assumed: tenants identify the bundle by it, and CI/CD tools rewrite it to the Id before upload |
//	| certificate keys (Options.KeyType)          | Event Mesh x509 binding (oa2 certificate, key, granttype client_x509); Cloud Integration "Certificate" and "External Certificate" keys | SAP-docs btp-integration-suite "Creating Service Instance and Service Key for Inbound Authentication" |
//	| token endpoint of certificate keys          | HTTPS with a CA made at start; a token only for the client_id whose certificate the TLS peer presented; secrets refused | XSUAA X.509 client credentials (token on the authentication.cert. host); the CA is the emulator's own |
//	| X-CSRF-Token on writes                      | only with Options.RequireCSRF                     | Integration Content API description; OAuth clients on Cloud Foundry are not asked for it |
//	| AMQP sender processing                     | (R + 1) × n + 1 executions; REJECTED / MODIFIED_FAILED_UNDELIVERABLE | configure-the-amqp-sender-adapter-99ce674.md; see runtime.go |
//	| iFlow archive                               | read by the emulator's own reader: one .iflw under scenarioflows/integrationflow/, parameters.prop as java.util.Properties reads it, a {{Name}} value from the configurations or parameters.prop | reference note sap-apis.md; SAP's EMIS_AMQP_Consumer.iflw (specs/iflows); see flowarchive.go, flowmodel.go |
//	| JMS sender waits                            | Retry Interval before retry 1; Exponential Backoff doubles each wait, at most the Maximum Retry Interval; defaults 1 min, on, 60 min | configure-the-jms-sender-adapter-161791b.md; apply-the-retry-pattern-with-jms-queue-da17d2d.md; see jms_runtime.go |
//	| JMS retry setting ranges                    | Retry Interval 1..60 (exclusive) / 1..10080; Maximum 10..180 / 10..43200 minutes; outside them the channel consumes nothing | 161791b; not consuming is assumed (SAP's editor refuses the value) |
//	| SAPJMSRetries                               | set on non-exclusive queues only: 0 on the first execution, n on retry n | headers-and-exchange-properties-provided-by-the-integration-framework-d0fcb09.md; aeb106f and ed9b82c (incremented after each retry) |
//	| JMS retry guard                             | each route condition reading SAPJMSRetries evaluated as Camel Simple per execution (integration process: at the start; exception subprocess: on failure); a route to an Error End retries, any other ends the message (ESCALATED); a value set at run time is unknown (three-valued and/or); not evaluable (unparsed form, script, XPath): never ends it | reference note cpi-jms.md section 2; ed9b82c; left-to-right and/or assumed (Camel documents no precedence) |
//	| failed build (FailNextBuild, control fail-next-build) | the deploy task ends in FAIL; the runtime artifact keeps the version it ran (a failed deploy, FailNextDeploy, puts it in ERROR) | assumed: SAP builds the artifact before replacing the deployed one and documents no undeploy when the build fails; the deploy task status FAIL is in specs/IntegrationContent.json (BuildAndDeployStatus) |
//	| AEM sender attempts                         | up to maxMessageProcessingAttempts runs per delivery (the first included), waits initial × multiplier^(k−1) ms after run k, at most the maximum interval; on the AEM clock (Options.AEMMinute); not counted as deliveries | configure-the-advanced-event-mesh-sender-adapter-abd2efc.md as reference note aem.md §4 quotes it; that m counts the first run assumed (aem.md §5); see aem_runtime.go |
//	| AEM sender settlement                       | FAILED: the broker redelivers within maxRedeliveryCount (0 = for ever, capped at Options.RedeliveryCap deliveries), then the DMQ or deleted; REJECTED: the DMQ at once, deleted without one; a fresh set of runs per delivery | abd2efc (aem.md §4); fresh runs per delivery assumed (aem.md §5) |
//	| AEM sender AUTOMATIC_IMMEDIATE              | acknowledged on receipt, the flow runs once, a failure is lost (outcome "lost") | aem.md §4; the single run assumed (aem.md §5) |
//	| AEM sender not run                          | DIRECT consumers (no direct messaging in the AEM room); no queueName; attempts empty or below 1; waits below 1 ms; a multiplier not above 0; an unknown mode or outcome | assumed: SAP defines no run for them (aem_runtime.go) |
//	| AEM sender undeploy                         | its consumers stop; a message held in its attempts goes back to the queue at once, its delivery counted | assumed: the broker takes back what an unbound consumer did not settle |
//	| JMS message expiration                      | deleted at its Expiration Period (1..180 days, default 30) while retried | configure-the-jms-receiver-adapter-79edc04.md; managing-messages-stored-in-queues-6733197.md |
//	| webhook subscription API                    | POST/GET /subscriptions, GET/DELETE /subscriptions/{name}, PUT .../state pause/resume, POST .../handshake; no update; 201 on create, 409 CONFLICT for a name in use | reference note event-mesh-webhooks.md §1 (CDS, ABAP samples); "resume" inferred |
//	| webhook create body                         | address queue:<existing queue>, qos 0 or 1, pushConfig.type webhook, absolute http(s) endpoint, securitySchema oauth2 client_credentials or none; else 400 | event-mesh-webhooks.md §1; 400 and refusing other auth kinds assumed (their JSON is undocumented) |
//	| webhook state and handshake JSON            | subscriptionState ACTIVE/PAUSED, handshakeStatus NOT_INITIATED/REQUESTED/COMPLETED/FAILED/EXEMPTED; client secret never shown | statuses: handshake-and-its-status-a65d213.md; JSON names assumed (not documented) |
//	| webhooks per instance                       | Options.MaxWebhooks, default 10                   | service-descriptor-syntax-b70eaad.md (one webhook per resource unit, 10 units by default); inferred for the default plan |
//	| webhook handshake                           | OPTIONS with WebHook-Request-Origin and the configured credentials; WebHook-Allowed-Origin same value or "*", else FAILED; nothing pushed before COMPLETED or EXEMPTED | handshake-and-its-status-a65d213.md |
//	| webhook QoS 0                               | one try, then the message is deleted whatever the answer | create-a-webhook-subscription-e120b8b.md |
//	| webhook QoS 1 retries                       | 2xx deletes; otherwise retried 15, 30, 60 ... minutes apart, at most 1440, on the webhook clock (Options.WebhookMinute) | e120b8b (15 minutes up to once a day); the doubling factor assumed ("exponential") |
//	| webhook in-flight cap                       | 18 messages held per webhook; with 18, nothing more is taken from the queue; one delivery at a time | e120b8b; one at a time assumed (keeps the order deterministic) |
//	| webhook message end                         | at the queue's TTL (maxTtl with respectTtl, else 7 days) counted from the first try, or past maxRedeliveryCount: the DMQ, else purged | e120b8b; create-a-queue-95357fa.md steps 8 to 10; counting webhook tries toward maxRedeliveryCount inferred (event-mesh-webhooks.md §2) |
//	| webhook content type                        | the message's own, else the configured default, else application/json | e120b8b |
//	| webhook pause                               | nothing pushed while paused, held messages wait too; no automatic pause | event-mesh-webhooks.md §2 (only manual pause known) |
//	| webhook endpoint timeout                    | 10 s of real time                                 | assumed: SAP documents none |
//	| webhook connections                         | loopback endpoints and token URLs only; other hosts fail the handshake or the delivery | assumed: the emulator never leaves the machine |
//	| webhook persistence                         | in memory only, not in the state file             | assumed: keeps the state file format unchanged |
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

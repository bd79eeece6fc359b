// Package eventmesh is the SAP Event Mesh room of the emulator: queues with their messages and
// subscriptions, the management API (help.sap.com rest-management-messaging; specs/management.json), the
// messaging REST API with its broker (publish, consume with x-qos 0 and 1, acknowledge, reject,
// redelivery and the dead message queue; specs/messaging.json), the control endpoints of readiness and
// the rejection path, and the webhook subscriptions of the messaging API with one push delivery loop per
// subscription on its own scaled clock (Webhooks). Its sources are the SAP documentation pages named in
// the table, the API specifications and the project's reference notes (shared/reference/sap-apis.md,
// event-mesh-webhooks.md).
//
// It imports only the emulator's core. Cloud Integration's runtime consumes its queues over
// core.EventMeshBroker, which EventMesh.Broker returns and the emulator wires.
//
// # Enforced limits and behaviours
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
package eventmesh

// Package integration is the SAP Cloud Integration room of the emulator: the tenant's design time and
// deployments, the OData API with its CSRF check (Integration Content API, specs/IntegrationContent.json),
// the deploy API, the message processing logs (MessageProcessingLogs), and the runtime of deployed flows
// (Runtime): AMQP sender channels consume Event Mesh queues, JMS sender channels the tenant's JMS queues
// with their limits, and AdvancedEventMesh sender channels the AEM queues. Its sources are the SAP
// documentation pages named in the table and the project's reference notes (shared/reference/sap-apis.md,
// cpi-jms.md, aem.md).
//
// It imports only the emulator's core and its own iFlow reader (integration/flowreader). It reaches the
// brokers the way a tenant does, over core.EventMeshBroker and core.AEMBroker, which New is given; it never
// imports the brokers' rooms.
//
// # Enforced limits and behaviours
//
//	| What                                        | Enforced as                                       | Source |
//	|---------------------------------------------|---------------------------------------------------|--------|
//	| integration flow Name                       | ^[A-Za-z_][A-Za-z0-9_ .\-]*$, not ending in "."    | Integration Content API description (specs/IntegrationContent.json) |
//	| upload of a design-time artifact            | replaces the content, version from the archive's Bundle-Version (the same one or a new one); the runtime keeps running what it was deployed with, and its DeployedOn, until the next deploy | Integration Content API description (specs/IntegrationContent.json: PUT IntegrationDesigntimeArtifacts, IntegrationRuntimeArtifact.DeployedOn); reference note sap-apis.md ("take effect only after a redeploy"); the design time has no modification time in the API |
//	| uploaded archive vs. artifact Id            | Bundle-SymbolicName must equal the Id, else 400   | assumed: tenants identify the bundle by it, and CI/CD tools rewrite it to the Id before upload |
//	| X-CSRF-Token on writes                      | only with Options.RequireCSRF                     | Integration Content API description; OAuth clients on Cloud Foundry are not asked for it |
//	| AMQP sender processing                     | (R + 1) × n + 1 executions; REJECTED / MODIFIED_FAILED_UNDELIVERABLE | configure-the-amqp-sender-adapter-99ce674.md; see runtime.go |
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
package integration

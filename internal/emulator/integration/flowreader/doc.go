// Package flowreader is the emulator's own reader of Cloud Integration iFlow archives: the archive
// (one .iflw under scenarioflows/integrationflow/, parameters.prop as java.util.Properties reads it, the
// manifest), the flow model (channels with their properties and {{Name}} parameters, routes, exception
// subprocesses and their end events) and the evaluator of Camel Simple retry guards. It shares no code
// with the provider's reader (internal/iflow); TestFlowReaderAgreesWithProviderReader and the fuzz tests
// hold the two to each other.
//
// # Enforced limits and behaviours
//
//	| What                                        | Enforced as                                       | Source |
//	|---------------------------------------------|---------------------------------------------------|--------|
//	| iFlow archive                               | read by the emulator's own reader: one .iflw under scenarioflows/integrationflow/, parameters.prop as java.util.Properties reads it, a {{Name}} value from the configurations or parameters.prop | reference note sap-apis.md; SAP's EMIS_AMQP_Consumer.iflw (specs/iflows); see flowarchive.go, flowmodel.go |
//
// The guard evaluator follows Camel's Simple language (camel.apache.org/components/latest/languages/simple-language.html)
// as the reference note cpi-jms.md section 2 describes its use in retry guards; left-to-right and/or is
// assumed (Camel documents no precedence).
package flowreader

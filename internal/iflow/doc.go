// Package iflow reads and patches SAP Cloud Integration integration flow
// (iFlow) artifacts.
//
// An iFlow artifact is a zip archive holding META-INF/MANIFEST.MF, the BPMN2
// model src/main/resources/scenarioflows/integrationflow/<Name>.iflw, the
// externalized parameter values src/main/resources/parameters.prop (Java
// properties) and their definitions src/main/resources/parameters.propdef.
//
// The package finds AMQP sender channels (message flows with
// ComponentType=AMQP and direction=Sender), JMS sender and receiver channels
// (ComponentType=JMS), AdvancedEventMesh sender and receiver channels
// (ComponentType=AdvancedEventMesh, aem.go), exception subprocesses, and the
// retry guards of a JMS flow (route conditions and scripts that read
// SAPJMSRetries), reports
// whether each retry setting is a literal or an externalized parameter
// {{Name}}, and patches values in place: every byte outside the replaced
// values stays as it was, and every zip entry that is not rewritten is copied
// unchanged.
package iflow

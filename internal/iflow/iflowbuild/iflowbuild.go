// Package iflowbuild builds small SAP Cloud Integration iFlow artifacts in code. It is shared by
// the tests of the packages that read, patch or serve iFlow content, by the emulator's sample
// content and by the programs under internal/cmd (poison, bench); it writes properties files with
// the escaping of package iflow, so that what it builds is what iflow reads.
package iflowbuild

import (
	"archive/zip"
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// Sender is a sender channel of the built iFlow: AMQP unless Adapter says JMS or AEM.
type Sender struct {
	// ID is the message flow id; "" means MessageFlow_<n> (n = 1, 2, ...).
	ID string
	// Name is the message flow name; "" means the adapter, "AMQP" or "JMS".
	Name string
	// Adapter is "" or "AMQP" for an AMQP sender, "JMS" for a JMS sender,
	// "JMSReceiver" for a JMS receiver channel (which fills a queue), "AEM" for
	// an AdvancedEventMesh sender (adapter 1.3.0, which consumes an AEM queue)
	// "AEMReceiver" for an AdvancedEventMesh receiver (which publishes) and
	// "SolacePubSubPlus" for a sender of Solace's own adapter (1.2.0, which
	// consumes an AEM queue with the AEM sender's keys).
	Adapter string
	// Properties are written as ifl:property pairs after the adapter's fixed
	// keys (ComponentType=AMQP, direction=Sender, TransportProtocol=WS, ...),
	// which they may override. Values may be literals or "{{Param}}".
	Properties map[string]string
}

// Options describe the iFlow to build.
type Options struct {
	// Name is the iFlow id and .iflw file name; "" means "TestFlow".
	Name string
	// Senders are the AMQP sender channels, in order.
	Senders []Sender
	// ExceptionEnds lists, per exception subprocess, the kinds of its end
	// events: "error", "escalation", "message", "none" or "terminate".
	ExceptionEnds [][]string
	// Routers are routers (exclusive gateways) with one conditional route and
	// a default route each.
	Routers []Router
	// Scripts are script steps; each script file is written under
	// src/main/resources/script/.
	Scripts []Script
	// Parameters are written to parameters.prop and parameters.propdef.
	Parameters map[string]string
	// Extra are additional zip entries (name → content), written after the
	// standard entries in name order.
	Extra map[string][]byte
}

// Router is a router whose conditional route has Condition (a Simple
// expression, for example "${header.SAPJMSRetries} > 5").
type Router struct {
	Condition string
	// InException is the 1-based exception subprocess (of ExceptionEnds) that
	// holds the router; 0 puts it in the integration process.
	InException int
	// ConditionRetries turns the router around: the conditional route leads
	// to an Error End (the message fails and is retried) and the default route
	// to an Escalation End (the message ends), so the message ends when the
	// condition no longer holds, as a condition "${header.SAPJMSRetries} < 5"
	// is written. Both end events are written. Without it the conditional
	// route is the one that ends the message and no end events are written.
	ConditionRetries bool
}

// Script is a script step running the file File with Content.
type Script struct {
	File, Content string
	// InException is the 1-based exception subprocess that holds the step; 0
	// puts it in the integration process.
	InException int
}

// ScriptDir is the folder of script files inside the artifact.
const ScriptDir = "src/main/resources/script/"

// Entry names of the built artifact.
const (
	ManifestPath      = "META-INF/MANIFEST.MF"
	ParametersPath    = "src/main/resources/parameters.prop"
	ParameterDefsPath = "src/main/resources/parameters.propdef"
)

// Modified is the modification time of every built zip entry, so that the
// same Options always give the same bytes.
var Modified = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// DefaultSenderProperties returns the retry and connection settings of the
// AMQP sender in SAP's EMIS_AMQP_Consumer iFlow, with a "queue:" destination.
func DefaultSenderProperties(queue string) map[string]string {
	return map[string]string{
		"destinationName":           "queue:" + queue,
		"NumberConcurrentProcesses": "1",
		"queuePrefetch":             "5",
		"maxRetries":                "5",
		"deliveryState":             "REJECTED",
		"consumeExpiredMessages":    "false",
		"connectWithTLS":            "true",
		"host":                      "example.eventmesh.integration.cloud.sap",
		"port":                      "443",
		"path":                      "/protocols/amqp10ws",
		"authentication":            "Transport_OAuth2",
		"credentialName":            "EventMesh",
	}
}

// DefaultJMSSenderProperties returns the settings of the JMS sender v1.3 in a
// real Cloud Integration export (SAP's defaults, booleans written 1/0): retry
// interval 1, exponential backoff on, maximum retry interval 60, one process,
// dead-letter queue on.
func DefaultJMSSenderProperties(queue string) map[string]string {
	return map[string]string{
		"QueueName_inbound":         queue,
		"NumberConcurrentProcesses": "1",
		"RetryInterval":             "1",
		"ExponentialBackoff":        "1",
		"MaxRetryInterval":          "60",
		"useDeadLetterQueue":        "1",
	}
}

// DefaultAEMSenderProperties returns the settings of the AdvancedEventMesh
// sender 1.3.0 in tenant-written flows (SolaceLabs/solace-ep-codegen,
// src/main/resources/sap/iflow/extension-elements.yaml and
// src/test/resources/sap/iflow/Inventory Service.iflw): a guaranteed consumer
// of queue acknowledging on exchange completion, outcome FAILED, 5 attempts
// with waits of 1000 ms growing ×3.0 up to 30000 ms, one consumer, no
// selector, and the connection keys of those flows.
func DefaultAEMSenderProperties(queue string) map[string]string {
	return map[string]string{
		"queueName":                           queue,
		"consumerMode":                        "GUARANTEED",
		"ackMode":                             "AUTOMATIC_ON_EXCHANGE_COMPLETE",
		"failedMessageSettlementOutcome":      "FAILED",
		"maxMessageProcessingAttempts":        "5",
		"messageRetryInitialDelayInterval":    "1000",
		"messageRetryMaxDelayInterval":        "30000",
		"messageRetryDelayIntervalMultiplier": "3.0",
		"parallelConsumers":                   "1",
		"selector":                            "",
		"dteTopicName":                        "",
		"topicEndpointName":                   "",
		"instanceLockEnabled":                 "false",
		"system":                              "EventMeshSender",
		"host":                                "tcps://example.messaging.solace.cloud:55443",
		"messageVpn":                          "example-vpn",
		"authenticationType":                  "BASIC",
		"username":                            "solace-cloud-client",
		"password":                            "AEMPassword",
	}
}

// IflwPath returns the zip entry name of the .iflw of an iFlow named name.
func IflwPath(name string) string {
	return "src/main/resources/scenarioflows/integrationflow/" + name + ".iflw"
}

// Build returns the artifact zip: MANIFEST.MF, the .iflw, parameters.prop and
// parameters.propdef, followed by Extra. It panics on an unknown end event
// kind.
func Build(o Options) []byte {
	name := flowName(o)
	entries := []Entry{
		{ManifestPath, Manifest(name)},
		{IflwPath(name), Iflw(o)},
		{ParametersPath, ParametersProp(o.Parameters)},
		{ParameterDefsPath, ParametersPropdef(o.Parameters)},
	}
	extra := make([]string, 0, len(o.Extra))
	scripts := map[string][]byte{}
	for _, sc := range o.Scripts {
		scripts[ScriptDir+sc.File] = []byte(sc.Content)
	}
	for _, k := range slices.Sorted(maps.Keys(scriptsAsStrings(scripts))) {
		entries = append(entries, Entry{k, scripts[k]})
	}
	for k := range o.Extra {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	for _, k := range extra {
		entries = append(entries, Entry{k, o.Extra[k]})
	}
	return Zip(entries...)
}

// Entry is one entry of an artifact zip.
type Entry struct {
	Name    string
	Content []byte
}

// Zip returns a zip archive of the entries in order, deflated and dated Modified, as Build writes
// them: for an artifact around a given .iflw document, for example one of SAP's. It panics when the
// archive cannot be written.
func Zip(entries ...Entry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: Modified})
		if err != nil {
			panic(fmt.Sprintf("iflowbuild: create %s: %v", e.Name, err))
		}
		if _, err := w.Write(e.Content); err != nil {
			panic(fmt.Sprintf("iflowbuild: write %s: %v", e.Name, err))
		}
	}
	if err := zw.Close(); err != nil {
		panic(fmt.Sprintf("iflowbuild: close zip: %v", err))
	}
	return buf.Bytes()
}

func flowName(o Options) string {
	if o.Name == "" {
		return "TestFlow"
	}
	return o.Name
}

// Manifest returns a MANIFEST.MF for an iFlow bundle.
func Manifest(name string) []byte {
	lines := []string{
		"Manifest-Version: 1.0",
		"Bundle-ManifestVersion: 2",
		"Bundle-Name: " + name,
		"Bundle-SymbolicName: " + name + "; singleton:=true",
		"Bundle-Version: 1.0.0",
		"SAP-BundleType: IntegrationFlow",
		"SAP-NodeType: IFLMAP",
		"SAP-RuntimeProfile: iflmap",
		"Origin-Bundle-Name: " + name,
		"Origin-Bundle-SymbolicName: " + name,
		"Origin-Bundle-Version: 1.0.0",
	}
	return []byte(strings.Join(lines, "\r\n") + "\r\n\r\n")
}

// ParametersProp returns a parameters.prop with the given values, keys in
// sorted order, preceded by the comment lines Cloud Integration writes.
func ParametersProp(params map[string]string) []byte {
	var b strings.Builder
	b.WriteString("#Store parameters\n")
	b.WriteString("#" + Modified.Format("Mon Jan 02 15:04:05 MST 2006") + "\n")
	for _, k := range slices.Sorted(maps.Keys(params)) {
		b.WriteString(iflow.PropertyLine(k, params[k]) + "\n")
	}
	return []byte(b.String())
}

// ParametersPropdef returns a parameters.propdef declaring the given
// parameters; integer values are declared xsd:integer, true and false
// xsd:boolean, everything else xsd:string.
func ParametersPropdef(params map[string]string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n<parameters>\n    <param_references/>\n")
	for _, k := range slices.Sorted(maps.Keys(params)) {
		fmt.Fprintf(&b, "    <parameter>\n        <key>%s</key>\n        <name>%s</name>\n        <type>%s</type>\n        <description/>\n        <isRequired>false</isRequired>\n    </parameter>\n",
			esc(k), esc(k), dataType(params[k]))
	}
	b.WriteString("</parameters>\n")
	return []byte(b.String())
}

func dataType(v string) string {
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return "xsd:integer"
	}
	if v == "true" || v == "false" {
		return "xsd:boolean"
	}
	return "xsd:string"
}

func scriptsAsStrings(m map[string][]byte) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// fixedJMSKeys are written first for a JMS channel, in this order (v1.3).
func fixedJMSKeys(direction string) []struct{ key, value string } {
	return []struct{ key, value string }{
		{"ComponentType", "JMS"},
		{"direction", direction},
		{"TransportProtocol", "Not Applicable"},
		{"MessageProtocol", "Not Applicable"},
		{"ComponentNS", "sap"},
		{"componentVersion", "1.3"},
		{"cmdVariantUri", "ctype::AdapterVariant/cname::sap:JMS/tp::Not Applicable/mp::Not Applicable/direction::" + direction + "/version::1.3.0"},
	}
}

// fixedAEMKeys are written first for an AdvancedEventMesh channel, in this
// order (adapter 1.3.0, as in the flows DefaultAEMSenderProperties cites).
func fixedAEMKeys(direction string) []struct{ key, value string } {
	return []struct{ key, value string }{
		{"ComponentType", "AdvancedEventMesh"},
		{"direction", direction},
		{"TransportProtocol", "TCP"},
		{"TransportProtocolVersion", "1.3.0"},
		{"MessageProtocol", "SMF"},
		{"MessageProtocolVersion", "1.3.0"},
		{"ComponentNS", "sap"},
		{"ComponentSWCVName", "external"},
		{"ComponentSWCVId", "1.3.0"},
		{"Vendor", "SAP"},
		{"componentVersion", "1.3"},
		{"cmdVariantUri", "ctype::AdapterVariant/cname::AdvancedEventMesh/vendor::SAP/tp::TCP/mp::SMF/direction::" + direction + "/version::1.3.0"},
	}
}

// fixedSolaceKeys are written first for a channel of Solace's own adapter
// (SolacePubSubPlus 1.2.0), which reads the keys of the AdvancedEventMesh
// adapter: the fixed keys of MessageFlow_17 of SolaceLabs/solace-ep-codegen's
// src/test/resources/sap/iflow/Inventory Service.iflw.
func fixedSolaceKeys(direction string) []struct{ key, value string } {
	return []struct{ key, value string }{
		{"ComponentType", "SolacePubSubPlus"},
		{"direction", direction},
		{"TransportProtocol", "TCP"},
		{"TransportProtocolVersion", "1.2.0"},
		{"MessageProtocol", "SMF"},
		{"MessageProtocolVersion", "1.2.0"},
		{"ComponentNS", "sap"},
		{"ComponentSWCVName", "external"},
		{"ComponentSWCVId", "1.2.0"},
		{"Vendor", "Solace"},
		{"componentVersion", "1.2"},
		{"cmdVariantUri", "ctype::AdapterVariant/cname::SolacePubSubPlus/vendor::Solace/tp::TCP/mp::SMF/direction::" + direction + "/version::1.2.0"},
	}
}

// fixedSenderKeys are written first for every AMQP sender, in this order.
var fixedSenderKeys = []struct{ key, value string }{
	{"ComponentType", "AMQP"},
	{"direction", "Sender"},
	{"TransportProtocol", "WS"},
	{"MessageProtocol", "AMQP1.0"},
	{"ComponentNS", "sap"},
	{"componentVersion", "1.6"},
	{"cmdVariantUri", "ctype::AdapterVariant/cname::sap:AMQP/tp::WS/mp::AMQP1.0/direction::Sender/version::1.6.0"},
}

// Iflw returns the .iflw document of the iFlow.
func Iflw(o Options) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><bpmn2:definitions xmlns:bpmn2="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:ifl="http:///com.sap.ifl.model/Ifl.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="Definitions_1">` + "\n")
	b.WriteString(`    <bpmn2:collaboration id="Collaboration_1" name="Default Collaboration">` + "\n")
	b.WriteString("        <bpmn2:extensionElements>\n")
	property(&b, 12, "componentVersion", "1.2")
	property(&b, 12, "cmdVariantUri", "ctype::IFlowVariant/cname::IFlowConfiguration/version::1.2.4")
	b.WriteString("        </bpmn2:extensionElements>\n")
	for i := range o.Senders {
		fmt.Fprintf(&b, `        <bpmn2:participant id="Participant_%d" ifl:type="EndpointSender" name="Sender%d">`+"\n", i+1, i+1)
		b.WriteString("            <bpmn2:extensionElements>\n")
		property(&b, 16, "ifl:type", "EndpointSender")
		b.WriteString("            </bpmn2:extensionElements>\n")
		b.WriteString("        </bpmn2:participant>\n")
	}
	b.WriteString(`        <bpmn2:participant id="Participant_Process_1" ifl:type="IntegrationProcess" name="Integration Process" processRef="Process_1">` + "\n")
	b.WriteString("            <bpmn2:extensionElements/>\n        </bpmn2:participant>\n")
	for i, s := range o.Senders {
		id, name := s.ID, s.Name
		if id == "" {
			id = fmt.Sprintf("MessageFlow_%d", i+1)
		}
		fixed := fixedSenderKeys
		switch s.Adapter {
		case "", "AMQP":
		case "JMS":
			fixed = fixedJMSKeys("Sender")
		case "JMSReceiver":
			fixed = fixedJMSKeys("Receiver")
		case "AEM":
			fixed = fixedAEMKeys("Sender")
		case "AEMReceiver":
			fixed = fixedAEMKeys("Receiver")
		case "SolacePubSubPlus":
			fixed = fixedSolaceKeys("Sender")
		default:
			panic(fmt.Sprintf("iflowbuild: unknown adapter %q; use AMQP, JMS, JMSReceiver, AEM, AEMReceiver or SolacePubSubPlus", s.Adapter))
		}
		if name == "" {
			name = fixed[0].value
		}
		fmt.Fprintf(&b, `        <bpmn2:messageFlow id="%s" name="%s" sourceRef="Participant_%d" targetRef="StartEvent_1">`+"\n", esc(id), esc(name), i+1)
		b.WriteString("            <bpmn2:extensionElements>\n")
		for _, kv := range fixed {
			if _, override := s.Properties[kv.key]; !override {
				property(&b, 16, kv.key, kv.value)
			}
		}
		if _, override := s.Properties["Name"]; !override {
			property(&b, 16, "Name", name)
		}
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			property(&b, 16, k, s.Properties[k])
		}
		b.WriteString("            </bpmn2:extensionElements>\n")
		b.WriteString("        </bpmn2:messageFlow>\n")
	}
	b.WriteString("    </bpmn2:collaboration>\n")
	b.WriteString(`    <bpmn2:process id="Process_1" name="Integration Process">` + "\n")
	b.WriteString("        <bpmn2:extensionElements>\n")
	property(&b, 12, "transactionTimeout", "30")
	property(&b, 12, "transactionalHandling", "Not Required")
	b.WriteString("        </bpmn2:extensionElements>\n")
	b.WriteString(`        <bpmn2:startEvent id="StartEvent_1" name="Start">` + "\n")
	b.WriteString("            <bpmn2:outgoing>SequenceFlow_1</bpmn2:outgoing>\n")
	b.WriteString("            <bpmn2:messageEventDefinition/>\n")
	b.WriteString("        </bpmn2:startEvent>\n")
	b.WriteString(`        <bpmn2:endEvent id="EndEvent_1" name="End">` + "\n")
	b.WriteString("            <bpmn2:incoming>SequenceFlow_1</bpmn2:incoming>\n")
	b.WriteString("            <bpmn2:messageEventDefinition/>\n")
	b.WriteString("        </bpmn2:endEvent>\n")
	b.WriteString(`        <bpmn2:sequenceFlow id="SequenceFlow_1" sourceRef="StartEvent_1" targetRef="EndEvent_1"/>` + "\n")
	steps(&b, o, 0, 8)
	for i, ends := range o.ExceptionEnds {
		subprocess(&b, o, i+1, ends)
	}
	b.WriteString("    </bpmn2:process>\n")
	b.WriteString("</bpmn2:definitions>\n")
	return []byte(b.String())
}

// steps writes the routers and script steps of the process or exception
// subprocess in (0 = the integration process), indented by indent.
func steps(b *strings.Builder, o Options, in, indent int) {
	pad := strings.Repeat(" ", indent)
	for i, r := range o.Routers {
		if r.InException != in {
			continue
		}
		gw := fmt.Sprintf("ExclusiveGateway_%d", i+1)
		fmt.Fprintf(b, `%s<bpmn2:exclusiveGateway default="SequenceFlow_%s_Default" id="%s" name="Retries Left?">`+"\n", pad, gw, gw)
		b.WriteString(pad + "    <bpmn2:extensionElements>\n")
		property(b, indent+8, "cmdVariantUri", "ctype::FlowstepVariant/cname::ExclusiveGateway/version::1.1.2")
		property(b, indent+8, "activityType", "ExclusiveGateway")
		property(b, indent+8, "throwExceptionOnFalse", "false")
		b.WriteString(pad + "    </bpmn2:extensionElements>\n")
		b.WriteString(pad + "</bpmn2:exclusiveGateway>\n")
		condName, condTarget, defName, defTarget := "Retries Exhausted", "End", "Retry", "Retry"
		if r.ConditionRetries {
			condName, condTarget, defName, defTarget = "Retry", "Retry", "Retries Exhausted", "End"
			fmt.Fprintf(b, `%s<bpmn2:endEvent id="%s_Retry" name="Error End">`+"\n", pad, gw)
			b.WriteString(pad + "    <bpmn2:errorEventDefinition/>\n")
			b.WriteString(pad + "</bpmn2:endEvent>\n")
			fmt.Fprintf(b, `%s<bpmn2:endEvent id="%s_End" name="Escalation End">`+"\n", pad, gw)
			b.WriteString(pad + "    <bpmn2:escalationEventDefinition/>\n")
			b.WriteString(pad + "</bpmn2:endEvent>\n")
		}
		fmt.Fprintf(b, `%s<bpmn2:sequenceFlow id="SequenceFlow_%s_Limit" name="%s" sourceRef="%s" targetRef="%s_%s">`+"\n", pad, gw, condName, gw, gw, condTarget)
		b.WriteString(pad + "    <bpmn2:extensionElements>\n")
		property(b, indent+8, "expressionType", "NonXML")
		b.WriteString(pad + "    </bpmn2:extensionElements>\n")
		fmt.Fprintf(b, `%s    <bpmn2:conditionExpression id="FormalExpression_%s" xsi:type="bpmn2:tFormalExpression"><![CDATA[%s]]></bpmn2:conditionExpression>`+"\n", pad, gw, r.Condition)
		b.WriteString(pad + "</bpmn2:sequenceFlow>\n")
		fmt.Fprintf(b, `%s<bpmn2:sequenceFlow id="SequenceFlow_%s_Default" name="%s" sourceRef="%s" targetRef="%s_%s"/>`+"\n", pad, gw, defName, gw, gw, defTarget)
	}
	for i, sc := range o.Scripts {
		if sc.InException != in {
			continue
		}
		fmt.Fprintf(b, `%s<bpmn2:callActivity id="CallActivity_Script_%d" name="Script %d">`+"\n", pad, i+1, i+1)
		b.WriteString(pad + "    <bpmn2:extensionElements>\n")
		property(b, indent+8, "scriptFunction", "")
		property(b, indent+8, "scriptBundleId", "")
		property(b, indent+8, "subActivityType", "GroovyScript")
		property(b, indent+8, "activityType", "Script")
		property(b, indent+8, "script", sc.File)
		property(b, indent+8, "cmdVariantUri", "ctype::FlowstepVariant/cname::GroovyScript/version::1.1.2")
		b.WriteString(pad + "    </bpmn2:extensionElements>\n")
		b.WriteString(pad + "</bpmn2:callActivity>\n")
	}
}

func subprocess(b *strings.Builder, o Options, n int, ends []string) {
	fmt.Fprintf(b, `        <bpmn2:subProcess id="SubProcess_%d" name="Exception Subprocess %d" triggeredByEvent="true">`+"\n", n, n)
	b.WriteString("            <bpmn2:extensionElements>\n")
	property(b, 16, "cmdVariantUri", "ctype::FlowstepVariant/cname::ErrorEventSubProcessTemplate/version::1.1.0")
	property(b, 16, "activityType", "ErrorEventSubProcessTemplate")
	b.WriteString("            </bpmn2:extensionElements>\n")
	fmt.Fprintf(b, `            <bpmn2:startEvent id="StartEvent_Sub%d" name="Error Start">`+"\n", n)
	b.WriteString("                <bpmn2:errorEventDefinition>\n")
	b.WriteString("                    <bpmn2:extensionElements>\n")
	property(b, 24, "cmdVariantUri", "ctype::FlowstepVariant/cname::ErrorStartEvent")
	property(b, 24, "activityType", "StartErrorEvent")
	b.WriteString("                    </bpmn2:extensionElements>\n")
	b.WriteString("                </bpmn2:errorEventDefinition>\n")
	b.WriteString("            </bpmn2:startEvent>\n")
	steps(b, o, n, 12)
	for j, kind := range ends {
		id := fmt.Sprintf("EndEvent_Sub%d_%d", n, j+1)
		switch kind {
		case "error":
			fmt.Fprintf(b, `            <bpmn2:endEvent id="%s" name="Error End">`+"\n", id)
			b.WriteString("                <bpmn2:errorEventDefinition>\n")
			b.WriteString("                    <bpmn2:extensionElements>\n")
			property(b, 24, "cmdVariantUri", "ctype::FlowstepVariant/cname::ErrorEndEvent")
			property(b, 24, "activityType", "EndErrorEvent")
			b.WriteString("                    </bpmn2:extensionElements>\n")
			b.WriteString("                </bpmn2:errorEventDefinition>\n")
		case "escalation":
			fmt.Fprintf(b, `            <bpmn2:endEvent id="%s" name="Escalation End">`+"\n", id)
			b.WriteString("                <bpmn2:escalationEventDefinition/>\n")
		case "message":
			fmt.Fprintf(b, `            <bpmn2:endEvent id="%s" name="Message End">`+"\n", id)
			b.WriteString("                <bpmn2:messageEventDefinition/>\n")
		case "none":
			fmt.Fprintf(b, `            <bpmn2:endEvent id="%s" name="End">`+"\n", id)
		case "terminate":
			fmt.Fprintf(b, `            <bpmn2:endEvent id="%s" name="Terminate End">`+"\n", id)
			b.WriteString("                <bpmn2:terminateEventDefinition/>\n")
		default:
			panic(fmt.Sprintf("iflowbuild: unknown end event kind %q; use error, escalation, message, none or terminate", kind))
		}
		b.WriteString("            </bpmn2:endEvent>\n")
	}
	b.WriteString("        </bpmn2:subProcess>\n")
}

// property writes one ifl:property; an empty value is written as <value/>
// as Cloud Integration does.
func property(b *strings.Builder, indent int, key, value string) {
	pad := strings.Repeat(" ", indent)
	b.WriteString(pad + "<ifl:property>\n")
	b.WriteString(pad + "    <key>" + esc(key) + "</key>\n")
	if value == "" {
		b.WriteString(pad + "    <value/>\n")
	} else {
		b.WriteString(pad + "    <value>" + esc(value) + "</value>\n")
	}
	b.WriteString(pad + "</ifl:property>\n")
}

// esc escapes s for element content and for an attribute value in double quotes: the escaping of
// iflow.EscapeXMLText, and the double quote. An invalid byte of s is written as U+FFFD.
func esc(s string) string {
	valid := strings.Map(func(r rune) rune { return r }, s)
	return strings.ReplaceAll(string(iflow.EscapeXMLText(valid)), `"`, "&quot;")
}

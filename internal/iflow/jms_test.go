package iflow_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// jmsFlow builds a flow with one JMS sender (properties over SAP's defaults), one AMQP
// sender and one JMS receiver, and reads it back.
func jmsFlow(t *testing.T, props map[string]string, params map[string]string) *iflow.Artifact {
	t.Helper()
	p := iflowbuild.DefaultJMSSenderProperties("Orders_In")
	for k, v := range props {
		p[k] = v
	}
	a, err := iflow.ReadZip(iflowbuild.Build(iflowbuild.Options{
		Senders: []iflowbuild.Sender{
			{ID: "MessageFlow_JMS", Adapter: "JMS", Properties: p},
			{Properties: iflowbuild.DefaultSenderProperties("acme/orders")},
			{ID: "MessageFlow_Out", Adapter: "JMSReceiver", Properties: map[string]string{"QueueName_outbound": "Orders_Out", "ExpirationPeriod": "90", "AccessType": "Non-Exclusive"}},
		},
		Parameters: params,
	}))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestJMSChannelsFoundByProperties(t *testing.T) {
	t.Parallel()
	a := jmsFlow(t, nil, nil)
	senders := a.JMSSenders()
	if len(senders) != 1 || senders[0].ID != "MessageFlow_JMS" || senders[0].Name != "JMS" {
		t.Fatalf("JMS senders = %+v, want MessageFlow_JMS named JMS", senders)
	}
	if amqp := a.AMQPSenders(); len(amqp) != 1 || amqp[0].ID != "MessageFlow_2" {
		t.Fatalf("AMQP senders = %+v, want only MessageFlow_2", amqp)
	}
	receivers := a.Model.JMSReceivers()
	if len(receivers) != 1 || receivers[0].Setting(iflow.KeyJMSExpirationPeriod, nil).Value != "90" {
		t.Fatalf("JMS receivers = %+v, want MessageFlow_Out with ExpirationPeriod 90", receivers)
	}
	if _, ok := a.Model.JMSSender("MessageFlow_2"); ok {
		t.Error("the AMQP sender was returned as a JMS sender")
	}
}

func TestJMSSenderSettings(t *testing.T) {
	t.Parallel()
	type want struct {
		queue                          string
		interval, maxInterval, workers int64
		backoff, dlq, exclusive        bool
		backoffOK, exclusiveKnown      bool
	}
	tests := []struct {
		name          string
		props, params map[string]string
		want          want
	}{
		{"real export style 1/0", nil, nil,
			want{"Orders_In", 1, 60, 1, true, true, false, true, true}},
		{"generated style true/false, exclusive", map[string]string{"ExponentialBackoff": "false", "useDeadLetterQueue": "FALSE", "AccessType": "Exclusive", "RetryInterval": "5"}, nil,
			want{"Orders_In", 5, 60, 1, false, false, true, true, true}},
		{"externalized, resolved", map[string]string{
			"QueueName_inbound": "{{JMS_Queue}}", "RetryInterval": "{{Interval}}", "ExponentialBackoff": "{{Backoff}}",
			"MaxRetryInterval": "{{Max}}", "NumberConcurrentProcesses": " 3 ", "AccessType": "{{Access}}",
		}, map[string]string{"JMS_Queue": "Q1", "Interval": "2", "Backoff": "true", "Max": "120", "Access": "Non-Exclusive"},
			want{"Q1", 2, 120, 3, true, true, false, true, true}},
		{"externalized, unresolved", map[string]string{"ExponentialBackoff": "{{Backoff}}", "AccessType": "{{Access}}"}, nil,
			want{"Orders_In", 1, 60, 1, false, true, false, false, false}},
		{"unexpected boolean", map[string]string{"ExponentialBackoff": "yes"}, nil,
			want{"Orders_In", 1, 60, 1, false, true, false, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := jmsFlow(t, tt.props, tt.params)
			s := a.JMSSenderSettings(a.JMSSenders()[0], nil)
			got := want{queue: s.QueueName.Value}
			got.interval, _ = s.RetryInterval.Int()
			got.maxInterval, _ = s.MaxRetryInterval.Int()
			got.workers, _ = s.ConcurrentProcesses.Int()
			got.backoff, got.backoffOK = s.ExponentialBackoff.Bool()
			got.dlq, _ = s.DeadLetterQueue.Bool()
			got.exclusive, got.exclusiveKnown = s.Exclusive()
			if got != tt.want {
				t.Fatalf("settings = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestJMSSenderSettingsConfigurationsWin(t *testing.T) {
	t.Parallel()
	a := jmsFlow(t, map[string]string{"RetryInterval": "{{Interval}}"}, map[string]string{"Interval": "2"})
	s := a.JMSSenderSettings(a.JMSSenders()[0], map[string]string{"Interval": "7"})
	if n, ok := s.RetryInterval.Int(); !ok || n != 7 || s.RetryInterval.Parameter != "Interval" {
		t.Fatalf("RetryInterval = %+v, want 7 from the configuration of parameter Interval", s.RetryInterval)
	}
}

func TestFormatBoolKeepsTheStyle(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		existing string
		v        bool
		want     string
	}{
		{"1", false, "0"}, {"0", true, "1"}, {"true", false, "false"}, {" False ", true, "true"}, {"", true, "1"}, {"{{P}}", false, "0"},
	} {
		if got := iflow.FormatBool(tt.existing, tt.v); got != tt.want {
			t.Errorf("FormatBool(%q, %v) = %q, want %q", tt.existing, tt.v, got, tt.want)
		}
	}
}

func TestPatchZipJMSSender(t *testing.T) {
	t.Parallel()
	data := iflowbuild.Build(iflowbuild.Options{Senders: []iflowbuild.Sender{
		{ID: "MessageFlow_JMS", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("Orders_In")},
	}})
	changes := map[string]string{
		iflow.KeyJMSRetryInterval:      "5",
		iflow.KeyJMSExponentialBackoff: iflow.FormatBool("1", false),
		iflow.KeyJMSMaxRetryInterval:   "120",
		iflow.KeyConcurrentProcesses:   "2",
		iflow.KeyJMSDeadLetterQueue:    iflow.FormatBool("1", true),
	}
	if !reflect.DeepEqual(sortedKeys(changes), sortedStrings(iflow.JMSSenderKeys())) {
		t.Fatalf("the test patches %v, but JMSSenderKeys are %v", sortedKeys(changes), iflow.JMSSenderKeys())
	}
	out, err := iflow.PatchZip(data, "MessageFlow_JMS", changes)
	if err != nil {
		t.Fatal(err)
	}
	a, err := iflow.ReadZip(out)
	if err != nil {
		t.Fatal(err)
	}
	s := a.JMSSenderSettings(a.JMSSenders()[0], nil)
	backoff, _ := s.ExponentialBackoff.Bool()
	if s.RetryInterval.Value != "5" || backoff || s.ExponentialBackoff.Raw != "0" || s.MaxRetryInterval.Value != "120" ||
		s.ConcurrentProcesses.Value != "2" || s.DeadLetterQueue.Raw != "1" || s.QueueName.Value != "Orders_In" {
		t.Fatalf("patched settings = %+v", s)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return sortedStrings(keys)
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestRetryGuards(t *testing.T) {
	t.Parallel()
	readsRetries := "def retries = message.getHeaders().get(\"SAPJMSRetries\") as Integer\nif (retries > 5) { throw new Exception('give up') }\n"
	tests := []struct {
		name   string
		opts   iflowbuild.Options
		config map[string]string
		want   []iflow.RetryGuard
	}{
		{"no guard", iflowbuild.Options{ExceptionEnds: [][]string{{"error"}}}, nil, nil},
		{"router on another header", iflowbuild.Options{Routers: []iflowbuild.Router{{Condition: "${header.status} = 'failed'"}}}, nil, nil},
		{"router with literal in the integration process",
			iflowbuild.Options{Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > '5'"}}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardRouter, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted",
				Condition: "${header.SAPJMSRetries} > '5'", Operator: ">", Limit: iflow.GuardLimit{Kind: iflow.LimitLiteral, Raw: "'5'", Value: 5, Known: true}}}},
		{"SAP's pipeline condition in an exception subprocess",
			iflowbuild.Options{ExceptionEnds: [][]string{{"error", "escalation"}}, Routers: []iflowbuild.Router{{
				Condition: "${header.SAPJMSRetries} = ${header.maxJMSRetries} or ${header.maxJMSRetries} = '0'", InException: 1}}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardExceptionSubprocess, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted", Subprocess: "SubProcess_1",
				Condition: "${header.SAPJMSRetries} = ${header.maxJMSRetries} or ${header.maxJMSRetries} = '0'", Operator: "=",
				Limit: iflow.GuardLimit{Kind: iflow.LimitNotVisible, Raw: "${header.maxJMSRetries}"}}}},
		{"externalized limit from the configuration, limit on the left",
			iflowbuild.Options{ExceptionEnds: [][]string{{"error"}}, Parameters: map[string]string{"MaxRetries": "3"},
				Routers: []iflowbuild.Router{{Condition: "{{MaxRetries}} <= ${in.header.SAPJMSRetries}", InException: 1}}},
			map[string]string{"MaxRetries": "8"},
			[]iflow.RetryGuard{{Kind: iflow.GuardExceptionSubprocess, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted", Subprocess: "SubProcess_1",
				Condition: "{{MaxRetries}} <= ${in.header.SAPJMSRetries}", Operator: ">=",
				Limit: iflow.GuardLimit{Kind: iflow.LimitParameter, Raw: "{{MaxRetries}}", Parameter: "MaxRetries", Value: 8, Known: true}}}},
		{"externalized limit without a value",
			iflowbuild.Options{Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} >= '{{Limit}}'"}}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardRouter, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted",
				Condition: "${header.SAPJMSRetries} >= '{{Limit}}'", Operator: ">=",
				Limit: iflow.GuardLimit{Kind: iflow.LimitParameter, Raw: "'{{Limit}}'", Parameter: "Limit"}}}},
		{"literal limit joined by and with a header set at run time",
			iflowbuild.Options{ExceptionEnds: [][]string{{"error"}}, Routers: []iflowbuild.Router{{
				Condition: "${header.SAPJMSRetries} > 5 and ${header.maxJMSRetries} != 'unlimited'", InException: 1}}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardExceptionSubprocess, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted", Subprocess: "SubProcess_1",
				Condition: "${header.SAPJMSRetries} > 5 and ${header.maxJMSRetries} != 'unlimited'", Operator: ">",
				Limit: iflow.GuardLimit{Kind: iflow.LimitNotVisible, Raw: "5"}}}},
		{"literal limit joined by && with another comparison of the header",
			iflowbuild.Options{Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} >= 3 && ${header.SAPJMSRetries} < 100"}}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardRouter, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted",
				Condition: "${header.SAPJMSRetries} >= 3 && ${header.SAPJMSRetries} < 100", Operator: ">=",
				Limit: iflow.GuardLimit{Kind: iflow.LimitLiteral, Raw: "3", Value: 3, Known: true}}}},
		{"literal limit joined by or with a header set at run time",
			iflowbuild.Options{Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5 or ${property.stop} = 'true'"}}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardRouter, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted",
				Condition: "${header.SAPJMSRetries} > 5 or ${property.stop} = 'true'", Operator: ">",
				Limit: iflow.GuardLimit{Kind: iflow.LimitLiteral, Raw: "5", Value: 5, Known: true}}}},
		{"header mentioned without a comparison",
			iflowbuild.Options{Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} in '5,6,7'"}}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardRouter, ElementID: "SequenceFlow_ExclusiveGateway_1_Limit", ElementName: "Retries Exhausted",
				Condition: "${header.SAPJMSRetries} in '5,6,7'", Limit: iflow.GuardLimit{Kind: iflow.LimitNotVisible}}}},
		{"script that reads the header",
			iflowbuild.Options{ExceptionEnds: [][]string{{"error"}}, Scripts: []iflowbuild.Script{
				{File: "other.groovy", Content: "message.setHeader('x', 1)"},
				{File: "retries.groovy", Content: readsRetries, InException: 1},
			}}, nil,
			[]iflow.RetryGuard{{Kind: iflow.GuardScript, ElementID: "CallActivity_Script_2", ElementName: "Script 2", Subprocess: "SubProcess_1",
				Condition: "retries.groovy", Limit: iflow.GuardLimit{Kind: iflow.LimitNotVisible}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := iflow.RetryGuards(iflowbuild.Build(tt.opts), tt.config)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("guards =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestRetryGuardScriptMissingFromArtifact(t *testing.T) {
	t.Parallel()
	data := iflowbuild.Build(iflowbuild.Options{Scripts: []iflowbuild.Script{{File: "retries.groovy", Content: "SAPJMSRetries"}}})
	doc := iflowbuild.Iflw(iflowbuild.Options{Scripts: []iflowbuild.Script{{File: "retries.groovy"}}})
	if got, err := iflow.FindRetryGuards(doc, nil, nil); err != nil || len(got) != 0 {
		t.Fatalf("without the script file: guards = %+v, %v; want none", got, err)
	}
	got, err := iflow.FindRetryGuards(doc, map[string][]byte{"retries.groovy": []byte("headers.SAPJMSRetries")}, nil)
	if err != nil || len(got) != 1 || got[0].Kind != iflow.GuardScript {
		t.Fatalf("with the script file: guards = %+v, %v; want one script guard", got, err)
	}
	if g, err := iflow.RetryGuards(data, nil); err != nil || len(g) != 1 {
		t.Fatalf("from the zip: guards = %+v, %v; want one", g, err)
	}
}

func TestRetryGuardsRejectBrokenDocuments(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{"", "<x/>", "<bpmn2:definitions xmlns:bpmn2=\"b\"><bpmn2:sequenceFlow>"} {
		if _, err := iflow.FindRetryGuards([]byte(doc), nil, nil); err == nil || !strings.Contains(err.Error(), "parse iFlow") {
			t.Errorf("FindRetryGuards(%q) error = %v, want a parse error", doc, err)
		}
	}
}

func TestSummarizeGuards(t *testing.T) {
	t.Parallel()
	literal := func(kind string, v int64) iflow.RetryGuard {
		return iflow.RetryGuard{Kind: kind, Operator: ">", Limit: iflow.GuardLimit{Kind: iflow.LimitLiteral, Value: v, Known: true}}
	}
	hidden := iflow.RetryGuard{Kind: iflow.GuardScript, Limit: iflow.GuardLimit{Kind: iflow.LimitNotVisible}}
	tests := []struct {
		name   string
		guards []iflow.RetryGuard
		want   iflow.GuardSummary
	}{
		{"none", nil, iflow.GuardSummary{}},
		{"only a hidden limit", []iflow.RetryGuard{hidden}, iflow.GuardSummary{Present: true, Guard: hidden, Places: []string{iflow.GuardScript}}},
		{"the smallest known limit wins", []iflow.RetryGuard{hidden, literal(iflow.GuardRouter, 9), literal(iflow.GuardExceptionSubprocess, 5)},
			iflow.GuardSummary{Present: true, Guard: literal(iflow.GuardExceptionSubprocess, 5),
				Places: []string{iflow.GuardScript, iflow.GuardRouter, iflow.GuardExceptionSubprocess}}},
	}
	for _, tt := range tests {
		if got := iflow.SummarizeGuards(tt.guards); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: SummarizeGuards = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

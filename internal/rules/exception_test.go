package rules

import (
	"strings"
	"testing"
)

func TestCheckExceptionSubprocesses(t *testing.T) {
	t.Parallel()
	sub := func(id, name string, ends ...EndEventKind) ExceptionSubprocess {
		return ExceptionSubprocess{ID: id, Name: name, EndEvents: ends}
	}
	tests := []struct {
		name     string
		subs     []ExceptionSubprocess
		want     []string
		contains []string
	}{
		{"nil", nil, nil, nil},
		{"empty", []ExceptionSubprocess{}, nil, nil},
		{"error end only", []ExceptionSubprocess{sub("SubProcess_1", "Handle Error", EndError, EndError)}, nil, nil},
		{"no end events", []ExceptionSubprocess{sub("SubProcess_1", "Handle Error")}, nil, nil},
		{"unrecognised kind", []ExceptionSubprocess{sub("SubProcess_1", "Handle Error", "terminate")}, nil, nil},
		{"message end", []ExceptionSubprocess{sub("SubProcess_1", "Handle Error", EndMessage)},
			[]string{"iflow.exception_acknowledges"}, []string{`"Handle Error" (SubProcess_1)`, "a Message End Event", "ACK"}},
		{"escalation end", []ExceptionSubprocess{sub("SubProcess_1", "", EndEscalation)},
			[]string{"iflow.exception_acknowledges"}, []string{`"SubProcess_1"`, "an Escalation End Event"}},
		{"plain end", []ExceptionSubprocess{sub("", "Catch All", EndNone)},
			[]string{"iflow.exception_acknowledges"}, []string{`"Catch All"`, "a plain End Event"}},
		{"mixed ends named once each", []ExceptionSubprocess{sub("S", "S", EndError, EndMessage, EndEscalation, EndMessage)},
			[]string{"iflow.exception_acknowledges"}, []string{`subprocess "S" ends with a Message End Event and an Escalation End Event.`}},
		{"JMS retry pattern: guard with escalation and error ends", []ExceptionSubprocess{
			{ID: "S", Name: "Retry", EndEvents: []EndEventKind{EndEscalation, EndError}, GuardsRetries: true}}, nil, nil},
		{"guard without an error end still acknowledges every failure", []ExceptionSubprocess{
			{ID: "S", Name: "Retry", EndEvents: []EndEventKind{EndEscalation}, GuardsRetries: true}},
			[]string{"iflow.exception_acknowledges"}, []string{"an Escalation End Event"}},
		{"one warning per subprocess", []ExceptionSubprocess{
			sub("S1", "Retry", EndError),
			sub("S2", "Swallow", EndMessage),
			sub("S3", "Discard", EndEscalation, EndNone),
		}, []string{"iflow.exception_acknowledges", "iflow.exception_acknowledges"}, []string{"Swallow"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckExceptionSubprocesses(tt.subs)
			expectRules(t, fs, tt.want...)
			expectAttribute(t, fs, "exception_end_events")
			if len(fs) > 0 {
				for _, s := range tt.contains {
					if !strings.Contains(fs[0].Detail, s) {
						t.Errorf("Detail %q does not contain %q", fs[0].Detail, s)
					}
				}
			}
		})
	}
}

package rules

import (
	"fmt"
	"slices"
	"strings"
)

// EndEventKind is the kind of an end event in an iFlow exception subprocess.
type EndEventKind string

// End event kinds; only an Error End rejects (NACKs) the message.
const (
	EndError      EndEventKind = "error"
	EndEscalation EndEventKind = "escalation"
	EndMessage    EndEventKind = "message"
	EndNone       EndEventKind = "none"
)

const attrExceptionEndEvents = "exception_end_events"

// ExceptionSubprocess is an exception subprocess of an iFlow with the kinds of its end events.
type ExceptionSubprocess struct {
	ID, Name  string
	EndEvents []EndEventKind
	// GuardsRetries is true when the subprocess compares SAPJMSRetries: SAP's retry
	// pattern for JMS queues, whose router ends the message that has used up its
	// retries on purpose (Escalation End) and hands every other failure back for a
	// retry (Error End) [SAP "Apply the Retry Pattern with JMS Queue", da17d2d].
	GuardsRetries bool
}

// CheckExceptionSubprocesses warns once per exception subprocess that can end with a
// message, escalation or plain end event, because those acknowledge the failed message.
// A subprocess that guards SAPJMSRetries and also has an Error End is SAP's JMS retry
// pattern: its acknowledging end is the deliberate end of the retries, not a warning.
func CheckExceptionSubprocesses(subs []ExceptionSubprocess) []Finding {
	var r report
	for _, sp := range subs {
		acked := acknowledgingEnds(sp.EndEvents)
		if len(acked) == 0 || sp.GuardsRetries && slices.Contains(sp.EndEvents, EndError) {
			continue
		}
		r.warnf("iflow.exception_acknowledges", attrExceptionEndEvents, "Exception Subprocess Acknowledges Failures",
			"The exception subprocess %s ends with %s. Such an end acknowledges the message (ACK): the failure counts as handled, the message is gone, and it is neither retried, redelivered nor moved to the dead message queue; only an Error End Event rejects it (NACK). "+
				"Set the end event of every failure that deserves another attempt to an Error End Event, and keep Escalation End Events for messages you mean to discard.",
			subprocessLabel(sp), strings.Join(acked, " and "))
	}
	return r.fs
}

// acknowledgingEnds describes the distinct end event kinds that ACK the message, in order.
func acknowledgingEnds(kinds []EndEventKind) []string {
	var out []string
	seen := map[EndEventKind]bool{}
	for _, k := range kinds {
		if seen[k] {
			continue
		}
		seen[k] = true
		switch k {
		case EndMessage:
			out = append(out, "a Message End Event")
		case EndEscalation:
			out = append(out, "an Escalation End Event")
		case EndNone:
			out = append(out, "a plain End Event (no event definition)")
		}
	}
	return out
}

func subprocessLabel(sp ExceptionSubprocess) string {
	switch {
	case sp.Name != "" && sp.ID != "" && sp.Name != sp.ID:
		return fmt.Sprintf("%q (%s)", sp.Name, sp.ID)
	case sp.Name != "":
		return fmt.Sprintf("%q", sp.Name)
	case sp.ID != "":
		return fmt.Sprintf("%q", sp.ID)
	}
	return "without name or ID"
}

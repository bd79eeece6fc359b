package iflow

import (
	"strings"
)

// Property keys of the Cloud Integration JMS adapter as they appear in the .iflw.
//
// SAP documents the fields but not the keys; the keys come from community exports of
// real flows (a v1.3 sender: QueueName_inbound, NumberConcurrentProcesses,
// RetryInterval, ExponentialBackoff, MaxRetryInterval, useDeadLetterQueue; a v1.6.3
// receiver: AccessType, ExpirationPeriod, TransferExchangeProperties) and the
// externalized parameter names SAP's tooling derives from them. See the project's
// reference note on the CPI JMS sender, section 1 and 6. The AccessType key on the
// sender is inferred from the receiver.
const (
	KeyJMSQueueInbound          = "QueueName_inbound"
	KeyJMSQueueOutbound         = "QueueName_outbound"
	KeyJMSAccessType            = "AccessType"
	KeyJMSRetryInterval         = "RetryInterval"
	KeyJMSExponentialBackoff    = "ExponentialBackoff"
	KeyJMSMaxRetryInterval      = "MaxRetryInterval"
	KeyJMSDeadLetterQueue       = "useDeadLetterQueue"
	KeyJMSExpirationPeriod      = "ExpirationPeriod"
	KeyJMSRetentionThreshold    = "RetentionThresholdAlerting"
	KeyJMSTransferExchangeProps = "TransferExchangeProperties"
)

// ComponentTypeJMS and DirectionReceiver identify JMS channels.
const (
	ComponentTypeJMS  = "JMS"
	DirectionReceiver = "Receiver"
)

// Access types of a JMS queue.
const (
	AccessExclusive    = "Exclusive"
	AccessNonExclusive = "Non-Exclusive"
)

// JMSSenderKeys returns the property keys of the retry settings of a JMS sender channel
// that a patch may change, in a fixed order.
func JMSSenderKeys() []string {
	return []string{KeyJMSRetryInterval, KeyJMSExponentialBackoff, KeyJMSMaxRetryInterval, KeyConcurrentProcesses, KeyJMSDeadLetterQueue}
}

// JMSChannel is a JMS sender or receiver channel: a message flow with ComponentType=JMS.
type JMSChannel struct {
	// ID and Name are the id and name of the message flow.
	ID, Name string
	// Properties holds the raw values, including "{{Param}}" references.
	Properties map[string]string
}

// Setting returns the view of one property of the channel. Parameter values are looked
// up in params; a nil map resolves no parameter.
func (c JMSChannel) Setting(key string, params map[string]string) Setting {
	return settingOf(c.Properties, key, params)
}

// JMSSenderSettings is the settings view of a JMS sender channel.
type JMSSenderSettings struct {
	QueueName, AccessType, ConcurrentProcesses          Setting
	RetryInterval, ExponentialBackoff, MaxRetryInterval Setting
	DeadLetterQueue                                     Setting
}

// JMSSenderSettings returns the settings of a JMS sender channel with parameter values
// looked up in params.
func (c JMSChannel) JMSSenderSettings(params map[string]string) JMSSenderSettings {
	return JMSSenderSettings{
		QueueName:           c.Setting(KeyJMSQueueInbound, params),
		AccessType:          c.Setting(KeyJMSAccessType, params),
		ConcurrentProcesses: c.Setting(KeyConcurrentProcesses, params),
		RetryInterval:       c.Setting(KeyJMSRetryInterval, params),
		ExponentialBackoff:  c.Setting(KeyJMSExponentialBackoff, params),
		MaxRetryInterval:    c.Setting(KeyJMSMaxRetryInterval, params),
		DeadLetterQueue:     c.Setting(KeyJMSDeadLetterQueue, params),
	}
}

// Exclusive reports whether the channel's queue is exclusive. known is false for an
// unresolved parameter or an unexpected value. A sender without an AccessType property
// counts as non-exclusive: exports of the JMS sender v1.3 carry no AccessType but do
// carry NumberConcurrentProcesses and useDeadLetterQueue, which exist for non-exclusive
// queues only [SAP 161791b; inferred].
func (s JMSSenderSettings) Exclusive() (exclusive, known bool) {
	if !s.AccessType.Present {
		return false, true
	}
	if !s.AccessType.Resolved {
		return false, false
	}
	switch {
	case strings.EqualFold(s.AccessType.Value, AccessExclusive):
		return true, true
	case strings.EqualFold(s.AccessType.Value, AccessNonExclusive):
		return false, true
	}
	return false, false
}

// Bool returns the effective value as a boolean. Real exports write "1"/"0" and
// generated ones "true"/"false"; both are accepted, case-insensitively. It reports false
// for an unresolved, empty or other value.
func (s Setting) Bool() (value, ok bool) {
	if !s.Resolved {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(s.Value)) {
	case "1", "true":
		return true, true
	case "0", "false":
		return false, true
	}
	return false, false
}

// FormatBool returns v written in the style of existing, the raw value it replaces:
// "true"/"false" when existing is written that way, "1"/"0" otherwise (the style of a
// real Cloud Integration export).
func FormatBool(existing string, v bool) string {
	switch strings.ToLower(strings.TrimSpace(existing)) {
	case "true", "false":
		if v {
			return "true"
		}
		return "false"
	}
	if v {
		return "1"
	}
	return "0"
}

// JMSSenders returns the JMS sender channels in document order.
func (m *Model) JMSSenders() []JMSChannel { return m.jmsChannels(DirectionSender) }

// JMSReceivers returns the JMS receiver channels in document order. The Expiration
// Period of the queue is a receiver setting (ExpirationPeriod, days) [SAP 79edc04].
func (m *Model) JMSReceivers() []JMSChannel { return m.jmsChannels(DirectionReceiver) }

// JMSSender returns the JMS sender channel with message flow id flowID.
func (m *Model) JMSSender(flowID string) (JMSChannel, bool) {
	for _, s := range m.JMSSenders() {
		if s.ID == flowID {
			return s, true
		}
	}
	return JMSChannel{}, false
}

func (m *Model) jmsChannels(direction string) []JMSChannel {
	if m == nil {
		return nil
	}
	var out []JMSChannel
	for _, f := range m.MessageFlows {
		if !strings.EqualFold(strings.TrimSpace(f.Properties[KeyComponentType]), ComponentTypeJMS) ||
			!strings.EqualFold(strings.TrimSpace(f.Properties[KeyDirection]), direction) {
			continue
		}
		out = append(out, JMSChannel{ID: f.ID, Name: f.channelName(), Properties: f.Properties})
	}
	return out
}

// JMSSenders returns the JMS sender channels of the iFlow.
func (a *Artifact) JMSSenders() []JMSChannel { return a.Model.JMSSenders() }

// JMSSenderSettings returns the settings of s with externalized parameters resolved from
// configurations first and parameters.prop second.
func (a *Artifact) JMSSenderSettings(s JMSChannel, configurations map[string]string) JMSSenderSettings {
	return s.JMSSenderSettings(a.ParameterValues(configurations))
}

package cpi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// The retry settings of a JMS sender channel, named by their property keys in
// the .iflw (see iflow.JMSSenderKeys).
const (
	SettingJMSRetryInterval    Setting = iflow.KeyJMSRetryInterval
	SettingJMSBackoff          Setting = iflow.KeyJMSExponentialBackoff
	SettingJMSMaxRetryInterval Setting = iflow.KeyJMSMaxRetryInterval
	SettingJMSConcurrency      Setting = iflow.KeyConcurrentProcesses
	SettingJMSDeadLetterQueue  Setting = iflow.KeyJMSDeadLetterQueue
)

// JMSSettings returns the retry settings of a JMS sender in a fixed order.
func JMSSettings() []Setting {
	return settingsOf(iflow.JMSSenderKeys())
}

func jmsIsBool(s Setting) bool { return s == SettingJMSBackoff || s == SettingJMSDeadLetterQueue }

// ErrNoJMSSender is matched by the error for a flow without JMS sender channel.
var ErrNoJMSSender = errors.New("no JMS sender channel")

// JMSSenderSettings are the desired retry settings of a JMS sender channel;
// nil leaves a setting as it is.
type JMSSenderSettings struct {
	RetryInterval      *int64
	ExponentialBackoff *bool
	MaxRetryInterval   *int64
	Concurrency        *int64
	DeadLetterQueue    *bool
}

// values returns the non-nil settings in a canonical form: decimal integers,
// and "true"/"false" for booleans whatever style the flow writes.
func (s JMSSenderSettings) values() map[Setting]string {
	m := numberValues(map[Setting]*int64{SettingJMSRetryInterval: s.RetryInterval, SettingJMSMaxRetryInterval: s.MaxRetryInterval, SettingJMSConcurrency: s.Concurrency})
	for setting, p := range map[Setting]*bool{SettingJMSBackoff: s.ExponentialBackoff, SettingJMSDeadLetterQueue: s.DeadLetterQueue} {
		if p != nil {
			m[setting] = strconv.FormatBool(*p)
		}
	}
	return m
}

// JMSSender is the JMS sender channel of an integration flow as the tenant
// holds it, with the flow's guards on SAPJMSRetries.
type JMSSender struct {
	// FlowID and Name are the id and name of the channel's message flow.
	FlowID string
	Name   string
	// QueueName is the queue the channel consumes (QueueName_inbound).
	QueueName string
	// AccessType is iflow.AccessExclusive or iflow.AccessNonExclusive; ""
	// when it is an unresolved parameter or an unexpected value. A sender
	// without the property counts as non-exclusive (see
	// iflow.JMSSenderSettings.Exclusive).
	AccessType string
	// The effective settings; nil means empty, unset or unresolved.
	RetryInterval      *int64
	ExponentialBackoff *bool
	MaxRetryInterval   *int64
	Concurrency        *int64
	DeadLetterQueue    *bool
	// Parameters maps each externalized setting to its parameter name.
	Parameters map[Setting]string
	// Absent holds the settings the channel has no property for; EditJMSSender
	// cannot set them in place.
	Absent map[Setting]bool
	// Guards are the places of the flow that read SAPJMSRetries.
	Guards []iflow.RetryGuard
	// ExceptionSubprocesses are the flow's exception subprocesses.
	ExceptionSubprocesses []ExceptionSubprocess
	// Candidates are the channel values that select each JMS sender.
	Candidates []string
}

// Settings returns the effective settings of the channel.
func (s *JMSSender) Settings() JMSSenderSettings {
	return JMSSenderSettings{RetryInterval: s.RetryInterval, ExponentialBackoff: s.ExponentialBackoff,
		MaxRetryInterval: s.MaxRetryInterval, Concurrency: s.Concurrency, DeadLetterQueue: s.DeadLetterQueue}
}

// selectJMSSender picks the JMS sender selected by channel: by message flow
// name, else by message flow id; "" selects the only one.
func selectJMSSender(iflowID string, senders []iflow.JMSChannel, channel string) (iflow.JMSChannel, []string, error) {
	return selectChannel(iflowID, senders, channel, func(s iflow.JMSChannel) (string, string) { return s.Name, s.ID }, "JMS",
		fmt.Errorf("integration flow %q has %w (a message flow with ComponentType JMS and direction Sender); "+
			"add a JMS sender adapter in Cloud Integration or set the id of a flow that consumes a JMS queue", iflowID, ErrNoJMSSender))
}

func jmsChannelLabel(s iflow.JMSChannel) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// JMSSender returns the JMS sender channel selected by channel (message flow
// name or id; "" selects the only one) with its effective settings and the
// flow's retry guards. The error matches ErrNoJMSSender for a flow without a
// JMS sender and is an *AmbiguousChannelError or *ChannelNotFoundError when
// channel does not select exactly one.
func (f *Flow) JMSSender(channel string) (*JMSSender, error) {
	snd, cands, err := selectJMSSender(f.ID, f.Artifact.JMSSenders(), channel)
	if err != nil {
		return nil, err
	}
	params := f.parameterValues()
	st := snd.JMSSenderSettings(params)
	out := &JMSSender{FlowID: snd.ID, Name: snd.Name, Parameters: map[Setting]string{}, Absent: map[Setting]bool{}, Candidates: cands}
	if st.QueueName.Resolved {
		out.QueueName = strings.TrimSpace(st.QueueName.Value)
	}
	if ex, known := st.Exclusive(); known {
		out.AccessType = iflow.AccessNonExclusive
		if ex {
			out.AccessType = iflow.AccessExclusive
		}
	}
	ref := channelRef{adapter: "JMS", label: jmsChannelLabel(snd), flowID: f.ID}
	numbers := map[Setting]**int64{SettingJMSRetryInterval: &out.RetryInterval, SettingJMSMaxRetryInterval: &out.MaxRetryInterval, SettingJMSConcurrency: &out.Concurrency}
	for _, setting := range JMSSettings() {
		s := snd.Setting(string(setting), params)
		if !s.Present {
			out.Absent[setting] = true
		}
		if s.Externalized() {
			out.Parameters[setting] = s.Parameter
		}
		value := strings.TrimSpace(s.Value)
		if !s.Resolved || value == "" {
			continue
		}
		if jmsIsBool(setting) {
			b, ok := s.Bool()
			if !ok {
				return nil, fmt.Errorf("the %s of JMS sender channel %q in integration flow %q is %q, which is not a boolean; set it to true or false in Cloud Integration",
					setting, jmsChannelLabel(snd), f.ID, value)
			}
			if setting == SettingJMSBackoff {
				out.ExponentialBackoff = &b
			} else {
				out.DeadLetterQueue = &b
			}
			continue
		}
		if err := ref.setWholeNumber(numbers, setting, value); err != nil {
			return nil, err
		}
	}
	configs := make(map[string]string, len(f.Configurations))
	for k, cf := range f.Configurations {
		configs[k] = cf.Value
	}
	guards, err := iflow.RetryGuards(f.Content, configs)
	if err != nil {
		return nil, fmt.Errorf("reading the retry guards of integration flow %q: %w", f.ID, err)
	}
	out.Guards = guards
	guarded := map[string]bool{}
	for _, g := range guards {
		if g.Subprocess != "" {
			guarded[g.Subprocess] = true
		}
	}
	out.ExceptionSubprocesses = f.exceptionSubprocesses(guarded)
	return out, nil
}

// EditJMSSender returns the edit that gives the JMS sender channel selected
// as in Flow.JMSSender the non-nil settings of desired. A setting that is an
// externalized parameter {{Name}} is set through the flow's configurations
// (default data type xsd:integer, xsd:boolean for the switches); a literal one
// is patched in the .iflw. Booleans keep the style the flow writes them in
// (1/0 or true/false, see iflow.FormatBool).
//
// With expected set (the settings the change was planned from), a desired
// setting whose current value is neither expected nor desired fails the edit
// with a *ChannelChangedError.
func (f *Flow) EditJMSSender(channel string, desired JMSSenderSettings, expected *JMSSenderSettings) (*Edit, error) {
	want := desired.values()
	if len(want) == 0 {
		return &Edit{}, nil
	}
	snd, _, err := selectJMSSender(f.ID, f.Artifact.JMSSenders(), channel)
	if err != nil {
		return nil, err
	}
	cur, err := f.JMSSender(channel)
	if err != nil {
		return nil, err
	}
	now := cur.Settings().values()
	var before map[Setting]string
	if expected != nil {
		before = expected.values()
	}
	return f.editChannel(channelEdit{
		channelRef: channelRef{adapter: "JMS", label: jmsChannelLabel(snd), flowID: f.ID},
		id:         snd.ID, properties: snd.Properties, settings: JMSSettings(),
		now:       func() (map[Setting]string, error) { return now, nil },
		unchanged: func(setting Setting, _, _, w string) bool { return now[setting] == w },
		value: func(setting Setting, raw, param, w string) (string, string) {
			if param == "" {
				if jmsIsBool(setting) {
					return iflow.FormatBool(raw, w == "true"), ""
				}
				return w, ""
			}
			listed, hasListed := f.Configurations[param]
			value, dt := w, listed.DataType
			if jmsIsBool(setting) {
				style := listed.Value
				if !hasListed {
					style = f.parameterValues()[param]
				}
				value = iflow.FormatBool(style, w == "true")
				if dt == "" {
					dt = DataTypeBoolean
				}
			} else if dt == "" {
				dt = DataTypeInteger
			}
			return value, dt
		},
	}, want, before)
}

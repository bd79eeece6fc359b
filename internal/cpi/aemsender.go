package cpi

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// The AdvancedEventMesh sender channel of Cloud Integration, which consumes an
// AEM queue and runs its own retry loop before it settles a message
// (../shared/reference/aem.md §4; the keys and their sources in
// internal/iflow/aem.go). Its settings are read and written by the loop the
// other senders share (channel.go).

// AEMSettings returns the settings of an AEM sender an edit may change, in a fixed order.
func AEMSettings() []Setting {
	return settingsOf(iflow.AEMSenderKeys())
}

// ErrNoAEMSender is matched by the error for a flow without AdvancedEventMesh sender channel.
var ErrNoAEMSender = errors.New("no AdvancedEventMesh sender channel")

// AEMSender is the AdvancedEventMesh sender channel of an integration flow as the tenant holds it.
type AEMSender struct {
	// FlowID and Name are the id and name of the channel's message flow.
	FlowID string
	Name   string
	// QueueName is the AEM queue the channel consumes; "" when empty or an unresolved parameter.
	QueueName string
	// Adapter is the channel's adapter: iflow.ComponentTypeAEM (SAP's AdvancedEventMesh adapter) or
	// iflow.ComponentTypeSolace (Solace's own adapter, the same keys; its behaviour is listed in Unconfirmed).
	Adapter string
	// AdapterVersion is the version the channel was written with ("1.3.0"), "" when it says none.
	AdapterVersion string
	// The effective settings: nil means empty, unset or unresolved. The enumerations are upper case; a
	// value the adapter is not known to write is kept as read (upper case) and listed in Unconfirmed.
	MaxAttempts, RetryInterval, MaxRetryInterval, ParallelConsumers *int64
	RetryMultiplier                                                 *float64
	SettlementOutcome, AckMode, ConsumerMode                        *string
	// Unconfirmed are the values read that no source confirms (iflow.AEMSenderSettings.Unconfirmed).
	Unconfirmed []iflow.Unconfirmed
	// Parameters maps each externalized setting to its parameter name.
	Parameters map[Setting]string
	// ExceptionSubprocesses are the flow's exception subprocesses.
	ExceptionSubprocesses []ExceptionSubprocess
	// Candidates are the channel values that select each AEM sender of the flow.
	Candidates []string
}

// Changes returns the settings an edit may change as the channel holds them.
func (s *AEMSender) Changes() iflow.AEMSenderChanges {
	return iflow.AEMSenderChanges{MaxAttempts: s.MaxAttempts, RetryInterval: s.RetryInterval, MaxRetryInterval: s.MaxRetryInterval,
		RetryMultiplier: s.RetryMultiplier, SettlementOutcome: s.SettlementOutcome, AckMode: s.AckMode, ParallelConsumers: s.ParallelConsumers}
}

func aemIdent(s iflow.AEMChannel) (string, string) { return s.Name, s.ID }

func aemChannelLabel(s iflow.AEMChannel) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// selectAEMSender picks the AEM sender selected by channel: by message flow name, else by message flow id;
// "" selects the only one.
func selectAEMSender(iflowID string, senders []iflow.AEMChannel, channel string) (iflow.AEMChannel, []string, error) {
	return selectChannel(iflowID, senders, channel, aemIdent, "AEM",
		fmt.Errorf("integration flow %q has %w (a message flow with ComponentType AdvancedEventMesh or SolacePubSubPlus and direction Sender); "+
			"add an Advanced Event Mesh sender adapter in Cloud Integration or set the id of a flow that consumes an AEM queue", iflowID, ErrNoAEMSender))
}

// AEMSenderChannels returns the channel values that select each AEM sender channel of the flow, in document
// order, as SenderChannels does for AMQP.
func (f *Flow) AEMSenderChannels() []string {
	return channelCandidates(f.Artifact.AEMSenders(), aemIdent)
}

// AEMSender returns the AdvancedEventMesh sender channel selected by channel (message flow name or id; ""
// selects the only one) with its effective settings. Values no source confirms (the Rejected outcome, an
// adapter version other than 1.3.x, an unknown enumeration value) are read leniently and listed in
// Unconfirmed (aem.md §4). The error matches ErrNoAEMSender for a flow without an AEM sender and is an
// *AmbiguousChannelError or *ChannelNotFoundError when channel does not select exactly one.
func (f *Flow) AEMSender(channel string) (*AEMSender, error) {
	snd, cands, err := selectAEMSender(f.ID, f.Artifact.AEMSenders(), channel)
	if err != nil {
		return nil, err
	}
	st := snd.AEMSenderSettings(f.parameterValues())
	out := &AEMSender{FlowID: snd.ID, Name: snd.Name, Adapter: snd.Adapter, AdapterVersion: st.Version, Parameters: map[Setting]string{},
		Candidates: cands, Unconfirmed: st.Unconfirmed()}
	if st.QueueName.Resolved {
		out.QueueName = strings.TrimSpace(st.QueueName.Value)
	}
	ref := channelRef{adapter: "AEM", label: aemChannelLabel(snd), flowID: f.ID}
	numbers := map[Setting]**int64{Setting(iflow.KeyAEMMaxAttempts): &out.MaxAttempts, Setting(iflow.KeyAEMRetryInterval): &out.RetryInterval,
		Setting(iflow.KeyAEMMaxRetryInterval): &out.MaxRetryInterval, Setting(iflow.KeyAEMParallelConsumers): &out.ParallelConsumers}
	enums := map[Setting]**string{Setting(iflow.KeyAEMSettlementOutcome): &out.SettlementOutcome, Setting(iflow.KeyAEMAckMode): &out.AckMode,
		Setting(iflow.KeyAEMConsumerMode): &out.ConsumerMode}
	read := []iflow.Setting{st.MaxAttempts, st.RetryInterval, st.MaxRetryInterval, st.RetryMultiplier, st.SettlementOutcome,
		st.AckMode, st.ParallelConsumers, st.ConsumerMode}
	for _, s := range read {
		setting := Setting(s.Key)
		if s.Externalized() {
			out.Parameters[setting] = s.Parameter
		}
		value := strings.TrimSpace(s.Value)
		if !s.Resolved || value == "" {
			continue
		}
		switch {
		case setting == Setting(iflow.KeyAEMRetryMultiplier):
			x, ok := s.Float()
			if !ok {
				return nil, fmt.Errorf("the %s of AEM sender channel %q in integration flow %q is %q, which is not a number; set a number such as 3.0 in Cloud Integration",
					setting, ref.label, f.ID, value)
			}
			out.RetryMultiplier = &x
		case enums[setting] != nil:
			v := strings.ToUpper(value)
			if setting == Setting(iflow.KeyAEMSettlementOutcome) {
				if o, ok := st.Outcome(); ok {
					v = o // REJECT read as REJECTED (unconfirmed, listed)
				}
			}
			*enums[setting] = &v
		default:
			if err := ref.setWholeNumber(numbers, setting, value); err != nil {
				return nil, err
			}
		}
	}
	out.ExceptionSubprocesses = f.exceptionSubprocesses(nil)
	return out, nil
}

// aemDataType is the data type of a parameter of setting that the tenant lists without one.
func aemDataType(s Setting) string {
	switch s {
	case Setting(iflow.KeyAEMMaxAttempts), Setting(iflow.KeyAEMRetryInterval), Setting(iflow.KeyAEMMaxRetryInterval), Setting(iflow.KeyAEMParallelConsumers):
		return DataTypeInteger
	}
	return DataTypeString
}

// EditAEMSender returns the edit that gives the AEM sender channel selected as in Flow.AEMSender the non-nil
// settings of desired, and only those: a key the configuration does not set (an unconfirmed one included) is
// never written (aem.md §4). The multiplier is written with a decimal point and the enumerations upper case
// (iflow.AEMSenderChanges.Values); a value that already reads as wanted (3 for 3.0, failed for FAILED) is
// left as the flow writes it. With expected set, a desired setting whose value now is neither expected nor
// desired fails the edit with a *ChannelChangedError.
func (f *Flow) EditAEMSender(channel string, desired iflow.AEMSenderChanges, expected *iflow.AEMSenderChanges) (*Edit, error) {
	want := aemValues(desired)
	if len(want) == 0 {
		return &Edit{}, nil
	}
	snd, _, err := selectAEMSender(f.ID, f.Artifact.AEMSenders(), channel)
	if err != nil {
		return nil, err
	}
	cur, err := f.AEMSender(channel)
	if err != nil {
		return nil, err
	}
	now := aemValues(cur.Changes())
	var before map[Setting]string
	if expected != nil {
		before = aemValues(*expected)
	}
	return f.editChannel(channelEdit{
		channelRef: channelRef{adapter: "AEM", label: aemChannelLabel(snd), flowID: f.ID},
		id:         snd.ID, properties: snd.Properties, settings: AEMSettings(),
		now:       func() (map[Setting]string, error) { return now, nil },
		unchanged: func(setting Setting, _, _, w string) bool { return now[setting] == w },
		value: func(setting Setting, _, param, w string) (string, string) {
			dt := f.Configurations[param].DataType
			if dt == "" && param != "" {
				dt = aemDataType(setting)
			}
			return w, dt
		},
	}, want, before)
}

// aemValues returns the non-nil changes by setting, as the adapter writes them.
func aemValues(c iflow.AEMSenderChanges) map[Setting]string {
	m := map[Setting]string{}
	for k, v := range c.Values() {
		m[Setting(k)] = v
	}
	return m
}

package iflow

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The AdvancedEventMesh sender adapter of Cloud Integration: a message flow that consumes an SAP Integration
// Suite, advanced event mesh (AEM) queue over SMF and runs its own retry loop before it settles the message.
//
// Sources. The fields and what they do: SAP's page "Configure the Advanced Event Mesh Sender Adapter"
// (SAP-docs/btp-integration-suite, ISuite_Integrations_APIs/configure-the-advanced-event-mesh-sender-adapter-abd2efc.md).
// SAP documents the fields but not their keys in the .iflw; the keys and values come from tenant-written flows
// in SolaceLabs/solace-ep-codegen (Apache-2.0, commit d9e14883a8f0d6f087818d4e08974dbaa0e925a7):
// src/test/resources/sap/iflow/Inventory Service.iflw and stack-tests/ShippingService-with-Exception-Subflow.iflw
// (copied to testdata/aem) and src/main/resources/sap/iflow/extension-elements.yaml. Every sender channel found
// there is adapter 1.3.0 with consumerMode GUARANTEED or DIRECT, ackMode AUTOMATIC_ON_EXCHANGE_COMPLETE or
// AUTOMATIC_IMMEDIATE, failedMessageSettlementOutcome FAILED, maxMessageProcessingAttempts 5,
// messageRetryInitialDelayInterval 1000, messageRetryMaxDelayInterval 30000 and
// messageRetryDelayIntervalMultiplier "3.0". What no source shows is read leniently and reported by
// AEMSenderSettings.Unconfirmed: the stored value of the Rejected outcome (assumed REJECTED, the UI's label in
// the style of FAILED), and adapter versions other than 1.3.x.
//
// Solace's own adapter (ComponentType SolacePubSubPlus, vendor Solace, version 1.2.0 in the same
// Inventory Service.iflw, its sender MessageFlow_17 reading queue INVENTORY.PAYMENT.ACCEPTED with
// AUTOMATIC_IMMEDIATE) consumes AEM queues with the same keys and values, so it is read here as an AEM channel
// (AEMChannel.Adapter names which). SAP's page documents the AdvancedEventMesh adapter only: that Solace's
// adapter settles a message and counts its attempts the same way is assumed, and Unconfirmed says so for every
// such channel.

// ComponentTypeAEM is the ComponentType of an AdvancedEventMesh channel.
const ComponentTypeAEM = "AdvancedEventMesh"

// ComponentTypeSolace is the ComponentType of a channel of Solace's own adapter, which reads the same keys.
const ComponentTypeSolace = "SolacePubSubPlus"

// Property keys of the AdvancedEventMesh adapter (1.3.x) as they appear in the .iflw.
const (
	keyAEMCmdVariantURI        = "cmdVariantUri"
	keyAEMComponentVersion     = "componentVersion"
	KeyAEMConsumerMode         = "consumerMode"
	KeyAEMQueueName            = "queueName"
	KeyAEMAckMode              = "ackMode"
	KeyAEMSettlementOutcome    = "failedMessageSettlementOutcome"
	KeyAEMMaxAttempts          = "maxMessageProcessingAttempts"
	KeyAEMRetryInterval        = "messageRetryInitialDelayInterval"
	KeyAEMMaxRetryInterval     = "messageRetryMaxDelayInterval"
	KeyAEMRetryMultiplier      = "messageRetryDelayIntervalMultiplier"
	KeyAEMParallelConsumers    = "parallelConsumers"
	KeyAEMSelector             = "selector"
	aemConfirmedVersionPrefix  = "1.3."
	aemConfirmedVersionDisplay = "1.3.x"
)

// Values of the AdvancedEventMesh sender's settings.
const (
	AEMConsumerGuaranteed    = "GUARANTEED"
	AEMConsumerDirect        = "DIRECT"
	AEMAckOnExchangeComplete = "AUTOMATIC_ON_EXCHANGE_COMPLETE"
	AEMAckImmediate          = "AUTOMATIC_IMMEDIATE"
	AEMOutcomeFailed         = "FAILED"
	// AEMOutcomeRejected is the assumed stored value of the Rejected outcome: no tenant-written flow with it
	// was found (see the package's AEM sources), so reading it is reported as unconfirmed.
	AEMOutcomeRejected = "REJECTED"
)

// AEMSenderKeys returns the property keys of the AEM sender channel that a patch may change, in a fixed
// order. The queue name, consumer mode and selector are read, never written.
func AEMSenderKeys() []string {
	return []string{KeyAEMMaxAttempts, KeyAEMRetryInterval, KeyAEMMaxRetryInterval, KeyAEMRetryMultiplier,
		KeyAEMSettlementOutcome, KeyAEMAckMode, KeyAEMParallelConsumers}
}

// AEMChannel is a channel that consumes or publishes to an AEM broker: a message flow with ComponentType
// AdvancedEventMesh or SolacePubSubPlus, or without a ComponentType and with a cmdVariantUri naming one of them
// (cname::AdvancedEventMesh).
type AEMChannel struct {
	// ID and Name are the id and name of the message flow.
	ID, Name string
	// Adapter is ComponentTypeAEM or ComponentTypeSolace.
	Adapter string
	// Properties holds the raw values, including "{{Param}}" references.
	Properties map[string]string
}

// Setting returns the view of one property of the channel. Parameter values are looked up in params; a nil
// map resolves no parameter.
func (c AEMChannel) Setting(key string, params map[string]string) Setting {
	return settingOf(c.Properties, key, params)
}

// AdapterVersion returns the adapter version the channel was written with: the version:: part of its
// cmdVariantUri ("1.3.0"), else its componentVersion ("1.3"), else "".
func (c AEMChannel) AdapterVersion() string {
	if v := aemVariantPart(c.Properties[keyAEMCmdVariantURI], "version"); v != "" {
		return v
	}
	return strings.TrimSpace(c.Properties[keyAEMComponentVersion])
}

// aemVariantPart returns the value of name::value in a cmdVariantUri such as
// ctype::AdapterVariant/cname::AdvancedEventMesh/vendor::SAP/tp::TCP/mp::SMF/direction::Sender/version::1.3.0.
func aemVariantPart(uri, name string) string {
	for _, part := range strings.Split(strings.TrimSpace(uri), "/") {
		if k, v, ok := strings.Cut(part, "::"); ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// aemAdapterOf returns the adapter of an AEM channel in direction (ComponentTypeAEM or ComponentTypeSolace), or
// "" when the properties are not those of one.
func aemAdapterOf(p map[string]string, direction string) string {
	ct := strings.TrimSpace(p[KeyComponentType])
	if ct == "" {
		ct = aemVariantPart(p[keyAEMCmdVariantURI], "cname")
	}
	var adapter string
	for _, a := range []string{ComponentTypeAEM, ComponentTypeSolace} {
		if strings.EqualFold(ct, a) {
			adapter = a
		}
	}
	if adapter == "" {
		return ""
	}
	dir := strings.TrimSpace(p[KeyDirection])
	if dir == "" {
		dir = aemVariantPart(p[keyAEMCmdVariantURI], "direction")
	}
	if !strings.EqualFold(dir, direction) {
		return ""
	}
	return adapter
}

// AEMSenders returns the AdvancedEventMesh sender channels in document order.
func (m *Model) AEMSenders() []AEMChannel { return m.aemChannels(DirectionSender) }

// AEMReceivers returns the AdvancedEventMesh receiver channels (which publish) in document order.
func (m *Model) AEMReceivers() []AEMChannel { return m.aemChannels(DirectionReceiver) }

// AEMSender returns the AdvancedEventMesh sender channel with message flow id flowID.
func (m *Model) AEMSender(flowID string) (AEMChannel, bool) {
	for _, s := range m.AEMSenders() {
		if s.ID == flowID {
			return s, true
		}
	}
	return AEMChannel{}, false
}

func (m *Model) aemChannels(direction string) []AEMChannel {
	if m == nil {
		return nil
	}
	var out []AEMChannel
	for _, f := range m.MessageFlows {
		adapter := aemAdapterOf(f.Properties, direction)
		if adapter == "" {
			continue
		}
		out = append(out, AEMChannel{ID: f.ID, Name: f.channelName(), Adapter: adapter, Properties: f.Properties})
	}
	return out
}

// AEMSenders returns the AdvancedEventMesh sender channels of the iFlow.
func (a *Artifact) AEMSenders() []AEMChannel { return a.Model.AEMSenders() }

// AEMSenderSettings returns the settings of s with externalized parameters resolved from configurations
// first and parameters.prop second.
func (a *Artifact) AEMSenderSettings(s AEMChannel, configurations map[string]string) AEMSenderSettings {
	return s.AEMSenderSettings(a.ParameterValues(configurations))
}

// AEMSenderSettings is the settings view of an AdvancedEventMesh sender channel.
type AEMSenderSettings struct {
	QueueName, ConsumerMode, AckMode, SettlementOutcome Setting
	MaxAttempts, RetryInterval, MaxRetryInterval        Setting
	RetryMultiplier, ParallelConsumers, Selector        Setting
	// Version is the adapter version (AEMChannel.AdapterVersion); Adapter the adapter (AEMChannel.Adapter).
	Version, Adapter string
}

// AEMSenderSettings returns the settings of the channel with parameter values looked up in params.
func (c AEMChannel) AEMSenderSettings(params map[string]string) AEMSenderSettings {
	return AEMSenderSettings{
		QueueName:         c.Setting(KeyAEMQueueName, params),
		ConsumerMode:      c.Setting(KeyAEMConsumerMode, params),
		AckMode:           c.Setting(KeyAEMAckMode, params),
		SettlementOutcome: c.Setting(KeyAEMSettlementOutcome, params),
		MaxAttempts:       c.Setting(KeyAEMMaxAttempts, params),
		RetryInterval:     c.Setting(KeyAEMRetryInterval, params),
		MaxRetryInterval:  c.Setting(KeyAEMMaxRetryInterval, params),
		RetryMultiplier:   c.Setting(KeyAEMRetryMultiplier, params),
		ParallelConsumers: c.Setting(KeyAEMParallelConsumers, params),
		Selector:          c.Setting(KeyAEMSelector, params),
		Version:           c.AdapterVersion(),
		Adapter:           c.Adapter,
	}
}

// All returns the settings in a fixed order: those of AEMSenderKeys, then the queue name, consumer mode and
// selector.
func (s AEMSenderSettings) All() []Setting {
	return []Setting{s.MaxAttempts, s.RetryInterval, s.MaxRetryInterval, s.RetryMultiplier, s.SettlementOutcome,
		s.AckMode, s.ParallelConsumers, s.QueueName, s.ConsumerMode, s.Selector}
}

// aemEnumValue returns the upper-cased effective value of an enumeration setting and whether it is one of
// allowed; an empty, unresolved or other value gives ok false.
func aemEnumValue(st Setting, allowed ...string) (string, bool) {
	if !st.Resolved {
		return "", false
	}
	v := strings.ToUpper(strings.TrimSpace(st.Value))
	for _, a := range allowed {
		if v == a {
			return v, true
		}
	}
	return "", false
}

// Consumer returns the consumer mode, AEMConsumerGuaranteed or AEMConsumerDirect (read case-insensitively);
// ok is false for an empty, unresolved or other value.
func (s AEMSenderSettings) Consumer() (string, bool) {
	return aemEnumValue(s.ConsumerMode, AEMConsumerGuaranteed, AEMConsumerDirect)
}

// Acknowledgement returns the acknowledgement mode, AEMAckOnExchangeComplete or AEMAckImmediate; ok is false
// for an empty, unresolved or other value.
func (s AEMSenderSettings) Acknowledgement() (string, bool) {
	return aemEnumValue(s.AckMode, AEMAckOnExchangeComplete, AEMAckImmediate)
}

// Outcome returns the settlement outcome, AEMOutcomeFailed or AEMOutcomeRejected. The Rejected outcome is
// read leniently (any case, "REJECT" too) and reported by Unconfirmed; ok is false for an empty, unresolved
// or other value.
func (s AEMSenderSettings) Outcome() (string, bool) {
	if v, ok := aemEnumValue(s.SettlementOutcome, AEMOutcomeFailed, AEMOutcomeRejected, "REJECT"); ok {
		if v == "REJECT" {
			v = AEMOutcomeRejected
		}
		return v, true
	}
	return "", false
}

// Attempts returns Maximum Message Processing Attempts; ok is false for an empty, unresolved or non-integer
// value.
func (s AEMSenderSettings) Attempts() (int64, bool) { return s.MaxAttempts.Int() }

// Multiplier returns the Exponential Backoff Multiplier, which the adapter writes with a decimal point
// ("3.0"); an integer ("3") is read too. ok is false for an empty, unresolved or non-numeric value.
func (s AEMSenderSettings) Multiplier() (float64, bool) { return s.RetryMultiplier.Float() }

// Float returns the effective value as a decimal number. It reports false for an unresolved, empty,
// non-numeric or non-finite value.
func (s Setting) Float() (float64, bool) {
	if !s.Resolved || s.Value == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s.Value, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// Unconfirmed is a value of an AEM sender channel that the sources do not confirm: it is read, but what the
// adapter does with it is assumed.
type Unconfirmed struct {
	// Key is the property key; "" for the adapter version.
	Key string
	// Value is the effective value as read.
	Value string
	// Reason says what is not confirmed, as a sentence.
	Reason string
}

// Unconfirmed returns the values of the channel that the sources do not confirm, in a fixed order: Solace's own
// adapter (whose behaviour no source documents), an AdvancedEventMesh adapter version other than 1.3.x, the
// Rejected outcome, and an enumeration value the adapter is not known to write. Empty and unresolved values are
// not listed.
func (s AEMSenderSettings) Unconfirmed() []Unconfirmed {
	var out []Unconfirmed
	solace := strings.EqualFold(s.Adapter, ComponentTypeSolace)
	if solace {
		out = append(out, Unconfirmed{Key: KeyComponentType, Value: ComponentTypeSolace, Reason: "Solace's own adapter writes the keys of the " +
			"AdvancedEventMesh adapter, but no source documents what it does with them: its settlement outcome after the last attempt " +
			"(FAILED hands the message back, REJECTED sends it to the dead message queue) and how Maximum Message Processing Attempts counts " +
			"(the first run included, no broker redelivery between attempts) are assumed to be those of SAP's AdvancedEventMesh adapter."})
	}
	if v := strings.TrimSpace(s.Version); v != "" && !solace && !strings.HasPrefix(v+".", aemConfirmedVersionPrefix) {
		out = append(out, Unconfirmed{Value: v, Reason: fmt.Sprintf(
			"Adapter version %s: the keys and values are confirmed for version %s only.", v, aemConfirmedVersionDisplay)})
	}
	if v, ok := s.Outcome(); ok && v == AEMOutcomeRejected {
		out = append(out, Unconfirmed{Key: KeyAEMSettlementOutcome, Value: s.SettlementOutcome.Value, Reason: fmt.Sprintf(
			"The stored value of the Rejected outcome is assumed to be %s: no flow with it was found.", AEMOutcomeRejected)})
	}
	enum := []struct {
		st      Setting
		known   bool
		allowed string
	}{
		{s.ConsumerMode, s.consumerKnown(), AEMConsumerGuaranteed + " or " + AEMConsumerDirect},
		{s.AckMode, s.ackKnown(), AEMAckOnExchangeComplete + " or " + AEMAckImmediate},
		{s.SettlementOutcome, s.outcomeKnown(), AEMOutcomeFailed + " or " + AEMOutcomeRejected},
	}
	for _, e := range enum {
		if e.known || !e.st.Resolved || strings.TrimSpace(e.st.Value) == "" {
			continue
		}
		out = append(out, Unconfirmed{Key: e.st.Key, Value: e.st.Value, Reason: fmt.Sprintf(
			"The value %q is not one the adapter is known to write (%s).", e.st.Value, e.allowed)})
	}
	return out
}

func (s AEMSenderSettings) consumerKnown() bool { _, ok := s.Consumer(); return ok }
func (s AEMSenderSettings) ackKnown() bool      { _, ok := s.Acknowledgement(); return ok }
func (s AEMSenderSettings) outcomeKnown() bool  { _, ok := s.Outcome(); return ok }

// FormatAEMMultiplier writes a backoff multiplier as the adapter stores it, always with a decimal point:
// 3 → "3.0", 2.5 → "2.5".
func FormatAEMMultiplier(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !math.IsNaN(v) && !math.IsInf(v, 0) && !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// AEMSenderChanges are the desired settings of an AEM sender channel; nil leaves a setting as it is.
type AEMSenderChanges struct {
	MaxAttempts       *int64
	RetryInterval     *int64 // milliseconds
	MaxRetryInterval  *int64 // milliseconds
	RetryMultiplier   *float64
	SettlementOutcome *string // AEMOutcomeFailed | AEMOutcomeRejected
	AckMode           *string // AEMAckOnExchangeComplete | AEMAckImmediate
	ParallelConsumers *int64
}

// Values returns the non-nil settings as the adapter writes them, by property key: decimal integers, the
// multiplier with a decimal point, and the enumerations upper case.
func (c AEMSenderChanges) Values() map[string]string {
	m := map[string]string{}
	for k, p := range map[string]*int64{KeyAEMMaxAttempts: c.MaxAttempts, KeyAEMRetryInterval: c.RetryInterval,
		KeyAEMMaxRetryInterval: c.MaxRetryInterval, KeyAEMParallelConsumers: c.ParallelConsumers} {
		if p != nil {
			m[k] = strconv.FormatInt(*p, 10)
		}
	}
	if c.RetryMultiplier != nil {
		m[KeyAEMRetryMultiplier] = FormatAEMMultiplier(*c.RetryMultiplier)
	}
	for k, p := range map[string]*string{KeyAEMSettlementOutcome: c.SettlementOutcome, KeyAEMAckMode: c.AckMode} {
		if p != nil {
			m[k] = strings.ToUpper(strings.TrimSpace(*p))
		}
	}
	return m
}

// ErrNoAEMSender is matched by the error for a message flow that is not an AEM sender channel.
var ErrNoAEMSender = errors.New("no AdvancedEventMesh sender channel")

// Split divides the changes of the channel c between the .iflw and parameters.prop: a setting written as a
// literal is changed in the .iflw (literals, by property key); a setting that is exactly one externalized
// parameter {{Name}} is changed through the parameter (parameters, by parameter name). A value that already
// reads as wanted (the same number, or the same enumeration in any case) is left out, so the style of the
// flow is kept. A setting that mixes a parameter with text cannot be changed and fails.
func (c AEMSenderChanges) Split(ch AEMChannel, params map[string]string) (literals, parameters map[string]string, err error) {
	literals, parameters = map[string]string{}, map[string]string{}
	want := c.Values()
	for _, key := range sortedKeys(want) {
		w := want[key]
		st := ch.Setting(key, params)
		if st.Resolved && sameAEMValue(key, st.Value, w) {
			continue
		}
		switch {
		case st.Parameter != "":
			parameters[st.Parameter] = w
		case strings.Contains(st.Raw, "{{"):
			return nil, nil, fmt.Errorf("AEM sender channel %q: the value of %q is %q, which mixes an externalized parameter with text, so it cannot be set; "+
				"write it as one parameter {{Name}} or as a literal in the Cloud Integration editor first", ch.ID, key, st.Raw)
		default:
			literals[key] = w
		}
	}
	return literals, parameters, nil
}

// sameAEMValue reports whether the value read already is the wanted one.
func sameAEMValue(key, have, want string) bool {
	have = strings.TrimSpace(have)
	switch key {
	case KeyAEMRetryMultiplier:
		h, err1 := strconv.ParseFloat(have, 64)
		w, err2 := strconv.ParseFloat(want, 64)
		return err1 == nil && err2 == nil && h == w
	case KeyAEMSettlementOutcome, KeyAEMAckMode:
		return strings.EqualFold(have, want)
	}
	return have == want
}

// PatchAEMSenderZip gives the AEM sender channel flowID of an artifact zip the non-nil settings of changes:
// literal settings are patched in the .iflw (PatchIflw: every other byte stays), externalized ones through
// parameters.prop (SetParameters). It fails with ErrNoAEMSender when flowID is not an AEM sender channel and
// with ErrPropertyNotFound when the channel lacks a property to change. When nothing changes, data is
// returned as is.
func PatchAEMSenderZip(data []byte, flowID string, changes AEMSenderChanges) ([]byte, error) {
	a, err := ReadZip(data)
	if err != nil {
		return nil, err
	}
	ch, ok := a.Model.AEMSender(flowID)
	if !ok {
		ids := make([]string, 0)
		for _, s := range a.AEMSenders() {
			ids = append(ids, s.ID)
		}
		sort.Strings(ids)
		return nil, fmt.Errorf("patch iFlow: %w with id %q (AEM sender channels: %s); set the id of an AdvancedEventMesh sender message flow",
			ErrNoAEMSender, flowID, listOrNone(ids))
	}
	literals, parameters, err := changes.Split(ch, a.ParameterValues(nil))
	if err != nil {
		return nil, fmt.Errorf("patch iFlow: %w", err)
	}
	out := data
	if len(literals) > 0 {
		if out, err = PatchZip(out, flowID, literals); err != nil {
			return nil, err
		}
	}
	if len(parameters) > 0 {
		if out, err = SetParameters(out, parameters); err != nil {
			return nil, err
		}
	}
	return out, nil
}

package cpi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// Setting is a retry setting of an AMQP sender channel, named by its
// property key in the .iflw.
type Setting string

// The retry settings of an AMQP sender channel.
const (
	SettingMaxRetries    Setting = iflow.KeyMaxRetries
	SettingDeliveryState Setting = iflow.KeyDeliveryState
	SettingPrefetch      Setting = iflow.KeyQueuePrefetch
	SettingConcurrency   Setting = iflow.KeyConcurrentProcesses
)

// Settings returns the retry settings in a fixed order.
func Settings() []Setting {
	return []Setting{SettingMaxRetries, SettingDeliveryState, SettingPrefetch, SettingConcurrency}
}

// Data types sent with a parameter that the tenant lists without one.
const (
	DataTypeInteger = "xsd:integer"
	DataTypeString  = "xsd:string"
)

// SenderSettings are the desired retry settings of an AMQP sender channel;
// nil leaves a setting as it is.
type SenderSettings struct {
	MaxRetries    *int64
	Prefetch      *int64
	Concurrency   *int64
	DeliveryState *string
}

// values returns the non-nil settings as property values.
func (s SenderSettings) values() map[Setting]string {
	m := map[Setting]string{}
	for setting, p := range map[Setting]*int64{SettingMaxRetries: s.MaxRetries, SettingPrefetch: s.Prefetch, SettingConcurrency: s.Concurrency} {
		if p != nil {
			m[setting] = strconv.FormatInt(*p, 10)
		}
	}
	if s.DeliveryState != nil {
		m[SettingDeliveryState] = *s.DeliveryState
	}
	return m
}

// ExceptionSubprocess is an exception subprocess of the flow with the kinds
// of its end events: "error", "escalation", "message" or "none".
type ExceptionSubprocess struct {
	ID        string
	Name      string
	EndEvents []string
}

// Sender is the AMQP sender channel of an integration flow as the tenant
// holds it.
type Sender struct {
	// FlowID and Name are the id and name of the channel's message flow.
	FlowID string
	Name   string
	// QueueName is the queue of destinationName without a "queue:" prefix.
	QueueName string
	// MaxRetries, Prefetch, Concurrency and DeliveryState are the effective
	// values: the literal, or the value of the externalized parameter. nil
	// means empty or unset; an empty maxRetries means endless retries.
	MaxRetries    *int64
	Prefetch      *int64
	Concurrency   *int64
	DeliveryState *string
	// Parameters maps each externalized setting to its parameter name.
	Parameters map[Setting]string
	// ExceptionSubprocesses are the flow's exception subprocesses.
	ExceptionSubprocesses []ExceptionSubprocess
	// Candidates are the channel values that select each AMQP sender of the
	// flow: the message flow name, or its id where the name is empty or
	// shared.
	Candidates []string
}

// ErrNoAMQPSender is matched by the error for a flow without AMQP sender channel.
var ErrNoAMQPSender = errors.New("no AMQP sender channel")

// AmbiguousChannelError is returned when the channel does not select exactly
// one of several AMQP sender channels.
type AmbiguousChannelError struct {
	IFlowID string
	// Channel is the requested channel, "" when none was given.
	Channel    string
	Candidates []string
}

// Error lists the candidates.
func (e *AmbiguousChannelError) Error() string {
	if e.Channel == "" {
		return fmt.Sprintf("integration flow %q has %d AMQP sender channels (%s); set the channel to one of them",
			e.IFlowID, len(e.Candidates), strings.Join(e.Candidates, ", "))
	}
	return fmt.Sprintf("the channel %q matches more than one AMQP sender channel of integration flow %q; set the channel to one of %s",
		e.Channel, e.IFlowID, strings.Join(e.Candidates, ", "))
}

// ChannelNotFoundError is returned when no AMQP sender channel has the
// requested name or message flow id.
type ChannelNotFoundError struct {
	IFlowID    string
	Channel    string
	Candidates []string
}

// Error lists the candidates.
func (e *ChannelNotFoundError) Error() string {
	return fmt.Sprintf("integration flow %q has no AMQP sender channel named %q; its AMQP sender channels are %s; set the channel to one of them",
		e.IFlowID, e.Channel, strings.Join(e.Candidates, ", "))
}

// candidates returns the value that selects each sender: its name when
// that is non-empty and unique, otherwise its message flow id.
func candidates(senders []iflow.AMQPSender) []string {
	count := map[string]int{}
	for _, s := range senders {
		count[s.Name]++
	}
	out := make([]string, len(senders))
	for i, s := range senders {
		if s.Name != "" && count[s.Name] == 1 {
			out[i] = s.Name
		} else {
			out[i] = s.ID
		}
	}
	return out
}

// selectSender picks the AMQP sender selected by channel: by message flow
// name, else by message flow id; "" selects the only one.
func selectSender(iflowID string, senders []iflow.AMQPSender, channel string) (iflow.AMQPSender, []string, error) {
	cands := candidates(senders)
	if len(senders) == 0 {
		return iflow.AMQPSender{}, cands, fmt.Errorf("integration flow %q has %w (a message flow with ComponentType AMQP and direction Sender); "+
			"add an AMQP sender adapter in Cloud Integration or set the id of a flow that consumes from Event Mesh", iflowID, ErrNoAMQPSender)
	}
	if channel == "" {
		if len(senders) == 1 {
			return senders[0], cands, nil
		}
		return iflow.AMQPSender{}, cands, &AmbiguousChannelError{IFlowID: iflowID, Candidates: cands}
	}
	var byName, byID []iflow.AMQPSender
	for _, s := range senders {
		if s.Name == channel {
			byName = append(byName, s)
		}
		if s.ID == channel {
			byID = append(byID, s)
		}
	}
	switch {
	case len(byName) == 1:
		return byName[0], cands, nil
	case len(byID) == 1:
		return byID[0], cands, nil
	case len(byName) > 1 || len(byID) > 1:
		return iflow.AMQPSender{}, cands, &AmbiguousChannelError{IFlowID: iflowID, Channel: channel, Candidates: cands}
	}
	return iflow.AMQPSender{}, cands, &ChannelNotFoundError{IFlowID: iflowID, Channel: channel, Candidates: cands}
}

// usesParameters reports whether a setting or the destination of s refers
// to an externalized parameter.
func usesParameters(s iflow.AMQPSender) bool {
	for _, k := range append(iflow.RetryKeys(), iflow.KeyDestinationName) {
		if strings.Contains(s.Properties[k], "{{") {
			return true
		}
	}
	return false
}

// senderContext is a downloaded flow with its selected channel.
type senderContext struct {
	content    []byte
	art        *iflow.Artifact
	sender     iflow.AMQPSender
	candidates []string
	configs    map[string]Configuration
}

func (c *Client) loadSender(ctx context.Context, iflowID, version, channel string) (*senderContext, error) {
	content, err := c.Content(ctx, iflowID, version)
	if err != nil {
		return nil, err
	}
	art, err := iflow.ReadZip(content)
	if err != nil {
		return nil, fmt.Errorf("the content of integration flow %q cannot be read: %w", iflowID, err)
	}
	snd, cands, err := selectSender(iflowID, art.AMQPSenders(), channel)
	if err != nil {
		return nil, err
	}
	sc := &senderContext{content: content, art: art, sender: snd, candidates: cands}
	if usesParameters(snd) {
		list, err := c.Configurations(ctx, iflowID, version)
		if err != nil {
			return nil, fmt.Errorf("reading the externalized parameters of integration flow %q: %w", iflowID, err)
		}
		sc.configs = make(map[string]Configuration, len(list))
		for _, cf := range list {
			sc.configs[cf.Key] = cf
		}
	}
	return sc, nil
}

func (sc *senderContext) parameterValues() map[string]string {
	values := make(map[string]string, len(sc.configs))
	for k, cf := range sc.configs {
		values[k] = cf.Value
	}
	return sc.art.ParameterValues(values)
}

// ReadSender reads the AMQP sender channel of integration flow iflowID in
// version ("" or "active" for the current one). channel selects it by
// message flow name or id; "" selects the only AMQP sender of the flow and
// returns an *AmbiguousChannelError when there are several. The error
// matches ErrNotFound when the flow does not exist and ErrNoAMQPSender when
// it has no AMQP sender.
func (c *Client) ReadSender(ctx context.Context, iflowID, version, channel string) (*Sender, error) {
	sc, err := c.loadSender(ctx, iflowID, version, channel)
	if err != nil {
		return nil, err
	}
	snd := sc.sender
	params := sc.parameterValues()
	out := &Sender{FlowID: snd.ID, Name: snd.Name, Parameters: map[Setting]string{}, Candidates: sc.candidates}
	dest, _ := iflow.Expand(strings.TrimSpace(snd.Properties[iflow.KeyDestinationName]), params)
	out.QueueName = iflow.QueueName(dest)
	for _, setting := range Settings() {
		st := snd.Setting(string(setting), params)
		if st.Externalized() {
			out.Parameters[setting] = st.Parameter
		}
		value := strings.TrimSpace(st.Value)
		if !st.Resolved || value == "" {
			continue
		}
		if setting == SettingDeliveryState {
			out.DeliveryState = &value
			continue
		}
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("the %s of AMQP sender channel %q in integration flow %q is %q, which is not a whole number; set a whole number in Cloud Integration",
				setting, channelLabel(snd), iflowID, value)
		}
		switch setting {
		case SettingMaxRetries:
			out.MaxRetries = &n
		case SettingPrefetch:
			out.Prefetch = &n
		case SettingConcurrency:
			out.Concurrency = &n
		}
	}
	for _, sp := range sc.art.ExceptionSubprocesses() {
		out.ExceptionSubprocesses = append(out.ExceptionSubprocesses, ExceptionSubprocess{
			ID: sp.ID, Name: sp.Name, EndEvents: append([]string(nil), sp.EndEvents...),
		})
	}
	return out, nil
}

func channelLabel(s iflow.AMQPSender) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

func defaultDataType(s Setting) string {
	if s == SettingDeliveryState {
		return DataTypeString
	}
	return DataTypeInteger
}

// WriteSender applies the non-nil settings of s to the AMQP sender channel
// selected as in ReadSender. A setting that is an externalized parameter
// {{Name}} is set through the flow's configurations, with the data type the
// tenant lists (default xsd:integer, xsd:string for deliveryState). A
// literal setting is patched in the .iflw, keeping every other byte of the
// archive, and the content is uploaded once. It reports whether the content
// and whether parameters changed; either takes effect on the next deploy.
func (c *Client) WriteSender(ctx context.Context, iflowID, version, channel string, s SenderSettings) (contentChanged, paramsChanged bool, err error) {
	desired := s.values()
	if len(desired) == 0 {
		return false, false, nil
	}
	sc, err := c.loadSender(ctx, iflowID, version, channel)
	if err != nil {
		return false, false, err
	}
	snd := sc.sender
	literals := map[string]string{}
	params := map[string]Configuration{}
	owner := map[string]Setting{}
	wanted := map[string]string{}
	for _, setting := range Settings() {
		want, ok := desired[setting]
		if !ok {
			continue
		}
		raw, present := snd.Properties[string(setting)]
		if name, isRef := iflow.ParameterRef(raw); isRef {
			cur, listed := sc.configs[name]
			if prev, dup := owner[name]; dup && wanted[name] != want {
				return false, false, fmt.Errorf("the %s and %s of AMQP sender channel %q in integration flow %q share the parameter %q, so they cannot get different values; "+
					"set them to the same value or give each its own parameter in Cloud Integration", prev, setting, channelLabel(snd), iflowID, name)
			}
			owner[name], wanted[name] = setting, want
			if listed && cur.Value == want {
				continue
			}
			dt := cur.DataType
			if dt == "" {
				dt = defaultDataType(setting)
			}
			params[name] = Configuration{Key: name, Value: want, DataType: dt}
			continue
		}
		if strings.Contains(raw, "{{") {
			return false, false, fmt.Errorf("the %s of AMQP sender channel %q in integration flow %q is %q, which mixes text with parameters, so it cannot be set; "+
				"set it to a literal or to a single parameter {{Name}} in Cloud Integration", setting, channelLabel(snd), iflowID, raw)
		}
		if !present {
			return false, false, fmt.Errorf("AMQP sender channel %q in integration flow %q has no %s property, so it cannot be set in place; "+
				"open the channel's Processing tab in Cloud Integration and save the flow once", channelLabel(snd), iflowID, setting)
		}
		if strings.TrimSpace(raw) == want {
			continue
		}
		literals[string(setting)] = want
	}
	if len(literals) > 0 {
		patched, err := iflow.PatchZip(sc.content, snd.ID, literals)
		if err != nil {
			return false, false, fmt.Errorf("changing AMQP sender channel %q of integration flow %q: %w", channelLabel(snd), iflowID, err)
		}
		if !bytes.Equal(patched, sc.content) {
			meta, err := c.GetArtifact(ctx, iflowID, version)
			if err != nil {
				return false, false, err
			}
			if err := c.UpdateContent(ctx, iflowID, version, meta.Name, patched); err != nil {
				return false, false, fmt.Errorf("uploading the changed content of integration flow %q: %w", iflowID, err)
			}
			contentChanged = true
		}
	}
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := params[name]
		if err := c.SetConfiguration(ctx, iflowID, version, p.Key, p.Value, p.DataType); err != nil {
			return contentChanged, paramsChanged, fmt.Errorf("setting parameter %q of integration flow %q (the %s of channel %q): %w",
				name, iflowID, owner[name], channelLabel(snd), err)
		}
		paramsChanged = true
	}
	return contentChanged, paramsChanged, nil
}

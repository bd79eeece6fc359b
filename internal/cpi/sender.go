package cpi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	DataTypeBoolean = "xsd:boolean"
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
	m := numberValues(map[Setting]*int64{SettingMaxRetries: s.MaxRetries, SettingPrefetch: s.Prefetch, SettingConcurrency: s.Concurrency})
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
	// GuardsRetries is true when the subprocess compares SAPJMSRetries (set by
	// Flow.JMSSender).
	GuardsRetries bool
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
	// Adapter is "JMS" or "AEM" for those sender channels, "" for AMQP ones.
	Adapter string
	// Channel is the requested channel, "" when none was given.
	Channel    string
	Candidates []string
}

// Error lists the candidates.
func (e *AmbiguousChannelError) Error() string {
	if e.Channel == "" {
		return fmt.Sprintf("integration flow %q has %d %s sender channels (%s); set the channel to one of them",
			e.IFlowID, len(e.Candidates), adapterName(e.Adapter), strings.Join(e.Candidates, ", "))
	}
	return fmt.Sprintf("the channel %q matches more than one %s sender channel of integration flow %q; set the channel to one of %s",
		e.Channel, adapterName(e.Adapter), e.IFlowID, strings.Join(e.Candidates, ", "))
}

// ChannelNotFoundError is returned when no AMQP sender channel has the
// requested name or message flow id.
type ChannelNotFoundError struct {
	IFlowID string
	// Adapter is "JMS" for JMS sender channels, "" for AMQP ones.
	Adapter    string
	Channel    string
	Candidates []string
}

// Error lists the candidates.
func (e *ChannelNotFoundError) Error() string {
	a := adapterName(e.Adapter)
	return fmt.Sprintf("integration flow %q has no %s sender channel named %q; its %s sender channels are %s; set the channel to one of them",
		e.IFlowID, a, e.Channel, a, strings.Join(e.Candidates, ", "))
}

// adapterName is the adapter named in channel errors: "AMQP" unless set.
func adapterName(adapter string) string {
	if adapter == "" {
		return "AMQP"
	}
	return adapter
}

// selectSender picks the AMQP sender selected by channel: by message flow
// name, else by message flow id; "" selects the only one.
func selectSender(iflowID string, senders []iflow.AMQPSender, channel string) (iflow.AMQPSender, []string, error) {
	return selectChannel(iflowID, senders, channel, func(s iflow.AMQPSender) (string, string) { return s.Name, s.ID }, "",
		fmt.Errorf("integration flow %q has %w (a message flow with ComponentType AMQP and direction Sender); "+
			"add an AMQP sender adapter in Cloud Integration or set the id of a flow that consumes from Event Mesh", iflowID, ErrNoAMQPSender))
}

// Flow is the design time content of an integration flow as read at one
// moment: the archive, its parsed form and, when one of its AMQP senders
// refers to externalized parameters, the tenant's parameter values. A Flow
// is never changed after it is read; share it freely.
type Flow struct {
	ID string
	// Version is the version the flow was read as ("active" or an explicit one).
	Version string
	// DesignVersion is the design-time version the tenant holds, the
	// Bundle-Version of the archive's manifest (what the runtime reports as
	// the deployed version); "" when the manifest has none.
	DesignVersion string
	// Content is the archive (zip) as downloaded.
	Content []byte
	// Artifact is Content parsed.
	Artifact *iflow.Artifact
	// Configurations holds the externalized parameters by key; nil when the
	// .iflw refers to no parameter (they are then not read).
	Configurations map[string]Configuration
}

// ReadFlow downloads integration flow id in version ("" or "active" for the
// current one) and, when its .iflw refers to externalized parameters
// ({{Name}}), the flow's parameter values. The error matches ErrNotFound when
// the flow does not exist.
func (c *Client) ReadFlow(ctx context.Context, id, version string) (*Flow, error) {
	content, err := c.Content(ctx, id, version)
	if err != nil {
		return nil, err
	}
	art, err := iflow.ReadZip(content)
	if err != nil {
		return nil, fmt.Errorf("the content of integration flow %q cannot be read: %w", id, err)
	}
	f := &Flow{ID: id, Version: versionOrActive(version), Content: content, Artifact: art,
		DesignVersion: strings.TrimSpace(art.Manifest["Bundle-Version"])}
	if !bytes.Contains(art.Iflw, []byte("{{")) {
		return f, nil
	}
	list, err := c.Configurations(ctx, id, version)
	if err != nil {
		return nil, fmt.Errorf("reading the externalized parameters of integration flow %q: %w", id, err)
	}
	f.Configurations = make(map[string]Configuration, len(list))
	for _, cf := range list {
		f.Configurations[cf.Key] = cf
	}
	return f, nil
}

// parameterValues returns the values of the flow's parameters: parameters.prop
// overridden by the tenant's configurations.
func (f *Flow) parameterValues() map[string]string {
	values := make(map[string]string, len(f.Configurations))
	for k, cf := range f.Configurations {
		values[k] = cf.Value
	}
	return f.Artifact.ParameterValues(values)
}

// Sender returns the AMQP sender channel selected by channel as in
// ReadSender.
func (f *Flow) Sender(channel string) (*Sender, error) {
	snd, cands, err := selectSender(f.ID, f.Artifact.AMQPSenders(), channel)
	if err != nil {
		return nil, err
	}
	params := f.parameterValues()
	out := &Sender{FlowID: snd.ID, Name: snd.Name, Parameters: map[Setting]string{}, Candidates: cands}
	dest, _ := iflow.Expand(strings.TrimSpace(snd.Properties[iflow.KeyDestinationName]), params)
	out.QueueName = iflow.QueueName(dest)
	ref := channelRef{adapter: "AMQP", label: channelLabel(snd), flowID: f.ID}
	numbers := map[Setting]**int64{SettingMaxRetries: &out.MaxRetries, SettingPrefetch: &out.Prefetch, SettingConcurrency: &out.Concurrency}
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
		if err := ref.setWholeNumber(numbers, setting, value); err != nil {
			return nil, err
		}
	}
	out.ExceptionSubprocesses = f.exceptionSubprocesses(nil)
	return out, nil
}

// ReadSender reads the AMQP sender channel of integration flow iflowID in
// version ("" or "active" for the current one). channel selects it by
// message flow name or id; "" selects the only AMQP sender of the flow and
// returns an *AmbiguousChannelError when there are several. The error
// matches ErrNotFound when the flow does not exist and ErrNoAMQPSender when
// it has no AMQP sender.
func (c *Client) ReadSender(ctx context.Context, iflowID, version, channel string) (*Sender, error) {
	f, err := c.ReadFlow(ctx, iflowID, version)
	if err != nil {
		return nil, err
	}
	return f.Sender(channel)
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

// ChannelChangedError is returned when a channel's settings on the tenant
// are no longer the ones a change was planned from.
type ChannelChangedError struct {
	IFlowID string
	Channel string
	// Adapter is "AMQP", "JMS" or "AEM".
	Adapter string
	// Changes lists each changed setting as "key: planned from X, now Y".
	Changes []string
}

// Error names the settings that changed.
func (e *ChannelChangedError) Error() string {
	return fmt.Sprintf("the %s sender channel %q of integration flow %q was changed on the tenant after the plan was made (%s); "+
		"writing the planned values would overwrite that change unseen", adapterName(e.Adapter), e.Channel, e.IFlowID, strings.Join(e.Changes, "; "))
}

// EditSender returns the edit that gives the AMQP sender channel selected
// as in ReadSender the non-nil settings of desired. A setting that is an
// externalized parameter {{Name}} is set through the flow's configurations,
// with the data type the tenant lists (default xsd:integer, xsd:string for
// deliveryState); a literal one is patched in the .iflw.
//
// With expected set (the settings the change was planned from, nil fields
// meaning empty), a desired setting whose current value is neither expected
// nor desired fails the edit with a *ChannelChangedError: someone changed it
// since the plan, and the edit would overwrite that silently.
func (f *Flow) EditSender(channel string, desired SenderSettings, expected *SenderSettings) (*Edit, error) {
	want := desired.values()
	if len(want) == 0 {
		return &Edit{}, nil
	}
	snd, _, err := selectSender(f.ID, f.Artifact.AMQPSenders(), channel)
	if err != nil {
		return nil, err
	}
	var before map[Setting]string
	if expected != nil {
		before = expected.values()
	}
	return f.editChannel(channelEdit{
		channelRef: channelRef{adapter: "AMQP", label: channelLabel(snd), flowID: f.ID},
		id:         snd.ID, properties: snd.Properties, settings: Settings(),
		now: func() (map[Setting]string, error) {
			cur, err := f.Sender(channel)
			if err != nil {
				return nil, err
			}
			return SenderSettings{MaxRetries: cur.MaxRetries, Prefetch: cur.Prefetch, Concurrency: cur.Concurrency, DeliveryState: cur.DeliveryState}.values(), nil
		},
		unchanged: func(_ Setting, raw, param, w string) bool {
			if param == "" {
				return strings.TrimSpace(raw) == w
			}
			cur, listed := f.Configurations[param]
			return listed && cur.Value == w
		},
		value: func(setting Setting, _, param, w string) (string, string) {
			dt := f.Configurations[param].DataType
			if dt == "" {
				dt = defaultDataType(setting)
			}
			return w, dt
		},
	}, want, before)
}

func shown(v string) string {
	if v == "" {
		return "empty"
	}
	return v
}

// WriteSender applies the non-nil settings of s to the AMQP sender channel
// selected as in ReadSender (see Flow.EditSender), keeping every other byte
// of the archive; the content is uploaded once. It reports whether the
// content and whether parameters changed; either takes effect on the next
// deploy. It reads the flow itself and does not coordinate with other
// writers: Flows.Change does.
func (c *Client) WriteSender(ctx context.Context, iflowID, version, channel string, s SenderSettings) (contentChanged, paramsChanged bool, err error) {
	if len(s.values()) == 0 {
		return false, false, nil
	}
	f, err := c.ReadFlow(ctx, iflowID, version)
	if err != nil {
		return false, false, err
	}
	edit, err := f.EditSender(channel, s, nil)
	if err != nil {
		return false, false, err
	}
	next, err := f.apply(edit)
	if err != nil {
		return false, false, err
	}
	return c.writeFlow(ctx, f, next)
}

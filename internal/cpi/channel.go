package cpi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// What reading and editing the settings of a sender channel (AMQP in sender.go,
// JMS in jmssender.go, AdvancedEventMesh in aemsender.go) does the same for every
// adapter: the selection of the channel and one edit loop (editChannel).

// channelRef names a sender channel in errors.
type channelRef struct {
	adapter string // "AMQP", "JMS" or "AEM"
	label   string // the channel's name, or its id without one
	flowID  string
}

// setWholeNumber parses value, the resolved value of setting, and stores it in
// the field targets holds for setting (none: it is dropped).
func (c channelRef) setWholeNumber(targets map[Setting]**int64, setting Setting, value string) error {
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		return fmt.Errorf("the %s of %s sender channel %q in integration flow %q is %q, which is not a whole number; set a whole number in Cloud Integration",
			setting, c.adapter, c.label, c.flowID, value)
	}
	if p := targets[setting]; p != nil {
		*p = &n
	}
	return nil
}

// plannedChanges lists, as "key: planned from X, now Y", each of settings that
// is wanted and whose value now is neither the one before (planned from) nor
// the wanted one.
func plannedChanges(settings []Setting, want, now, before map[Setting]string) []string {
	var changes []string
	for _, setting := range settings {
		w, ok := want[setting]
		if !ok || now[setting] == before[setting] || now[setting] == w {
			continue
		}
		changes = append(changes, fmt.Sprintf("%s: planned from %s, now %s", setting, shown(before[setting]), shown(now[setting])))
	}
	return changes
}

// channelEditor tracks the parameters an edit of one sender channel sets.
type channelEditor struct {
	channelRef
	properties map[string]string
	owner      map[string]Setting
	wanted     map[string]string
}

func newChannelEditor(c channelRef, properties map[string]string) *channelEditor {
	return &channelEditor{channelRef: c, properties: properties, owner: map[string]Setting{}, wanted: map[string]string{}}
}

// property returns the raw property of setting, which is to get the value w,
// and whether it is a single parameter {{param}}. It fails when another
// setting sharing that parameter is to get another value, when the property
// mixes text with parameters, and when the channel has no such property.
func (e *channelEditor) property(setting Setting, w string) (raw, param string, isParam bool, err error) {
	raw, present := e.properties[string(setting)]
	if name, isRef := iflow.ParameterRef(raw); isRef {
		if prev, dup := e.owner[name]; dup && e.wanted[name] != w {
			return "", "", false, fmt.Errorf("the %s and %s of %s sender channel %q in integration flow %q share the parameter %q, so they cannot get different values; "+
				"set them to the same value or give each its own parameter in Cloud Integration", prev, setting, e.adapter, e.label, e.flowID, name)
		}
		e.owner[name], e.wanted[name] = setting, w
		return raw, name, true, nil
	}
	if strings.Contains(raw, "{{") {
		return "", "", false, fmt.Errorf("the %s of %s sender channel %q in integration flow %q is %q, which mixes text with parameters, so it cannot be set; "+
			"set it to a literal or to a single parameter {{Name}} in Cloud Integration", setting, e.adapter, e.label, e.flowID, raw)
	}
	if !present {
		return "", "", false, fmt.Errorf("%s sender channel %q in integration flow %q has no %s property, so it cannot be set in place; "+
			"open the channel's Processing tab in Cloud Integration and save the flow once", e.adapter, e.label, e.flowID, setting)
	}
	return raw, "", false, nil
}

// exceptionSubprocesses returns the exception subprocesses of the flow; those
// guarded names (by id) read the retry header.
func (f *Flow) exceptionSubprocesses(guarded map[string]bool) []ExceptionSubprocess {
	var out []ExceptionSubprocess
	for _, sp := range f.Artifact.ExceptionSubprocesses() {
		out = append(out, ExceptionSubprocess{
			ID: sp.ID, Name: sp.Name, EndEvents: append([]string(nil), sp.EndEvents...), GuardsRetries: guarded[sp.ID],
		})
	}
	return out
}

// channelCandidates returns the value that selects each sender: its name when
// that is non-empty and unique, otherwise its message flow id. ident returns a
// sender's name and id.
func channelCandidates[C any](senders []C, ident func(C) (name, id string)) []string {
	count := map[string]int{}
	for _, s := range senders {
		name, _ := ident(s)
		count[name]++
	}
	out := make([]string, len(senders))
	for i, s := range senders {
		if name, id := ident(s); name != "" && count[name] == 1 {
			out[i] = name
		} else {
			out[i] = id
		}
	}
	return out
}

// selectChannel picks the sender selected by channel: by message flow name,
// else by message flow id; "" selects the only one. It also returns the
// candidates (see channelCandidates). none is the error of a flow without
// senders; adapter is the Adapter of the other errors.
func selectChannel[C any](iflowID string, senders []C, channel string, ident func(C) (name, id string), adapter string, none error) (C, []string, error) {
	var zero C
	cands := channelCandidates(senders, ident)
	if len(senders) == 0 {
		return zero, cands, none
	}
	if channel == "" {
		if len(senders) == 1 {
			return senders[0], cands, nil
		}
		return zero, cands, &AmbiguousChannelError{IFlowID: iflowID, Candidates: cands, Adapter: adapter}
	}
	var byName, byID []C
	for _, s := range senders {
		name, id := ident(s)
		if name == channel {
			byName = append(byName, s)
		}
		if id == channel {
			byID = append(byID, s)
		}
	}
	switch {
	case len(byName) == 1:
		return byName[0], cands, nil
	case len(byID) == 1:
		return byID[0], cands, nil
	case len(byName) > 1 || len(byID) > 1:
		return zero, cands, &AmbiguousChannelError{IFlowID: iflowID, Channel: channel, Candidates: cands, Adapter: adapter}
	}
	return zero, cands, &ChannelNotFoundError{IFlowID: iflowID, Channel: channel, Candidates: cands, Adapter: adapter}
}

// numberValues returns the non-nil numbers as decimal property values.
func numberValues(numbers map[Setting]*int64) map[Setting]string {
	m := map[Setting]string{}
	for setting, p := range numbers {
		if p != nil {
			m[setting] = strconv.FormatInt(*p, 10)
		}
	}
	return m
}

// channelEdit is what an edit of one sender channel needs beyond the loop
// that editChannel runs for every kind of sender (AMQP, JMS, AdvancedEventMesh).
type channelEdit struct {
	channelRef
	// id is the channel's message flow id; properties its raw properties.
	id         string
	properties map[string]string
	// settings are the channel's settings in the order they are written.
	settings []Setting
	// now returns the values read now, in the form of the wanted ones; it is
	// called only to check that the channel is as planned.
	now func() (map[Setting]string, error)
	// unchanged reports whether setting already reads as w: raw is its
	// property, param its externalized parameter ("" for a literal).
	unchanged func(setting Setting, raw, param, w string) bool
	// value returns what to write for w: the literal patched in the .iflw,
	// or, for a parameter, its value and data type.
	value func(setting Setting, raw, param, w string) (value, dataType string)
}

// editChannel returns the edit that gives the channel the values of want,
// by setting: a setting that is an externalized parameter {{Name}} is set
// through the flow's configurations, a literal one is patched in the .iflw,
// and one that already reads as wanted is left as it is. With before set (the
// values the change was planned from), a wanted setting whose value now is
// neither before nor wanted fails the edit with a *ChannelChangedError:
// someone changed it since the plan, and the edit would overwrite that unseen.
func (f *Flow) editChannel(c channelEdit, want, before map[Setting]string) (*Edit, error) {
	edit := &Edit{}
	if len(want) == 0 {
		return edit, nil
	}
	if before != nil {
		now, err := c.now()
		if err != nil {
			return nil, err
		}
		if changes := plannedChanges(c.settings, want, now, before); len(changes) > 0 {
			return nil, &ChannelChangedError{IFlowID: f.ID, Channel: c.label, Changes: changes, Adapter: c.adapter}
		}
	}
	literals := map[string]string{}
	ed := newChannelEditor(c.channelRef, c.properties)
	for _, setting := range c.settings {
		w, ok := want[setting]
		if !ok {
			continue
		}
		raw, name, isParam, err := ed.property(setting, w)
		if err != nil {
			return nil, err
		}
		if c.unchanged(setting, raw, name, w) {
			continue
		}
		value, dt := c.value(setting, raw, name, w)
		if isParam {
			edit.SetParameter(Configuration{Key: name, Value: value, DataType: dt},
				fmt.Sprintf("the %s of %s channel %q", setting, c.adapter, c.label))
			continue
		}
		literals[string(setting)] = value
	}
	if len(literals) > 0 {
		edit.SetProperties(c.id, c.label, literals)
	}
	return edit, nil
}

// settingsOf returns property keys as settings, in their order.
func settingsOf(keys []string) []Setting {
	out := make([]Setting, len(keys))
	for i, k := range keys {
		out[i] = Setting(k)
	}
	return out
}

package cpi

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// Edit is a change of an integration flow's design time: literal property
// values patched into the .iflw and externalized parameters set through the
// configuration API. Flow.EditSender builds one for an AMQP sender channel;
// other channel kinds build theirs the same way.
type Edit struct {
	// Properties maps a message flow id to the property values to patch.
	Properties map[string]map[string]string
	// Parameters maps a parameter key to its new value and data type.
	Parameters map[string]Configuration
	// labels names, for error messages, what each message flow id and
	// parameter key is (e.g. `the maxRetries of channel "AMQP_A"`).
	labels map[string]string
}

// Empty reports whether the edit changes nothing.
func (e *Edit) Empty() bool { return e == nil || len(e.Properties) == 0 && len(e.Parameters) == 0 }

func (e *Edit) label(key, label string) {
	if e.labels == nil {
		e.labels = map[string]string{}
	}
	e.labels[key] = label
}

// SetProperties adds literal property values of the message flow (or other
// element) with id flowID; label names it in error messages.
func (e *Edit) SetProperties(flowID, label string, values map[string]string) {
	if e.Properties == nil {
		e.Properties = map[string]map[string]string{}
	}
	if e.Properties[flowID] == nil {
		e.Properties[flowID] = map[string]string{}
	}
	maps.Copy(e.Properties[flowID], values)
	e.label("flow:"+flowID, label)
}

// SetParameter adds an externalized parameter value; label names what it
// sets in error messages.
func (e *Edit) SetParameter(p Configuration, label string) {
	if e.Parameters == nil {
		e.Parameters = map[string]Configuration{}
	}
	e.Parameters[p.Key] = p
	e.label("param:"+p.Key, label)
}

// apply returns the flow as it is after the edit: the patched archive,
// parsed again, and the new parameter values. f itself is not changed.
func (f *Flow) apply(e *Edit) (*Flow, error) {
	if e.Empty() {
		return f, nil
	}
	next := &Flow{ID: f.ID, Version: f.Version, Content: f.Content, Artifact: f.Artifact, Configurations: f.Configurations}
	for _, flowID := range slices.Sorted(maps.Keys(e.Properties)) {
		patched, err := iflow.PatchZip(next.Content, flowID, e.Properties[flowID])
		if err != nil {
			return nil, fmt.Errorf("changing %s of integration flow %q: %w", e.labels["flow:"+flowID], f.ID, err)
		}
		next.Content = patched
	}
	if !bytes.Equal(next.Content, f.Content) {
		art, err := iflow.ReadZip(next.Content)
		if err != nil {
			return nil, fmt.Errorf("the changed content of integration flow %q cannot be read: %w", f.ID, err)
		}
		next.Artifact = art
	}
	if len(e.Parameters) > 0 {
		next.Configurations = make(map[string]Configuration, len(f.Configurations)+len(e.Parameters))
		maps.Copy(next.Configurations, f.Configurations)
		maps.Copy(next.Configurations, e.Parameters)
	}
	return next, nil
}

// changedParameters returns the keys whose value or data type differs
// between from and to, sorted.
func changedParameters(from, to *Flow) []string {
	var keys []string
	for k, p := range to.Configurations {
		if old, ok := from.Configurations[k]; !ok || old != p {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// writeFlow makes the tenant's design time of from what to holds: one upload
// of the content when it differs, then one configuration update per changed
// parameter. It reports whether the content and whether parameters changed.
func (c *Client) writeFlow(ctx context.Context, from, to *Flow) (contentChanged, paramsChanged bool, err error) {
	if !bytes.Equal(from.Content, to.Content) {
		meta, err := c.GetArtifact(ctx, from.ID, from.Version)
		if err != nil {
			return false, false, err
		}
		if err := c.UpdateContent(ctx, from.ID, from.Version, meta.Name, to.Content); err != nil {
			return false, false, fmt.Errorf("uploading the changed content of integration flow %q: %w", from.ID, err)
		}
		contentChanged = true
	}
	for _, key := range changedParameters(from, to) {
		p := to.Configurations[key]
		if err := c.SetConfiguration(ctx, from.ID, from.Version, p.Key, p.Value, p.DataType); err != nil {
			return contentChanged, paramsChanged, fmt.Errorf("setting parameter %q of integration flow %q: %w", key, from.ID, err)
		}
		paramsChanged = true
	}
	return contentChanged, paramsChanged, nil
}

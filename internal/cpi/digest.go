package cpi

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// maxDigestEntryBytes bounds what ContentDigest reads of one zip entry (as iflow.ReadZip does).
const maxDigestEntryBytes = 64 << 20

// ContentDigest is a digest of the flow's design time apart from what the provider writes: every
// zip entry (by name and content, not the zip's own bytes, which a tenant may pack anew), with
// the properties of the AMQP, JMS and AdvancedEventMesh sender channels that the sender resources
// write blanked in the .iflw, and the externalized parameter values (parameters.prop overridden
// by the tenant's configurations) without those that such a property refers to. Two reads of a
// flow have the same digest when they differ at most in settings the provider writes; any other
// change (a script, a step, a receiver, another parameter, the manifest) changes it.
//
// The Cloud Integration API tells no modification time of the design time, and the runtime
// artifact tells its version and DeployedOn, not its content: a change uploaded under the version
// the runtime runs is seen by comparing this digest with the one recorded when the runtime was
// last deployed.
func (f *Flow) ContentDigest() (string, error) {
	if f == nil || f.Artifact == nil || f.Artifact.Model == nil {
		return "", fmt.Errorf("the integration flow has no content to digest")
	}
	doc := f.Artifact.Iflw
	written := map[string]bool{} // parameters a written property refers to
	blank := func(id string, props map[string]string, keys []string) error {
		changes := map[string]string{}
		for _, k := range keys {
			raw, ok := props[k]
			if !ok {
				continue
			}
			if name, isRef := iflow.ParameterRef(raw); isRef {
				written[name] = true
				continue
			}
			changes[k] = ""
		}
		if len(changes) == 0 {
			return nil
		}
		var err error
		doc, err = iflow.PatchIflw(doc, id, changes)
		return err
	}
	m := f.Artifact.Model
	amqpKeys := settingKeys(Settings())
	for _, s := range m.AMQPSenders() {
		if err := blank(s.ID, s.Properties, amqpKeys); err != nil {
			return "", err
		}
	}
	for _, s := range m.JMSSenders() {
		if err := blank(s.ID, s.Properties, iflow.JMSSenderKeys()); err != nil {
			return "", err
		}
	}
	for _, s := range m.AEMSenders() {
		if err := blank(s.ID, s.Properties, iflow.AEMSenderKeys()); err != nil {
			return "", err
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(f.Content), int64(len(f.Content)))
	if err != nil && zr == nil {
		return "", err
	}
	entries := map[string][]byte{}
	for _, e := range zr.File {
		switch e.Name {
		case f.Artifact.IflwPath:
			entries[e.Name] = doc
		case iflow.ParametersPath:
			// Read as values below.
		default:
			rc, err := e.Open()
			if err != nil {
				return "", err
			}
			data, err := io.ReadAll(io.LimitReader(rc, maxDigestEntryBytes+1))
			_ = rc.Close()
			if err != nil {
				return "", err
			}
			if len(data) > maxDigestEntryBytes {
				return "", fmt.Errorf("zip entry %s is larger than %d bytes", e.Name, maxDigestEntryBytes)
			}
			entries[e.Name] = data
		}
	}
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		fmt.Fprintf(h, "entry %q %d\n", name, len(entries[name]))
		h.Write(entries[name])
	}
	params := f.parameterValues()
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if !written[k] {
			fmt.Fprintf(h, "parameter %q=%q\n", k, params[k])
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// settingKeys returns settings as property keys.
func settingKeys(settings []Setting) []string {
	out := make([]string, len(settings))
	for i, s := range settings {
		out[i] = string(s)
	}
	return out
}

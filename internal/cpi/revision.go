package cpi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// ChannelRef identifies the channel whose settings a revision describes: the
// integration flow, its design-time version as the configuration addresses it
// ("active", or a version name), and the channel's message flow.
type ChannelRef struct {
	IFlowID string `json:"iflow"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Channel string `json:"channel"`
}

// Revision names one write of a channel's settings, so that a resource that
// deploys the flow (the iflow_deployment resource's triggers) can tell that a
// channel was written since it last deployed. It is "CONTENT-CHAIN": CONTENT
// is a short hash of the channel (flow, resolved version, kind, message flow)
// and its settings, CHAIN a short hash of the revision it follows. Reading the
// same channel with the same settings again keeps the revision; anything else
// gets a new one that follows it: other settings, settings written back to
// earlier values after a change on the tenant (a revision never seen before),
// the same settings on another channel, another flow or another addressed
// version. A new version uploaded under "active" with the same settings keeps
// the revision: it is not a change of the channel's settings. Two channels with equal settings therefore never
// share a revision.
//
// NextRevision returns the revision of the channel ref with settings that
// follows prior: prior itself when it already describes them ("" for none).
// settings is any value that encoding/json renders deterministically, such as
// SenderSettings or JMSSenderSettings.
func NextRevision(prior string, ref ChannelRef, settings any) string {
	b, err := json.Marshal(struct {
		Ref      ChannelRef `json:"ref"`
		Settings any        `json:"settings"`
	}{ref, settings})
	if err != nil {
		// The settings types are plain structs of pointers to numbers, strings
		// and booleans, which always marshal; fall back to their error text.
		b = []byte(err.Error())
	}
	sum := shortHash(b)
	if head, _, ok := strings.Cut(prior, "-"); ok && head == sum {
		return prior
	}
	return sum + "-" + shortHash([]byte(prior))
}

// shortHash is the first 8 hexadecimal digits of the SHA-256 of b.
func shortHash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:4])
}

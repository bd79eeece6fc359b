package cpi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// Revision names one write of a channel's settings, so that a resource that
// deploys the flow (the iflow_deployment resource's triggers) can tell that a
// channel was written since it last deployed. It is "SETTINGS-CHAIN": SETTINGS
// is a short hash of the settings, CHAIN a short hash of the revision it
// follows. Reading the same settings again keeps the revision; settings that
// differ from what the revision describes get a new one that follows it, so a
// channel written back to earlier values after a change on the tenant gets a
// revision it never had before.
//
// NextRevision returns the revision of settings that follows prior: prior
// itself when it already describes settings ("" for none). settings is any
// value that encoding/json renders deterministically, such as SenderSettings
// or JMSSenderSettings.
func NextRevision(prior string, settings any) string {
	b, err := json.Marshal(settings)
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

package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The names of AEM (Solace PubSub+) queues and topic subscriptions, checked at plan so that a subscription the
// broker would refuse, or one that would never match what publishers send, fails before the apply.

// AEM name limits.
const (
	// AEMTopicMaxBytes is the longest topic: "The maximum length of a string, excluding the NULL terminator,
	// is 250 bytes" ([SOL] Messaging/SMF-Topics.htm).
	AEMTopicMaxBytes = 250
)

// ValidAEMTopicSubscription reports why s cannot be a topic subscription of an AEM queue, or nil. The syntax
// is Solace's ([SOL] Messaging/SMF-Topics.htm, Messaging/Wildcard-Charaters-Topic-Subs.htm): UTF-8 without
// NUL, at most 250 bytes, levels separated by "/"; "*" is a wildcard alone in a level or at the end of
// a level after a prefix ("prefix and 0 or more"), and ">" is a wildcard alone in the last level; a leading
// "!" marks a subscription exception. The provider refuses what Solace would take only as literal characters
// (a "*" inside a level, a ">" anywhere but alone in the last level): Solace advises against both in
// published topics, so such a subscription would not match what the user meant. It refuses empty levels
// too: "Client applications using Solace messaging APIs ... cannot use topic subscriptions with empty
// levels".
func ValidAEMTopicSubscription(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the topic subscription is empty")
	case !utf8.ValidString(s):
		return fmt.Errorf("the topic subscription is not valid UTF-8")
	case strings.IndexByte(s, 0) >= 0:
		return fmt.Errorf("the topic subscription holds a NUL character, which no topic can hold")
	case len(s) > AEMTopicMaxBytes:
		return fmt.Errorf("a topic subscription is at most %d bytes long, and this one has %d", AEMTopicMaxBytes, len(s))
	}
	body := strings.TrimPrefix(s, "!")
	// Solace's limit of 128 levels needs no check of its own: 129 levels without an empty one take 257 bytes.
	levels := strings.Split(body, "/")
	for i, l := range levels {
		last := i == len(levels)-1
		switch {
		case l == "":
			return fmt.Errorf("level %d of the topic subscription is empty (a leading, trailing or doubled \"/\"), and subscriptions with empty levels cannot be used by Solace clients", i+1)
		case strings.Contains(l, ">") && (l != ">" || !last):
			return fmt.Errorf("level %d (%q) holds \">\", which is a wildcard only as the whole last level (for example a/b/>) and a literal character anywhere else", i+1, l)
		case strings.Contains(strings.TrimSuffix(l, "*"), "*"):
			return fmt.Errorf("level %d (%q) holds \"*\" before its end, where it is a literal character, not a wildcard: \"*\" is a wildcard alone in a level (a/*/c) or at the end of one (a/ord*)", i+1, l)
		}
	}
	return nil
}

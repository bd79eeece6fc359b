package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits of the Event Mesh queue name pattern
// ^[a-zA-Z0-9-_.]{1,111}(?:/[a-zA-Z0-9-_.]{1,109}){0,19}$.
const (
	maxNameSegments        = 20
	maxFirstSegmentLength  = 111
	maxOtherSegmentLength  = 109
	namespaceSegmentsCount = 3
	// MaxQueueNameLength is the length limit of a whole queue name: "The queue
	// name must be limited to 164 characters" (SAP-docs btp-integration-suite,
	// ISuite_Event_Mesh/create-a-queue-95357fa.md).
	MaxQueueNameLength = 164
)

// queueNamePattern explains the queue name pattern in words for error texts.
const queueNamePattern = `a queue name is at most 164 characters long in 1 to 20 segments separated by "/", made of letters, digits, "-", "_" and ".", the first segment at most 111 and every other at most 109 characters long`

// ValidQueueName checks name against the Event Mesh queue name pattern
// ^[a-zA-Z0-9-_.]{1,111}(?:/[a-zA-Z0-9-_.]{1,109}){0,19}$ and the documented
// length limit of 164 characters, and says which part breaks them.
//
// A segment "." or ".." matches the pattern but is refused: in a URL path they mean "this level"
// and "the level above", and HTTP clients, proxies and servers that normalise paths (RFC 3986,
// section 5.2.4) may turn such a name into another queue's path.
func ValidQueueName(name string) error {
	if err := checkSegmentedName("queue name", name, isQueueNameByte, queueNamePattern); err != nil {
		return err
	}
	if len(name) > MaxQueueNameLength {
		return fmt.Errorf("queue name %q is %d characters long, over the documented limit of %d; %s", name, len(name), MaxQueueNameLength, queueNamePattern)
	}
	for i, s := range strings.Split(name, "/") {
		if s == "." || s == ".." {
			return fmt.Errorf("segment %d of queue name %q is %q, which in a URL path means %s and may be resolved to another queue's path; "+
				"use a segment with at least one letter, digit, \"-\" or \"_\"; %s", i+1, name, s, dotSegmentMeaning[s], queueNamePattern)
		}
	}
	return nil
}

var dotSegmentMeaning = map[string]string{".": "\"this level\"", "..": "\"the level above\""}

// checkSegmentedName checks a "/"-separated name of 1 to 20 segments, the first at
// most 111 and the others at most 109 bytes of allowed characters.
func checkSegmentedName(kind, name string, allowed func(byte) bool, explain string) error {
	if name == "" {
		return fmt.Errorf("%s is empty; %s", kind, explain)
	}
	for i, r := range name {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(name[i:], string(utf8.RuneError)):
			return fmt.Errorf("%s %q contains the byte 0x%02x at byte %d, which is not UTF-8 text; %s", kind, name, name[i], i, explain)
		case r >= utf8.RuneSelf:
			return fmt.Errorf("%s %q contains the character %q (U+%04X) at byte %d; %s", kind, name, r, r, i, explain)
		case r != '/' && !allowed(byte(r)):
			return fmt.Errorf("%s %q contains the character %q at byte %d; %s", kind, name, r, i, explain)
		}
	}
	segments := strings.Split(name, "/")
	if len(segments) > maxNameSegments {
		return fmt.Errorf("%s %q has %d segments; %s", kind, name, len(segments), explain)
	}
	for i, s := range segments {
		limit := maxOtherSegmentLength
		if i == 0 {
			limit = maxFirstSegmentLength
		}
		switch {
		case s == "":
			return fmt.Errorf("%s %q has an empty segment %d (a leading, trailing or double \"/\"); %s", kind, name, i+1, explain)
		case len(s) > limit:
			return fmt.Errorf("segment %d of %s %q is %d characters long; %s", i+1, kind, name, len(s), explain)
		}
	}
	return nil
}

// isQueueNameByte reports whether c may appear inside a queue name segment.
func isQueueNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// Namespace returns the first three "/"-segments of a queue name joined by "/",
// or "" when the name has fewer than three segments.
func Namespace(queueName string) string {
	segments := strings.SplitN(queueName, "/", namespaceSegmentsCount+1)
	if len(segments) < namespaceSegmentsCount {
		return ""
	}
	return strings.Join(segments[:namespaceSegmentsCount], "/")
}

// ValidQueueNamePrefix checks a filter's queue name prefix: "" (every queue), or the start of a
// queue name that ValidQueueName accepts, a whole name or one cut anywhere, for example
// "acme/crm/prod/" or "acme/crm/prod/ord". A prefix that no valid name starts with would match
// nothing, which is a mistake rather than a filter.
func ValidQueueNamePrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	whole := ValidQueueName(prefix)
	if whole == nil {
		return nil
	}
	// A prefix cut inside a segment, or after a "/", is completed to a name.
	cut := ValidQueueName(prefix + "x")
	if cut == nil {
		return nil
	}
	if strings.HasSuffix(prefix, "/") {
		return fmt.Errorf("no queue name starts with %q: completed to a name, %w", prefix, cut)
	}
	return fmt.Errorf("no queue name starts with %q: %w", prefix, whole)
}

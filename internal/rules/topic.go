package rules

// topicPatternRule explains the topic pattern in words for error texts.
const topicPatternRule = `a topic pattern is 1 to 20 segments separated by "/", made of letters, digits, "-", "_", "." and the wildcards "*" and "+", the first segment at most 111 and every other at most 109 characters long`

// ValidTopicPattern reports whether s can be used as a topic subscription of a queue:
// the queue name pattern with "*" and "+" allowed as wildcards in a segment.
func ValidTopicPattern(s string) error {
	return checkSegmentedName("topic pattern", s, isTopicPatternByte, topicPatternRule)
}

func isTopicPatternByte(c byte) bool {
	return isQueueNameByte(c) || c == '*' || c == '+'
}

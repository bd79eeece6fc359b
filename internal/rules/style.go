package rules

import (
	"slices"
	"strings"
	"unicode"
)

// The conventions of every message the provider shows, whether a rule's finding or a diagnostic
// written in internal/provider: a summary in Title Case without a final period, and a detail that
// says what happens, ends with a period, and whose last sentence is the fix. The tests of both
// packages check their messages with StyleProblems.

// minorWords may stay lower case inside a Title Case summary.
var minorWords = []string{"a", "an", "and", "as", "for", "in", "of", "on", "or", "the", "to"}

// FixOpenings are the words a detail's last sentence, the fix, may begin with: an imperative, or
// a condition that leads to one.
var FixOpenings = []string{
	"Set", "Run", "Check", "Add", "Remove", "Create", "Apply", "Use", "Point", "Import", "Give", "Declare",
	"Consume", "Fix", "Pass", "Wait", "Change", "Rename", "Manage", "Move", "Keep", "Delete", "Deploy", "Start",
	"Correct", "Report", "Restore", "Write", "Name", "Replace", "Untaint", "Raise", "Lower", "Configure", "Leave", "Make",
	"If", "Otherwise", "To", "Once", "After", "Before", "When",
}

// StyleProblems reports the ways a message breaks the conventions; a fix must begin with one of
// fixOpenings.
func StyleProblems(summary, detail string, fixOpenings []string) []string {
	var problems []string
	if summary == "" || strings.HasSuffix(summary, ".") {
		problems = append(problems, "summary empty or ends with a period")
	}
	for i, w := range strings.Fields(summary) {
		if strings.Contains(w, ".") {
			continue // A file name, such as jms-resources.xml, keeps its spelling.
		}
		if r := []rune(w)[0]; !unicode.IsUpper(r) && !unicode.IsDigit(r) && (i == 0 || !slices.Contains(minorWords, w)) {
			problems = append(problems, "summary word "+w+" not in Title Case")
		}
	}
	if strings.Contains(detail, "%!") {
		problems = append(problems, "bad format verb in detail")
	}
	if !strings.HasSuffix(detail, ".") {
		problems = append(problems, "detail does not end with a period")
	}
	body := strings.TrimSuffix(detail, ".")
	last := strings.TrimSpace(body[strings.LastIndex(body, ". ")+1:])
	if first, _, _ := strings.Cut(last, " "); !slices.Contains(fixOpenings, strings.TrimRight(first, ",:;")) {
		problems = append(problems, "last sentence is not a fix: "+last)
	}
	if strings.Count(detail, ". ") < 1 {
		problems = append(problems, "detail explains nothing before the fix")
	}
	return problems
}

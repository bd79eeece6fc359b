package rules

import (
	"regexp"
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
	"Upload", "Release",
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
	return append(problems, BareNames(detail)...)
}

// quotedSpan matches what a message already quotes: an attribute name or value in backticks, or
// a value in double quotes (a queue name, a flow ID), which keeps its own spelling.
var quotedSpan = regexp.MustCompile("`[^`]*`|\"[^\"]*\"")

// snakeName matches an attribute, resource type or rule ID written in snake_case, such as
// max_redelivery_count, sapmessaging_queue or queue.dmq_missing.
var snakeName = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:[._][a-z0-9]+)*_[a-z0-9]+(?:[._][a-z0-9]+)*\b`)

// setWord matches "Set NAME to" or "Set NAME =", where NAME is a one-word attribute such as to,
// from or name; the ordinary words a fix sets ("Set it to ...") are told apart by setPronouns.
var setWord = regexp.MustCompile(`\bSet ([a-z][a-z0-9]*) (?:to|=)\s`)

var setPronouns = []string{"it", "them", "this", "that", "one", "each", "both", "all", "every", "a", "an", "the", "its", "their", "up"}

// BareNames reports the attribute names in text that are not in backticks: a snake_case name
// outside backticks and double quotes, and the one-word attribute of a "Set NAME to" fix.
func BareNames(text string) []string {
	var problems []string
	plain := quotedSpan.ReplaceAllString(text, " ")
	for _, n := range snakeName.FindAllString(plain, -1) {
		problems = append(problems, "name "+n+" not in backticks")
	}
	for _, m := range setWord.FindAllStringSubmatch(plain, -1) {
		if !slices.Contains(setPronouns, m[1]) {
			problems = append(problems, "attribute "+m[1]+" of a fix not in backticks")
		}
	}
	return problems
}

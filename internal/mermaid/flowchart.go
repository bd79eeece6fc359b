// Package mermaid checks Mermaid flowcharts against the subset of the syntax that the project's
// documentation and the retry audit's diagram write. It is stricter than Mermaid: what it accepts
// Mermaid renders, and a line outside the subset is an error even where Mermaid might guess what it
// means. It catches what breaks a rendered diagram, such as a node whose shape lost its brackets
// (`n2webhook idle-push<br/>QoS 0` where `n2{{"webhook idle-push<br/>QoS 0"}}` was meant).
//
// The subset (Mermaid's flowchart syntax, https://mermaid.js.org/syntax/flowchart.html):
//
//	flowchart LR                      (or graph; LR, RL, TB, TD or BT), the first statement
//	id["text"]                        a node, with one of the shapes [ ], ( ), [( )], [[ ]], ([ ]),
//	                                  (( )), {{ }}, { }, [/ /], [\ \], > ]
//	a -->|"label"| b                  links -->, ---, -.->, -.-, ==>, ===, each with an optional
//	                                  |label|, chained, each end an id or a node with its shape
//	classDef name prop:value,...      a style class
//	class id,id name                  classes of nodes, by a classDef of the diagram
//	%% comment
//
// Ids are letters, digits and underscores, not starting with a digit, and not `end`. Text in a
// shape or a label is either quoted ("…", no `"` inside: Mermaid writes it #quot;) or unquoted
// without any of []{}()|"<>.
package mermaid

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

var (
	headerRe   = regexp.MustCompile(`^(flowchart|graph) (LR|RL|TB|TD|BT)$`)
	classDefRe = regexp.MustCompile(`^classDef ([A-Za-z_][A-Za-z0-9_-]*) ([a-z-]+:[^,;:]+(?:,[a-z-]+:[^,;:]+)*);?$`)
	classRe    = regexp.MustCompile(`^class ([A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)*) ([A-Za-z_][A-Za-z0-9_-]*);?$`)
	idRe       = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`)
)

// shapes are the node shapes of the subset, opener and closer, longest openers first so that
// `[(` is not read as `[` followed by text starting with `(`.
var shapes = [][2]string{
	{"[(", ")]"}, {"[[", "]]"}, {"[/", "/]"}, {"[\\", "\\]"}, {"([", "])"}, {"((", "))"}, {"{{", "}}"},
	{"[", "]"}, {"(", ")"}, {"{", "}"}, {">", "]"},
}

// links are the link operators of the subset, longest first.
var links = []string{"-.->", "-->", "---", "-.-", "==>", "==="}

// reserved are words Mermaid does not take as a node id.
var reserved = map[string]bool{"end": true, "subgraph": true, "graph": true, "flowchart": true, "class": true, "classDef": true, "style": true, "linkStyle": true, "click": true}

// Check reports every statement of the flowchart src that is outside the subset, with its line
// number (1 for the first line of src), and classes that are used but not defined.
func Check(src string) error {
	var errs []error
	header := false
	defined := map[string]bool{}
	type use struct {
		line  int
		class string
	}
	var used []use
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "%%") {
			continue
		}
		if !header {
			if !headerRe.MatchString(line) {
				errs = append(errs, fmt.Errorf("line %d: %q: a flowchart starts with `flowchart LR` (or graph, and LR, RL, TB, TD or BT)", n, line))
			}
			header = true
			continue
		}
		if strings.HasPrefix(line, "classDef ") {
			m := classDefRe.FindStringSubmatch(line)
			if m == nil {
				errs = append(errs, fmt.Errorf("line %d: %q: a classDef is `classDef name property:value,...`", n, line))
				continue
			}
			defined[m[1]] = true
			continue
		}
		if strings.HasPrefix(line, "class ") {
			m := classRe.FindStringSubmatch(line)
			if m == nil {
				errs = append(errs, fmt.Errorf("line %d: %q: a class statement is `class id,id name`", n, line))
				continue
			}
			used = append(used, use{n, m[2]})
			continue
		}
		if err := checkChain(line); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %q: %w", n, line, err))
		}
	}
	if !header {
		errs = append(errs, errors.New("empty diagram: a flowchart starts with `flowchart LR`"))
	}
	for _, u := range used {
		if !defined[u.class] {
			errs = append(errs, fmt.Errorf("line %d: class %q has no classDef", u.line, u.class))
		}
	}
	return errors.Join(errs...)
}

// checkChain checks a node statement or a chain of links: node (link node)*.
func checkChain(s string) error {
	s = strings.TrimSuffix(s, ";")
	rest, err := node(s)
	if err != nil {
		return err
	}
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return nil
		}
		op := ""
		for _, l := range links {
			if strings.HasPrefix(rest, l) {
				op = l
				break
			}
		}
		if op == "" {
			return fmt.Errorf("unexpected %q: after a node comes a link (-->, ---, -.->, -.-, ==>, ===) or the end of the line", rest)
		}
		rest = rest[len(op):]
		if strings.HasPrefix(rest, "|") {
			end := strings.Index(rest[1:], "|")
			if end < 0 {
				return fmt.Errorf("the label of %s has no closing |", op)
			}
			if err := text(rest[1 : 1+end]); err != nil {
				return fmt.Errorf("the label of %s: %w", op, err)
			}
			rest = rest[2+end:]
		}
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return fmt.Errorf("the link %s ends without a node", op)
		}
		if rest, err = node(rest); err != nil {
			return err
		}
	}
}

// node reads an id with an optional shape at the start of s and returns what follows.
func node(s string) (string, error) {
	id := idRe.FindString(s)
	if id == "" {
		return "", fmt.Errorf("unexpected %q: a node id (letters, digits, _) is expected", s)
	}
	if reserved[id] {
		return "", fmt.Errorf("%q cannot be a node id", id)
	}
	rest := s[len(id):]
	for _, sh := range shapes {
		if !strings.HasPrefix(rest, sh[0]) {
			continue
		}
		body := rest[len(sh[0]):]
		var inner string
		if strings.HasPrefix(body, `"`) {
			end := strings.Index(body[1:], `"`)
			if end < 0 {
				return "", fmt.Errorf("the text of %s has no closing quote", id)
			}
			inner = body[:end+2]
			body = body[end+2:]
			if !strings.HasPrefix(body, sh[1]) {
				return "", fmt.Errorf("the shape %s of %s does not close with %s after its text", sh[0], id, sh[1])
			}
		} else {
			end := strings.Index(body, sh[1])
			if end < 0 {
				return "", fmt.Errorf("the shape %s of %s does not close with %s", sh[0], id, sh[1])
			}
			inner = body[:end]
			body = body[end:]
		}
		if err := text(inner); err != nil {
			return "", fmt.Errorf("the text of %s: %w", id, err)
		}
		return body[len(sh[1]):], nil
	}
	return rest, nil
}

// text checks a node's or a label's text: quoted without quotes inside, or unquoted without
// the characters Mermaid reads as syntax.
func text(s string) error {
	if strings.HasPrefix(s, `"`) {
		if len(s) < 2 || !strings.HasSuffix(s, `"`) || strings.Contains(s[1:len(s)-1], `"`) {
			return fmt.Errorf("%s: quoted text has no quote inside (write #quot;)", s)
		}
		return nil
	}
	if strings.TrimSpace(s) == "" {
		return errors.New("empty text")
	}
	if i := strings.IndexAny(s, `[]{}()|"<>`); i >= 0 {
		return fmt.Errorf("%q: unquoted text cannot hold %q; quote it", s, s[i])
	}
	return nil
}

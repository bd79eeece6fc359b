package flowreader

import (
	"math/big"
	"strings"
)

// The emulator's evaluator of the route conditions that guard JMS retries.
// A route condition with expressionType NonXML is a Camel Simple predicate
// [reference note cpi-jms.md, section 2]; SAP's retry pattern compares the
// header SAPJMSRetries in it, for example
// ${header.SAPJMSRetries} > ${header.maxJMSRetries} [SAP "Monitoring and
// Error Handling in the Pipeline Concept", ed9b82c].
//
// The emulator evaluates the part of Simple such guards use: comparisons
// with =, ==, !=, >, >=, <, <= between ${header.SAPJMSRetries} (also
// ${headers.…}, ${in.header.…}, ${header[…]}), whole numbers (quoted or
// not) and null, joined by and / or (&& / ||), grouped from left to right
// as Camel's Simple parser groups logical operators (assumed: Camel
// documents no precedence between them). Comparisons follow Camel's binary
// predicates: a number compares as a number; a missing header equals only
// null, differs (!=) from anything else, and is neither greater nor
// smaller than anything. A comparison with anything else (another header or
// property, whose value is set at run time, for example the limit from the
// Partner Directory; a function; a text that is not a number) has a value
// the emulator cannot know: it is unknown, and and/or combine unknown
// values as three-valued logic does (false and unknown is false, true or
// unknown is true, otherwise unknown). A route ends a message only on a
// value the emulator knows. A condition it cannot parse (parentheses, an
// operator it does not read, an unclosed quote) is not evaluable at all.

// SimpleExpr is a parsed condition: comparisons joined left to right.
type SimpleExpr struct {
	cmps []simpleComparison
	// joins[i] joins cmps[i] and cmps[i+1]: "and" or "or".
	joins []string
}

// simpleOperand is the header, a number, null, or a value the emulator
// cannot know.
type simpleOperand struct {
	header  bool
	null    bool
	unknown bool
	num     *big.Int
}

// Tri is a value of three-valued logic.
type Tri int8

const (
	TriFalse Tri = iota
	TriTrue
	TriUnknown
)

func TriOf(b bool) Tri {
	if b {
		return TriTrue
	}
	return TriFalse
}

type simpleComparison struct {
	left, right simpleOperand
	op          string
}

// ParseSimpleGuard parses cond; ok is false when it is not evaluable.
func ParseSimpleGuard(cond string) (SimpleExpr, bool) {
	toks, ok := simpleTokens(cond)
	if !ok || len(toks) == 0 {
		return SimpleExpr{}, false
	}
	var e SimpleExpr
	for i := 0; ; {
		if i+3 > len(toks) {
			return SimpleExpr{}, false
		}
		l, op, r := simpleOperandOf(toks[i]), toks[i+1], simpleOperandOf(toks[i+2])
		if !isSimpleComparison(op) {
			return SimpleExpr{}, false
		}
		e.cmps = append(e.cmps, simpleComparison{left: l, right: r, op: op})
		i += 3
		if i == len(toks) {
			return e, true
		}
		switch strings.ToLower(toks[i]) {
		case "and", "&&":
			e.joins = append(e.joins, "and")
		case "or", "||":
			e.joins = append(e.joins, "or")
		default:
			return SimpleExpr{}, false
		}
		i++
	}
}

// MentionsRetries reports whether the expression reads SAPJMSRetries.
func (e SimpleExpr) MentionsRetries() bool {
	for _, c := range e.cmps {
		if c.left.header || c.right.header {
			return true
		}
	}
	return false
}

// Partial reports whether a comparison has a value the emulator cannot know.
func (e SimpleExpr) Partial() bool {
	for _, c := range e.cmps {
		if c.left.unknown || c.right.unknown {
			return true
		}
	}
	return false
}

// Eval returns the value of the condition with SAPJMSRetries = retries, or
// a missing header when present is false.
func (e SimpleExpr) Eval(retries int64, present bool) Tri {
	v := e.cmps[0].eval(retries, present)
	for i, j := range e.joins {
		w := e.cmps[i+1].eval(retries, present)
		switch {
		case j == "and" && (v == TriFalse || w == TriFalse):
			v = TriFalse
		case j == "or" && (v == TriTrue || w == TriTrue):
			v = TriTrue
		case v == TriUnknown || w == TriUnknown:
			v = TriUnknown
		}
	}
	return v
}

func (c simpleComparison) eval(retries int64, present bool) Tri {
	if c.left.unknown || c.right.unknown {
		return TriUnknown
	}
	return TriOf(c.known(retries, present))
}

func (c simpleComparison) known(retries int64, present bool) bool {
	value := func(o simpleOperand) *big.Int {
		switch {
		case o.header && present:
			return big.NewInt(retries)
		case o.header, o.null:
			return nil
		}
		return o.num
	}
	l, r := value(c.left), value(c.right)
	if l == nil || r == nil {
		switch c.op {
		case "=", "==":
			return l == nil && r == nil
		case "!=":
			return l != nil || r != nil
		case ">=", "<=":
			return l == nil && r == nil
		}
		return false
	}
	k := l.Cmp(r)
	switch c.op {
	case "=", "==":
		return k == 0
	case "!=":
		return k != 0
	case ">":
		return k > 0
	case ">=":
		return k >= 0
	case "<":
		return k < 0
	case "<=":
		return k <= 0
	}
	return false
}

func isSimpleComparison(op string) bool {
	switch op {
	case "=", "==", "!=", ">", ">=", "<", "<=":
		return true
	}
	return false
}

// simpleOperandOf reads one operand token.
func simpleOperandOf(tok string) simpleOperand {
	if strings.HasPrefix(tok, "${") {
		inner := strings.TrimSpace(tok[2 : len(tok)-1])
		inner = strings.TrimPrefix(inner, "in.")
		for _, p := range []string{"header.", "headers."} {
			if strings.HasPrefix(inner, p) && inner[len(p):] == "SAPJMSRetries" {
				return simpleOperand{header: true}
			}
		}
		for _, p := range []string{"header[", "headers["} {
			if strings.HasPrefix(inner, p) && strings.HasSuffix(inner, "]") {
				name := strings.Trim(inner[len(p):len(inner)-1], `'"`)
				if name == "SAPJMSRetries" {
					return simpleOperand{header: true}
				}
			}
		}
		if inner == "null" {
			return simpleOperand{null: true}
		}
		return simpleOperand{unknown: true}
	}
	if tok == "null" {
		return simpleOperand{null: true}
	}
	text := tok
	if len(tok) >= 2 && (tok[0] == '\'' || tok[0] == '"') && tok[len(tok)-1] == tok[0] {
		text = strings.TrimSpace(tok[1 : len(tok)-1])
	}
	n, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return simpleOperand{unknown: true}
	}
	return simpleOperand{num: n}
}

// simpleTokens splits a condition into operands, operators and logical
// words; ok is false for text it cannot split (an unclosed quote or ${).
func simpleTokens(s string) ([]string, bool) {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(s[i:], "${"):
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return nil, false
			}
			out = append(out, s[i:i+j+1])
			i += j + 1
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, false
			}
			out = append(out, s[i:i+j+2])
			i += j + 2
		case strings.ContainsRune("=!<>&|", rune(c)):
			j := i + 1
			for j < len(s) && strings.ContainsRune("=!<>&|", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r=!<>&|'\"", rune(s[j])) && !strings.HasPrefix(s[j:], "${") {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out, true
}

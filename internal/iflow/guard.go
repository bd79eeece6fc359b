package iflow

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// The JMS sender adapter has no maximum number of retries. A flow bounds them itself by
// comparing the header SAPJMSRetries, which Cloud Integration sets for non-exclusive
// queues only [SAP "Headers and Exchange Properties Provided by the Integration
// Framework", d0fcb09; "Configure the JMS Sender Adapter", 161791b]. SAP's pattern is an
// exception subprocess or a local process with a router whose condition is, for example,
// ${header.SAPJMSRetries} > ${header.maxJMSRetries} ["Monitoring and Error Handling in
// the Pipeline Concept", ed9b82c]. In the .iflw a router is a bpmn2:exclusiveGateway, its
// routes are bpmn2:sequenceFlow elements whose condition is the text of
// bpmn2:conditionExpression; a script step is a bpmn2:callActivity with the property
// activityType=Script and its file name in the property "script", stored under
// src/main/resources/script/ [community exports; the "script" key is inferred].

// ScriptDir is the folder of script files inside an iFlow artifact.
const ScriptDir = "src/main/resources/script/"

// HeaderJMSRetries is the header that counts the retries of a JMS message.
const HeaderJMSRetries = "SAPJMSRetries"

// Kinds of a retry guard.
const (
	GuardRouter              = "router"               // A route condition in the integration or a local process.
	GuardExceptionSubprocess = "exception_subprocess" // A route condition inside an exception subprocess.
	GuardScript              = "script"               // A script step whose file reads SAPJMSRetries.
)

// Kinds of the limit a guard compares with.
const (
	LimitLiteral    = "literal"     // A number written in the condition.
	LimitParameter  = "parameter"   // An externalized parameter {{Name}}.
	LimitNotVisible = "not_visible" // A header or property set at run time (for example from the Partner Directory), a script, or no comparison found.
)

// RetryGuard is one place in the flow that reads SAPJMSRetries.
type RetryGuard struct {
	// Kind is GuardRouter, GuardExceptionSubprocess or GuardScript.
	Kind string
	// ElementID and ElementName identify the sequence flow (route) or call activity (script step).
	ElementID, ElementName string
	// Subprocess is the id of the exception subprocess that holds the guard; "" outside one.
	Subprocess string
	// Condition is the route's condition, or the script file name.
	Condition string
	// Operator is the comparison with SAPJMSRetries on the left (">", ">=", "=", "<", "<=", "!="),
	// "" when none was found.
	Operator string
	// Limit is what SAPJMSRetries is compared with.
	Limit GuardLimit
}

// GuardLimit is the limit a guard compares SAPJMSRetries with.
type GuardLimit struct {
	// Kind is LimitLiteral, LimitParameter or LimitNotVisible.
	Kind string
	// Raw is the right-hand side as written, for example "5", "{{MaxRetries}}" or
	// "${header.maxJMSRetries}"; "" when not found.
	Raw string
	// Parameter is the externalized parameter name for LimitParameter.
	Parameter string
	// Value is the limit when Known.
	Value int64
	// Known is true for a literal, or a parameter whose value is an integer.
	Known bool
}

// FindRetryGuards returns the places of an .iflw document that read SAPJMSRetries, in
// document order: route conditions that mention it, and script steps whose script
// (looked up by file name in scripts) mentions it. params resolves externalized limits.
func FindRetryGuards(iflw []byte, scripts map[string][]byte, params map[string]string) ([]RetryGuard, error) {
	conds, steps, err := scanGuards(iflw)
	if err != nil {
		return nil, err
	}
	var out []RetryGuard
	for _, c := range conds {
		if !strings.Contains(c.text, HeaderJMSRetries) {
			continue
		}
		kind := GuardRouter
		if c.inException {
			kind = GuardExceptionSubprocess
		}
		g := RetryGuard{Kind: kind, ElementID: c.id, ElementName: c.name, Subprocess: c.subprocess, Condition: strings.TrimSpace(c.text)}
		g.Operator, g.Limit = parseGuardCondition(c.text, params)
		out = append(out, g)
	}
	for _, s := range steps {
		content, ok := scripts[s.script]
		if !ok || !bytes.Contains(content, []byte(HeaderJMSRetries)) {
			continue
		}
		out = append(out, RetryGuard{Kind: GuardScript, ElementID: s.id, ElementName: s.name, Subprocess: s.subprocess, Condition: s.script,
			Limit: GuardLimit{Kind: LimitNotVisible}})
	}
	return out, nil
}

// RetryGuards returns the retry guards of the artifact zip data: its .iflw with the
// script files its script steps name, and externalized limits resolved from
// configurations first and parameters.prop second.
func RetryGuards(data []byte, configurations map[string]string) ([]RetryGuard, error) {
	a, err := ReadZip(data)
	if err != nil {
		return nil, err
	}
	_, steps, err := scanGuards(a.Iflw)
	if err != nil {
		return nil, err
	}
	zr, err := openZip(data)
	if err != nil {
		return nil, err
	}
	scripts := map[string][]byte{}
	for _, s := range steps {
		if _, done := scripts[s.script]; done || s.script == "" {
			continue
		}
		f, err := findEntry(zr, ScriptDir+path.Base(s.script))
		if err != nil {
			return nil, err
		}
		if f == nil {
			continue // The step names a script the artifact lacks; Cloud Integration would not deploy it.
		}
		b, err := readEntry(f)
		if err != nil {
			return nil, err
		}
		scripts[s.script] = b
	}
	return FindRetryGuards(a.Iflw, scripts, a.ParameterValues(configurations))
}

var (
	// retriesHeader matches the Simple expression of the header: ${header.SAPJMSRetries},
	// ${in.header.SAPJMSRetries}, ${headers.SAPJMSRetries}, ${header[SAPJMSRetries]}.
	retriesHeader = `\$\{(?:in\.)?headers?(?:\.SAPJMSRetries|\[['"]?SAPJMSRetries['"]?\])\}`
	operand       = `('[^']*'|"[^"]*"|\$\{[^}]*\}|\{\{[^}]*\}\}|[^\s()]+)`
	comparison    = `\s*(>=|<=|==|!=|=|>|<)\s*`
	headerLeft    = regexp.MustCompile(retriesHeader + comparison + operand)
	headerRight   = regexp.MustCompile(operand + comparison + retriesHeader)
	// mirrored turns "limit OP header" into "header OP' limit".
	mirrored = map[string]string{">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "==": "==", "!=": "!="}
)

// parseGuardCondition finds the first comparison of SAPJMSRetries in a Simple
// expression and classifies what it is compared with.
func parseGuardCondition(cond string, params map[string]string) (string, GuardLimit) {
	op, raw := "", ""
	left := headerLeft.FindStringSubmatchIndex(cond)
	right := headerRight.FindStringSubmatchIndex(cond)
	switch {
	case left != nil && (right == nil || left[0] <= right[0]):
		op, raw = cond[left[2]:left[3]], cond[left[4]:left[5]]
	case right != nil:
		raw, op = cond[right[2]:right[3]], mirrored[cond[right[4]:right[5]]]
	default:
		return "", GuardLimit{Kind: LimitNotVisible}
	}
	if op == "==" {
		op = "="
	}
	l := classifyLimit(raw, params)
	if l.Known && andsRunTimeTerm(cond) {
		// "${header.SAPJMSRetries} > 5 and ${header.maxJMSRetries} != 'unlimited'" holds only
		// when the run-time term does: SAP's pattern sets maxJMSRetries to 'unlimited' to switch
		// the guard off [SAP ed9b82c, an older version; reference note cpi-jms.md, section 2], so
		// whether the guard ever ends the message is not visible.
		l = GuardLimit{Kind: LimitNotVisible, Raw: raw}
	}
	return op, l
}

var (
	logicalAnd  = regexp.MustCompile(`(?i)\sand\s|&&`)
	simpleRef   = regexp.MustCompile(`\$\{[^}]*\}`)
	retriesOnly = regexp.MustCompile(`^` + retriesHeader + `$`)
)

// andsRunTimeTerm reports whether cond joins its terms with "and" (or &&) and reads a
// value other than SAPJMSRetries (a header, property or function set at run time).
func andsRunTimeTerm(cond string) bool {
	if !logicalAnd.MatchString(cond) {
		return false
	}
	for _, ref := range simpleRef.FindAllString(cond, -1) {
		if !retriesOnly.MatchString(ref) {
			return true
		}
	}
	return false
}

func classifyLimit(raw string, params map[string]string) GuardLimit {
	l := GuardLimit{Kind: LimitNotVisible, Raw: raw}
	v := strings.Trim(raw, `'"`)
	if name, ok := ParameterRef(v); ok {
		l.Kind, l.Parameter = LimitParameter, name
		if val, ok := params[name]; ok {
			l.Value, l.Known = parseLimit(val)
		}
		return l
	}
	if strings.HasPrefix(v, "${") {
		return l
	}
	if n, ok := parseLimit(v); ok {
		l.Kind, l.Value, l.Known = LimitLiteral, n, true
	}
	return l
}

func parseLimit(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil && n >= 0
}

// guardCondition is a route condition with where it stands.
type guardCondition struct {
	id, name, text string
	inException    bool
	subprocess     string // id of the enclosing exception subprocess
}

// scriptStep is a script call activity with the file it runs.
type scriptStep struct{ id, name, script, subprocess string }

// scanGuards walks an .iflw document once and returns its route conditions and script
// steps. Elements are matched by local name, so any namespace prefix is accepted.
func scanGuards(data []byte) ([]guardCondition, []scriptStep, error) {
	if _, err := scan(data); err != nil { // The same checks and errors as ParseIflw.
		return nil, nil, err
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	type el struct {
		local       string
		inException bool
		subprocess  string
		flow, step  int // index of the enclosing sequence flow / call activity, -1 if none
		cond, prop  bool
		propKey     *strings.Builder
		propValue   *strings.Builder
		keyOrValue  int // 1 key, 2 value
	}
	var (
		conds []guardCondition
		steps []struct {
			scriptStep
			activityType string
		}
		stack []el
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("parse iFlow: the .iflw document is not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			parent := el{flow: -1, step: -1}
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			e := el{local: t.Name.Local, inException: parent.inException, subprocess: parent.subprocess, flow: parent.flow, step: parent.step,
				cond: parent.cond, propKey: parent.propKey, propValue: parent.propValue}
			switch t.Name.Local {
			case "subProcess":
				if v := strings.TrimSpace(attr(t, "triggeredByEvent")); v == "true" || v == "1" {
					e.inException, e.subprocess = true, attr(t, "id")
				}
			case "sequenceFlow":
				conds = append(conds, guardCondition{id: attr(t, "id"), name: attr(t, "name"), inException: e.inException, subprocess: e.subprocess})
				e.flow = len(conds) - 1
			case "conditionExpression":
				e.cond = e.flow >= 0
			case "callActivity":
				steps = append(steps, struct {
					scriptStep
					activityType string
				}{scriptStep: scriptStep{id: attr(t, "id"), name: attr(t, "name"), subprocess: e.subprocess}})
				e.step, e.flow = len(steps)-1, -1
			case "property":
				if parent.local == "extensionElements" && e.step >= 0 {
					e.prop, e.propKey, e.propValue = true, &strings.Builder{}, &strings.Builder{}
				}
			case "key":
				if parent.prop {
					e.keyOrValue = 1
				}
			case "value":
				if parent.prop {
					e.keyOrValue = 2
				}
			}
			stack = append(stack, e)
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			switch {
			case top.cond && top.flow >= 0:
				conds[top.flow].text += string(t)
			case top.keyOrValue == 1:
				top.propKey.Write(t)
			case top.keyOrValue == 2:
				top.propValue.Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, nil, errors.New("parse iFlow: unexpected end element </" + t.Name.Local + ">")
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.prop && top.step >= 0 {
				s := &steps[top.step]
				v := strings.TrimSpace(top.propValue.String())
				switch strings.TrimSpace(top.propKey.String()) {
				case "activityType":
					s.activityType = v
				case "script":
					s.script = v
				}
			}
		}
	}
	var scripts []scriptStep
	for _, s := range steps {
		if strings.EqualFold(s.activityType, "Script") && s.script != "" {
			scripts = append(scripts, s.scriptStep)
		}
	}
	return conds, scripts, nil
}

// GuardSummary is what the retry guards of a flow tell together, for a plan-time view.
type GuardSummary struct {
	// Present is true when the flow reads SAPJMSRetries anywhere.
	Present bool
	// Guard is the guard whose limit is reported: the one with the smallest known limit,
	// else the first guard. It is the zero value when Present is false.
	Guard RetryGuard
	// Places lists the kinds of all guards in document order, for example
	// ["exception_subprocess", "script"].
	Places []string
}

// SummarizeGuards picks the guard that decides the limit a plan can see: among the
// guards with a known limit, the smallest (it ends the message first); otherwise the
// first guard, whose limit is then a parameter without a value or not visible.
func SummarizeGuards(guards []RetryGuard) GuardSummary {
	if len(guards) == 0 {
		return GuardSummary{}
	}
	s := GuardSummary{Present: true, Guard: guards[0]}
	best := -1
	for i, g := range guards {
		s.Places = append(s.Places, g.Kind)
		if g.Limit.Known && (best < 0 || g.Limit.Value < guards[best].Limit.Value) {
			best = i
		}
	}
	if best >= 0 {
		s.Guard = guards[best]
	}
	return s
}

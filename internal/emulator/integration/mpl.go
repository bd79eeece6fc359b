package integration

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// Status values of message processing logs.
const (
	// MPLStatusCompleted: the execution succeeded (or its exception subprocess ended in a Message End).
	MPLStatusCompleted = "COMPLETED"
	// MPLStatusFailed: the last failing execution before the sender settled the message (NACK or undeliverable).
	MPLStatusFailed = "FAILED"
	// MPLStatusRetry: a failing execution that the sender's retry loop runs again.
	MPLStatusRetry = "RETRY"
	// MPLStatusEscalated: the execution ended in an Escalation End; the message was consumed.
	MPLStatusEscalated = "ESCALATED"
)

// MessageProcessingLog is the log of one execution of a deployed flow, as
// GET /api/v1/MessageProcessingLogs lists it (property names as SAP's
// MessageProcessingLog entity).
type MessageProcessingLog struct {
	MessageGuid string `json:"MessageGuid"`
	// CorrelationID is the same for every execution of one message.
	CorrelationID string `json:"CorrelationId"`
	// ApplicationMessageID is the broker's message id.
	ApplicationMessageID string `json:"ApplicationMessageId"`
	// IntegrationFlowName is the id of the integration flow.
	IntegrationFlowName string    `json:"IntegrationFlowName"`
	Status              string    `json:"Status"`
	LogStart            time.Time `json:"LogStart"`
	LogEnd              time.Time `json:"LogEnd"`
	Sender              string    `json:"Sender"`
	Receiver            string    `json:"Receiver"`
	// ArtifactName and PackageID describe the integration flow.
	ArtifactName string `json:"ArtifactName"`
	PackageID    string `json:"PackageId"`
	// Queue, DeliveryCount, Attempt and Duplicate are the emulator's own:
	// the queue consumed, the broker's delivery count of the message, the
	// number of the execution within its delivery (from 1), and whether the
	// delivery's redelivery lock had expired.
	Queue         string `json:"Queue"`
	DeliveryCount int64  `json:"DeliveryCount"`
	Attempt       int64  `json:"Attempt"`
	Duplicate     bool   `json:"Duplicate"`
}

// newMPLID returns an id shaped like Cloud Integration's message GUIDs and
// correlation ids: 28 characters of URL-safe base64 starting with "AG".
func newMPLID() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return "AG" + base64.RawURLEncoding.EncodeToString(b)[:26]
}

// MessageProcessingLogs returns the processing logs of integration flow id
// in the order the executions ended; id "" returns the logs of every flow.
func (s *Runtime) MessageProcessingLogs(id string) []MessageProcessingLog {
	rt := s.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := []MessageProcessingLog{}
	for _, l := range rt.logs {
		if id == "" || l.IntegrationFlowName == id {
			out = append(out, l)
		}
	}
	return out
}

// mplSet is the entity set of message processing logs.
const mplSet = "MessageProcessingLogs"

// mplJSON is the OData v2 wire shape of a MessageProcessingLog.
type mplJSON struct {
	Metadata             cpiMetadataJSON `json:"__metadata"`
	MessageGuid          string          `json:"MessageGuid"`
	CorrelationID        string          `json:"CorrelationId"`
	ApplicationMessageID string          `json:"ApplicationMessageId"`
	ApplicationMessageTy string          `json:"ApplicationMessageType"`
	LogStart             string          `json:"LogStart"`
	LogEnd               string          `json:"LogEnd"`
	Sender               string          `json:"Sender"`
	Receiver             string          `json:"Receiver"`
	IntegrationFlowName  string          `json:"IntegrationFlowName"`
	Status               string          `json:"Status"`
	AlternateWebLink     string          `json:"AlternateWebLink"`
	IntegrationArtifact  mplArtifactJSON `json:"IntegrationArtifact"`
	LogLevel             string          `json:"LogLevel"`
	CustomStatus         string          `json:"CustomStatus"`
	TransactionID        string          `json:"TransactionId"`
}

type mplArtifactJSON struct {
	Metadata struct {
		Type string `json:"type"`
	} `json:"__metadata"`
	ID          string `json:"Id"`
	Name        string `json:"Name"`
	Type        string `json:"Type"`
	PackageID   string `json:"PackageId"`
	PackageName string `json:"PackageName"`
}

func (l *MessageProcessingLog) wire(base string) mplJSON {
	uri := base + "/" + mplSet + "(" + odataLiteral(l.MessageGuid) + ")"
	art := mplArtifactJSON{ID: l.IntegrationFlowName, Name: l.ArtifactName, Type: cpiTypeIFlow, PackageID: l.PackageID, PackageName: l.PackageID}
	art.Metadata.Type = cpiEntityPrefix + "IntegrationArtifact"
	if art.Name == "" {
		art.Name = l.IntegrationFlowName
	}
	return mplJSON{
		Metadata:    cpiMetadataJSON{ID: uri, URI: uri, Type: cpiEntityPrefix + "MessageProcessingLog"},
		MessageGuid: l.MessageGuid, CorrelationID: l.CorrelationID, ApplicationMessageID: l.ApplicationMessageID,
		LogStart: odataDate(l.LogStart), LogEnd: odataDate(l.LogEnd), Sender: l.Sender, Receiver: l.Receiver,
		IntegrationFlowName: l.IntegrationFlowName, Status: l.Status,
		AlternateWebLink:    strings.TrimSuffix(base, core.CloudIntegrationBasePath) + "/shell/monitoring/MessageDetails/" + url.PathEscape(l.MessageGuid),
		IntegrationArtifact: art, LogLevel: "INFO", CustomStatus: l.Status, TransactionID: strings.ToLower(strings.ReplaceAll(l.MessageGuid, "-", "")),
	}
}

// cpiListMPL answers GET MessageProcessingLogs with $filter, $orderby, $top,
// $skip and $inlinecount=allpages.
func (s *CloudIntegration) cpiListMPL(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	logs := s.runtime.MessageProcessingLogs("")
	if f := strings.TrimSpace(q.Get("$filter")); f != "" {
		pred, err := parseMPLFilter(f)
		if err != nil {
			respondODataError(w, http.StatusBadRequest, "Invalid $filter: "+err.Error())
			return
		}
		kept := logs[:0]
		for i := range logs {
			if pred(&logs[i]) {
				kept = append(kept, logs[i])
			}
		}
		logs = kept
	}
	if o := strings.TrimSpace(q.Get("$orderby")); o != "" {
		less, err := parseMPLOrderBy(o)
		if err != nil {
			respondODataError(w, http.StatusBadRequest, "Invalid $orderby: "+err.Error())
			return
		}
		sort.SliceStable(logs, func(i, j int) bool { return less(&logs[i], &logs[j]) })
	}
	total := len(logs)
	skip, err := odataCount(q, "$skip")
	if err != nil {
		respondODataError(w, http.StatusBadRequest, err.Error())
		return
	}
	top, err := odataCount(q, "$top")
	if err != nil {
		respondODataError(w, http.StatusBadRequest, err.Error())
		return
	}
	logs = logs[min(skip, len(logs)):]
	if q.Has("$top") {
		logs = logs[:min(top, len(logs))]
	}
	base := cpiBaseURI(r)
	out := make([]mplJSON, 0, len(logs))
	for i := range logs {
		out = append(out, logs[i].wire(base))
	}
	body := map[string]any{"results": out}
	switch strings.TrimSpace(q.Get("$inlinecount")) {
	case "", "none":
	case "allpages":
		body["__count"] = strconv.Itoa(total)
	default:
		respondODataError(w, http.StatusBadRequest, "Invalid $inlinecount: use allpages or none.")
		return
	}
	respondOData(w, http.StatusOK, body)
}

// cpiGetMPL answers GET MessageProcessingLogs('guid').
func (s *CloudIntegration) cpiGetMPL(w http.ResponseWriter, r *http.Request, req cpiRequest) {
	for _, l := range s.runtime.MessageProcessingLogs("") {
		if l.MessageGuid == req.id {
			respondOData(w, http.StatusOK, l.wire(cpiBaseURI(r)))
			return
		}
	}
	respondODataError(w, http.StatusNotFound, fmt.Sprintf("Message processing log '%s' not found.", req.id))
}

// odataCount reads a non-negative integer query option; 0 when absent.
func odataCount(q url.Values, name string) (int, error) {
	if !q.Has(name) {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(q.Get(name)))
	if err != nil || n < 0 {
		return 0, core.Msgf("Invalid %s: set a whole number from 0.", name)
	}
	return n, nil
}

// mplStringProps are the string properties $filter and $orderby accept.
var mplStringProps = map[string]func(*MessageProcessingLog) string{
	"MessageGuid":          func(l *MessageProcessingLog) string { return l.MessageGuid },
	"CorrelationId":        func(l *MessageProcessingLog) string { return l.CorrelationID },
	"ApplicationMessageId": func(l *MessageProcessingLog) string { return l.ApplicationMessageID },
	"IntegrationFlowName":  func(l *MessageProcessingLog) string { return l.IntegrationFlowName },
	"Status":               func(l *MessageProcessingLog) string { return l.Status },
	"CustomStatus":         func(l *MessageProcessingLog) string { return l.Status },
	"Sender":               func(l *MessageProcessingLog) string { return l.Sender },
	"Receiver":             func(l *MessageProcessingLog) string { return l.Receiver },
	"LogLevel":             func(*MessageProcessingLog) string { return "INFO" },
}

// mplDateProps are the date properties $filter and $orderby accept.
var mplDateProps = map[string]func(*MessageProcessingLog) time.Time{
	"LogStart": func(l *MessageProcessingLog) time.Time { return l.LogStart },
	"LogEnd":   func(l *MessageProcessingLog) time.Time { return l.LogEnd },
}

func mplPropNames() string {
	names := make([]string, 0, len(mplStringProps)+len(mplDateProps))
	for k := range mplStringProps {
		names = append(names, k)
	}
	for k := range mplDateProps {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// parseMPLOrderBy reads "Prop [asc|desc], ...".
func parseMPLOrderBy(src string) (func(a, b *MessageProcessingLog) bool, error) {
	type key struct {
		cmp  func(a, b *MessageProcessingLog) int
		desc bool
	}
	var keys []key
	for _, part := range strings.Split(src, ",") {
		f := strings.Fields(part)
		if len(f) == 0 || len(f) > 2 {
			return nil, core.Msgf("%q is not \"Property [asc|desc]\".", strings.TrimSpace(part))
		}
		k := key{}
		if len(f) == 2 {
			switch strings.ToLower(f[1]) {
			case "asc":
			case "desc":
				k.desc = true
			default:
				return nil, core.Msgf("the direction %q is neither asc nor desc.", f[1])
			}
		}
		if get, ok := mplStringProps[f[0]]; ok {
			k.cmp = func(a, b *MessageProcessingLog) int { return strings.Compare(get(a), get(b)) }
		} else if get, ok := mplDateProps[f[0]]; ok {
			k.cmp = func(a, b *MessageProcessingLog) int { return get(a).Compare(get(b)) }
		} else {
			return nil, core.Msgf("the property %q cannot be sorted; use one of %s.", f[0], mplPropNames())
		}
		keys = append(keys, k)
	}
	return func(a, b *MessageProcessingLog) bool {
		for _, k := range keys {
			c := k.cmp(a, b)
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	}, nil
}

// mplPredicate tests one processing log.
type mplPredicate func(*MessageProcessingLog) bool

// Token kinds of $filter expressions.
const (
	tokIdent = iota + 1
	tokString
	tokDate
	tokOpen
	tokClose
)

type filterToken struct {
	kind int
	text string
	date time.Time
}

// parseMPLFilter parses the $filter subset the emulator supports:
// comparisons "Property op literal" (op eq, ne, gt, ge, lt, le) on the
// string properties with '...' literals and on LogStart and LogEnd with
// datetime'...' literals, combined with and, or and parentheses.
func parseMPLFilter(src string) (mplPredicate, error) {
	toks, err := tokenizeFilter(src)
	if err != nil {
		return nil, err
	}
	p := &filterParser{toks: toks}
	pred, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, core.Msgf("unexpected %q after a complete expression.", p.toks[p.pos].text)
	}
	return pred, nil
}

func tokenizeFilter(src string) ([]filterToken, error) {
	var toks []filterToken
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(':
			toks = append(toks, filterToken{kind: tokOpen, text: "("})
			i++
		case c == ')':
			toks = append(toks, filterToken{kind: tokClose, text: ")"})
			i++
		case c == '\'':
			v, n, err := filterQuoted(src[i:])
			if err != nil {
				return nil, err
			}
			toks = append(toks, filterToken{kind: tokString, text: v})
			i += n
		case isFilterIdent(c):
			j := i
			for j < len(src) && isFilterIdent(src[j]) {
				j++
			}
			word := src[i:j]
			if j < len(src) && src[j] == '\'' && (word == "datetime" || word == "datetimeoffset") {
				v, n, err := filterQuoted(src[j:])
				if err != nil {
					return nil, err
				}
				t, err := parseFilterDate(v)
				if err != nil {
					return nil, err
				}
				toks = append(toks, filterToken{kind: tokDate, text: word + "'" + v + "'", date: t})
				i = j + n
				continue
			}
			toks = append(toks, filterToken{kind: tokIdent, text: word})
			i = j
		default:
			return nil, core.Msgf("the character %q is not expected at position %d.", c, i+1)
		}
	}
	return toks, nil
}

func isFilterIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == ':'
}

// filterQuoted reads a quoted literal (a doubled quote stands for one) and returns its
// value and length.
func filterQuoted(s string) (string, int, error) {
	v, n, ok := scanQuoted(s)
	if !ok {
		return "", 0, core.Msgf("a quoted literal is not closed.")
	}
	return v, n, nil
}

func parseFilterDate(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, core.Msgf("the date %q is not like 2025-01-31T12:00:00.", v)
}

type filterParser struct {
	toks []filterToken
	pos  int
}

func (p *filterParser) peekWord(word string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == tokIdent && p.toks[p.pos].text == word
}

func (p *filterParser) or() (mplPredicate, error) {
	return p.chain("or", p.and, true)
}

func (p *filterParser) and() (mplPredicate, error) {
	return p.chain("and", p.primary, false)
}

// chain parses the operands that the operator word joins, left to right, each through operand. The joined
// predicate is decided as soon as an operand yields decided: true for or, false for and.
func (p *filterParser) chain(word string, operand func() (mplPredicate, error), decided bool) (mplPredicate, error) {
	left, err := operand()
	if err != nil {
		return nil, err
	}
	for p.peekWord(word) {
		p.pos++
		right, err := operand()
		if err != nil {
			return nil, err
		}
		l := left
		left = func(m *MessageProcessingLog) bool {
			if l(m) == decided {
				return decided
			}
			return right(m)
		}
	}
	return left, nil
}

func (p *filterParser) primary() (mplPredicate, error) {
	if p.pos >= len(p.toks) {
		return nil, core.Msgf("the expression ends where a comparison is expected.")
	}
	if p.toks[p.pos].kind == tokOpen {
		p.pos++
		inner, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tokClose {
			return nil, core.Msgf("a parenthesis is not closed.")
		}
		p.pos++
		return inner, nil
	}
	if p.pos+3 > len(p.toks) {
		return nil, core.Msgf("the comparison starting at %q is incomplete; write Property eq 'value'.", p.toks[p.pos].text)
	}
	prop, op, lit := p.toks[p.pos], p.toks[p.pos+1], p.toks[p.pos+2]
	p.pos += 3
	if prop.kind != tokIdent || op.kind != tokIdent {
		return nil, core.Msgf("%q %q is not the start of a comparison like Property eq 'value'.", prop.text, op.text)
	}
	test, err := comparison(op.text)
	if err != nil {
		return nil, err
	}
	if get, ok := mplStringProps[prop.text]; ok {
		if lit.kind != tokString {
			return nil, core.Msgf("%s compares with a quoted string, not %q.", prop.text, lit.text)
		}
		v := lit.text
		return func(m *MessageProcessingLog) bool { return test(strings.Compare(get(m), v)) }, nil
	}
	if get, ok := mplDateProps[prop.text]; ok {
		if lit.kind != tokDate {
			return nil, core.Msgf("%s compares with datetime'2025-01-31T12:00:00', not %q.", prop.text, lit.text)
		}
		v := lit.date
		return func(m *MessageProcessingLog) bool { return test(get(m).Truncate(time.Millisecond).Compare(v)) }, nil
	}
	return nil, core.Msgf("the property %q cannot be filtered; use one of %s.", prop.text, mplPropNames())
}

func comparison(op string) (func(int) bool, error) {
	switch op {
	case "eq":
		return func(c int) bool { return c == 0 }, nil
	case "ne":
		return func(c int) bool { return c != 0 }, nil
	case "gt":
		return func(c int) bool { return c > 0 }, nil
	case "ge":
		return func(c int) bool { return c >= 0 }, nil
	case "lt":
		return func(c int) bool { return c < 0 }, nil
	case "le":
		return func(c int) bool { return c <= 0 }, nil
	}
	return nil, core.Msgf("the operator %q is not supported; use eq, ne, gt, ge, lt or le.", op)
}

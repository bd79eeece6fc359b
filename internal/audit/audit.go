// Package audit joins a landscape's Event Mesh queues with the deployed Cloud Integration flows
// that consume them, and reports every retry path with its worst case, the findings of the
// rules in internal/rules, a summary and a Mermaid diagram.
//
// Join and Run are pure: they take what Read (or a test) fetched and compute the report. All
// arithmetic and every rule come from internal/rules; this package only decides which rule
// applies to which object of the landscape and names the objects.
package audit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// Adapters of a path's sender channel.
const (
	AdapterAMQP = "AMQP"
	AdapterJMS  = "JMS"
	// AdapterWebhook is an Event Mesh webhook subscription pushing the queue's messages.
	AdapterWebhook = "WEBHOOK"
)

// Kinds of the objects a finding concerns.
const (
	ObjectQueue    = "queue"     // an Event Mesh queue
	ObjectJMSQueue = "jms_queue" // a Cloud Integration JMS queue
	ObjectFlow     = "flow"      // a deployed integration flow
	ObjectChannel  = "channel"   // a sender channel, named "<flow>/<channel>"
	ObjectWebhook  = "webhook"   // an Event Mesh webhook subscription
)

// Input is what the audit reads from the landscape.
type Input struct {
	// EventMesh and CloudIntegration tell which products were read.
	EventMesh, CloudIntegration bool
	// Queues are the Event Mesh queues.
	Queues []eventmesh.Queue
	// Deployed are the runtime artifacts of the tenant; only integration flows are audited.
	Deployed []cpi.RuntimeArtifact
	// Flows holds the content of each deployed flow by ID.
	Flows map[string]*cpi.Flow
	// Unreadable holds, by flow ID, why a deployed flow's content could not be read.
	Unreadable map[string]error
	// Packages maps a flow ID to its package ID; nil when the design time list was not read.
	Packages map[string]string
	// Webhooks are the Event Mesh webhook subscriptions; WebhooksRead says they were listed.
	Webhooks     []eventmesh.Webhook
	WebhooksRead bool
	// WebhooksErr is why they were not: ErrNoMessaging, or the failed list.
	WebhooksErr error
	// AEM tells that the Advanced Event Mesh queues were read; AEMQueues are they.
	AEM       bool
	AEMQueues []aem.Queue
}

// Filter selects what a report shows. The join always covers the whole landscape, so that a
// queue consumed by a flow of another package is not reported as unconsumed.
type Filter struct {
	// QueuePrefix keeps paths whose queue starts with it, and findings about such a queue
	// or about a flow that reads one.
	QueuePrefix string
	// Package keeps paths and findings of the flows of this package, and findings about the
	// queues they read.
	Package string
	// MinSeverity keeps findings at least this severe (rules.SeverityError is the most severe).
	MinSeverity rules.Severity
	// AcceptMessageLoss names the webhook subscriptions whose QoS 0 message loss the team has
	// accepted (a resource's accept_message_loss, which the landscape does not show): their
	// webhook.qos0_loses_messages is not reported, as the resource does not refuse it: they get the warning
	// webhook.qos0_loses_messages_accepted instead, as the resource's plan does.
	AcceptMessageLoss []string
}

// Path is one sender channel of a deployed flow with the queue it reads, or one webhook
// subscription with the queue it pushes (Adapter WEBHOOK; Flow and Channel empty).
type Path struct {
	Adapter string
	// Queue is the queue the channel reads: an Event Mesh queue for AMQP, a JMS queue for JMS.
	Queue string
	// QueueExists is false for an AMQP channel whose queue Event Mesh does not hold, or whose
	// queue is unknown because Event Mesh was not read (QueueKnown false).
	QueueExists, QueueKnown bool
	Flow, Channel           string
	Package                 string
	FlowStatus              string
	DeployedVersion         string
	// RedeliveryCount is R of the queue (0 also when the queue leaves it unset); nil when the
	// queue is unknown or missing, and for JMS.
	RedeliveryCount *int64
	// Retries is n, the AMQP sender's Max. Number of Retries; nil when empty (endless).
	Retries        *int64
	DeliveryStatus string
	// WorstCase is the most executions one always-failing message can cost; nil when unbounded
	// or not known. Unbounded says the executions have no bound; WorstCaseNote says why.
	WorstCase     *int64
	Unbounded     bool
	WorstCaseNote string
	// RuntimeUnknown is true when the runtime runs another version than the design time holds:
	// the API serves the design time's content only, so what runs is not known (WorstCase nil,
	// Unbounded false, WorstCaseNote saying what the design time would do).
	RuntimeUnknown bool
	// DeadMessageQueue is the queue's dead message queue ("" for none) and DeadMessageQueueTTL
	// its time to live in seconds (nil when it keeps messages for ever or does not exist).
	DeadMessageQueue    string
	DeadMessageQueueTTL *int64
	// EndEvents lists the end events of the flow's exception subprocesses, "<subprocess>: <kind>".
	EndEvents []string
	// RetryGuardLimit is the JMS flow's visible SAPJMSRetries limit; nil when none or not visible.
	RetryGuardLimit *int64
	// GiveUpMinutes is when a guarded JMS flow ends a failing message; DeletedAfterDays is when
	// the JMS queue's expiration deletes one the flow never ends.
	GiveUpMinutes    *int64
	DeletedAfterDays *int64
	// Webhook is the webhook subscription's name, QoS its quality of service (nil when the
	// answer had none), EndpointHost the host it pushes to, Paused whether it is paused (nil
	// when the answer had no state).
	Webhook      string
	QoS          *int64
	EndpointHost string
	Paused       *bool
	// The AEM sender's settings (nil or "" when the channel leaves them empty, and for other adapters):
	// MaxAttempts is m, RetryIntervalMs and MaxRetryIntervalMs the adapter's waits, RetryMultiplier its
	// backoff, and the three modes as read (upper case when known).
	MaxAttempts, RetryIntervalMs, MaxRetryIntervalMs     *int64
	RetryMultiplier                                      *float64
	ConsumerMode, AcknowledgementMode, SettlementOutcome string
	// End is where a poison message of an AEM path ends (rules.AEMEndDeadMessageQueue,
	// AEMEndDeletedUnlessEligible, AEMEndDeleted, AEMEndLost; a dead message queue cycle is Unbounded) and
	// TimeToEnd the adapter's waits and the broker's redelivery delays until then; "" and nil when unbounded,
	// unknown, or for other adapters.
	End       string
	TimeToEnd *time.Duration
	// AEMAdapter is the adapter of an AEM path's channel: iflow.ComponentTypeAEM (SAP's AdvancedEventMesh adapter)
	// or iflow.ComponentTypeSolace (Solace's own adapter, read with the same keys); "" for other adapters.
	// Unconfirmed are the sentences of what no source confirms about the channel (iflow
	// AEMSenderSettings.Unconfirmed), on which the path is computed; nil when there is none.
	AEMAdapter  string
	Unconfirmed []string
}

// ChannelLabel is the path's channel as findings name it: "<flow>/<channel>".
func (p Path) ChannelLabel() string { return p.Flow + "/" + p.Channel }

// ConsumerLabel names the path's consumer: "<flow>/<channel>", or "webhook <name>".
func (p Path) ConsumerLabel() string {
	if p.Adapter == AdapterWebhook {
		return "webhook " + p.Webhook
	}
	return p.ChannelLabel()
}

// Object is one object of the landscape a finding concerns.
type Object struct{ Kind, Name string }

// String is "<kind>:<name>".
func (o Object) String() string { return o.Kind + ":" + o.Name }

// Finding is a rule's finding about objects of the landscape.
type Finding struct {
	Rule     string
	Severity rules.Severity
	Summary  string
	// Message is the rule's detail, led by the object it concerns where the rule does not name
	// it; it ends with the fix.
	Message string
	Objects []Object
}

// Summary counts what a report holds.
type Summary struct {
	Errors, Warnings, Infos int
	Paths, UnboundedPaths   int
	Queues, Flows           int
	// Webhooks counts the webhook subscription paths listed.
	Webhooks      int
	NotAnalysable int
	// LargestWorstCase is the largest finite N_max and LargestWorstCasePath where it is
	// ("<queue> → <flow>/<channel>" or "<queue> → webhook <name>"); nil and "" without a finite path.
	LargestWorstCase     *int64
	LargestWorstCasePath string
	EventMesh            bool
	CloudIntegration     bool
	// AEM says the report covers Advanced Event Mesh: its queues were read, or AEM sender channel paths were
	// listed (without the AEM connection their queues' settings are unknown); AEMQueues counts the AEM queues
	// read (under the queue prefix) and AEMPaths the AEM sender channel paths listed.
	AEM                 bool
	AEMQueues, AEMPaths int
}

// Report is the audit's result.
type Report struct {
	Paths    []Path
	Findings []Finding
	Summary  Summary
	Diagram  string
}

// Run joins the input and returns the report the filter selects.
func Run(in Input, f Filter) Report {
	j := join(in, f.AcceptMessageLoss)
	return j.report(f)
}

// joined is the whole landscape joined, before filtering.
type joined struct {
	in        Input
	queues    map[string]*eventmesh.Queue
	paths     []Path
	findings  []Finding
	flowReads map[string][]string // queues each analysed flow reads
	unread    map[string]bool     // deployed flows that could not be analysed
	flows     int
	// expiration is the Expiration Period (days) of each JMS queue as the JMS receivers of the
	// deployed flows that fill it set it, the longest where several do.
	expiration map[string]int64
	// acceptLoss names the webhook subscriptions whose QoS 0 message loss is accepted.
	acceptLoss []string
	// aemQueues indexes the AEM queues by name, aemRuleQueues holds each as the rules check it, and
	// aemIsDMQ marks the dead message queues of other AEM queues (aem.go).
	aemQueues     map[string]*aem.Queue
	aemRuleQueues map[string]rules.AEMQueue
	aemIsDMQ      map[string]bool
}

func join(in Input, acceptLoss []string) *joined {
	j := &joined{in: in, queues: map[string]*eventmesh.Queue{}, flowReads: map[string][]string{}, unread: map[string]bool{}, acceptLoss: acceptLoss}
	for i := range in.Queues {
		j.queues[in.Queues[i].Name] = &in.Queues[i]
	}
	deployed := slices.Clone(in.Deployed)
	slices.SortFunc(deployed, func(a, b cpi.RuntimeArtifact) int { return strings.Compare(a.ID, b.ID) })
	j.expiration = jmsExpirations(in, deployed)
	j.indexAEMQueues()
	for _, rt := range deployed {
		if rt.Type != "" && rt.Type != cpi.TypeIntegrationFlow {
			continue
		}
		j.flows++
		j.flow(rt)
	}
	j.webhooks()
	j.queueFindings()
	j.connectionFindings()
	slices.SortStableFunc(j.findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Severity, b.Severity), strings.Compare(firstObject(a), firstObject(b)), strings.Compare(a.Rule, b.Rule))
	})
	return j
}

func firstObject(f Finding) string {
	if len(f.Objects) == 0 {
		return ""
	}
	return f.Objects[0].String()
}

// add records the findings of a rule about objs; subject leads a detail that does not name them.
func (j *joined) add(fs []rules.Finding, subject string, objs ...Object) {
	for _, f := range fs {
		msg := f.Detail
		if subject != "" {
			msg = subject + ": " + msg
		}
		j.findings = append(j.findings, Finding{Rule: f.Rule, Severity: f.Severity, Summary: f.Summary, Message: msg, Objects: slices.Clone(objs)})
	}
}

// flow joins one deployed flow: its version, its sender channels and its exception subprocesses.
func (j *joined) flow(rt cpi.RuntimeArtifact) {
	id := rt.ID
	flowObj := Object{ObjectFlow, id}
	f := j.in.Flows[id]
	if f == nil {
		reason := "its content was not read"
		if err := j.in.Unreadable[id]; err != nil {
			reason = err.Error()
		}
		j.unread[id] = true
		j.add(rules.FlowNotAnalysable(id, reason), "", flowObj)
		return
	}
	j.add(rules.CheckDeployedVersion(id, rt.Version, f.DesignVersion), "", flowObj)
	j.flowReads[id] = []string{}
	var subs []cpi.ExceptionSubprocess
	haveSender := false
	for _, s := range f.Artifact.JMSSenders() {
		js, err := f.JMSSender(s.ID)
		if err != nil {
			j.unread[id] = true
			j.add(rules.FlowNotAnalysable(id, err.Error()), "", flowObj)
			continue
		}
		if !haveSender {
			subs, haveSender = js.ExceptionSubprocesses, true
		}
		j.jmsPath(rt, js)
	}
	for _, s := range f.Artifact.AMQPSenders() {
		snd, err := f.Sender(s.ID)
		if err != nil {
			j.unread[id] = true
			j.add(rules.FlowNotAnalysable(id, err.Error()), "", flowObj)
			continue
		}
		if !haveSender {
			subs, haveSender = snd.ExceptionSubprocesses, true
		}
		j.amqpPath(rt, snd)
	}
	if j.aemPaths(rt, f) && !haveSender {
		subs, haveSender = exceptionSubprocesses(f), true
	}
	if rt.Version != "" && f.DesignVersion != "" && rt.Version != f.DesignVersion {
		for i := range j.paths {
			if j.paths[i].Flow == id {
				runtimeUnknown(&j.paths[i], rt.Version, f.DesignVersion)
			}
		}
	}
	if !haveSender {
		return
	}
	ends := endEvents(subs)
	for i := range j.paths {
		if j.paths[i].Flow == id {
			j.paths[i].EndEvents = ends
		}
	}
	j.add(rules.CheckExceptionSubprocesses(RuleSubprocesses(subs)), fmt.Sprintf("Integration flow %q", id), flowObj)
}

// runtimeUnknown marks path p of a flow whose runtime runs version deployed while its design
// time holds design: the settings analysed are the design time's, not the running ones.
func runtimeUnknown(p *Path, deployed, design string) {
	would := p.WorstCaseNote
	switch {
	case p.Unbounded:
		would = "no bound (" + p.WorstCaseNote + ")"
	case p.WorstCase != nil:
		would = fmt.Sprintf("%d executions (%s)", *p.WorstCase, p.WorstCaseNote)
	}
	p.RuntimeUnknown, p.Unbounded, p.WorstCase = true, false, nil
	p.WorstCaseNote = fmt.Sprintf("the runtime runs version %s, whose settings the API does not serve, so what runs is unknown (it may retry without end); "+
		"the design time's version %s, not deployed, would give %s", deployed, design, would)
}

func channelName(name, id string) string {
	if name != "" {
		return name
	}
	return id
}

func newPath(rt cpi.RuntimeArtifact, adapter, queue, channel string, pkgs map[string]string) Path {
	return Path{Adapter: adapter, Queue: queue, Flow: rt.ID, Channel: channel, Package: pkgs[rt.ID],
		FlowStatus: rt.Status, DeployedVersion: rt.Version}
}

// amqpPath joins an AMQP sender channel with the Event Mesh queue it reads.
func (j *joined) amqpPath(rt cpi.RuntimeArtifact, s *cpi.Sender) {
	p := newPath(rt, AdapterAMQP, s.QueueName, channelName(s.Name, s.FlowID), j.in.Packages)
	p.Retries = s.MaxRetries
	if s.DeliveryState != nil {
		p.DeliveryStatus = *s.DeliveryState
	}
	j.flowReads[rt.ID] = append(j.flowReads[rt.ID], s.QueueName)
	chObj := Object{ObjectChannel, p.ChannelLabel()}
	objs := []Object{chObj}
	if s.QueueName != "" {
		objs = append(objs, Object{ObjectQueue, s.QueueName})
	}
	objs = append(objs, Object{ObjectFlow, rt.ID})

	in := rules.AMQPSender{
		MaxNumberOfRetries:        nullable(s.MaxRetries),
		MaxPrefetchedMessages:     nullable(s.Prefetch),
		ConcurrentProcesses:       nullable(s.Concurrency),
		DeliveryStatus:            nullable(s.DeliveryState),
		QueueMaxRedeliveryCount:   rules.Unknown[int64](),
		MaxTotalAttempts:          rules.Null[int64](),
		ExpectedProcessingSeconds: rules.Null[int64](),
	}
	q := j.queues[s.QueueName]
	if j.in.EventMesh {
		p.QueueKnown = true
		p.QueueExists = q != nil
		j.add(rules.CheckConsumedQueueExists(fmt.Sprintf("%q of integration flow %q", p.Channel, rt.ID), s.QueueName, q != nil), "", objs...)
	}
	if q != nil {
		j.queueFacts(&p, q)
		in.QueueMaxRedeliveryCount = rules.Known(*p.RedeliveryCount)
	}
	j.add(rules.CheckAMQPSender(in), fmt.Sprintf("AMQP sender %s reading %q", p.ChannelLabel(), s.QueueName), objs...)
	amqpWorstCase(&p)
	j.paths = append(j.paths, p)
}

// queueFacts sets the path's R, dead message queue and its time to live from the queue q.
func (j *joined) queueFacts(p *Path, q *eventmesh.Queue) {
	r := int64(0)
	if q.MaxRedeliveryCount != nil {
		r = *q.MaxRedeliveryCount
	}
	p.RedeliveryCount = &r
	if q.DeadMsgQueue != nil {
		p.DeadMessageQueue = *q.DeadMsgQueue
		p.DeadMessageQueueTTL = ttlOf(j.queues[p.DeadMessageQueue])
	}
}

// amqpWorstCase sets the path's N_max = (R + 1) × n + 1, or why there is none.
func amqpWorstCase(p *Path) {
	switch {
	case p.Retries == nil:
		p.Unbounded = true
		p.WorstCaseNote = "Max. Number of Retries is empty: the sender retries a failing message in memory for ever"
	case *p.Retries == 0:
		p.WorstCaseNote = "Max. Number of Retries is 0: redelivered messages get their outcome unprocessed"
	case !p.QueueKnown:
		p.WorstCaseNote = "the queue's redelivery count is unknown without an Event Mesh connection"
	case !p.QueueExists:
		p.WorstCaseNote = "the queue does not exist"
	case p.DeliveryStatus == "MODIFIED_FAILED_UNDELIVERABLE":
		w := rules.AttemptsWithoutRedelivery(*p.Retries)
		p.WorstCase = &w
		p.WorstCaseNote = "MODIFIED_FAILED_UNDELIVERABLE cancels the redelivery: n + 1 executions, then the message is dropped without reaching the dead message queue"
	case *p.RedeliveryCount == 0:
		p.Unbounded = true
		p.WorstCaseNote = "R = 0 means unlimited redelivery in Event Mesh"
	default:
		n, err := rules.MaxAttempts(*p.RedeliveryCount, *p.Retries)
		if err != nil {
			p.WorstCaseNote = err.Error()
			return
		}
		p.WorstCase = &n
		p.WorstCaseNote = fmt.Sprintf("(R + 1) × n + 1 = (%d + 1) × %d + 1", *p.RedeliveryCount, *p.Retries)
	}
}

// jmsPath reads a JMS sender channel with its flow's retry guard.
func (j *joined) jmsPath(rt cpi.RuntimeArtifact, s *cpi.JMSSender) {
	p := newPath(rt, AdapterJMS, s.QueueName, channelName(s.Name, s.FlowID), j.in.Packages)
	p.QueueExists, p.QueueKnown = true, true
	j.flowReads[rt.ID] = append(j.flowReads[rt.ID], s.QueueName)
	objs := []Object{{ObjectChannel, p.ChannelLabel()}}
	if s.QueueName != "" {
		objs = append(objs, Object{ObjectJMSQueue, s.QueueName})
	}
	objs = append(objs, Object{ObjectFlow, rt.ID})

	summary := iflow.SummarizeGuards(s.Guards)
	guard := rules.JMSRetryGuard{Present: rules.Known(summary.Present), Limit: rules.Null[int64]()}
	if summary.Present {
		guard.Operator = summary.Guard.Operator
		if summary.Guard.Limit.Known {
			guard.Limit = rules.Known(summary.Guard.Limit.Value)
			limit := summary.Guard.Limit.Value
			p.RetryGuardLimit = &limit
		}
	}
	in := rules.JMSSender{
		AccessType:          rules.Null[string](),
		RetryInterval:       nullable(s.RetryInterval),
		MaxRetryInterval:    nullable(s.MaxRetryInterval),
		ConcurrentProcesses: nullable(s.Concurrency),
		ExponentialBackoff:  nullable(s.ExponentialBackoff),
		DeadLetterQueue:     nullable(s.DeadLetterQueue),
		MaxRetries:          rules.Null[int64](),
		ExpirationDays:      rules.Null[int64](),
		Guard:               guard,
	}
	if s.AccessType != "" {
		in.AccessType = rules.Known(s.AccessType)
	}
	days, known := j.expiration[s.QueueName]
	if known {
		in.ExpirationDays = rules.Known(days)
	} else {
		days = rules.DefaultJMSExpirationDays
	}
	j.add(rules.CheckJMSSender(in), fmt.Sprintf("JMS sender %s reading %q", p.ChannelLabel(), s.QueueName), objs...)
	jmsWorstCase(&p, s, summary.Present, strings.EqualFold(s.AccessType, rules.JMSAccessExclusive), guard, days, known)
	j.paths = append(j.paths, p)
}

// jmsWorstCase sets the executions of one always-failing message on a JMS path: ended by the
// flow's guard, or retried until the queue's expiration period deletes it: days, as the JMS
// receiver of a deployed flow that fills the queue sets it (known), else SAP's default of 30.
func jmsWorstCase(p *Path, s *cpi.JMSSender, guarded, exclusive bool, g rules.JMSRetryGuard, days int64, known bool) {
	sch := rules.JMSSchedule{RetryInterval: rules.DefaultJMSRetryInterval, MaxRetryInterval: rules.DefaultJMSMaxRetryInterval, ExponentialBackoff: true}
	if s.RetryInterval != nil {
		sch.RetryInterval = *s.RetryInterval
	}
	if s.MaxRetryInterval != nil {
		sch.MaxRetryInterval = *s.MaxRetryInterval
	}
	if s.ExponentialBackoff != nil {
		sch.ExponentialBackoff = *s.ExponentialBackoff
	}
	if err := sch.Validate(); err != nil {
		p.WorstCaseNote = err.Error()
		return
	}
	if exclusive || !guarded {
		retries, err := sch.RetriesWithin(days * 24 * 60)
		if err != nil {
			p.WorstCaseNote = err.Error()
			return
		}
		w := retries + 1
		p.WorstCase, p.DeletedAfterDays = &w, &days
		why := "no retry guard on SAPJMSRetries"
		if exclusive {
			why = "an exclusive queue, whose retries no guard can count"
		}
		source := "SAP's default; no deployed flow's JMS receiver sets it"
		if known {
			source = "the Expiration Period of the JMS receiver that fills the queue"
		}
		p.WorstCaseNote = fmt.Sprintf("%s: retried until the queue's expiration period of %d days (%s) deletes the message, %d executions and a silent loss", why, days, source, w)
		return
	}
	if g.Limit.Null {
		p.WorstCaseNote = "the flow's retry guard compares SAPJMSRetries with a limit that is not visible"
		return
	}
	stop := rules.JMSGuardStopRetry(g.Limit.V, g.Operator)
	w := rules.JMSWorstCase(g.Limit.V, g.Operator)
	p.WorstCase = &w
	if m, err := sch.GiveUpMinutes(stop); err == nil {
		p.GiveUpMinutes = &m
	}
	p.WorstCaseNote = fmt.Sprintf("the flow's guard ends the message on retry %d: %d executions", stop, w)
}

// jmsExpirations reads the Expiration Period of the JMS receivers of the analysed deployed flows,
// by the queue they fill; where several set one queue's, the longest, which lets a failing
// message run longest. A period that is not a whole number of days from 1 to 180 is left out.
func jmsExpirations(in Input, deployed []cpi.RuntimeArtifact) map[string]int64 {
	out := map[string]int64{}
	for _, rt := range deployed {
		f := in.Flows[rt.ID]
		if f == nil || f.Artifact == nil || f.Artifact.Model == nil {
			continue
		}
		configs := make(map[string]string, len(f.Configurations))
		for k, c := range f.Configurations {
			configs[k] = c.Value
		}
		params := f.Artifact.ParameterValues(configs)
		for _, rc := range f.Artifact.Model.JMSReceivers() {
			queue := rc.Setting(iflow.KeyJMSQueueOutbound, params)
			days, ok := rc.Setting(iflow.KeyJMSExpirationPeriod, params).Int()
			if !queue.Resolved || !ok || days < 1 || days > rules.JMSMaxExpirationDays {
				continue
			}
			name := strings.TrimSpace(queue.Value)
			out[name] = max(out[name], days)
		}
	}
	return out
}

// queueFindings applies the queue rules to every queue, and the join's rules: missing dead
// message queues, cycles, competing consumers, unconsumed queues.
func (j *joined) queueFindings() {
	var unread []string
	for id := range j.unread {
		unread = append(unread, id)
	}
	slices.Sort(unread)
	j.aemQueueFindings(unread)
	consumers := map[string][]string{}
	for _, p := range j.paths {
		if (p.Adapter == AdapterAMQP || p.Adapter == AdapterWebhook) && p.QueueExists {
			consumers[p.Queue] = append(consumers[p.Queue], p.ConsumerLabel())
		}
	}
	links := map[string]string{}
	isDMQ := map[string]bool{}
	for _, q := range j.in.Queues {
		if q.DeadMsgQueue != nil && *q.DeadMsgQueue != "" {
			links[q.Name] = *q.DeadMsgQueue
			isDMQ[*q.DeadMsgQueue] = true
		}
	}
	for _, q := range j.in.Queues {
		obj := Object{ObjectQueue, q.Name}
		subject := fmt.Sprintf("Queue %q", q.Name)
		fs := rules.CheckQueue(ruleQueue(q, isDMQ[q.Name]))
		if isDMQ[q.Name] && links[q.Name] != "" {
			// A dead message queue that names a dead message queue of its own (itself, a cycle, a
			// chain) is also an ordinary queue: messages fail on it and are redelivered, so its
			// redelivery count matters as on any queue. The dead message queue rules above skip it.
			for _, f := range rules.CheckQueue(ruleQueue(q, false)) {
				if f.Rule == "queue.redelivery_unlimited" {
					fs = append(fs, f)
				}
			}
		}
		if len(consumers[q.Name]) > 0 {
			// The consumer's amqp.queue_redelivery_unlimited or webhook.redelivery_unlimited names the path.
			fs = slices.DeleteFunc(fs, func(f rules.Finding) bool { return f.Rule == "queue.redelivery_unlimited" })
		}
		j.add(fs, subject, obj)
		dmq := links[q.Name]
		if dmq != "" {
			_, exists := j.queues[dmq]
			j.add(rules.CheckDeadMessageQueueExists(q.Name, dmq, exists), "", obj, Object{ObjectQueue, dmq})
			if cycle := cycleOf(q.Name, links); cycle == nil || slices.Min(cycle) == q.Name {
				// A cycle is reported once, at its first queue by name.
				j.add(rules.CheckDeadMessageQueueLinks(q.Name, dmq, rules.LinkSet{Current: links}), subject, obj, Object{ObjectQueue, dmq})
			}
		}
		access := ""
		if q.AccessType != nil {
			access = *q.AccessType
		}
		j.add(rules.CheckExclusiveConsumers(q.Name, access, consumers[q.Name]), "", obj)
		if j.in.CloudIntegration && j.in.EventMesh && len(consumers[q.Name]) == 0 && !isDMQ[q.Name] {
			j.add(rules.CheckUnconsumedQueue(q.Name, j.in.WebhooksRead, unread), "", obj)
		}
	}
}

// cycleOf returns the queues of the dead message queue cycle queue is on, or nil.
func cycleOf(queue string, links map[string]string) []string {
	seen := []string{queue}
	for at := links[queue]; at != ""; at = links[at] {
		if at == queue {
			return seen
		}
		if slices.Contains(seen, at) {
			return nil // a cycle further on, not through queue
		}
		seen = append(seen, at)
	}
	return nil
}

func ruleQueue(q eventmesh.Queue, dmq bool) rules.Queue {
	return rules.Queue{
		Name:                           rules.Known(q.Name),
		AccessType:                     nullable(q.AccessType),
		DeadMessageQueue:               nullable(q.DeadMsgQueue),
		MaxRedeliveryCount:             nullable(q.MaxRedeliveryCount),
		MaxTTL:                         nullable(q.MaxTTL),
		RespectTTL:                     nullable(q.RespectTTL),
		MaxQueueSizeInBytes:            nullable(q.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          nullable(q.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           nullable(q.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: nullable(q.MaxDeliveredUnackedMsgsPerFlow),
		IsDeadMessageQueue:             dmq,
	}
}

// ttlOf is the time to live a dead message queue applies, nil when it keeps messages for ever.
func ttlOf(q *eventmesh.Queue) *int64 {
	if q == nil || q.RespectTTL == nil || !*q.RespectTTL || q.MaxTTL == nil {
		return nil
	}
	v := *q.MaxTTL
	return &v
}

func nullable[T comparable](p *T) rules.Value[T] {
	if p == nil {
		return rules.Null[T]()
	}
	return rules.Known(*p)
}

// RuleSubprocesses is a flow's exception subprocesses as the rules take them; the sender
// resources check a channel's flow with it as the audit does.
func RuleSubprocesses(sps []cpi.ExceptionSubprocess) []rules.ExceptionSubprocess {
	out := make([]rules.ExceptionSubprocess, 0, len(sps))
	for _, sp := range sps {
		kinds := make([]rules.EndEventKind, 0, len(sp.EndEvents))
		for _, k := range sp.EndEvents {
			kinds = append(kinds, rules.EndEventKind(k))
		}
		out = append(out, rules.ExceptionSubprocess{ID: sp.ID, Name: sp.Name, EndEvents: kinds, GuardsRetries: sp.GuardsRetries})
	}
	return out
}

func endEvents(sps []cpi.ExceptionSubprocess) []string {
	out := []string{}
	for _, sp := range sps {
		for _, k := range sp.EndEvents {
			out = append(out, channelName(sp.Name, sp.ID)+": "+k)
		}
	}
	return out
}

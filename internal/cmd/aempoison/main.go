// Command aempoison runs one poison message through two queues of the Advanced Event Mesh (AEM) broker
// of a running SAP API emulator and prints, side by side, what the broker does with it:
//
//   - queue A (demo.aem.defaults) has the broker's defaults, with ingress and egress switched on so that
//     it takes and delivers messages at all: maxRedeliveryCount 0 ("retry forever"), no redelivery
//     delay, the dead message queue #DEAD_MSG_QUEUE, which does not exist. The message is delivered as
//     fast as the consumer fails it, for ever: the run stops at -deliveries deliveries with the message
//     still on the queue.
//   - queue B (demo.aem.orders) has the settings the provider's example gives a queue: max_redelivery_count
//     5, the redelivery delay on (the broker's 1 s, × 2, at most 64 s) and a dead message queue with a
//     time to live (demo.aem.orders.dmq). The message is delivered the number of times internal/rules
//     plans (AEMDeliveries), on the delay schedule (AEMRedeliveryDelay), and then lies on the DMQ.
//
// The command creates the three queues through SEMP v2 (internal/aem), publishes one message to A and
// one to B through Solace REST messaging (POST /QUEUE/{name} on the broker's listener), and lets the
// emulator's poison-run control endpoint consume them: a consumer that fails every delivery at once.
// The prediction comes from the settings the command sends, read through internal/rules. It fails when
// B's deliveries, their times or the message's end differ from the plan, or when A stops retrying.
//
// With a Cloud Integration service key (-cloud-integration-key, default
// $SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY) it then runs three integration flows whose AdvancedEventMesh
// sender channel consumes an AEM queue (sender.go): it deploys each through the emulator's Cloud Integration
// API, makes every run fail, publishes one message to its queue, and prints the runs the emulator observed
// beside the plan's N_max and the end (DMQ, deleted, lost) with its time beside the plan's; it fails when
// they differ.
//
// The broker's credentials come from the advanced-event-mesh.json file the emulator writes (-aem-key),
// or from SAPMESSAGING_AEM_SEMP_URL, SAPMESSAGING_AEM_MSG_VPN_NAME, SAPMESSAGING_AEM_USERNAME and
// SAPMESSAGING_AEM_PASSWORD. Run the emulator with a short -aem-minute (for example 10ms) so that B's
// 31 s of redelivery delays pass at once.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatorcontrol"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

func main() { cmdkit.Main(run) }

// Queue names of the demo.
const (
	queueDefaults = "demo.aem.defaults"
	queueProvider = "demo.aem.orders"
	queueDMQ      = "demo.aem.orders.dmq"
	// dmqTTL is the time to live of the dead message queue, 7 days, as the provider's examples give it.
	dmqTTL = 604800
)

// queueSpec is one queue the command creates.
type queueSpec struct {
	label string // how the output names its settings
	queue aem.Queue
}

// defaultsQueue is queue A: the broker's defaults, opened for messages.
func defaultsQueue() queueSpec {
	return queueSpec{label: "broker defaults", queue: aem.Queue{Name: queueDefaults, QueueSettings: aem.QueueSettings{
		IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true)}}}
}

// providerQueue is queue B: the settings of the provider's example.
func providerQueue() queueSpec {
	return queueSpec{label: "provider settings", queue: aem.Queue{Name: queueProvider, QueueSettings: aem.QueueSettings{
		IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
		MaxRedeliveryCount: aem.Ptr[int64](5), DeadMsgQueue: aem.Ptr(queueDMQ), RedeliveryDelayEnabled: aem.Ptr(true)}}}
}

// dmqQueue is B's dead message queue: it takes messages and keeps them for 7 days.
func dmqQueue() aem.Queue {
	return aem.Queue{Name: queueDMQ, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
		RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](dmqTTL)}}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := cmdkit.NewFlags("aempoison", stderr)
	key := fs.String("aem-key", "", "the broker's `file` advanced-event-mesh.json (semp_url, msg_vpn_name, username, password); default the SAPMESSAGING_AEM_ variables")
	emulatorURL := fs.String("emulator", os.Getenv("EMULATOR_URL"), "base `URL` of the running emulator, for its control endpoint (default $EMULATOR_URL, else the SEMP URL)")
	maxDeliveries := fs.Int("deliveries", 1000, "how many deliveries of queue A's message the run watches before it stops (1..10000)")
	ciKey := fs.String("cloud-integration-key", os.Getenv("SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY"), "Cloud Integration service key `file` or JSON for the AEM sender flows (default $SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY; empty: no sender flows)")
	timeout := fs.Duration("timeout", 90*time.Second, "how long to wait for the whole run")
	if !cmdkit.Parse(fs, args, stderr) {
		return 2
	}
	if *maxDeliveries < 1 || *maxDeliveries > 10000 {
		fmt.Fprintf(stderr, "aempoison: -deliveries %d is outside 1..10000; set a value in that range\n", *maxDeliveries)
		return 2
	}
	creds, err := loadCredentials(*key, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "aempoison: %v\n", err)
		return 2
	}
	control := *emulatorURL
	if control == "" {
		control = creds.SEMPURL
	}
	cl, err := newClient(creds, control)
	if err != nil {
		fmt.Fprintf(stderr, "aempoison: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	res, err := cl.replay(ctx, *maxDeliveries)
	if err != nil {
		fmt.Fprintf(stderr, "aempoison: %v\n", cmdkit.Unfinished(ctx, err, "run", *timeout))
		return 1
	}
	if !res.print(stdout, stderr) {
		return 1
	}
	if *ciKey == "" {
		return 0
	}
	ci, err := newCPIClient(*ciKey)
	if err != nil {
		fmt.Fprintf(stderr, "aempoison: %v\n", err)
		return 2
	}
	senders, err := cl.replaySenders(ctx, ci)
	if err != nil {
		fmt.Fprintf(stderr, "aempoison: %v\n", cmdkit.Unfinished(ctx, err, "run", *timeout))
		return 1
	}
	if !printSenders(senders, stdout, stderr) {
		return 1
	}
	return 0
}

// credentials are the broker's management access, as the emulator writes them.
type credentials struct {
	SEMPURL    string `json:"semp_url"`
	MsgVpnName string `json:"msg_vpn_name"`
	Username   string `json:"username"`
	Password   string `json:"password"`
}

// loadCredentials reads the key file, or the SAPMESSAGING_AEM_ variables without one.
func loadCredentials(file string, getenv func(string) string) (credentials, error) {
	var c credentials
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return c, fmt.Errorf("reading the AEM key file: %w", err)
		}
		if err := json.Unmarshal(b, &c); err != nil {
			return c, fmt.Errorf("the AEM key file %s is not the JSON the emulator writes: %w", file, err)
		}
	} else {
		c = credentials{SEMPURL: getenv("SAPMESSAGING_AEM_SEMP_URL"), MsgVpnName: getenv("SAPMESSAGING_AEM_MSG_VPN_NAME"),
			Username: getenv("SAPMESSAGING_AEM_USERNAME"), Password: getenv("SAPMESSAGING_AEM_PASSWORD")}
	}
	var missing []string
	for name, v := range map[string]string{"semp_url": c.SEMPURL, "msg_vpn_name": c.MsgVpnName, "username": c.Username, "password": c.Password} {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return c, fmt.Errorf("the broker's credentials lack %s; set -aem-key to the advanced-event-mesh.json the emulator writes, or the SAPMESSAGING_AEM_ variables",
			strings.Join(missing, ", "))
	}
	return c, nil
}

type client struct {
	semp       *aem.Client
	h          *httpx.Client
	controlURL string
}

func newClient(c credentials, emulatorURL string) (*client, error) {
	cfg := aem.HTTPConfig(c.SEMPURL, c.Username, c.Password)
	cfg.MaxRetries = -1 // a publish repeated after a lost answer would put a second message on the queue
	cfg.RequestTimeout = 70 * time.Second
	cfg.UserAgent = "sapmessaging-aempoison"
	h, err := httpx.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("the SEMP URL: %w", err)
	}
	semp, err := aem.New(h, c.MsgVpnName)
	if err != nil {
		return nil, err
	}
	control, err := cmdkit.ControlURL(emulatorURL)
	if err != nil {
		return nil, err
	}
	return &client{semp: semp, h: h, controlURL: control}, nil
}

// rulesQueue reads queue settings as the rules see a configuration: what the settings leave out is
// the broker's default (null). dmqExists says whether the broker holds the queue's dead message queue.
func rulesQueue(q aem.Queue, dmqExists bool) rules.AEMQueue {
	s := q.QueueSettings
	return rules.AEMQueue{
		Name:                           rules.Known(q.Name),
		DeadMessageQueue:               value(s.DeadMsgQueue),
		MaxRedeliveryCount:             value(s.MaxRedeliveryCount),
		MaxTTL:                         value(s.MaxTTL),
		RedeliveryEnabled:              value(s.RedeliveryEnabled),
		RedeliveryDelayEnabled:         value(s.RedeliveryDelayEnabled),
		RespectTTL:                     value(s.RespectTTLEnabled),
		RedeliveryDelayInitialInterval: value(s.RedeliveryDelayInitialInterval),
		RedeliveryDelayMaxInterval:     value(s.RedeliveryDelayMaxInterval),
		RedeliveryDelayMultiplier:      value(s.RedeliveryDelayMultiplier),
		IngressEnabled:                 value(s.IngressEnabled),
		EgressEnabled:                  value(s.EgressEnabled),
		RespectDMQEligible:             value(s.RespectDmqEligibleEnabled),
		DeadMessageQueueExists:         rules.Known(dmqExists),
	}
}

func value[T comparable](p *T) rules.Value[T] {
	if p == nil {
		return rules.Null[T]()
	}
	return rules.Known(*p)
}

func or[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// plan is what the rules say about a queue.
type plan struct {
	deliveries int64 // 0 when unlimited
	unlimited  bool
	offsets    []time.Duration // time of each delivery after the first, with the configured delay
	text       string          // rules.AEMRetryPlan
	findings   []rules.Finding
}

func planFor(q aem.Queue, dmqExists bool) plan {
	s := q.QueueSettings
	rq := rulesQueue(q, dmqExists)
	p := plan{text: rules.AEMRetryPlan(rq), findings: rules.CheckAEMQueue(rq)}
	p.deliveries, p.unlimited = rules.AEMDeliveries(or(s.RedeliveryEnabled, true), or(s.MaxRedeliveryCount, 0))
	if !p.unlimited {
		delay := or(s.RedeliveryDelayEnabled, false)
		initial := or(s.RedeliveryDelayInitialInterval, rules.AEMDefaultRedeliveryInitialMs)
		maxMs := or(s.RedeliveryDelayMaxInterval, rules.AEMDefaultRedeliveryMaxMs)
		mult := or(s.RedeliveryDelayMultiplier, rules.AEMDefaultRedeliveryMultiplier)
		for k := int64(0); k < p.deliveries; k++ {
			p.offsets = append(p.offsets, rules.AEMTimeToDeadLetter(k, delay, initial, maxMs, mult))
		}
	}
	return p
}

// poisonRun is the answer of the emulator's poison-run control endpoint.
type poisonRun struct {
	Deliveries []struct {
		DeliveryCount int64 `json:"deliveryCount"`
		AfterMs       int64 `json:"afterMs"`
	} `json:"deliveries"`
	Where string `json:"where"`
}

// side is one queue's run.
type side struct {
	spec      queueSpec
	plan      plan
	run       poisonRun
	left      int  // messages on the queue after the run
	dmqExists bool // the broker holds the queue's dead message queue
	dmqLeft   int  // messages on its dead message queue after the run, -1 when it has none
}

type result struct {
	maxDeliveries int
	a, b          side
}

// replay creates the queues afresh, publishes one message to each of A and B and runs the poison
// consumer on both.
func (cl *client) replay(ctx context.Context, maxDeliveries int) (*result, error) {
	a, b, dmq := defaultsQueue(), providerQueue(), dmqQueue()
	for _, name := range []string{a.queue.Name, b.queue.Name, dmq.Name} {
		if err := cl.semp.DeleteQueue(ctx, name); err != nil && !errors.Is(err, aem.ErrNotFound) {
			return nil, fmt.Errorf("removing queue %s of an earlier run: %w", name, err)
		}
	}
	for _, q := range []aem.Queue{dmq, b.queue, a.queue} {
		if _, err := cl.semp.CreateQueue(ctx, q); err != nil {
			return nil, err
		}
	}
	// A names the broker's default #DEAD_MSG_QUEUE: does it exist?
	aDMQ := or(a.queue.DeadMsgQueue, rules.AEMDefaultDeadMsgQueue)
	_, err := cl.semp.GetQueue(ctx, aDMQ)
	aDMQExists := err == nil
	if err != nil && !errors.Is(err, aem.ErrNotFound) {
		return nil, err
	}
	res := &result{maxDeliveries: maxDeliveries, a: side{spec: a, plan: planFor(a.queue, aDMQExists), dmqExists: aDMQExists, dmqLeft: -1},
		b: side{spec: b, plan: planFor(b.queue, true), dmqExists: true}}
	for _, s := range []*side{&res.a, &res.b} {
		if err := cl.publish(ctx, s.spec.queue.Name); err != nil {
			return nil, err
		}
	}
	for _, s := range []*side{&res.a, &res.b} {
		n := maxDeliveries
		if !s.plan.unlimited {
			n = int(min(int64(maxDeliveries), s.plan.deliveries+1)) // one more than planned: a delivery too many shows
		}
		path := fmt.Sprintf("/aem/queues/%s/poison-run?deliveries=%d", url.PathEscape(s.spec.queue.Name), n)
		if err := emulatorcontrol.Call(ctx, cl.controlURL, http.MethodPost, path, "", &s.run); err != nil {
			return nil, err
		}
		msgs, err := cl.semp.ListMessages(ctx, s.spec.queue.Name)
		if err != nil {
			return nil, err
		}
		s.left = len(msgs)
		if s.dmqLeft == 0 {
			msgs, err := cl.semp.ListMessages(ctx, or(s.spec.queue.DeadMsgQueue, ""))
			if err != nil {
				return nil, err
			}
			s.dmqLeft = len(msgs)
		}
	}
	return res, nil
}

// publish puts one persistent message on queue through Solace REST messaging.
func (cl *client) publish(ctx context.Context, queue string) error {
	body := []byte("poison message: the consumer fails every delivery")
	resp, err := cl.h.Do(ctx, http.MethodPost, "/QUEUE/"+url.PathEscape(queue), body, http.Header{"Content-Type": {"text/plain"}})
	if err != nil {
		return fmt.Errorf("publishing to queue %s: %w", queue, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("publishing to queue %s: HTTP %d: %s", queue, resp.StatusCode, strings.TrimSpace(string(resp.Body)))
	}
	return nil
}

func (s side) afterMs() []time.Duration {
	out := make([]time.Duration, len(s.run.Deliveries))
	for i, d := range s.run.Deliveries {
		out[i] = time.Duration(d.AfterMs) * time.Millisecond
	}
	return out
}

func durations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = rules.FormatAEMDuration(d)
	}
	return strings.Join(parts, ", ")
}

func (s side) settings() (redelivery, delay, dmq string) {
	q := s.spec.queue.QueueSettings
	n := or(q.MaxRedeliveryCount, 0)
	redelivery = fmt.Sprintf("max_redelivery_count %d", n)
	if n == 0 {
		redelivery += " (retry forever)"
	}
	delay = "off"
	if or(q.RedeliveryDelayEnabled, false) {
		delay = fmt.Sprintf("%s, × %.2f, at most %s",
			rules.FormatAEMDuration(time.Duration(or(q.RedeliveryDelayInitialInterval, rules.AEMDefaultRedeliveryInitialMs))*time.Millisecond),
			float64(or(q.RedeliveryDelayMultiplier, rules.AEMDefaultRedeliveryMultiplier))/100,
			rules.FormatAEMDuration(time.Duration(or(q.RedeliveryDelayMaxInterval, rules.AEMDefaultRedeliveryMaxMs))*time.Millisecond))
	}
	dmq = or(q.DeadMsgQueue, rules.AEMDefaultDeadMsgQueue)
	switch {
	case !s.dmqExists:
		dmq += " (does not exist)"
	case q.DeadMsgQueue == nil:
		dmq += " (the broker's default)"
	default:
		dmq += fmt.Sprintf(" (respect_ttl, max_ttl %d s = 7 days)", dmqTTL)
	}
	return redelivery, delay, dmq
}

func ruleIDs(fs []rules.Finding) string {
	if len(fs) == 0 {
		return "none"
	}
	var ids []string
	for _, f := range fs {
		ids = append(ids, fmt.Sprintf("%s (%s)", f.Rule, f.Severity))
	}
	return strings.Join(ids, ", ")
}

// print writes the two queues side by side and reports whether the run matched the plan.
func (r *result) print(stdout, stderr io.Writer) bool {
	a, b := r.a, r.b
	fmt.Fprintln(stdout, "AEM poison message: one message on each queue, a consumer that fails every delivery at once")
	tw := tabwriter.NewWriter(stdout, 0, 0, 3, ' ', 0)
	row := func(what, x, y string) { fmt.Fprintf(tw, "  %s\t%s\t%s\n", what, x, y) }
	row("", "A: "+a.spec.queue.Name+" ("+a.spec.label+")", "B: "+b.spec.queue.Name+" ("+b.spec.label+")")
	ar, ad, aq := a.settings()
	br, bd, bq := b.settings()
	row("redelivery", ar, br)
	row("redelivery delay", ad, bd)
	row("dead message queue", aq, bq)
	planned := func(s side) string {
		if s.plan.unlimited {
			return "unlimited (rules.AEMDeliveries)"
		}
		return fmt.Sprintf("%d (rules.AEMDeliveries), at %s", s.plan.deliveries, durations(s.plan.offsets))
	}
	row("planned deliveries", planned(a), planned(b))
	aTimes, bTimes := a.afterMs(), b.afterMs()
	aSpan := time.Duration(0)
	if len(aTimes) > 0 {
		aSpan = aTimes[len(aTimes)-1]
	}
	row("deliveries", fmt.Sprintf("%d within %s of broker time (the run stops at %d): still going", len(aTimes), rules.FormatAEMDuration(aSpan), r.maxDeliveries),
		fmt.Sprintf("%d, at %s", len(bTimes), durations(bTimes)))
	where := func(s side) string {
		if s.run.Where == "" {
			return fmt.Sprintf("still on %s (%d message), retry forever", s.spec.queue.Name, s.left)
		}
		return fmt.Sprintf("%s (%d message there, %d left on %s)", s.run.Where, s.dmqLeft, s.left, s.spec.queue.Name)
	}
	row("the message is", where(a), where(b))
	_ = tw.Flush()
	fmt.Fprintf(stdout, "  the provider's rules on A: %s\n", ruleIDs(a.plan.findings))
	fmt.Fprintf(stdout, "  the provider's rules on B: %s\n", ruleIDs(b.plan.findings))
	fmt.Fprintf(stdout, "  plan A: %s\n", a.plan.text)
	fmt.Fprintf(stdout, "  plan B: %s\n", b.plan.text)

	var problems []string
	if !a.plan.unlimited {
		problems = append(problems, fmt.Sprintf("the rules give queue A %d deliveries, not retry forever", a.plan.deliveries))
	}
	if len(aTimes) != r.maxDeliveries || a.run.Where != "" || a.left != 1 {
		problems = append(problems, fmt.Sprintf("queue A stopped after %d deliveries (message %q, %d left); the broker's defaults retry forever", len(aTimes), a.run.Where, a.left))
	}
	if b.plan.unlimited || int64(len(bTimes)) != b.plan.deliveries {
		problems = append(problems, fmt.Sprintf("queue B took %d deliveries, but the rules plan %d", len(bTimes), b.plan.deliveries))
	} else if durations(bTimes) != durations(b.plan.offsets) {
		problems = append(problems, fmt.Sprintf("queue B's deliveries came at %s, but the delay schedule plans %s", durations(bTimes), durations(b.plan.offsets)))
	}
	if int64(len(aTimes)) <= b.plan.deliveries {
		problems = append(problems, fmt.Sprintf("queue A took %d deliveries, no more than B's planned %d", len(aTimes), b.plan.deliveries))
	}
	if b.run.Where != queueDMQ || b.dmqLeft != 1 || b.left != 0 {
		problems = append(problems, fmt.Sprintf("queue B's message went to %q (%d on the DMQ, %d left), want the dead message queue %s", b.run.Where, b.dmqLeft, b.left, queueDMQ))
	}
	if !rules.HasErrors(a.plan.findings) || rules.HasErrors(b.plan.findings) {
		problems = append(problems, "the provider's rules should refuse queue A and accept queue B")
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "aempoison: %s.\n", p)
	}
	if len(problems) > 0 {
		return false
	}
	fmt.Fprintf(stdout, "aempoison: A still going after %d deliveries; B delivered %d times, as the rules plan, then dead-lettered to %s.\n",
		len(aTimes), len(bTimes), queueDMQ)
	return true
}

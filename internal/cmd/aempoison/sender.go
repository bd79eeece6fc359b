package main

// The AEM sender part: after the two queues, the command deploys three integration flows whose
// AdvancedEventMesh sender channel consumes an AEM queue of the emulator (through its Cloud Integration
// API), makes every run of them fail (the emulator's behaviour control), publishes one message to each
// queue and prints the runs the emulator observed beside the plan's N_max, and the end (DMQ, deleted or lost)
// with its time on the AEM clock beside the plan's. The plan comes from internal/rules (AEMSenderPath,
// AEMSenderMaxRuns, CheckAEMSender) on the channel as internal/iflow reads it back from the deployed content
// and the queue's settings the command sends (aem.md §4–5).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// senderFlow is one AEM sender flow of the demo and the queue it reads.
type senderFlow struct {
	flow  string
	queue aem.Queue
	dmq   *aem.Queue        // created with the queue; nil: the queue's dead message queue does not exist
	props map[string]string // the channel's keys that differ from iflowbuild.DefaultAEMSenderProperties
}

// senderFlows are the demo's flows: the tenant-written channel settings (5 attempts, 1 s × 3.0 up to 30 s,
// FAILED) on a queue with the provider's settings (N_max 5 × (5 + 1) = 30, then the DMQ); REJECTED on a
// queue without a dead message queue (deleted after 5 runs); AUTOMATIC_IMMEDIATE (lost after one run).
func senderFlows() []senderFlow {
	withDMQ := func(name string) (aem.Queue, *aem.Queue) {
		q := providerQueue().queue
		q.Name, q.DeadMsgQueue = name, aem.Ptr(name+".dmq")
		dmq := dmqQueue()
		dmq.Name = name + ".dmq"
		return q, &dmq
	}
	orders, ordersDMQ := withDMQ("demo.aem.sender.orders")
	events, eventsDMQ := withDMQ("demo.aem.sender.events")
	invoices := providerQueue().queue
	invoices.Name, invoices.DeadMsgQueue = "demo.aem.sender.invoices", nil // #DEAD_MSG_QUEUE, which does not exist
	return []senderFlow{
		{flow: "DemoAEMSenderFailed", queue: orders, dmq: ordersDMQ},
		{flow: "DemoAEMSenderRejected", queue: invoices, props: map[string]string{"failedMessageSettlementOutcome": rules.AEMOutcomeRejected}},
		{flow: "DemoAEMSenderImmediate", queue: events, dmq: eventsDMQ, props: map[string]string{"ackMode": rules.AEMAckImmediate}},
	}
}

// newCPIClient is the Cloud Integration client of the service key (a file or JSON).
func newCPIClient(key string) (*cpi.Client, error) {
	ci, err := cmdkit.LoadCloudIntegration(key)
	if err == nil {
		var c *cpi.Client
		if c, err = cmdkit.CloudIntegration(ci, cmdkit.HTTP("aempoison")); err == nil {
			return c, nil
		}
	}
	return nil, fmt.Errorf("the Cloud Integration service key: %w", err)
}

// senderRun is a run as the emulator's control endpoint reports it.
type senderRun struct {
	MessageID    string    `json:"messageId"`
	Executions   int64     `json:"executions"`
	Deliveries   int64     `json:"deliveries"`
	Outcome      string    `json:"outcome"`
	DeadMsgQueue string    `json:"deadMsgQueue"`
	First        time.Time `json:"first"`
	Last         time.Time `json:"last"`
}

// senderResult is one flow's plan and run.
type senderResult struct {
	sf       senderFlow
	channel  rules.AEMSender
	path     rules.AEMSenderPoisonPath
	known    bool
	maxRuns  int64
	findings []rules.Finding
	run      senderRun
	left     int // messages on the queue after the run
	onDMQ    int // messages on the dead message queue the message went to
}

// senderRules reads the channel of the flow content with the provider's reader and returns the rules' view
// of it on queue q.
func senderRules(zip []byte, q aem.Queue, dmqExists bool) (rules.AEMSender, error) {
	art, err := iflow.ReadZip(zip)
	if err != nil {
		return rules.AEMSender{}, err
	}
	chs := art.AEMSenders()
	if len(chs) != 1 {
		return rules.AEMSender{}, fmt.Errorf("the flow has %d AEM sender channels, want 1", len(chs))
	}
	st := art.AEMSenderSettings(chs[0], nil)
	enum := func(v string, ok bool) rules.Value[string] {
		if !ok {
			return rules.Unknown[string]()
		}
		return rules.Known(v)
	}
	whole := func(s iflow.Setting) rules.Value[int64] {
		if n, ok := s.Int(); ok {
			return rules.Known(n)
		}
		return rules.Unknown[int64]()
	}
	mult := rules.Unknown[float64]()
	if x, ok := st.Multiplier(); ok {
		mult = rules.Known(x)
	}
	return rules.AEMSender{MaxMessageProcessingAttempts: whole(st.MaxAttempts), RetryInterval: whole(st.RetryInterval),
		MaxRetryInterval: whole(st.MaxRetryInterval), RetryMultiplier: mult, SettlementOutcome: enum(st.Outcome()),
		AcknowledgementMode: enum(st.Acknowledgement()), ConsumerMode: enum(st.Consumer()), Queue: rulesQueue(q, dmqExists)}, nil
}

// replaySenders deploys the sender flows and runs one poison message through each.
func (cl *client) replaySenders(ctx context.Context, ci *cpi.Client) ([]*senderResult, error) {
	var out []*senderResult
	for _, sf := range senderFlows() {
		res, err := cl.replaySender(ctx, ci, sf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sf.flow, err)
		}
		out = append(out, res)
	}
	return out, nil
}

func (cl *client) replaySender(ctx context.Context, ci *cpi.Client, sf senderFlow) (*senderResult, error) {
	queues := []aem.Queue{sf.queue}
	if sf.dmq != nil {
		queues = []aem.Queue{*sf.dmq, sf.queue}
	}
	for i := len(queues) - 1; i >= 0; i-- {
		if err := cl.semp.DeleteQueue(ctx, queues[i].Name); err != nil && !errors.Is(err, aem.ErrNotFound) {
			return nil, fmt.Errorf("removing queue %s of an earlier run: %w", queues[i].Name, err)
		}
	}
	for _, q := range queues {
		if _, err := cl.semp.CreateQueue(ctx, q); err != nil {
			return nil, err
		}
	}
	props := iflowbuild.DefaultAEMSenderProperties(sf.queue.Name)
	for k, v := range sf.props {
		props[k] = v
	}
	zip := iflowbuild.Build(iflowbuild.Options{Name: sf.flow, Senders: []iflowbuild.Sender{{Adapter: "AEM", Properties: props}},
		ExceptionEnds: [][]string{{"error"}}})
	ch, err := senderRules(zip, sf.queue, sf.dmq != nil)
	if err != nil {
		return nil, fmt.Errorf("reading the flow: %w", err)
	}
	res := &senderResult{sf: sf, channel: ch, findings: rules.CheckAEMSender(ch)}
	res.path, res.known = rules.AEMSenderPath(ch)
	res.maxRuns, _ = rules.AEMSenderMaxRuns(ch.MaxMessageProcessingAttempts.V, ch.ConsumerMode.V, ch.AcknowledgementMode.V, ch.SettlementOutcome.V,
		or(sf.queue.RedeliveryEnabled, true), or(sf.queue.MaxRedeliveryCount, 0))
	if err := deployFlow(ctx, ci, sf.flow, zip); err != nil {
		return nil, err
	}
	if err := cmdkit.FailEveryRun(ctx, cl.controlURL, sf.flow); err != nil {
		return nil, err
	}
	seen, err := cl.senderRuns(ctx, sf.flow)
	if err != nil {
		return nil, err
	}
	if err := cl.publish(ctx, sf.queue.Name); err != nil {
		return nil, err
	}
	for res.run.MessageID == "" {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the message on queue %s was not settled: %w", sf.queue.Name, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
		runs, err := cl.senderRuns(ctx, sf.flow)
		if err != nil {
			return nil, err
		}
		for id, r := range runs {
			if _, old := seen[id]; !old && r.Outcome != "" && r.Outcome != "pending" {
				res.run = r
			}
		}
	}
	msgs, err := cl.semp.ListMessages(ctx, sf.queue.Name)
	if err != nil {
		return nil, err
	}
	res.left = len(msgs)
	if res.run.DeadMsgQueue != "" {
		if msgs, err = cl.semp.ListMessages(ctx, res.run.DeadMsgQueue); err != nil {
			return nil, err
		}
		res.onDMQ = len(msgs)
	}
	return res, nil
}

// deployFlow creates or updates the flow and deploys it.
func deployFlow(ctx context.Context, ci *cpi.Client, flow string, zip []byte) error {
	if err := cmdkit.PutFlow(ctx, ci, flow, zip); err != nil {
		return err
	}
	if _, err := ci.DeployAndWait(ctx, flow, cpi.ActiveVersion, 20*time.Millisecond); err != nil {
		return fmt.Errorf("deploying the flow: %w", err)
	}
	return nil
}

// senderRuns returns the runs of flow by message id.
func (cl *client) senderRuns(ctx context.Context, flow string) (map[string]senderRun, error) {
	var runs []senderRun
	if err := cmdkit.FlowRuns(ctx, cl.controlURL, flow, &runs); err != nil {
		return nil, err
	}
	out := make(map[string]senderRun, len(runs))
	for _, r := range runs {
		out[r.MessageID] = r
	}
	return out, nil
}

// ends maps the emulator's outcomes to the ends the rules name.
var ends = map[string]string{"deadLettered": rules.AEMEndDeadMessageQueue, "deleted": rules.AEMEndDeleted, "lost": rules.AEMEndLost}

// endText names an end for the output.
func endText(end, dmq string) string {
	switch end {
	case rules.AEMEndDeadMessageQueue:
		return "DMQ " + dmq
	case "":
		return "none"
	}
	return end
}

// channelText describes the channel's settings.
func (r *senderResult) channelText() string {
	c := r.channel
	return fmt.Sprintf("%d attempts, waits %s × %s up to %s, %s, %s", c.MaxMessageProcessingAttempts.V,
		rules.FormatAEMDuration(time.Duration(c.RetryInterval.V)*time.Millisecond), iflow.FormatAEMMultiplier(c.RetryMultiplier.V),
		rules.FormatAEMDuration(time.Duration(c.MaxRetryInterval.V)*time.Millisecond), c.AcknowledgementMode.V, c.SettlementOutcome.V)
}

// printSenders writes each flow's runs beside the plan and reports whether every run matched it.
func printSenders(rs []*senderResult, stdout, stderr io.Writer) bool {
	fmt.Fprintln(stdout, "AEM sender flows: one poison message on each flow's queue, every run of the flow fails")
	ok := true
	for _, r := range rs {
		q := side{spec: queueSpec{queue: r.sf.queue}, dmqExists: r.sf.dmq != nil}
		redelivery, delay, dmq := q.settings()
		fmt.Fprintf(stdout, "  %s on %s\n", r.sf.flow, r.sf.queue.Name)
		fmt.Fprintf(stdout, "    channel: %s\n", r.channelText())
		fmt.Fprintf(stdout, "    queue:   %s, redelivery delay %s, dead message queue %s\n", redelivery, delay, dmq)
		p := r.path
		observed := r.run.Last.Sub(r.run.First).Round(time.Millisecond)
		rel := "="
		if r.run.Executions != p.Runs || r.run.Executions != r.maxRuns {
			rel = "≠"
		}
		fmt.Fprintf(stdout, "    runs observed %d %s N_max planned %d (%s, %d planned), end: %s after %s (planned %s after %s)\n",
			r.run.Executions, rel, r.maxRuns, plural(r.run.Deliveries, "delivery", "deliveries"), p.Deliveries, endText(ends[r.run.Outcome], r.run.DeadMsgQueue),
			rules.FormatAEMDuration(observed), endText(p.End, p.DeadMessageQueue), rules.FormatAEMDuration(p.TimeToEnd))
		fmt.Fprintf(stdout, "    the provider's rules: %s\n", ruleIDs(r.findings))
		var problems []string
		switch {
		case !r.known || p.Unlimited:
			problems = append(problems, "the rules give no bounded path")
		case r.run.Executions != p.Runs || r.run.Executions != r.maxRuns || r.run.Deliveries != p.Deliveries:
			problems = append(problems, fmt.Sprintf("%d runs on %d deliveries, but the rules plan N_max %d on %d", r.run.Executions, r.run.Deliveries, p.Runs, p.Deliveries))
		case ends[r.run.Outcome] != p.End || r.run.DeadMsgQueue != p.DeadMessageQueue:
			problems = append(problems, fmt.Sprintf("the message ended %q (%s), but the rules plan %q", r.run.Outcome, r.run.DeadMsgQueue, p.End))
		case observed-p.TimeToEnd > time.Millisecond || p.TimeToEnd-observed > time.Millisecond:
			problems = append(problems, fmt.Sprintf("the message ended after %s, but the rules plan %s", observed, p.TimeToEnd))
		case r.left != 0:
			problems = append(problems, fmt.Sprintf("%d message(s) are still on %s", r.left, r.sf.queue.Name))
		case r.run.DeadMsgQueue != "" && r.onDMQ != 1:
			problems = append(problems, fmt.Sprintf("%d message(s) on %s, want the one dead-lettered", r.onDMQ, r.run.DeadMsgQueue))
		}
		for _, pr := range problems {
			fmt.Fprintf(stderr, "aempoison: %s: %s.\n", r.sf.flow, pr)
			ok = false
		}
	}
	if ok {
		var parts []string
		for _, r := range rs {
			parts = append(parts, fmt.Sprintf("%s %s, %s", r.sf.flow, plural(r.run.Executions, "run", "runs"), endText(ends[r.run.Outcome], r.run.DeadMsgQueue)))
		}
		fmt.Fprintf(stdout, "aempoison: every sender flow ran as the rules plan: %s.\n", strings.Join(parts, "; "))
	}
	return ok
}

// plural writes n with its noun, "1 run" or "5 runs".
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

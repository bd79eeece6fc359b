// Command poison publishes one message that always fails against a queue of
// a running SAP API emulator and reports how often it was processed and
// where it ended, next to the worst case the retry arithmetic predicts.
//
// It creates and deploys a small integration flow whose AMQP sender consumes
// the queue (maxRetries 1 and deliveryState REJECTED unless set otherwise),
// makes every execution of that flow end in an Error End through the
// emulator's control endpoint, publishes the message, waits until the flow
// settled it, and counts its executions in the flow's message processing
// logs. With -outputs it reads worst_case_attempts (and the queue name next
// to it) from `terraform output -json` and fails when the executions
// differ.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func main() { cmdkit.Main(run) }

// config is what the flags set.
type config struct {
	emulatorURL, eventMeshKey, cloudIntegrationKey string
	outputs, queue, iflowID, deliveryState         string
	maxRetries                                     int
	timeout                                        time.Duration
}

// run parses args, replays one poison message and returns the exit code:
// 0 when the executions match the prediction, 1 when they do not or the
// replay failed, 2 for invalid arguments.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := cmdkit.NewFlags("poison", stderr)
	var c config
	cmdkit.EmulatorFlag(fs, &c.emulatorURL)
	cmdkit.EventMeshKeyFlag(fs, &c.eventMeshKey)
	cmdkit.CloudIntegrationKeyFlag(fs, &c.cloudIntegrationKey)
	fs.StringVar(&c.outputs, "outputs", "", "`file` holding `terraform output -json`; worst_case_attempts and the queue name next to it are read from it")
	fs.StringVar(&c.queue, "queue", "", "`queue` to publish to (default: the name next to worst_case_attempts in -outputs)")
	fs.StringVar(&c.iflowID, "iflow", "DemoPoisonConsumer", "`id` of the integration flow that consumes the queue")
	fs.IntVar(&c.maxRetries, "max-retries", 1, "maxRetries of the flow's AMQP sender (`n`, 0..99)")
	fs.StringVar(&c.deliveryState, "delivery-state", "REJECTED", "deliveryState of the flow's AMQP sender (REJECTED or MODIFIED_FAILED_UNDELIVERABLE)")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "how long to wait for the whole replay")
	if !cmdkit.Parse(fs, args, stderr) {
		return 2
	}
	worst, err := c.resolve()
	if err != nil {
		fmt.Fprintf(stderr, "poison: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	rep, err := replay(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "poison: %v\n", cmdkit.Unfinished(ctx, err, "replay", c.timeout))
		return 1
	}
	return rep.print(stdout, stderr, worst)
}

// resolve checks the flags and reads -outputs. It returns worst_case_attempts, or -1.
func (c *config) resolve() (int64, error) {
	if c.emulatorURL == "" || c.eventMeshKey == "" || c.cloudIntegrationKey == "" {
		return 0, errors.New("the emulator URL and both service keys are required; set -emulator, -event-mesh-key and -cloud-integration-key (or EMULATOR_URL and the SAPMESSAGING_*_SERVICE_KEY variables)")
	}
	if c.maxRetries < 0 || c.maxRetries > 99 {
		return 0, fmt.Errorf("-max-retries %d is outside 0..99; set a value from 0 to 99", c.maxRetries)
	}
	switch c.deliveryState {
	case "REJECTED", "MODIFIED_FAILED_UNDELIVERABLE":
	default:
		return 0, fmt.Errorf("-delivery-state %q is not known; set REJECTED or MODIFIED_FAILED_UNDELIVERABLE", c.deliveryState)
	}
	worst := int64(-1)
	if c.outputs != "" {
		data, err := os.ReadFile(c.outputs)
		if err != nil {
			return 0, fmt.Errorf("reading -outputs: %w", err)
		}
		w, name, err := worstCase(data, c.queue)
		if err != nil {
			return 0, err
		}
		worst = w
		if c.queue == "" {
			c.queue = name
		}
	}
	if c.queue == "" {
		return 0, errors.New("no queue to publish to; set -queue, or -outputs with an output object holding name and worst_case_attempts")
	}
	return worst, nil
}

// worstCase finds worst_case_attempts in the document of `terraform output
// -json`: in the value of an output that is an object with that key, and
// the queue name beside it. With queue set, the object whose name is queue
// is preferred.
func worstCase(data []byte, queue string) (int64, string, error) {
	var outputs map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &outputs); err != nil {
		return 0, "", fmt.Errorf("-outputs is not the JSON of `terraform output -json`: %w", err)
	}
	names := make([]string, 0, len(outputs))
	for k := range outputs {
		names = append(names, k)
	}
	sort.Strings(names)
	found := false
	var worst int64
	var name string
	for _, k := range names {
		var v struct {
			Name  string       `json:"name"`
			Worst *json.Number `json:"worst_case_attempts"`
		}
		if json.Unmarshal(outputs[k].Value, &v) != nil || v.Worst == nil {
			continue
		}
		w, err := v.Worst.Int64()
		if err != nil {
			return 0, "", fmt.Errorf("worst_case_attempts of output %q is %s, not a whole number", k, v.Worst.String())
		}
		if !found || (queue != "" && v.Name == queue && name != queue) {
			found, worst, name = true, w, v.Name
		}
	}
	if !found {
		return 0, "", errors.New("-outputs has no output object with worst_case_attempts; add one or leave -outputs out")
	}
	return worst, name, nil
}

// clients are the API clients the replay uses.
type clients struct {
	mgmt *eventmesh.Client
	msg  *eventmesh.Messaging
	cpi  *cpi.Client
	// controlURL is the base URL of the emulator's control endpoints.
	controlURL string
}

func newClients(c config) (*clients, error) {
	em, err := cmdkit.LoadEventMesh(c.eventMeshKey)
	if err != nil {
		return nil, fmt.Errorf("reading the Event Mesh service key: %w", err)
	}
	if em.MessagingURL == "" {
		return nil, errors.New("the Event Mesh service key has no messaging entry with protocol httprest; use a key with one")
	}
	ci, err := cmdkit.LoadCloudIntegration(c.cloudIntegrationKey)
	if err != nil {
		return nil, fmt.Errorf("reading the Cloud Integration service key: %w", err)
	}
	cl := &clients{}
	cfg := cmdkit.HTTP("poison")
	if cl.mgmt, err = cmdkit.EventMeshManagement(em, cfg); err != nil {
		return nil, err
	}
	if cl.msg, err = cmdkit.EventMeshMessaging(em, cfg); err != nil {
		return nil, err
	}
	if cl.cpi, err = cmdkit.CloudIntegration(ci, cfg); err != nil {
		return nil, err
	}
	if cl.controlURL, err = cmdkit.ControlURL(c.emulatorURL); err != nil {
		return nil, err
	}
	return cl, nil
}

// run is one message run as the emulator's control endpoint reports it.
type messageRun struct {
	MessageID     string `json:"messageId"`
	CorrelationID string `json:"correlationId"`
	Executions    int64  `json:"executions"`
	Deliveries    int64  `json:"deliveries"`
	Outcome       string `json:"outcome"`
	DeadMsgQueue  string `json:"deadMsgQueue"`
	Reason        string `json:"reason"`
}

// report is the result of a replay.
type report struct {
	cfg        config
	redelivery int64
	dmq        string
	run        messageRun
	statuses   []string
	dmqCount   int64
}

// replay deploys the consuming flow, publishes the message and waits for it.
func replay(ctx context.Context, c config) (*report, error) {
	cl, err := newClients(c)
	if err != nil {
		return nil, err
	}
	q, err := cl.mgmt.GetQueue(ctx, c.queue)
	if err != nil {
		return nil, fmt.Errorf("reading queue %s: %w", c.queue, err)
	}
	rep := &report{cfg: c}
	if q.MaxRedeliveryCount != nil {
		rep.redelivery = *q.MaxRedeliveryCount
	}
	if q.DeadMsgQueue != nil {
		rep.dmq = *q.DeadMsgQueue
	}

	props := iflowbuild.DefaultSenderProperties(c.queue)
	props["maxRetries"] = strconv.Itoa(c.maxRetries)
	props["deliveryState"] = c.deliveryState
	props["queuePrefetch"] = "1"
	props["NumberConcurrentProcesses"] = "1"
	zip := iflowbuild.Build(iflowbuild.Options{Name: c.iflowID, Senders: []iflowbuild.Sender{{Name: "EventMesh", Properties: props}},
		ExceptionEnds: [][]string{{"error"}}})
	if err := cmdkit.PutFlow(ctx, cl.cpi, c.iflowID, zip); err != nil {
		return nil, err
	}
	if err := cmdkit.FailEveryRun(ctx, cl.controlURL, c.iflowID); err != nil {
		return nil, err
	}
	if _, err := cl.cpi.DeployAndWait(ctx, c.iflowID, cpi.ActiveVersion, 100*time.Millisecond); err != nil {
		return nil, fmt.Errorf("deploying integration flow %s: %w", c.iflowID, err)
	}
	before := map[string]bool{}
	var runs []messageRun
	if err := cmdkit.FlowRuns(ctx, cl.controlURL, c.iflowID, &runs); err != nil {
		return nil, err
	}
	for _, r := range runs {
		before[r.MessageID] = true
	}
	if err := cl.msg.Publish(ctx, c.queue, []byte("poison message: every execution of "+c.iflowID+" ends in an Error End"), "text/plain"); err != nil {
		return nil, fmt.Errorf("publishing to queue %s: %w", c.queue, err)
	}
	for {
		if err := cmdkit.FlowRuns(ctx, cl.controlURL, c.iflowID, &runs); err != nil {
			return nil, err
		}
		for _, r := range runs {
			if !before[r.MessageID] && r.Outcome != "" && r.Outcome != "pending" {
				rep.run = r
			}
		}
		if rep.run.MessageID != "" {
			break
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the poison message on queue %s was not settled: %w", c.queue, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if rep.statuses, err = cl.logStatuses(ctx, c.iflowID, rep.run.CorrelationID); err != nil {
		return nil, err
	}
	if rep.dmq != "" {
		if d, err := cl.mgmt.GetQueue(ctx, rep.dmq); err == nil && d.MessageCount != nil {
			rep.dmqCount = *d.MessageCount
		}
	}
	return rep, nil
}

// logStatuses lists the Status of the message processing logs of one
// message through the Cloud Integration API, oldest first.
func (cl *clients) logStatuses(ctx context.Context, id, correlation string) ([]string, error) {
	logs, err := cl.cpi.MessageProcessingLogs(ctx, id, correlation)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(logs))
	for _, l := range logs {
		out = append(out, l.Status)
	}
	return out, nil
}

// predicted returns (R + 1) × n + 1 and whether it is finite.
func (r *report) predicted() (int64, bool) {
	n := int64(r.cfg.maxRetries)
	switch {
	case r.cfg.deliveryState == "MODIFIED_FAILED_UNDELIVERABLE":
		return 1 + n, true
	case r.redelivery == 0:
		return 0, false
	}
	return (r.redelivery+1)*n + 1, true
}

// print writes the report and returns the exit code.
func (r *report) print(stdout, stderr io.Writer, worst int64) int {
	c := r.cfg
	dmq := r.dmq
	if dmq == "" {
		dmq = "(none)"
	}
	fmt.Fprintf(stdout, "poison message %s on queue %s\n", r.run.MessageID, c.queue)
	fmt.Fprintf(stdout, "  queue:                 maxRedeliveryCount %d, deadMsgQueue %s\n", r.redelivery, dmq)
	fmt.Fprintf(stdout, "  integration flow:      %s, AMQP sender maxRetries %d, deliveryState %s, every execution ends in an Error End\n", c.iflowID, c.maxRetries, c.deliveryState)
	fmt.Fprintf(stdout, "  executions:            %d in %d deliveries (%s)\n", r.run.Executions, r.run.Deliveries, strings.Join(r.statuses, ", "))
	pred, finite := r.predicted()
	switch {
	case c.deliveryState == "MODIFIED_FAILED_UNDELIVERABLE":
		fmt.Fprintf(stdout, "  predicted:             1 + n = %d (MODIFIED_FAILED_UNDELIVERABLE: no redelivery)\n", pred)
	case finite:
		fmt.Fprintf(stdout, "  predicted (R+1)×n+1:   (%d+1)×%d+1 = %d\n", r.redelivery, c.maxRetries, pred)
	default:
		fmt.Fprintf(stdout, "  predicted:             unlimited (maxRedeliveryCount 0); the emulator stops at its safety cap\n")
	}
	if worst >= 0 {
		fmt.Fprintf(stdout, "  worst_case_attempts:   %d (terraform output)\n", worst)
	}
	switch r.run.Outcome {
	case "deadLettered":
		fmt.Fprintf(stdout, "  ended in:              dead message queue %s (%d message(s) there now)\n", r.run.DeadMsgQueue, r.dmqCount)
	default:
		fmt.Fprintf(stdout, "  ended:                 %s, not in a dead message queue. %s\n", r.run.Outcome, r.run.Reason)
	}
	want, source := pred, "the retry arithmetic"
	if worst >= 0 {
		want, source = worst, "worst_case_attempts"
	}
	if (worst >= 0 || finite) && r.run.Executions != want {
		fmt.Fprintf(stderr, "poison: the message took %d executions, but %s predicts %d.\n", r.run.Executions, source, want)
		return 1
	}
	if r.dmq != "" && c.deliveryState == "REJECTED" && finite && r.run.Outcome != "deadLettered" {
		fmt.Fprintf(stderr, "poison: the message ended %s instead of in the dead message queue %s.\n", r.run.Outcome, r.dmq)
		return 1
	}
	if worst >= 0 || finite {
		fmt.Fprintf(stdout, "poison: %d executions, as %s predicts.\n", r.run.Executions, source)
	}
	return 0
}

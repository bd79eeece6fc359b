// Command jmspoison replays one poison message through two integration flows
// with a Cloud Integration JMS sender on a running SAP API emulator and
// prints their executions beside what the retry rules predict.
//
// Both flows use SAP's JMS sender defaults (retry interval 1 minute,
// exponential backoff, maximum retry interval 60 minutes) on a non-exclusive
// queue, and every execution ends in an Error End:
//
//   - DemoJMSNoGuard has no retry guard: the message is retried until the
//     queue's expiration period (30 days) deletes it, as rules.JMSSchedule's
//     RetriesWithin predicts (about 724 retries).
//   - DemoJMSGuard5 ends the message in its exception subprocess when
//     ${header.SAPJMSRetries} > 5, SAP's pattern: rules.JMSGuardStopRetry
//     says on retry 6, and GiveUpMinutes how long after the first failure.
//
// The prediction is computed from the flow content the command deploys,
// read back with the iflow package, not from constants. The emulator should
// run with a short -jms-minute, for example 100us, so that 30 days pass in
// seconds. The command fails when an execution count or the time until the
// message was given up differs from the prediction.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatorcontrol"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

func main() { cmdkit.Main(run) }

// scenario is one flow of the replay.
type scenario struct {
	flow, queue, guard string
}

var scenarios = []scenario{
	{flow: "DemoJMSNoGuard", queue: "DEMO_JMS_NO_GUARD"},
	{flow: "DemoJMSGuard5", queue: "DEMO_JMS_GUARD_5", guard: "${header.SAPJMSRetries} > 5"},
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := cmdkit.NewFlags("jmspoison", stderr)
	var emulatorURL, key string
	cmdkit.EmulatorFlag(fs, &emulatorURL)
	cmdkit.CloudIntegrationKeyFlag(fs, &key)
	days := fs.Int64("expiration-days", rules.DefaultJMSExpirationDays, "Expiration Period of the poison message in `days` (1..180)")
	timeout := fs.Duration("timeout", 90*time.Second, "how long to wait for the whole replay")
	if !cmdkit.Parse(fs, args, stderr) {
		return 2
	}
	if emulatorURL == "" || key == "" {
		fmt.Fprintln(stderr, "jmspoison: the emulator URL and the Cloud Integration service key are required; set -emulator and -cloud-integration-key (or EMULATOR_URL and SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY)")
		return 2
	}
	if *days < 1 || *days > rules.JMSMaxExpirationDays {
		fmt.Fprintf(stderr, "jmspoison: -expiration-days %d is outside 1..%d; set a value in that range\n", *days, rules.JMSMaxExpirationDays)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	cl, err := newClients(emulatorURL, key)
	if err != nil {
		fmt.Fprintf(stderr, "jmspoison: %v\n", err)
		return 2
	}
	rc := 0
	for _, sc := range scenarios {
		res, err := cl.replay(ctx, sc, *days)
		if err != nil {
			fmt.Fprintf(stderr, "jmspoison: %s: %v\n", sc.flow, cmdkit.Unfinished(ctx, err, "replay", *timeout))
			return 1
		}
		if !res.print(stdout, stderr) {
			rc = 1
		}
	}
	return rc
}

type clients struct {
	cpi        *cpi.Client
	controlURL string
}

func newClients(emulatorURL, key string) (*clients, error) {
	ci, err := cmdkit.LoadCloudIntegration(key)
	if err != nil {
		return nil, fmt.Errorf("reading the Cloud Integration service key: %w", err)
	}
	cl := &clients{}
	if cl.cpi, err = cmdkit.CloudIntegration(ci, cmdkit.HTTP("jmspoison")); err != nil {
		return nil, err
	}
	if cl.controlURL, err = cmdkit.ControlURL(emulatorURL); err != nil {
		return nil, err
	}
	return cl, nil
}

// prediction is what the rules say for a flow.
type prediction struct {
	schedule    rules.JMSSchedule
	guard       string
	retries     int64 // retries until the message is given up (guard) or deleted (expiration)
	giveUp      int64 // minutes from the first failure to the last retry
	byGuard     bool
	expiryLimit int64 // minutes of the expiration period
}

// predict reads the JMS sender and retry guard of the flow content and
// applies the rules.
func predict(zip []byte, days int64) (prediction, error) {
	art, err := iflow.ReadZip(zip)
	if err != nil {
		return prediction{}, err
	}
	snds := art.JMSSenders()
	if len(snds) != 1 {
		return prediction{}, fmt.Errorf("the flow has %d JMS senders, want 1", len(snds))
	}
	st := art.JMSSenderSettings(snds[0], nil)
	i, _ := st.RetryInterval.Int()
	m, _ := st.MaxRetryInterval.Int()
	b, _ := st.ExponentialBackoff.Bool()
	p := prediction{schedule: rules.JMSSchedule{RetryInterval: i, MaxRetryInterval: m, ExponentialBackoff: b}, expiryLimit: days * 24 * 60}
	guards, err := iflow.RetryGuards(zip, nil)
	if err != nil {
		return prediction{}, err
	}
	sum := iflow.SummarizeGuards(guards)
	if sum.Present && sum.Guard.Limit.Known {
		p.byGuard = true
		p.guard = sum.Guard.Condition
		p.retries = rules.JMSGuardStopRetry(sum.Guard.Limit.Value, sum.Guard.Operator)
	} else if p.retries, err = p.schedule.RetriesWithin(p.expiryLimit); err != nil {
		return prediction{}, err
	}
	if p.giveUp, err = p.schedule.GiveUpMinutes(p.retries); err != nil {
		return prediction{}, err
	}
	return p, nil
}

// messageRun is a run as the emulator's control endpoint reports it.
type messageRun struct {
	MessageID     string `json:"messageId"`
	CorrelationID string `json:"correlationId"`
	Executions    int64  `json:"executions"`
	Outcome       string `json:"outcome"`
	Reason        string `json:"reason"`
}

type result struct {
	sc       scenario
	pred     prediction
	run      messageRun
	statuses map[string]int
	order    []string
	span     time.Duration
	waits    []time.Duration
	left     int64
}

func (cl *clients) replay(ctx context.Context, sc scenario, days int64) (*result, error) {
	o := iflowbuild.Options{Name: sc.flow, Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties(sc.queue)}},
		ExceptionEnds: [][]string{{"error"}}}
	if sc.guard != "" {
		o.Routers = []iflowbuild.Router{{Condition: sc.guard, InException: 1}}
	}
	zip := iflowbuild.Build(o)
	pred, err := predict(zip, days)
	if err != nil {
		return nil, fmt.Errorf("reading the flow: %w", err)
	}
	if err := cmdkit.PutFlow(ctx, cl.cpi, sc.flow, zip); err != nil {
		return nil, err
	}
	if err := cmdkit.FailEveryRun(ctx, cl.controlURL, sc.flow); err != nil {
		return nil, err
	}
	if _, err := cl.cpi.DeployAndWait(ctx, sc.flow, cpi.ActiveVersion, 100*time.Millisecond); err != nil {
		return nil, fmt.Errorf("deploying the flow: %w", err)
	}
	var put struct {
		ID string `json:"id"`
	}
	body := fmt.Sprintf(`{"body": "poison message: every execution of %s ends in an Error End", "expiration_days": %d}`, sc.flow, days)
	if err := cl.control(ctx, http.MethodPost, "/jms/queues/"+url.PathEscape(sc.queue)+"/messages", body, &put); err != nil {
		return nil, err
	}
	res := &result{sc: sc, pred: pred, statuses: map[string]int{}}
	for {
		var runs []messageRun
		if err := cmdkit.FlowRuns(ctx, cl.controlURL, sc.flow, &runs); err != nil {
			return nil, err
		}
		for _, r := range runs {
			if r.MessageID == put.ID && r.Outcome != "" && r.Outcome != "pending" {
				res.run = r
			}
		}
		if res.run.MessageID != "" {
			break
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("message %s on JMS queue %s was not settled: %w", put.ID, sc.queue, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	starts, err := cl.logs(ctx, sc.flow, res.run.CorrelationID, res)
	if err != nil {
		return nil, err
	}
	if len(starts) > 0 {
		res.span = starts[len(starts)-1].Sub(starts[0])
		for i := 1; i < len(starts) && i <= 8; i++ {
			res.waits = append(res.waits, starts[i].Sub(starts[i-1]))
		}
	}
	qs, err := cl.cpi.JMSQueues(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the JMS queues: %w", err)
	}
	for _, q := range qs {
		if q.Name == sc.queue {
			res.left = q.Messages
		}
	}
	return res, nil
}

// logs reads the processing logs of one message through the Cloud
// Integration API, counts their statuses and returns their start times.
func (cl *clients) logs(ctx context.Context, flow, correlation string, res *result) ([]time.Time, error) {
	logs, err := cl.cpi.MessageProcessingLogs(ctx, flow, correlation)
	if err != nil {
		return nil, err
	}
	out := make([]time.Time, 0, len(logs))
	for _, l := range logs {
		if res.statuses[l.Status] == 0 {
			res.order = append(res.order, l.Status)
		}
		res.statuses[l.Status]++
		out = append(out, l.LogStart)
	}
	return out, nil
}

func (cl *clients) control(ctx context.Context, method, path, body string, out any) error {
	return emulatorcontrol.Call(ctx, cl.controlURL, method, path, body, out)
}

func minutes(d time.Duration) string { return strconv.FormatInt(int64(d/time.Minute), 10) }

// print writes the comparison and reports whether the replay matched the rules.
func (r *result) print(stdout, stderr io.Writer) bool {
	p := r.pred
	guard := "none"
	if r.sc.guard != "" {
		guard = r.sc.guard
	}
	fmt.Fprintf(stdout, "JMS poison message on queue %s (integration flow %s)\n", r.sc.queue, r.sc.flow)
	fmt.Fprintf(stdout, "  JMS sender:            retry interval %d, exponential backoff %t, maximum retry interval %d minutes; retry guard: %s\n",
		p.schedule.RetryInterval, p.schedule.ExponentialBackoff, p.schedule.MaxRetryInterval, guard)
	var counts []string
	for _, s := range r.order {
		counts = append(counts, fmt.Sprintf("%d %s", r.statuses[s], s))
	}
	waits := make([]string, 0, len(r.waits))
	for _, w := range r.waits {
		waits = append(waits, minutes(w))
	}
	fmt.Fprintf(stdout, "  executions:            %d (%s); first waits %s minutes\n", r.run.Executions, strings.Join(counts, ", "), strings.Join(waits, ", "))
	if p.byGuard {
		fmt.Fprintf(stdout, "  predicted:             1 + %d retries = %d executions (the guard ends the message on retry %d), given up %d minutes after the first failure\n",
			p.retries, p.retries+1, p.retries, p.giveUp)
	} else {
		fmt.Fprintf(stdout, "  predicted:             1 + %d retries = %d executions within the %d-minute expiration period (last retry %d minutes after the first failure), then deleted\n",
			p.retries, p.retries+1, p.expiryLimit, p.giveUp)
	}
	fmt.Fprintf(stdout, "  observed:              last execution %s minutes after the first; outcome %s; %d message(s) left on the queue\n", minutes(r.span), r.run.Outcome, r.left)
	if r.run.Reason != "" {
		fmt.Fprintf(stdout, "  reason:                %s\n", r.run.Reason)
	}
	ok := true
	wantOutcome := "expired"
	if p.byGuard {
		wantOutcome = "guardEnded"
	}
	switch {
	case r.run.Executions != p.retries+1:
		fmt.Fprintf(stderr, "jmspoison: %s took %d executions, but the rules predict %d.\n", r.sc.flow, r.run.Executions, p.retries+1)
		ok = false
	case r.span != time.Duration(p.giveUp)*time.Minute:
		fmt.Fprintf(stderr, "jmspoison: %s gave up after %s minutes, but the rules predict %d.\n", r.sc.flow, minutes(r.span), p.giveUp)
		ok = false
	case r.run.Outcome != wantOutcome:
		fmt.Fprintf(stderr, "jmspoison: %s ended %s, want %s.\n", r.sc.flow, r.run.Outcome, wantOutcome)
		ok = false
	case r.left != 0:
		fmt.Fprintf(stderr, "jmspoison: %d message(s) are still on queue %s.\n", r.left, r.sc.queue)
		ok = false
	}
	if ok {
		fmt.Fprintf(stdout, "jmspoison: %d executions and %d minutes, as the rules predict.\n", r.run.Executions, p.giveUp)
	}
	return ok
}

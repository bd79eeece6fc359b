package emulator_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatorcontrol"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The cross-check: the emulator runs always-failing messages with its own
// reader and runtime, written from SAP's documentation, and the provider's
// side (the iFlow reader internal/iflow and the rules internal/rules) predicts
// each run from the same flow content. The emulator imports neither
// (TestEmulatorImportsNoCodeItChecks), so a row agrees only when both read
// SAP's behaviour the same way. Everything goes over loopback HTTP: the flow
// is created and deployed through the Cloud Integration client, the message
// is published through the messaging API (AMQP) or the control API (JMS),
// and the run and its processing logs are read back through the control
// API and the Cloud Integration client.

// crossEnv drives one emulator over HTTP.
type crossEnv struct {
	*rtEnv
	control string
}

func newCrossEnv(t *testing.T, opts emulator.Options) *crossEnv {
	t.Helper()
	e := newRTEnv(t, opts)
	return &crossEnv{rtEnv: e, control: emulatorcontrol.URL(e.s.URL())}
}

// deployContent creates flow id from zip through the API, makes every
// execution fail and deploys it.
func (e *crossEnv) deployContent(t *testing.T, ctx context.Context, id string, zip []byte) {
	t.Helper()
	if _, err := e.cpi.CreateArtifact(ctx, cpi.Artifact{ID: id, Name: id, PackageID: "CrossCheck"}, zip); err != nil {
		t.Fatalf("creating %s: %v", id, err)
	}
	if err := emulatorcontrol.Call(ctx, e.control, http.MethodPut, "/iflows/"+url.PathEscape(id)+"/behaviour", `{"outcome": "error"}`, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cpi.DeployAndWait(ctx, id, cpi.ActiveVersion, 5*time.Millisecond); err != nil {
		t.Fatalf("deploying %s: %v", id, err)
	}
}

// settledRun waits for the one settled run of flow id and returns it with
// its processing logs.
func (e *crossEnv) settledRun(t *testing.T, ctx context.Context, id string) (emulator.MessageRun, []cpi.MessageProcessingLog) {
	t.Helper()
	run := waitSettledRun(t, ctx, e.control, id)
	logs, err := e.cpi.MessageProcessingLogs(ctx, id, run.CorrelationID)
	if err != nil {
		t.Fatal(err)
	}
	return run, logs
}

// waitSettledRun waits for the one settled run of flow id, as GET /emulator/v1/iflows/{id}/runs of the
// control API at control reports it.
func waitSettledRun(t *testing.T, ctx context.Context, control, id string) emulator.MessageRun {
	t.Helper()
	for {
		var runs []emulator.MessageRun
		if err := emulatorcontrol.Call(ctx, control, http.MethodGet, "/iflows/"+url.PathEscape(id)+"/runs", "", &runs); err != nil {
			t.Fatal(err)
		}
		if len(runs) == 1 && runs[0].Outcome != "" && runs[0].Outcome != emulator.RunPending {
			return runs[0]
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the message of %s did not settle: %v (runs %+v)", id, ctx.Err(), runs)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestCrossCheckAMQP runs an always-failing message through an AMQP sender
// for the three rows of seed 000 and more combinations of the queue's
// maxRedeliveryCount R, the sender's maxRetries n and its delivery status,
// and compares the executions with the rules: rules.MaxAttempts(R, n) =
// (R + 1) × n + 1 and the dead message queue for REJECTED; for
// MODIFIED_FAILED_UNDELIVERABLE the rules' finding that redelivery is
// cancelled, so only the first delivery's 1 + n executions and no dead
// message queue. (The rules predict no time for AMQP: neither loop waits
// [seed 000].)
func TestCrossCheckAMQP(t *testing.T) {
	t.Parallel()
	const undeliverable = "MODIFIED_FAILED_UNDELIVERABLE"
	rows := []struct {
		r, n  int
		state string
	}{
		// Seed 000's table.
		{1, 1, "REJECTED"}, {2, 2, "REJECTED"}, {1, 4, "REJECTED"},
		{1, 2, "REJECTED"}, {3, 1, "REJECTED"}, {5, 1, "REJECTED"}, {2, 3, "REJECTED"},
		{4, 2, "REJECTED"}, {10, 1, "REJECTED"}, {1, 5, "REJECTED"}, {6, 3, "REJECTED"},
		{1, 1, undeliverable}, {3, 2, undeliverable}, {2, 4, undeliverable}, {5, 1, undeliverable},
	}
	for _, row := range rows {
		t.Run(fmt.Sprintf("R%d_n%d_%s", row.r, row.n, row.state), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
			defer cancel()
			e := newCrossEnv(t, emulator.Options{})
			id := "Cross"
			queue, dmq := e.queues(t, "cross", intp(row.r))
			props := iflowbuild.DefaultSenderProperties(queue)
			props["maxRetries"], props["deliveryState"] = strconv.Itoa(row.n), row.state
			props["queuePrefetch"] = "1"
			zip := iflowbuild.Build(iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{{Properties: props}}, ExceptionEnds: [][]string{{"error"}}})

			// The provider's side: read the sender back and apply the rules.
			art, err := iflow.ReadZip(zip)
			if err != nil {
				t.Fatal(err)
			}
			snd := art.AMQPSenders()
			if len(snd) != 1 {
				t.Fatalf("the reader finds %d AMQP senders", len(snd))
			}
			rs := art.RetrySettings(snd[0], nil)
			n, ok := rs.MaxRetries.Int()
			if !ok {
				t.Fatalf("the reader cannot read maxRetries %q", rs.MaxRetries.Raw)
			}
			findings := rules.CheckAMQPSender(rules.AMQPSender{MaxNumberOfRetries: rules.Known(n),
				DeliveryStatus: rules.Known(rs.DeliveryState.Value), QueueMaxRedeliveryCount: rules.Known(int64(row.r))})
			cancelled := false
			for _, f := range findings {
				cancelled = cancelled || f.Rule == "amqp.delivery_status_undeliverable"
			}
			want, err := rules.MaxAttempts(int64(row.r), n)
			if err != nil {
				t.Fatal(err)
			}
			wantDeliveries, wantOutcome := int64(row.r+1), emulator.RunDeadLettered
			if cancelled {
				want, wantDeliveries, wantOutcome = 1+n, 1, emulator.RunUndeliverable
			}
			if cancelled != (row.state == undeliverable) {
				t.Fatalf("the rules say redelivery cancelled = %t for %s", cancelled, row.state)
			}

			e.deployContent(t, ctx, id, zip)
			e.publish(t, queue, "poison")
			run, logs := e.settledRun(t, ctx, id)
			if run.Executions != want || int64(len(logs)) != want || run.Deliveries != wantDeliveries || run.Outcome != wantOutcome {
				t.Fatalf("R=%d n=%d %s: the emulator ran %d executions (%d processing logs) in %d deliveries and ended %s (%s); the rules predict %d executions in %d deliveries, %s",
					row.r, row.n, row.state, run.Executions, len(logs), run.Deliveries, run.Outcome, run.Reason, want, wantDeliveries, wantOutcome)
			}
			dead, _ := e.s.Messages(dmq)
			if cancelled != (len(dead) == 0) {
				t.Fatalf("the dead message queue holds %d messages; the rules say it receives one only when the delivery status is REJECTED", len(dead))
			}
		})
	}
}

// TestCrossCheckJMS runs an always-failing message through a JMS sender on
// a non-exclusive queue for combinations of Retry Interval, Maximum Retry
// Interval, Exponential Backoff and retry guard (operator, limit, place,
// the route it ends on), and without a guard, and compares the executions
// and the time from the first to the last execution (scaled JMS clock)
// with the rules: rules.JMSGuardStopRetry for the retry a guard ends the
// message on, rules.JMSSchedule.RetriesWithin for the retries within the
// expiration period without one, and GiveUpMinutes for the time.
func TestCrossCheckJMS(t *testing.T) {
	t.Parallel()
	type row struct {
		name             string
		interval, max    string
		backoff          string
		guard            string
		inException      int
		conditionRetries bool
		params           map[string]string
		expirationDays   int64
		exclusive        bool
		// bound: the rules give an upper bound, not the exact retry (an
		// operator whose route they cannot see, rules.JMSGuardStopRetry).
		bound bool
	}
	rows := []row{
		{name: "SAP defaults, SAP's pattern > 5", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} > 5", inException: 1},
		{name: "router >= 3 at the start", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} >= 3"},
		{name: "= 4, interval 2, max 10", interval: "2", max: "10", backoff: "true", guard: "${header.SAPJMSRetries} = 4", inException: 1},
		{name: "== '7' quoted, no backoff, interval 5", interval: "5", max: "60", backoff: "0", guard: "${header.SAPJMSRetries} == '7'", inException: 1},
		{name: "> '10', interval 3, max 20", interval: "3", max: "20", backoff: "1", guard: "${header.SAPJMSRetries} > '10'", inException: 1},
		{name: ">= 2, interval 10 = max", interval: "10", max: "10", backoff: "1", guard: "${header.SAPJMSRetries} >= 2"},
		{name: "< 5 routes to the retry", interval: "1", max: "10", backoff: "false", guard: "${header.SAPJMSRetries} < 5", inException: 1, conditionRetries: true},
		{name: "<= 3 routes to the retry", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} <= 3", inException: 1, conditionRetries: true},
		{name: "> 0, interval 7, max 100", interval: "7", max: "100", backoff: "1", guard: "${header.SAPJMSRetries} > 0", inException: 1},
		{name: "limit as a parameter", interval: "2", max: "30", backoff: "1", guard: "${header.SAPJMSRetries} > {{MaxJMSRetries}}", inException: 1, params: map[string]string{"MaxJMSRetries": "3"}},
		{name: "limit on the left", interval: "1", max: "60", backoff: "1", guard: "4 < ${header.SAPJMSRetries}", inException: 1},
		{name: "and of two comparisons", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} > 2 and ${header.SAPJMSRetries} < 100", inException: 1},
		{name: "or of two comparisons", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} = 4 || ${header.SAPJMSRetries} > 9", inException: 1},
		{name: "no guard, SAP defaults, 30 days", interval: "1", max: "60", backoff: "1"},
		{name: "no guard, no backoff, interval 60", interval: "60", max: "60", backoff: "0"},
		{name: "no guard, interval 5, max 1440, 10 days", interval: "5", max: "1440", backoff: "1", expirationDays: 10},
		{name: "no guard, 1 day", interval: "1", max: "60", backoff: "1", expirationDays: 1},
		{name: "and with a header set at run time", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} > 5 and ${header.maxJMSRetries} != 'unlimited'", inException: 1},
		{name: "or with a header set at run time", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} > 5 or ${property.stop} = 'true'", inException: 1},
		{name: "!= 3 routes to the retry (rules: upper bound)", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} != 3", inException: 1, conditionRetries: true, bound: true},
		{name: "limit from a header at run time", interval: "1", max: "60", backoff: "1", guard: "${header.SAPJMSRetries} > ${header.maxJMSRetries}", inException: 1},
		{name: "exclusive queue, guard > 2", interval: "1", max: "180", backoff: "1", guard: "${header.SAPJMSRetries} > 2", inException: 1, exclusive: true},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
			defer cancel()
			e := newCrossEnv(t, emulator.Options{JMSMinute: jmsMinute})
			id, queue := "CrossJMS", "CROSS"
			props := iflowbuild.DefaultJMSSenderProperties(queue)
			props["RetryInterval"], props["MaxRetryInterval"], props["ExponentialBackoff"] = r.interval, r.max, r.backoff
			if r.exclusive {
				props["AccessType"] = "Exclusive"
			}
			o := iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: props}},
				ExceptionEnds: [][]string{{"error"}}, Parameters: r.params}
			if r.guard != "" {
				o.Routers = []iflowbuild.Router{{Condition: r.guard, InException: r.inException, ConditionRetries: r.conditionRetries}}
			}
			zip := iflowbuild.Build(o)
			days := r.expirationDays
			if days == 0 {
				days = rules.DefaultJMSExpirationDays
			}

			// The provider's side: read the sender and its guard back and apply the rules.
			art, err := iflow.ReadZip(zip)
			if err != nil {
				t.Fatal(err)
			}
			snd := art.JMSSenders()
			if len(snd) != 1 {
				t.Fatalf("the reader finds %d JMS senders", len(snd))
			}
			st := art.JMSSenderSettings(snd[0], nil)
			i, _ := st.RetryInterval.Int()
			m, _ := st.MaxRetryInterval.Int()
			b, _ := st.ExponentialBackoff.Bool()
			exclusive, _ := st.Exclusive()
			sch := rules.JMSSchedule{RetryInterval: i, MaxRetryInterval: m, ExponentialBackoff: b}
			guards, err := iflow.RetryGuards(zip, nil)
			if err != nil {
				t.Fatal(err)
			}
			sum := iflow.SummarizeGuards(guards)
			byGuard := sum.Present && sum.Guard.Limit.Known && !exclusive
			var retries int64
			if byGuard {
				retries = rules.JMSGuardStopRetry(sum.Guard.Limit.Value, sum.Guard.Operator)
			} else if retries, err = sch.RetriesWithin(days * 24 * 60); err != nil {
				t.Fatal(err)
			}
			giveUp, err := sch.GiveUpMinutes(retries)
			if err != nil {
				t.Fatal(err)
			}
			wantOutcome := emulator.RunExpired
			if byGuard {
				wantOutcome = emulator.RunGuardEnded
			}

			e.deployContent(t, ctx, id, zip)
			access := emulator.JMSNonExclusive
			if r.exclusive {
				access = emulator.JMSExclusive
			}
			body := fmt.Sprintf(`{"body": "poison", "expiration_days": %d, "access_type": %q}`, days, access)
			if err := emulatorcontrol.Call(ctx, e.control, http.MethodPost, "/jms/queues/"+queue+"/messages", body, nil); err != nil {
				t.Fatal(err)
			}
			run, logs := e.settledRun(t, ctx, id)
			if len(logs) == 0 {
				t.Fatal("no processing logs")
			}
			span := logs[len(logs)-1].LogStart.Sub(logs[0].LogStart)
			if r.bound {
				if run.Executions > retries+1 || run.Outcome != wantOutcome || span > time.Duration(giveUp)*time.Minute {
					t.Fatalf("guard %q: the emulator ran %d executions over %s and ended %s (%s); the rules' bound is %d executions over %d minutes, %s",
						r.guard, run.Executions, span, run.Outcome, run.Reason, retries+1, giveUp, wantOutcome)
				}
				t.Logf("guard %q: %d executions over %s within the rules' bound of %d over %d minutes", r.guard, run.Executions, span, retries+1, giveUp)
				return
			}
			if run.Executions != retries+1 || int64(len(logs)) != retries+1 || run.Outcome != wantOutcome || span != time.Duration(giveUp)*time.Minute {
				t.Fatalf("i=%d m=%d backoff=%t guard %q (%s %q): the emulator ran %d executions (%d processing logs) over %s and ended %s (%s); the rules predict %d executions (1 + %d retries) over %d minutes, %s",
					i, m, b, r.guard, sum.Guard.Operator, sum.Guard.Limit.Raw, run.Executions, len(logs), span, run.Outcome, run.Reason, retries+1, retries, giveUp, wantOutcome)
			}
		})
	}
}

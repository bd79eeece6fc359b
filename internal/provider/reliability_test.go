package provider_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// fleetHCL is n queues, each with its own dead message queue and a subscription, under prefix.
func fleetHCL(prefix string, n, redeliveries int) string {
	return fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  count = %d
  name  = format("%s/q%%03d/dmq", count.index)
}

resource "sapmessaging_queue" "q" {
  count                = %d
  name                 = format("%s/q%%03d", count.index)
  max_redelivery_count = %d
  dead_message_queue   = sapmessaging_dead_message_queue.dmq[count.index].name
  respect_ttl          = true
  max_ttl              = 86400
}

resource "sapmessaging_queue_subscription" "s" {
  count         = %d
  queue_name    = sapmessaging_queue.q[count.index].name
  topic_pattern = format("acme/crm/prod/ce/fleet/q%%03d/*", count.index)
}
`, n, prefix, n, prefix, redeliveries, n)
}

// faultFigures formats the emulator's and the provider's counters for the test log.
func faultFigures(env *acctest.TestEnv, st emulator.Stats) string {
	cs := env.ClientStats()
	kinds := slices.Sorted(maps.Keys(st.Faults))
	var byKind []string
	for _, k := range kinds {
		byKind = append(byKind, fmt.Sprintf("%s=%d", k, st.Faults[k]))
	}
	codes := slices.Sorted(maps.Keys(st.Statuses))
	var statuses []string
	for _, c := range codes {
		statuses = append(statuses, fmt.Sprintf("%d=%d", c, st.Statuses[c]))
	}
	return fmt.Sprintf("emulator: %d requests (%d management, %d token), %d faults injected (%s), answers %s; "+
		"provider clients: %d attempts, %d retries, %d token fetches",
		st.Requests, st.ManagementCalls, st.TokenRequests, st.FaultsInjected, strings.Join(byKind, " "),
		strings.Join(statuses, " "), cs.Requests, cs.Retries, cs.TokenFetches)
}

// Under about 20% injected faults of every kind, and one token expiry mid-run, 100 queues with their
// dead message queues and subscriptions are applied, refreshed and destroyed: the emulator ends up
// holding exactly what the state says, and the plan after the apply is empty.
func TestAccReliability_faultInjection(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const n = 100
	// Fast backoff between retries; Retry-After answers still wait the second they ask for.
	env.TuneClients(t, func(c *httpx.Config) {
		c.RetryWaitMin, c.RetryWaitMax = 100*time.Millisecond, 2*time.Second
	})
	faults := emulator.Faults{
		Rate: 0.2,
		Kinds: []emulator.FaultKind{
			emulator.Fault429, emulator.Fault500, emulator.Fault502, emulator.Fault503,
			emulator.FaultDrop, emulator.FaultSlow, emulator.FaultLostResponse,
		},
		RetryAfter:           time.Second,
		SlowDelay:            1500 * time.Millisecond, // past the request timeout of 1s below
		Seed:                 6,
		IncludeTokenEndpoint: true,
		TokenExpiryAfter:     150, // mid-way through the 300 creates
	}
	config := env.ProviderWith(`
  max_retries             = 8
  request_timeout_seconds = 1
`) + fleetHCL("acme/crm/prod/fleet", n, 5)

	var applied emulator.Stats
	var start time.Time // set when the test runs, not while it waits for other parallel tests
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					start = time.Now()
					env.Srv.SetFaults(faults)
				},
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					acctest.CheckEmulator(func() error {
						applied = env.Srv.Stats()
						t.Logf("after apply (%s): %s", time.Since(start).Round(time.Millisecond), faultFigures(env, applied))
						return nil
					}),
					acctest.CheckStateMatchesEmulator(env, 2*n, n),
				),
				ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
			},
			{
				// An update of every queue, still under faults.
				Config: env.ProviderWith(`
  max_retries             = 8
  request_timeout_seconds = 1
`) + fleetHCL("acme/crm/prod/fleet", n, 6),
				Check:            acctest.CheckStateMatchesEmulator(env, 2*n, n),
				ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan("sapmessaging_queue.q[42]"),
			},
		},
		CheckDestroy: acctest.CheckEmulator(func() error {
			if qs := env.Srv.Queues(); len(qs) != 0 {
				return fmt.Errorf("%d queue(s) left after destroy under faults, first %s", len(qs), qs[0].Name)
			}
			return nil
		}),
	})
	st := env.Srv.Stats()
	t.Logf("result: apply, update, refreshes and destroy converged in %s; totals %s", time.Since(start).Round(time.Millisecond), faultFigures(env, st))
	if !t.Failed() {
		if applied.FaultsInjected == 0 || st.Faults[emulator.FaultTokenExpiry] != 1 || applied.Statuses[401] == 0 {
			t.Errorf("the apply saw %d faults and %d answers 401, the run %d token expiries; want some, some and exactly 1",
				applied.FaultsInjected, applied.Statuses[401], st.Faults[emulator.FaultTokenExpiry])
		}
		for _, k := range faults.Kinds {
			if st.Faults[k] == 0 {
				t.Errorf("no %s fault was injected; pick another seed so that every kind is exercised", k)
			}
		}
		if rate := float64(st.FaultsInjected) / float64(st.Requests); rate < 0.1 || rate > 0.3 {
			t.Errorf("fault rate %.2f, want about 0.2", rate)
		}
	}
}

// A fault that outlasts the retry budget fails the apply with a clear error; the next apply
// converges without orphans. max_retries = 0 must mean one attempt per request. The queues
// name no dead message queue, which would have to exist first and take its own PUT: the
// faults are to meet the queues' PUTs only.
func TestAccReliability_retryBudgetExhausted(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const n = 20
	hcl := `
resource "sapmessaging_queue" "q" {
  count                = ` + fmt.Sprint(n) + `
  name                 = "acme/crm/prod/budget/q${count.index}"
  max_redelivery_count = 5
}
`
	config := env.ProviderWith("  max_retries = 0") + hcl
	var failed emulator.Stats
	var figures string
	parallelSteps(t, []resource.TestStep{
		{
			// Half of the apply's PUTs fail with 503.
			PreConfig: func() {
				env.Srv.InjectNextOn("PUT /queues/{queue}", slices.Repeat([]emulator.FaultKind{emulator.Fault503}, n/2)...)
			},
			Config:      config,
			ExpectError: acctest.Wrapped(`Cannot Write Queue .*acme/crm/prod/budget/q[0-9]+.*503 Service Unavailable`),
		},
		{
			PreConfig: func() {
				failed = env.Srv.Stats()
				figures = faultFigures(env, failed)
				env.Srv.ClearFaults()
			},
			Config:           config,
			Check:            acctest.CheckStateMatchesEmulator(env, n, 0),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
	t.Logf("failed apply: %s", figures)
	// Every create was tried exactly once: no retries with max_retries = 0.
	if got := failed.Routes["PUT /queues/{queue}"]; got != n {
		t.Errorf("the failed apply sent %d queue PUTs for %d queues; with max_retries = 0 each is tried once", got, n)
	}
}

// A create whose PUT the service carried out but whose answer was lost is retried; the
// retry finds the queue and adopts it: no orphan, no error, no duplicate.
func TestAccReliability_lostCreateResponseRetried(t *testing.T) {
	env := acctest.NewTestEnv(t)
	parallelSteps(t, []resource.TestStep{{
		PreConfig: func() { env.Srv.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse) },
		Config:    env.Config(acctest.QueueHCL(3)),
		Check: resource.ComposeTestCheckFunc(
			acctest.CheckStateMatchesEmulator(env, 2, 0),
			acctest.CheckEmulator(func() error {
				st := env.Srv.Stats()
				t.Logf("%s", faultFigures(env, st))
				if st.Faults[emulator.FaultLostResponse] != 1 || st.Routes["PUT /queues/{queue}"] != 3 {
					return fmt.Errorf("want one lost response and 3 queue PUTs (2 queues, 1 repeat): %s", faultFigures(env, st))
				}
				return nil
			}),
		),
		ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
	}})
}

// With no retries left, a lost create answer is still no failure: the provider finds the queue
// it asked for and records it. The next plan is empty (no replacement of a tainted queue), even
// once the queue holds a message.
func TestAccReliability_lostCreateResponseAdopted(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/lost"
	config := func(force bool) string {
		return env.ProviderWith("  max_retries = 0") + fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/lost/dmq"
}

resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 4
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
  force_destroy        = %t
}
`, name, force)
	}
	parallelSteps(t, []resource.TestStep{
		{
			// The apply's first PUT, the dead message queue's (the queue waits for it), loses its answer.
			PreConfig: func() { env.Srv.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse) },
			Config:    config(false),
			Check: resource.ComposeTestCheckFunc(
				acctest.CheckStateMatchesEmulator(env, 2, 0),
				acctest.CheckEmulator(func() error {
					st := env.Srv.Stats()
					t.Logf("%s", faultFigures(env, st))
					if st.Faults[emulator.FaultLostResponse] != 1 || st.Routes["PUT /queues/{queue}"] != 2 {
						return fmt.Errorf("want one lost response and one PUT per queue: %s", faultFigures(env, st))
					}
					return nil
				}),
			),
		},
		{
			PreConfig: func() {
				if err := env.Messaging(t).Publish(context.Background(), name, []byte(`{"id":1}`), "application/json"); err != nil {
					t.Fatal(err)
				}
			},
			Config:   config(false),
			PlanOnly: true,
		},
		// The queue holds a message: force_destroy lets the test's destroy remove it.
		{Config: config(true)},
	})
}

// The same for a subscription: a lost answer with no retries left is adopted, not an error.
func TestAccReliability_lostSubscriptionResponseAdopted(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const queue = "acme/crm/prod/other"
	config := env.ProviderWith("  max_retries = 0") + fmt.Sprintf(`
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = %q
  topic_pattern = "acme/crm/prod/ce/lost/*"
}
`, queue)
	five := int64(5)
	parallelSteps(t, []resource.TestStep{
		{
			PreConfig: func() {
				// The queue exists outside this configuration.
				if _, _, err := env.EventMesh(t).PutQueue(context.Background(), queue, eventmesh.QueueSettings{MaxRedeliveryCount: &five}); err != nil {
					t.Fatal(err)
				}
				env.Srv.ResetStats()
				env.Srv.InjectNextOn("PUT /queues/{queue}/subscriptions/{topic}", emulator.FaultLostResponse) // the plan lists the queues, the create lists the subscriptions first
			},
			Config: config,
			Check: acctest.CheckEmulator(func() error {
				st := env.Srv.Stats()
				t.Logf("%s", faultFigures(env, st))
				if st.Faults[emulator.FaultLostResponse] != 1 || st.Routes["PUT /queues/{queue}/subscriptions/{topic}"] != 1 {
					return fmt.Errorf("want one lost response and one PUT: %s", faultFigures(env, st))
				}
				if topics, _ := env.Srv.Subscriptions(queue); len(topics) != 1 {
					return fmt.Errorf("subscriptions %v, want one", topics)
				}
				return nil
			}),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}

func TestHoldsSettings(t *testing.T) {
	t.Parallel()
	five, six, ttl := int64(5), int64(6), int64(60)
	dmq, other, empty := "acme/crm/prod/q/dmq", "acme/crm/prod/other/dmq", ""
	yes := true
	held := &eventmesh.Queue{Name: "acme/crm/prod/q", QueueSettings: eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq, RespectTTL: &yes, MaxTTL: &ttl}}
	for _, tc := range []struct {
		name string
		s    eventmesh.QueueSettings
		want bool
	}{
		{"same", eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq, RespectTTL: &yes, MaxTTL: &ttl}, true},
		{"unset size taken as the service's", eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq, MaxTTL: &ttl}, true},
		{"other count", eventmesh.QueueSettings{MaxRedeliveryCount: &six, DeadMsgQueue: &dmq, MaxTTL: &ttl}, false},
		{"other DMQ", eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &other, MaxTTL: &ttl}, false},
		{"DMQ left out but held", eventmesh.QueueSettings{MaxRedeliveryCount: &five, MaxTTL: &ttl}, false},
		{"TTL left out but held", eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq}, false},
	} {
		if got := tfeventmesh.HoldsSettings(held, tc.s); got != tc.want {
			t.Errorf("%s: holdsSettings = %t, want %t", tc.name, got, tc.want)
		}
	}
	noDMQ := &eventmesh.Queue{Name: "q", QueueSettings: eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &empty}}
	if !tfeventmesh.HoldsSettings(noDMQ, eventmesh.QueueSettings{MaxRedeliveryCount: &five}) {
		t.Error("an empty deadMsgQueue must count as unset")
	}
}

package landscape_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/landscape"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/audit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// auditLandscape puts a landscape with one healthy and several broken paths on the emulator:
//
//   - Orders reads acme/crm/prod/orders (R = 5, dead message queue with 7 days TTL), n = 1: N_max 7;
//   - Returns reads acme/crm/prod/returns (R = 0, no dead message queue) and ends its exception
//     subprocess in an Escalation End: unbounded;
//   - Typo reads acme/crm/prod/missing with MODIFIED_FAILED_UNDELIVERABLE;
//   - Retry is a JMS sender without a retry guard;
//   - Gone is deployed but its design time was deleted, so its content cannot be read;
//   - Bumped runs version 1.0.0 while its design time holds 1.0.1;
//   - acme/crm/prod/idle is consumed by no flow.
func auditLandscape(t *testing.T, env *acctest.TestEnv) {
	t.Helper()
	ctx := t.Context()
	em := env.EventMesh(t)
	put := func(name string, s eventmesh.QueueSettings) {
		if _, _, err := em.PutQueue(ctx, name, s); err != nil {
			t.Fatal(err)
		}
	}
	put("acme/crm/prod/orders/dmq", eventmesh.QueueSettings{RespectTTL: acctest.PtrTo(true), MaxTTL: acctest.PtrTo[int64](rules.DefaultDMQTTL)})
	put("acme/crm/prod/orders", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](5), DeadMsgQueue: acctest.PtrTo("acme/crm/prod/orders/dmq")})
	put("acme/crm/prod/returns", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](0)})
	put("acme/crm/prod/idle", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](3), DeadMsgQueue: acctest.PtrTo("acme/crm/prod/orders/dmq")})

	amqpSender := func(queue string, change map[string]string) []iflowbuild.Sender {
		props := iflowbuild.DefaultSenderProperties(queue)
		props[iflow.KeyMaxRetries], props[iflow.KeyQueuePrefetch] = "1", "1"
		for k, v := range change {
			props[k] = v
		}
		return []iflowbuild.Sender{{Name: "EventMesh", Properties: props}}
	}
	env.AddFlow(t, "Orders", amqpSender("acme/crm/prod/orders", nil), nil, []string{"error"})
	env.AddFlow(t, "Returns", amqpSender("acme/crm/prod/returns", nil), nil, []string{"escalation"})
	env.AddFlow(t, "Typo", amqpSender("acme/crm/prod/missing", map[string]string{iflow.KeyDeliveryState: "MODIFIED_FAILED_UNDELIVERABLE"}), nil, []string{"error"})
	env.AddFlow(t, "Gone", amqpSender("acme/crm/prod/orders", nil), nil, []string{"error"})
	env.AddFlow(t, "Bumped", amqpSender("acme/crm/prod/orders", nil), nil, []string{"error"})
	env.AddJMSFlow(t, "Retry", false, iflowbuild.Options{ExceptionEnds: [][]string{{"error"}}})

	ci := env.CloudIntegration(t)
	for _, id := range []string{"Orders", "Returns", "Typo", "Gone", "Bumped", "Retry"} {
		if _, err := ci.DeployAndWait(ctx, id, "active", 10*time.Millisecond); err != nil {
			t.Fatalf("deploying %s: %v", id, err)
		}
	}
	if !env.Srv.DeleteIFlow("Gone") {
		t.Fatal("Gone was not in the design time")
	}
	bumped := acctest.RewriteArchive(t, env.Srv.IFlowContent("Bumped"), acctest.ArchiveEdit{Version: "1.0.1"})
	if err := env.Srv.CreateIFlow("Bumped", "Bumped", "Orders", bumped); err != nil {
		t.Fatal(err)
	}
}

const retryAuditConfig = `
data "sapmessaging_retry_audit" "all" {}

data "sapmessaging_retry_audit" "returns_errors" {
  queue_name_prefix = "acme/crm/prod/returns"
  min_severity      = "error"
}

data "sapmessaging_retry_audit" "retry_package" {
  flow_package = "Retry"
}
`

// hasFinding checks that the data source lists a finding with the rule ID about the objects.
func hasFinding(name, rule string, objects ...string) resource.TestCheckFunc {
	attrs := map[string]string{"rule_id": rule}
	checks := []resource.TestCheckFunc{resource.TestCheckTypeSetElemNestedAttrs(name, "findings.*", attrs)}
	for _, o := range objects {
		checks = append(checks, resource.TestCheckTypeSetElemAttr(name, "findings.*.objects.*", o))
	}
	return resource.ComposeAggregateTestCheckFunc(checks...)
}

// expectAuditSummary checks the attributes of the summary of the retry audit addr: each of want.
func expectAuditSummary(addr string, want map[string]knownvalue.Check) []statecheck.StateCheck {
	checks := make([]statecheck.StateCheck, 0, len(want))
	for _, attr := range slices.Sorted(maps.Keys(want)) {
		checks = append(checks, acctest.ExpectValue(addr, "summary."+attr, want[attr]))
	}
	return checks
}

// pathOf checks one path's attributes, selected by its flow.
func pathOf(name, flow string, attrs map[string]string) resource.TestCheckFunc {
	attrs["flow"] = flow
	return resource.TestCheckTypeSetElemNestedAttrs(name, "paths.*", attrs)
}

func TestAccRetryAuditDataSource(t *testing.T) {
	env := acctest.NewTestEnv(t)
	auditLandscape(t, env)
	all := "data.sapmessaging_retry_audit.all"
	returns := "data.sapmessaging_retry_audit.returns_errors"
	retry := "data.sapmessaging_retry_audit.retry_package"
	endpoint := acctest.WebhookEndpoint(t)
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.Config(retryAuditConfig),
		ConfigStateChecks: append(expectAuditSummary(all, map[string]knownvalue.Check{
			"paths":                       knownvalue.Int64Exact(5),
			"unbounded_paths":             knownvalue.Int64Exact(1),
			"flows":                       knownvalue.Int64Exact(6),
			"flows_not_analysable":        knownvalue.Int64Exact(1),
			"queues":                      knownvalue.Int64Exact(4),
			"errors":                      knownvalue.Int64Exact(3),
			"largest_worst_case_attempts": knownvalue.Int64Exact(725),
			"largest_worst_case_path":     knownvalue.StringExact("Retry_Retry → Retry/JMS_In"),
			"event_mesh":                  knownvalue.Bool(true),
			"cloud_integration":           knownvalue.Bool(true),
		}),
			diagramHas(all, `^flowchart LR\n`),
			diagramHas(all, `(n\d+)\[\("acme/crm/prod/orders<br/>R = 5"\)\]\n(?:.*\n)*?  n\d+\["Orders<br/>EventMesh \(AMQP, n = 1\)"\]\n  n1 -->\|"N_max = 7"\| n\d+\n`),
			diagramHas(all, `==>\|"unbounded"\|`),
			diagramHas(all, `-\.->\|"dead letters"\| n\d+`),
			diagramHas(all, `\[\("acme/crm/prod/orders/dmq<br/>TTL 7 d"\)\]`),
			diagramHas(all, `\[\("acme/crm/prod/missing<br/>missing"\)\]`),
			diagramHas(all, `-->\|"N_max = 725, deleted after 30 d"\|`),
			diagramHas(all, `classDef error `),
			// The filters: one error about the returns queue; the Retry package's one path.
			acctest.ExpectValue(returns, "findings", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rule_id":  knownvalue.StringExact("amqp.queue_redelivery_unlimited"),
					"severity": knownvalue.StringExact("error"),
					"objects":  acctest.StringList("channel:Returns/EventMesh", "queue:acme/crm/prod/returns", "flow:Returns"),
					"message":  knownvalue.StringRegexp(regexp.MustCompile(`^AMQP sender Returns/EventMesh reading "acme/crm/prod/returns": .* Set ` + "`max_redelivery_count`" + ` on the queue to a value from 1 to 255, for example 5\.$`)),
				}),
			})),
			acctest.ExpectInt(returns, "summary.paths", 1),
			acctest.ExpectValue(retry, "paths", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"adapter": knownvalue.StringExact("JMS"), "queue": knownvalue.StringExact("Retry_Retry"), "package": knownvalue.StringExact("Retry"),
					"worst_case_attempts": knownvalue.Int64Exact(725), "deleted_after_days": knownvalue.Int64Exact(30), "unbounded": knownvalue.Bool(false),
				}),
			})),
		),
		Check: resource.ComposeAggregateTestCheckFunc(
			pathOf(all, "Orders", map[string]string{"queue": "acme/crm/prod/orders", "channel": "EventMesh", "adapter": "AMQP",
				"queue_exists": "true", "max_redelivery_count": "5", "max_number_of_retries": "1", "delivery_status": "REJECTED",
				"worst_case_attempts": "7", "unbounded": "false", "dead_message_queue": "acme/crm/prod/orders/dmq",
				"dead_message_queue_ttl": "604800", "flow_status": "STARTED", "deployed_version": "1.0.0", "exception_end_events.#": "1"}),
			pathOf(all, "Returns", map[string]string{"queue": "acme/crm/prod/returns", "max_redelivery_count": "0", "unbounded": "true"}),
			pathOf(all, "Typo", map[string]string{"queue": "acme/crm/prod/missing", "queue_exists": "false", "delivery_status": "MODIFIED_FAILED_UNDELIVERABLE"}),
			hasFinding(all, "amqp.queue_redelivery_unlimited", "queue:acme/crm/prod/returns"),
			hasFinding(all, "amqp.delivery_status_undeliverable", "channel:Typo/EventMesh"),
			hasFinding(all, "audit.queue_not_found", "queue:acme/crm/prod/missing"),
			hasFinding(all, "queue.dmq_missing", "queue:acme/crm/prod/returns"),
			hasFinding(all, "iflow.exception_acknowledges", "flow:Returns"),
			hasFinding(all, "jms_sender.no_retry_limit", "jms_queue:Retry_Retry"),
			hasFinding(all, "audit.flow_not_analysable", "flow:Gone"),
			hasFinding(all, "audit.version_differs", "flow:Bumped"),
			hasFinding(all, "audit.queue_unconsumed", "queue:acme/crm/prod/idle"),
			checkNoFinding(all, "queue.redelivery_unlimited"),
			checkNoFinding(all, "audit.webhooks_not_configured"),
		),
	}, {
		// Someone pushes the idle queue to an endpoint with QoS 0: the queue is consumed now, and
		// the webhook is a path that loses a failing message after one try.
		PreConfig: func() {
			spec := eventmesh.WebhookSpec{Name: "idle-push", Queue: "acme/crm/prod/idle", QoS: 0, Endpoint: endpoint.URL + "/in"}
			if _, err := env.Messaging(t).CreateWebhook(t.Context(), spec); err != nil {
				t.Fatal(err)
			}
		},
		Config: env.Config(retryAuditConfig),
		ConfigStateChecks: append(expectAuditSummary(all, map[string]knownvalue.Check{
			"paths":    knownvalue.Int64Exact(6),
			"webhooks": knownvalue.Int64Exact(1),
		}),
			diagramHas(all, `(n\d+)\[\("acme/crm/prod/idle<br/>R = 3"\)\]\n  (n\d+)\{\{"webhook idle-push<br/>QoS 0, 127\.0\.0\.1:\d+"\}\}\n  n\d+ ==>\|"lost after one try"\| n\d+\n`),
		),
		Check: resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckTypeSetElemNestedAttrs(all, "paths.*", map[string]string{"webhook": "idle-push", "adapter": "WEBHOOK",
				"queue": "acme/crm/prod/idle", "queue_exists": "true", "qos": "0", "paused": "false", "worst_case_attempts": "1",
				"max_redelivery_count": "3", "unbounded": "false"}),
			resource.TestMatchTypeSetElemNestedAttrs(all, "paths.*", map[string]*regexp.Regexp{"webhook": regexp.MustCompile(`^idle-push$`),
				"endpoint_host": regexp.MustCompile(`^127\.0\.0\.1:\d+$`), "worst_case_reason": regexp.MustCompile(`lost after one try`)}),
			hasFinding(all, "webhook.qos0_loses_messages", "webhook:idle-push", "queue:acme/crm/prod/idle"),
			resource.TestMatchTypeSetElemNestedAttrs(all, "findings.*", map[string]*regexp.Regexp{"rule_id": regexp.MustCompile(`^webhook\.qos0_loses_messages$`),
				"severity": regexp.MustCompile(`^error$`), "message": regexp.MustCompile(acctest.BacktickTolerant(`^Webhook subscription "idle-push" pushing "acme/crm/prod/idle": qos = 0 .*loses the message`))}),
			checkNoFinding(all, "audit.queue_unconsumed"),
		),
	}, {
		// The team has accepted the webhook's message loss (accept_message_loss = true on its
		// resource): the audit told, it no longer reports the error, and the path stays.
		Config: env.Config(retryAuditConfig + `
data "sapmessaging_retry_audit" "accepted" {
  accept_message_loss = ["idle-push"]
}
`),
		Check: resource.ComposeAggregateTestCheckFunc(
			hasFinding(all, "webhook.qos0_loses_messages", "webhook:idle-push", "queue:acme/crm/prod/idle"),
			checkNoFinding("data.sapmessaging_retry_audit.accepted", "webhook.qos0_loses_messages"),
			resource.TestCheckTypeSetElemNestedAttrs("data.sapmessaging_retry_audit.accepted", "paths.*", map[string]string{"webhook": "idle-push",
				"qos": "0", "worst_case_attempts": "1"}),
			func(s *terraform.State) error {
				errs := func(name string) string { return s.RootModule().Resources[name].Primary.Attributes["summary.errors"] }
				if a, b := errs(all), errs("data.sapmessaging_retry_audit.accepted"); a == "" || b == "" || a == b {
					return fmt.Errorf("summary.errors: %s without acceptance, %s with it; want one error fewer with it", a, b)
				}
				return nil
			},
		),
	}, {
		// A webhook pushing over http with credentials in its URL: the finding, the paths and the
		// diagram name the endpoint without userinfo, query and fragment; nothing in the state
		// (or the plan, which shows the same values) holds them.
		PreConfig: func() {
			spec := eventmesh.WebhookSpec{Name: "leaky-push", Queue: "acme/crm/prod/idle", QoS: 1,
				Endpoint: "http://hookuser:s3cret@hooks.example.com:8080/push?apikey=k3y#t0ken"}
			if _, err := env.Messaging(t).CreateWebhook(t.Context(), spec); err != nil {
				t.Fatal(err)
			}
		},
		Config: env.Config(retryAuditConfig),
		Check: resource.ComposeAggregateTestCheckFunc(
			resource.TestMatchTypeSetElemNestedAttrs(all, "findings.*", map[string]*regexp.Regexp{"rule_id": regexp.MustCompile(`^webhook\.endpoint_not_https$`),
				"message": regexp.MustCompile(`endpoint = "http://hooks\.example\.com:8080/push" would receive`)}),
			resource.TestCheckTypeSetElemNestedAttrs(all, "paths.*", map[string]string{"webhook": "leaky-push", "endpoint_host": "hooks.example.com:8080"}),
			func(s *terraform.State) error {
				for k, v := range s.RootModule().Resources[all].Primary.Attributes {
					for _, secret := range []string{"hookuser", "s3cret", "k3y", "t0ken"} {
						if strings.Contains(v, secret) {
							return fmt.Errorf("%s holds %q: %s", k, secret, v)
						}
					}
				}
				return nil
			},
		),
	}})
}

// A name in accept_message_loss that is no QoS 0 webhook subscription of the instance is a
// warning on the attribute; names of QoS 0 subscriptions are not, nor anything when the webhooks
// were not read.
func TestCheckAcceptedLoss(t *testing.T) {
	t.Parallel()
	hook := func(name string, qos int) eventmesh.Webhook {
		var w eventmesh.Webhook
		w.Name, w.QoS = name, qos
		return w
	}
	in := audit.Input{WebhooksRead: true, Webhooks: []eventmesh.Webhook{hook("lossy", 0), hook("safe", 1)}}
	var diags diag.Diagnostics
	landscape.CheckAcceptedLoss(in, []string{"lossy", "safe", "typo"}, &diags)
	var got []string
	for _, d := range diags {
		if d.Severity() != diag.SeverityWarning {
			t.Errorf("%s is not a warning", d.Summary())
		}
		got = append(got, d.Summary())
	}
	if want := []string{"Accepted Webhook Loses No Messages", "Accepted Webhook Not Found"}; !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	diags = nil
	landscape.CheckAcceptedLoss(audit.Input{}, []string{"typo"}, &diags)
	if len(diags) != 0 {
		t.Errorf("webhooks not read, yet %d diagnostics", len(diags))
	}
}

// diagramHas checks that the diagram matches the regular expression (multi-line).
func diagramHas(name, re string) statecheck.StateCheck {
	return acctest.ExpectMatch(name, "diagram", `(?m)`+re)
}

// checkNoFinding fails when the data source lists a finding with the rule ID.
func checkNoFinding(name, rule string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[name]
		if !ok {
			return fmt.Errorf("%s not in state", name)
		}
		for k, v := range rs.Primary.Attributes {
			if strings.HasPrefix(k, "findings.") && strings.HasSuffix(k, ".rule_id") && v == rule {
				return fmt.Errorf("%s lists %s (%s)", name, rule, k)
			}
		}
		return nil
	}
}

func TestAccRetryAuditDataSource_queuesOnly(t *testing.T) {
	env := acctest.NewTestEnv(t)
	auditLandscape(t, env)
	queues := "data.sapmessaging_retry_audit.queues"
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.ProviderOf("event_mesh") + `data "sapmessaging_retry_audit" "queues" {}`,
		ConfigStateChecks: []statecheck.StateCheck{
			acctest.ExpectLen(queues, "paths", 0),
			acctest.ExpectBool(queues, "summary.cloud_integration", false),
			acctest.ExpectInt(queues, "summary.queues", 4),
			diagramHas(queues, `\Aflowchart LR\n  none\["no sender channel or webhook reads a queue"\]\n\z`),
		},
		Check: resource.ComposeAggregateTestCheckFunc(
			hasFinding(queues, "audit.queues_only"),
			// Without flows the join cannot tell a consumed queue from an unconsumed one.
			checkNoFinding(queues, "audit.queue_unconsumed"),
			hasFinding(queues, "queue.redelivery_unlimited", "queue:acme/crm/prod/returns"),
		),
	}})
}

func TestAccRetryAuditDataSource_invalidSeverity(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.ParallelTest(t, []resource.TestStep{{
		Config:      env.Config(`data "sapmessaging_retry_audit" "all" { min_severity = "fatal" }`),
		ExpectError: regexp.MustCompile(`(?s)min_severity.*error.*warning.*info`),
	}})
}

// The example of the data source (examples/data-sources/sapmessaging_retry_audit, also on its
// page) runs on a landscape with a webhook subscription, whose path has no flow and no channel:
// its outputs name the webhook path "<queue> → webhook <name>", and the unbounded check lists the
// landscape's unbounded paths.
func TestAccRetryAuditDataSource_exampleWithWebhook(t *testing.T) {
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	em := env.EventMesh(t)
	if _, _, err := em.PutQueue(t.Context(), "acme/crm/prod/hooked/dmq", eventmesh.QueueSettings{RespectTTL: acctest.PtrTo(true), MaxTTL: acctest.PtrTo[int64](rules.DefaultDMQTTL)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := em.PutQueue(t.Context(), "acme/crm/prod/hooked", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](2), DeadMsgQueue: acctest.PtrTo("acme/crm/prod/hooked/dmq")}); err != nil {
		t.Fatal(err)
	}
	spec := eventmesh.WebhookSpec{Name: "hooked-push", Queue: "acme/crm/prod/hooked", QoS: 1, Endpoint: acctest.WebhookEndpoint(t).URL + "/in"}
	if _, err := env.Messaging(t).CreateWebhook(t.Context(), spec); err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.Config(acctest.ReadExample(t, "data-sources/sapmessaging_retry_audit/data-source.tf")),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValueAtPath("worst_case_attempts",
				tfjsonpath.New("acme/crm/prod/hooked → webhook hooked-push"), knownvalue.Int64Exact(3)),
			statecheck.ExpectKnownOutputValueAtPath("worst_case_attempts",
				tfjsonpath.New(emulator.SampleLandscapePrefix+"shipments → Acme_Shipments_Inbound/AMQP_Shipments"), knownvalue.Null()),
		},
	}})
}

// auditAEMLandscape puts an Advanced Event Mesh landscape on the emulator beside the Event Mesh one of
// auditLandscape's kind, and deploys the flows that read it:
//
//   - AEMOrders reads the AEM queue orders (R = 3, a redelivery delay of 1 s doubling, the dead message
//     queue orders.dmq with 7 days TTL) with the tenant-written settings (m = 5, FAILED): N_max 20 in 2 min 47 s;
//   - AEMStuck reads stuck (R = 0): the adapter's loop runs for ever;
//   - AEMTypo reads nothing the broker holds;
//   - Legacy reads the Event Mesh queue acme/crm/prod/orders with an AMQP sender: N_max 7.
func auditAEMLandscape(t *testing.T, env *acctest.TestEnv) {
	t.Helper()
	ctx := t.Context()
	c := env.AEM(t)
	mk := func(name string, s aem.QueueSettings) {
		s.IngressEnabled, s.EgressEnabled, s.AccessType = acctest.PtrTo(true), acctest.PtrTo(true), acctest.PtrTo(rules.AEMAccessNonExclusive)
		if _, err := c.CreateQueue(ctx, aem.Queue{Name: name, QueueSettings: s}); err != nil {
			t.Fatal(err)
		}
	}
	delay := func(s aem.QueueSettings) aem.QueueSettings {
		s.RedeliveryDelayEnabled, s.RedeliveryDelayInitialInterval = acctest.PtrTo(true), acctest.PtrTo[int64](1000)
		s.RedeliveryDelayMaxInterval, s.RedeliveryDelayMultiplier = acctest.PtrTo[int64](64000), acctest.PtrTo[int64](200)
		return s
	}
	mk("orders.dmq", aem.QueueSettings{RespectTTLEnabled: acctest.PtrTo(true), MaxTTL: acctest.PtrTo[int64](604800)})
	mk("orders", delay(aem.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](3), DeadMsgQueue: acctest.PtrTo("orders.dmq")}))
	mk("stuck", delay(aem.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](0), DeadMsgQueue: acctest.PtrTo("orders.dmq")}))

	em := env.EventMesh(t)
	if _, _, err := em.PutQueue(ctx, "acme/crm/prod/orders/dmq", eventmesh.QueueSettings{RespectTTL: acctest.PtrTo(true), MaxTTL: acctest.PtrTo[int64](rules.DefaultDMQTTL)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := em.PutQueue(ctx, "acme/crm/prod/orders", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](5), DeadMsgQueue: acctest.PtrTo("acme/crm/prod/orders/dmq")}); err != nil {
		t.Fatal(err)
	}
	aemSender := func(queue string) []iflowbuild.Sender {
		return []iflowbuild.Sender{{Name: "AEM_In", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties(queue)}}
	}
	env.AddFlow(t, "AEMOrders", aemSender("orders"), nil, []string{"error"})
	env.AddFlow(t, "AEMStuck", aemSender("stuck"), nil, []string{"error"})
	env.AddFlow(t, "AEMTypo", aemSender("order"), nil, []string{"error"})
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	props[iflow.KeyMaxRetries], props[iflow.KeyQueuePrefetch] = "1", "1"
	env.AddFlow(t, "Legacy", []iflowbuild.Sender{{Name: "EventMesh", Properties: props}}, nil, []string{"error"})
	ci := env.CloudIntegration(t)
	for _, id := range []string{"AEMOrders", "AEMStuck", "AEMTypo", "Legacy"} {
		if _, err := ci.DeployAndWait(ctx, id, "active", 10*time.Millisecond); err != nil {
			t.Fatalf("deploying %s: %v", id, err)
		}
	}
}

// Event Mesh and Advanced Event Mesh in one report: every path with its broker, the AEM sender's settings,
// N_max = m × (R + 1), the time to the end and where it is, the findings of both brokers, one diagram.
func TestAccRetryAuditDataSource_aem(t *testing.T) {
	env := acctest.NewTestEnv(t)
	auditAEMLandscape(t, env)
	all := "data.sapmessaging_retry_audit.all"
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.AEMConfig(`data "sapmessaging_retry_audit" "all" {}`),
		ConfigStateChecks: append(expectAuditSummary(all, map[string]knownvalue.Check{
			"paths":                       knownvalue.Int64Exact(4),
			"aem_paths":                   knownvalue.Int64Exact(3),
			"aem_queues":                  knownvalue.Int64Exact(3),
			"queues":                      knownvalue.Int64Exact(2),
			"unbounded_paths":             knownvalue.Int64Exact(1),
			"largest_worst_case_attempts": knownvalue.Int64Exact(20),
			"largest_worst_case_path":     knownvalue.StringExact("orders → AEMOrders/AEM_In"),
			"advanced_event_mesh":         knownvalue.Bool(true),
			"event_mesh":                  knownvalue.Bool(true),
		}),
			diagramHas(all, `\[\("AEM orders<br/>R = 3"\)\]\n  (n\d+)\["AEMOrders<br/>AEM_In \(AEM, m = 5, FAILED\)"\]\n  n\d+ -->\|"N_max = 20 in 2 min 47 s"\| n\d+\n`),
			diagramHas(all, `\[\("orders\.dmq<br/>TTL 7 d"\)\]`),
			diagramHas(all, `\[\("AEM order<br/>missing"\)\]`),
			diagramHas(all, `\[\("acme/crm/prod/orders<br/>R = 5"\)\]`),
		),
		Check: resource.ComposeAggregateTestCheckFunc(
			pathOf(all, "AEMOrders", map[string]string{"adapter": "AEM", "broker": "advanced_event_mesh", "queue": "orders", "queue_exists": "true",
				"channel": "AEM_In", "max_redelivery_count": "3", "max_message_processing_attempts": "5", "retry_interval": "1000",
				"max_retry_interval": "30000", "retry_multiplier": "3", "consumer_mode": "GUARANTEED", "acknowledgement_mode": "AUTOMATIC_ON_EXCHANGE_COMPLETE",
				"settlement_outcome": "FAILED", "worst_case_attempts": "20", "unbounded": "false", "end": "dead message queue",
				"dead_message_queue": "orders.dmq", "dead_message_queue_ttl": "604800", "time_to_end": "2 min 47 s", "time_to_end_seconds": "167",
				"exception_end_events.#": "1", "aem_adapter": "AdvancedEventMesh", "unconfirmed.#": "0"}),
			pathOf(all, "AEMStuck", map[string]string{"broker": "advanced_event_mesh", "queue": "stuck", "max_redelivery_count": "0", "unbounded": "true"}),
			pathOf(all, "AEMTypo", map[string]string{"broker": "advanced_event_mesh", "queue": "order", "queue_exists": "false"}),
			pathOf(all, "Legacy", map[string]string{"adapter": "AMQP", "broker": "event_mesh", "worst_case_attempts": "7"}),
			resource.TestMatchTypeSetElemNestedAttrs(all, "paths.*", map[string]*regexp.Regexp{"flow": regexp.MustCompile(`^AEMOrders$`),
				"worst_case_reason": regexp.MustCompile(`runs 20 times \(5 attempts on each of 4 deliveries\)`)}),
			hasFinding(all, "aem_sender.failed_unlimited_redelivery", "channel:AEMStuck/AEM_In", "aem_queue:stuck"),
			hasFinding(all, "audit.aem_queue_not_found", "channel:AEMTypo/AEM_In", "aem_queue:order"),
			checkNoFinding(all, "aem.redelivery_unlimited"),
			checkNoFinding(all, "audit.aem_queue_unconsumed"),
			checkNoFinding(all, "audit.queue_unconsumed"),
		),
	}})
}

// Only the AEM broker: with Cloud Integration the AEM paths without an Event Mesh word; without Cloud
// Integration the AEM queues alone.
func TestAccRetryAuditDataSource_aemOnly(t *testing.T) {
	env := acctest.NewTestEnv(t)
	auditAEMLandscape(t, env)
	all := "data.sapmessaging_retry_audit.all"
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.ProviderOf("cloud_integration", "advanced_event_mesh") + `data "sapmessaging_retry_audit" "all" {}`,
		ConfigStateChecks: expectAuditSummary(all, map[string]knownvalue.Check{
			"event_mesh":                  knownvalue.Bool(false),
			"advanced_event_mesh":         knownvalue.Bool(true),
			"aem_paths":                   knownvalue.Int64Exact(3),
			"largest_worst_case_attempts": knownvalue.Int64Exact(20),
		}),
		Check: resource.ComposeAggregateTestCheckFunc(
			pathOf(all, "AEMOrders", map[string]string{"worst_case_attempts": "20", "time_to_end_seconds": "167"}),
			// The Legacy flow's AMQP sender reads a queue no connection can see.
			hasFinding(all, "audit.event_mesh_not_configured"),
			checkNoFinding(all, "audit.flows_only"),
		),
	}, {
		Config: env.ProviderOf("advanced_event_mesh") + `data "sapmessaging_retry_audit" "all" {}`,
		ConfigStateChecks: expectAuditSummary(all, map[string]knownvalue.Check{
			"cloud_integration": knownvalue.Bool(false),
			"paths":             knownvalue.Int64Exact(0),
			"aem_queues":        knownvalue.Int64Exact(3),
		}),
		Check: resource.ComposeAggregateTestCheckFunc(
			resource.TestMatchTypeSetElemNestedAttrs(all, "findings.*", map[string]*regexp.Regexp{"rule_id": regexp.MustCompile(`^audit\.queues_only$`),
				"message": regexp.MustCompile(`checked the AEM queues alone`)}),
			hasFinding(all, "aem.redelivery_unlimited", "aem_queue:stuck"),
		),
	}})
}

// A plan that cannot read the AEM broker fails: refused credentials and an unreachable broker are errors,
// never a report without the AEM queues.
func TestAccRetryAuditDataSource_aemUnreadable(t *testing.T) {
	env := acctest.NewTestEnv(t)
	c := env.Srv.AdvancedEventMeshCredentials()
	config := func(url, password string) string {
		return fmt.Sprintf(`
provider "sapmessaging" {
  cloud_integration   = { service_key = %q }
  advanced_event_mesh = { semp_url = %q, msg_vpn_name = %q, username = %q, password = %q }
  max_retries         = 0
}
data "sapmessaging_retry_audit" "all" {}
`, string(env.Srv.CloudIntegrationKey()), url, c.MsgVpnName, c.Username, password)
	}
	acctest.ParallelTest(t, []resource.TestStep{{
		Config:      config(c.SEMPURL, "wrong"),
		ExpectError: regexp.MustCompile(`Advanced Event Mesh SEMP API Credentials Refused`),
	}, {
		Config:      config("http://127.0.0.1:1", c.Password),
		ExpectError: regexp.MustCompile(`Cannot Verify Advanced Event Mesh SEMP API Credentials`),
	}})
}

package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// CheckStateMatchesEmulator asserts that the emulator holds exactly the queues, dead message
// queues and subscriptions of the state, with the settings of the state: none lost, none
// orphaned, none duplicated. want counts the queues (dead message queues included) and the
// subscriptions the configuration declares.
func CheckStateMatchesEmulator(env *TestEnv, wantQueues, wantSubs int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		var resources []StateResource
		for addr, rs := range s.RootModule().Resources {
			resources = append(resources, StateResource{addr: addr, Typ: rs.Type, Attrs: rs.Primary.Attributes})
		}
		return stateMatchesEmulator(env, resources, wantQueues, wantSubs)
	}
}

// The AEM sender tests run on the sample content: the flows of package AcmeAEM (aem_sample_flows.go) read
// the AEM sample queues (aem_sample.go).
const (
	AEMOrdersFlow = "Acme_AEM_Orders_Inbound"   // acme/aem/prod/orders: R = 5, dead message queue acme/aem/prod/orders/dmq
	AEMLegacyFlow = "Acme_AEM_Legacy_Inbound"   // acme/aem/prod/legacy: R = 0, the default dead message queue, which does not exist
	AEMAuditFlow  = "Acme_AEM_Audit_Inbound"    // AUTOMATIC_IMMEDIATE
	AEMSolaceFlow = "Acme_AEM_Payments_Inbound" // Solace's own adapter (SolacePubSubPlus) on acme/aem/prod/payments: R = 5, DMQ acme/aem/prod/payments/errors
	AEMSenderAddr = "sapmessaging_aem_sender.s"
	SempQueues    = "/SEMP/v2/config/msgVpns/{vpn}/queues"
)

// NewAEMSenderEnv is an emulator with the sample content.
func NewAEMSenderEnv(t *testing.T) *TestEnv {
	t.Helper()
	env := NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	return env
}

func AEMSenderHCL(iflowID, body string) string {
	return fmt.Sprintf(`
resource "sapmessaging_aem_sender" "s" {
  iflow_id = %q
%s
}
`, iflowID, body)
}

// AEMPublish sends n messages to queue through the broker's REST messaging listener, as a publisher would.
func (e *TestEnv) AEMPublish(t *testing.T, queue string, n int) {
	t.Helper()
	for i := range n {
		e.postAEM(t, queue, fmt.Sprintf(`{"order":%d}`, i), "application/json")
	}
}

// AEMPublishAfterApply is a step's check that sends n messages to the AEM queue (AEMPublish), so that the next
// step meets the queue holding them.
func (e *TestEnv) AEMPublishAfterApply(t *testing.T, queue string, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		e.AEMPublish(t, queue, n)
		return nil
	}
}

// PublishAfterApply is a step's check that publishes one message, {"id":1}, to each of the Event Mesh queues, so
// that the next step meets them holding a message.
func (e *TestEnv) PublishAfterApply(t *testing.T, queues ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, q := range queues {
			if err := e.Messaging(t).Publish(context.Background(), q, []byte(`{"id":1}`), "application/json"); err != nil {
				return err
			}
		}
		return nil
	}
}

// postAEM sends one message with body (and the content type, unless empty) to queue through the broker's REST
// messaging.
func (e *TestEnv) postAEM(t *testing.T, queue, body, contentType string) {
	t.Helper()
	c := e.Srv.AdvancedEventMeshCredentials()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, c.SEMPURL+"/QUEUE/"+url.PathEscape(queue), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(c.Username, c.Password)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("publish to %s: %d", queue, resp.StatusCode)
	}
}

// AEMDepths returns how many messages each queue holds, through the monitoring API.
func (e *TestEnv) AEMDepths(t *testing.T, queues ...string) []int {
	t.Helper()
	c := e.AEM(t)
	out := make([]int, len(queues))
	for i, q := range queues {
		msgs, err := c.ListMessages(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = len(msgs)
	}
	return out
}

// publishAEM sends n messages to queue through the broker's REST messaging, as a publisher would.
func (e *TestEnv) publishAEM(t *testing.T, queue string, n int) {
	t.Helper()
	for range n {
		e.postAEM(t, queue, "poison", "")
	}
}

// AddAEMLandscape makes, out of band, a queue with the provider's settings and its dead message queue (the names
// of the sandbox's sample content, which the examples read), and a queue with the broker's defaults; the first
// was sent two messages, of which a consumer took one.
func (e *TestEnv) AddAEMLandscape(t *testing.T) {
	t.Helper()
	on := aem.Ptr(true)
	e.CreateAEMQueue(t, "acme/aem/prod/orders/dmq", aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, RespectTTLEnabled: on, MaxTTL: aem.Ptr[int64](604800)})
	e.CreateAEMQueue(t, "acme/aem/prod/orders", aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, MaxRedeliveryCount: aem.Ptr[int64](3),
		RedeliveryDelayEnabled: on, DeadMsgQueue: aem.Ptr("acme/aem/prod/orders/dmq")})
	e.CreateAEMQueue(t, "other/defaults", aem.QueueSettings{})
	e.publishAEM(t, "acme/aem/prod/orders", 2)
	d, ok := e.Srv.AEMReceive("acme/aem/prod/orders")
	if !ok {
		t.Fatal("no delivery from acme/aem/prod/orders")
	}
	if _, err := e.Srv.AEMSettle("acme/aem/prod/orders", d.MsgID, emulator.AEMAccepted); err != nil {
		t.Fatal(err)
	}
}

// AddIdentityFlows creates the flows identityFlowsHCL manages.
func (e *TestEnv) AddIdentityFlows(t *testing.T) {
	t.Helper()
	e.AddFlow(t, "IdentTwoSenders", []iflowbuild.Sender{
		{ID: "MessageFlow_1", Name: "Orders", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")},
		{ID: "MessageFlow_2", Name: "Returns", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/returns")},
	}, nil)
	e.AddJMSFlow(t, JMSUnguardedFlow, false, iflowbuild.Options{ExceptionEnds: [][]string{{"error"}}})
	e.AddFlow(t, "IdentDeployed", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/deployed")}}, nil)
}

// AddAEMSubscriptions makes, out of band, two queues under acme/ with three subscriptions and one queue
// elsewhere with one.
func (e *TestEnv) AddAEMSubscriptions(t *testing.T) {
	t.Helper()
	for _, q := range []string{"acme/aem/prod/orders", "acme/returns", "other/audit"} {
		e.CreateAEMQueue(t, q, aem.QueueSettings{})
	}
	for _, s := range [][2]string{
		{"acme/aem/prod/orders", "acme/orders/*/created"},
		{"acme/aem/prod/orders", "acme/orders/eu/>"},
		{"acme/returns", "acme/returns/>"},
		{"other/audit", ">"},
	} {
		if err := e.AEM(t).CreateSubscription(context.Background(), s[0], s[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// AddHandMadeFlows creates the hand-made flows and deploys those that are deployed.
func (e *TestEnv) AddHandMadeFlows(t *testing.T) {
	t.Helper()
	amqp := func(queue string, retries string) map[string]string {
		p := iflowbuild.DefaultSenderProperties(queue)
		p["maxRetries"], p["queuePrefetch"] = retries, "1"
		return p
	}
	jms := iflowbuild.DefaultJMSSenderProperties("Retry_Orders")
	exclusive := iflowbuild.DefaultJMSSenderProperties("Exclusive_Orders")
	exclusive["AccessType"] = "Exclusive"
	delete(exclusive, "NumberConcurrentProcesses")
	delete(exclusive, "useDeadLetterQueue")
	broken := iflowbuild.DefaultJMSSenderProperties("Broken")
	broken["ExponentialBackoff"] = "maybe"
	for _, f := range []struct {
		id, pkg string
		o       iflowbuild.Options
	}{
		{HandOrders, "AcmeCRM", iflowbuild.Options{Senders: []iflowbuild.Sender{
			{ID: "MessageFlow_1", Name: "Orders", Properties: amqp("acme/crm/prod/orders", "1")},
			{ID: "MessageFlow_2", Name: "Returns", Properties: amqp("acme/crm/prod/returns", "2")},
		}, ExceptionEnds: [][]string{{"error"}}}},
		{HandInvoices, "AcmeERP", iflowbuild.Options{Senders: []iflowbuild.Sender{{Properties: amqp("acme/erp/prod/invoices", "1")}}}},
		{HandJMS, "AcmeCRM", iflowbuild.Options{
			Senders:       []iflowbuild.Sender{{ID: "MessageFlow_JMS", Name: "JMS_In", Adapter: "JMS", Properties: jms}},
			ExceptionEnds: [][]string{{"escalation", "error"}},
			Routers:       []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5", InException: 1}},
		}},
		{HandDraft, "AcmeCRM", iflowbuild.Options{Senders: []iflowbuild.Sender{{Properties: amqp("acme/crm/prod/draft", "1")}}}},
		{HandExclusive, "AcmeCRM", iflowbuild.Options{
			Senders:       []iflowbuild.Sender{{ID: "MessageFlow_JMS", Name: "JMS_In", Adapter: "JMS", Properties: exclusive}},
			ExceptionEnds: [][]string{{"error"}},
		}},
		{HandBroken, "Broken", iflowbuild.Options{Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: broken}}}},
	} {
		f.o.Name = f.id
		if err := e.Srv.CreateIFlow(f.id, f.id, f.pkg, iflowbuild.Build(f.o)); err != nil {
			t.Fatal(err)
		}
	}
	c := e.CloudIntegration(t)
	for _, id := range []string{HandOrders, HandInvoices, HandJMS, HandExclusive} {
		if _, err := c.DeployAndWait(context.Background(), id, "", 5*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
}

// AddHandMadeSubscriptions subscribes the hand-made queues (addHandMadeQueues) as in the cockpit:
// orders to two topics, returns to one, invoices of another namespace to one.
func (e *TestEnv) AddHandMadeSubscriptions(t *testing.T) {
	t.Helper()
	em := e.EventMesh(t)
	for _, s := range [][2]string{
		{"acme/crm/prod/orders", "acme/crm/prod/ce/orders/created"},
		{"acme/crm/prod/orders", "acme/crm/prod/ce/orders/*"},
		{"acme/crm/prod/returns", "acme/crm/prod/ce/returns/*"},
		{"acme/erp/prod/invoices", "acme/erp/prod/ce/invoices/*"},
	} {
		if err := em.PutSubscription(context.Background(), s[0], s[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// AddHandMadeQueues creates queues out of band, as in the cockpit: orders with its dead message
// queue, returns without one (and with unlimited redelivery), and a queue of another namespace.
func (e *TestEnv) AddHandMadeQueues(t *testing.T) {
	t.Helper()
	i64 := func(v int64) *int64 { return &v }
	str := func(v string) *string { return &v }
	yes := true
	e.PutQueues(t,
		EventMeshQueue{"acme/crm/prod/orders/dmq", eventmesh.QueueSettings{RespectTTL: &yes, MaxTTL: i64(604800)}},
		EventMeshQueue{"acme/crm/prod/orders", eventmesh.QueueSettings{MaxRedeliveryCount: i64(3), DeadMsgQueue: str("acme/crm/prod/orders/dmq")}},
		EventMeshQueue{"acme/crm/prod/returns", eventmesh.QueueSettings{MaxRedeliveryCount: i64(0)}},
		EventMeshQueue{"acme/erp/prod/invoices", eventmesh.QueueSettings{MaxRedeliveryCount: i64(5)}},
	)
}

// EventMeshQueue is an Event Mesh queue a test makes out of band: its name and settings.
type EventMeshQueue struct {
	Name     string
	Settings eventmesh.QueueSettings
}

// PutQueues creates or updates the queues through the management API, in order, as the cockpit would.
func (e *TestEnv) PutQueues(t *testing.T, queues ...EventMeshQueue) {
	t.Helper()
	em := e.EventMesh(t)
	for _, q := range queues {
		if _, _, err := em.PutQueue(t.Context(), q.Name, q.Settings); err != nil {
			t.Fatal(err)
		}
	}
}

// CreateAEMQueue creates queue name on the emulator's broker out of band, as the cloud console would.
func (e *TestEnv) CreateAEMQueue(t *testing.T, name string, s aem.QueueSettings) {
	t.Helper()
	if _, err := e.AEM(t).CreateQueue(context.Background(), aem.Queue{Name: name, QueueSettings: s}); err != nil {
		t.Fatal(err)
	}
}

// CreateAEMQueues creates the queues on the emulator's broker out of band, in order, as the cloud console would.
func (e *TestEnv) CreateAEMQueues(t *testing.T, queues ...aem.Queue) {
	t.Helper()
	for _, q := range queues {
		e.CreateAEMQueue(t, q.Name, q.QueueSettings)
	}
}

// ExpectAEMDepths fails the test unless the queues hold the numbers of messages want, in order (AEMDepths); when
// says at what point of the test.
func (e *TestEnv) ExpectAEMDepths(t *testing.T, when string, queues []string, want ...int) {
	t.Helper()
	if got := e.AEMDepths(t, queues...); !slices.Equal(got, want) {
		t.Fatalf("%s: %v messages in %v, want %v", when, got, queues, want)
	}
}

// AEMSubscribed reports whether the broker holds the subscription of queue to topic.
func (e *TestEnv) AEMSubscribed(t *testing.T, queue, topic string) bool {
	t.Helper()
	topics, err := e.AEM(t).ListSubscriptions(context.Background(), queue)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range topics {
		if s == topic {
			return true
		}
	}
	return false
}

// AddSharedFlow creates sharedFlowID with n AMQP senders whose retries and concurrency are 5 and 3, as
// literals or as externalized parameters "<channel> Retries" and "<channel> Concurrency".
func (e *TestEnv) AddSharedFlow(t *testing.T, n int, externalized bool) {
	t.Helper()
	var senders []iflowbuild.Sender
	params := map[string]string{}
	for i, name := range ChannelNames[:n] {
		props := iflowbuild.DefaultSenderProperties("acme/crm/prod/" + strings.ToLower(name))
		props["maxRetries"], props["NumberConcurrentProcesses"] = "5", "3"
		if externalized {
			props["maxRetries"] = "{{" + name + " Retries}}"
			props["NumberConcurrentProcesses"] = "{{" + name + " Concurrency}}"
			params[name+" Retries"], params[name+" Concurrency"] = "5", "3"
		}
		senders = append(senders, iflowbuild.Sender{ID: fmt.Sprintf("MessageFlow_%d", i+1), Name: name, Properties: props})
	}
	e.AddFlow(t, SharedFlowID, senders, params, []string{"error"})
}

// ChannelValues returns the effective maxRetries and NumberConcurrentProcesses of each AMQP sender of
// sharedFlowID on the tenant: the literal, or the value of the parameter it refers to.
func (e *TestEnv) ChannelValues() (map[string][2]string, error) {
	art, err := iflow.ReadZip(e.Srv.IFlowContent(SharedFlowID))
	if err != nil {
		return nil, err
	}
	cfg, _ := e.Srv.IFlowConfigurations(SharedFlowID)
	params := art.ParameterValues(cfg)
	out := map[string][2]string{}
	for _, s := range art.AMQPSenders() {
		retries, _ := iflow.Expand(s.Properties["maxRetries"], params)
		conc, _ := iflow.Expand(s.Properties["NumberConcurrentProcesses"], params)
		out[s.Name] = [2]string{retries, conc}
	}
	return out, nil
}

// AddFlow creates an iFlow on the emulator's tenant with the given senders and exception subprocess ends.
func (e *TestEnv) AddFlow(t *testing.T, id string, senders []iflowbuild.Sender, params map[string]string, ends ...[]string) {
	t.Helper()
	zip := iflowbuild.Build(iflowbuild.Options{Name: id, Senders: senders, Parameters: params, ExceptionEnds: ends})
	if err := e.Srv.CreateIFlow(id, id, "Orders", zip); err != nil {
		t.Fatal(err)
	}
}

// SenderProperty reads one property of the only AMQP sender from the iFlow content on the emulator.
func (e *TestEnv) SenderProperty(id, key string) (string, error) {
	art, err := iflow.ReadZip(e.Srv.IFlowContent(id))
	if err != nil {
		return "", err
	}
	senders := art.AMQPSenders()
	if len(senders) == 0 {
		return "", fmt.Errorf("no AMQP sender in %s", id)
	}
	return senders[0].Properties[key], nil
}

// AddTwoChannelFlow creates flow id with the AMQP senders AMQP_A and AMQP_B, retries and concurrency 5 and 3.
func (e *TestEnv) AddTwoChannelFlow(t *testing.T, id string) {
	t.Helper()
	var senders []iflowbuild.Sender
	for i, name := range ChannelNames[:2] {
		props := iflowbuild.DefaultSenderProperties("acme/crm/prod/" + strings.ToLower(id+"/"+name))
		props["maxRetries"], props["NumberConcurrentProcesses"] = "5", "3"
		senders = append(senders, iflowbuild.Sender{ID: fmt.Sprintf("MessageFlow_%d", i+1), Name: name, Properties: props})
	}
	e.AddFlow(t, id, senders, nil, []string{"error"})
}

// AddJMSFlow creates an iFlow with one JMS sender (SAP's defaults: interval 1, backoff, maximum 60) reading queue.
func (e *TestEnv) AddJMSFlow(t *testing.T, id string, exclusive bool, o iflowbuild.Options) {
	t.Helper()
	props := iflowbuild.DefaultJMSSenderProperties("Retry_" + id)
	if exclusive {
		// An exclusive queue has one consumer and no dead-letter option [SAP 161791b].
		props["AccessType"] = "Exclusive"
		delete(props, "NumberConcurrentProcesses")
		delete(props, "useDeadLetterQueue")
	}
	o.Name = id
	o.Senders = append([]iflowbuild.Sender{{ID: "MessageFlow_JMS", Name: "JMS_In", Adapter: "JMS", Properties: props}}, o.Senders...)
	if err := e.Srv.CreateIFlow(id, id, "Retry", iflowbuild.Build(o)); err != nil {
		t.Fatal(err)
	}
}

// JMSProperty reads one property of the JMS sender of flow id on the tenant.
func (e *TestEnv) JMSProperty(id, key string) (string, error) {
	art, err := iflow.ReadZip(e.Srv.IFlowContent(id))
	if err != nil {
		return "", err
	}
	s, ok := art.Model.JMSSender("MessageFlow_JMS")
	if !ok {
		return "", fmt.Errorf("no JMS sender in %s", id)
	}
	return s.Properties[key], nil
}

// PlanShowsDeploy asserts that the next plan is not empty and says why the flow is deployed.
func (w *CLIWork) PlanShowsDeploy(t *testing.T, n int) {
	t.Helper()
	r := w.Run(t, "plan", "-detailed-exitcode", "-input=false", "-no-color", fmt.Sprintf("-var=n=%d", n))
	if r.ExitCode != 2 || !strings.Contains(r.Output, "Integration Flow Will Be Deployed") {
		t.Fatalf("the plan after the interrupted deploy does not deploy the flow (exit %d):\n%s", r.ExitCode, r.Output)
	}
}

// ApplyConverges applies and asserts that the flow runs its design time and the next plan is empty.
func (w *CLIWork) ApplyConverges(t *testing.T, env *TestEnv, n int) {
	t.Helper()
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color", fmt.Sprintf("-var=n=%d", n)); r.ExitCode != 0 {
		t.Fatalf("apply failed (exit %d):\n%s", r.ExitCode, r.Output)
	}
	if err := CheckRunsDesignTime(env, SenderFlowID)(nil); err != nil {
		t.Fatal(err)
	}
	if r := w.Run(t, "plan", "-detailed-exitcode", "-input=false", "-no-color", fmt.Sprintf("-var=n=%d", n)); r.ExitCode != 0 {
		t.Fatalf("the plan after the apply is not empty (exit %d):\n%s", r.ExitCode, r.Output)
	}
}

// CopyTree copies the directory src into dst.
func CopyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

const JMSAddr = "sapmessaging_jms_sender.retry"

// The flows of the JMS sender tests: a guard of "> 5" in an exception subprocess, no guard, and an exclusive queue.
const (
	JMSGuardedFlow   = "JmsGuarded"
	JMSUnguardedFlow = "JmsUnguarded"
	JMSExclusiveFlow = "JmsExclusive"
)

// GuardedOptions is a flow whose exception subprocess ends the message when SAPJMSRetries > 5.
func GuardedOptions() iflowbuild.Options {
	return iflowbuild.Options{ExceptionEnds: [][]string{{"escalation", "error"}},
		Routers: []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 5", InException: 1}}}
}

func JMSHCL(id, body string) string {
	return fmt.Sprintf(`
resource "sapmessaging_jms_sender" "retry" {
  iflow_id = %q
%s
}
`, id, body)
}

// PlanDiagnostics runs terraform plan -json and returns its diagnostics as "severity: summary: detail".
func PlanDiagnostics(t *testing.T, w *CLIWorkspace) []string {
	t.Helper()
	r := w.MustRun(0, "plan", "-input=false", "-json")
	var out []string
	for _, line := range strings.Split(r.Output, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var d JSONDiagnostic
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("a line of plan -json is not JSON: %v\n%s", err, line)
		}
		if d.Type == "diagnostic" {
			out = append(out, d.Diagnostic.Severity+": "+d.Diagnostic.Summary+": "+d.Diagnostic.Detail)
		}
	}
	return out
}

const SenderAddr = "sapmessaging_amqp_sender.orders"

// SenderFlowID is the integration flow senderHCL configures.
const SenderFlowID = "OrdersInbound"

// CheckSenderProperty asserts a property of the AMQP sender of senderFlowID on the tenant.
func CheckSenderProperty(env *TestEnv, key, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := env.SenderProperty(SenderFlowID, key)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s of %s on the tenant = %q, want %q", key, SenderFlowID, got, want)
		}
		return nil
	}
}

func SenderHCL(extra string) string {
	return `
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id                   = "` + SenderFlowID + `"
  max_number_of_retries      = 1
  max_prefetched_messages    = 1
  queue_max_redelivery_count = 5
  max_total_attempts         = 20
` + extra + `
}
`
}

// RedeliveryFromQueueEnv is an emulator with the queue acme/crm/prod/orders (R = 0, managed
// elsewhere) and the flow senderFlowID reading it.
func RedeliveryFromQueueEnv(t *testing.T, env *TestEnv) *eventmesh.Client {
	t.Helper()
	em := env.EventMesh(t)
	if _, _, err := em.PutQueue(t.Context(), "acme/crm/prod/orders", eventmesh.QueueSettings{MaxRedeliveryCount: PtrTo[int64](0)}); err != nil {
		t.Fatal(err)
	}
	env.AddFlow(t, SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil, []string{"error"})
	return em
}

// DiscoveredSenderHCL is a sender of senderFlowID without queue_max_redelivery_count unless extra sets it.
func DiscoveredSenderHCL(extra string) string {
	return `
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id                = "` + SenderFlowID + `"
  max_number_of_retries   = 1
  max_prefetched_messages = 1
` + extra + `
}
`
}

// AdoptionMain is the working directory's configuration of the adoption tests: the provider,
// configured from the environment.
const AdoptionMain = `
terraform {
  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

provider "sapmessaging" {}
`

// SolacebrokerDir returns the directory of a built solacebroker provider binary (terraform-provider-solacebroker),
// which Terraform needs for a state that names that provider, even when every resource moves away from it: the
// directory SAPMESSAGING_SOLACEBROKER_DIR names, else ~/.cache/sapmessaging/solacebroker-1.3.0. The test skips
// without one: nothing here downloads it.
func SolacebrokerDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SAPMESSAGING_SOLACEBROKER_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skipf("no solacebroker provider binary: set SAPMESSAGING_SOLACEBROKER_DIR to the directory of a built terraform-provider-solacebroker (v1.3.0) (%v)", err)
		}
		dir = filepath.Join(home, ".cache", "sapmessaging", "solacebroker-1.3.0")
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform-provider-solacebroker")); err != nil {
		t.Skipf("no solacebroker provider binary in %s: Terraform needs the provider a state names to plan a move from it. Build "+
			"SolaceProducts/terraform-provider-solacebroker v1.3.0 from its source into that directory as terraform-provider-solacebroker, "+
			"or set SAPMESSAGING_SOLACEBROKER_DIR to the directory that holds it (%v)", dir, err)
	}
	return dir
}

// ByAEMName filters query results by the queue name in their identity.
func ByAEMName(name string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{
		"name": knownvalue.StringExact(name), "msg_vpn_name": knownvalue.NotNull(),
	})
}

// AEMCLIEnv is the environment that gives the Terraform CLI the emulator's AEM broker.
func AEMCLIEnv(env *TestEnv) []string {
	c := env.Srv.AdvancedEventMeshCredentials()
	return []string{framework.EnvAEMSEMPURL + "=" + c.SEMPURL, framework.EnvAEMMsgVpnName + "=" + c.MsgVpnName, framework.EnvAEMUsername + "=" + c.Username, framework.EnvAEMPassword + "=" + c.Password}
}

// StateResource is one resource instance of a state, with its attributes flattened to strings.
type StateResource struct {
	addr, Typ string
	Attrs     map[string]string
	Tainted   bool
}

// CLIWork is a Terraform working directory that uses the provider built from this checkout
// through dev_overrides, against one emulator whose service keys it reads from files.
type CLIWork struct {
	tf, dir, cliConfig string
}

func NewCLIWork(t *testing.T, tf string, srv *emulatortest.Emulator, providerArgs, hcl string) *CLIWork {
	t.Helper()
	work := t.TempDir()
	plugins := filepath.Join(work, "plugins")
	BuildProvider(t, plugins)
	keys := filepath.Join(work, "keys")
	if err := srv.WriteKeys(keys); err != nil {
		t.Fatal(err)
	}
	cliConfig := WriteCLIConfig(t, work, plugins)
	dir := filepath.Join(work, "main")
	WriteFile(t, filepath.Join(dir, "main.tf"), RequiredProviders+fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh = { service_key = file(%q) }
%s
}
`, filepath.Join(keys, "event-mesh.json"), providerArgs)+hcl)
	return &CLIWork{tf: tf, dir: dir, cliConfig: cliConfig}
}

// WriteHCL writes (or replaces) the file name of the working directory with hcl, beside main.tf.
func (w *CLIWork) WriteHCL(t *testing.T, name, hcl string) {
	t.Helper()
	WriteFile(t, filepath.Join(w.dir, name), hcl)
}

// Run runs one Terraform command to its end.
func (w *CLIWork) Run(t *testing.T, args ...string) CLIRun {
	t.Helper()
	return RunTerraform(t, w.tf, w.dir, w.cliConfig, args...)
}

// Start starts one Terraform command in its own process group, as a shell runs it, so that
// interrupt can signal Terraform and its provider process together, as Ctrl-C does.
func (w *CLIWork) Start(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(w.tf, args...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+w.cliConfig,
		"TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1",
		"SAPMESSAGING_EVENT_MESH_SERVICE_KEY=",
		"SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY=",
	)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	})
	return cmd, &out
}

// State reads the local state file: every resource instance with its attributes as strings.
func (w *CLIWork) State(t *testing.T) []StateResource {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatalf("reading the state: %v", err)
	}
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				IndexKey   any            `json:"index_key"`
				Status     string         `json:"status"`
				Attributes map[string]any `json:"attributes"`
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&st); err != nil {
		t.Fatalf("decoding the state: %v", err)
	}
	var out []StateResource
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, inst := range r.Instances {
			attrs := map[string]string{}
			for k, v := range inst.Attributes {
				if v != nil {
					attrs[k] = fmt.Sprint(v)
				}
			}
			out = append(out, StateResource{
				addr: fmt.Sprintf("%s.%s[%v]", r.Type, r.Name, inst.IndexKey), Typ: r.Type, Attrs: attrs,
				Tainted: inst.Status == "tainted",
			})
		}
	}
	return out
}

// Converge applies again without faults and asserts that the emulator holds exactly the state's
// queues and subscriptions and that the next plan is empty.
func (w *CLIWork) Converge(t *testing.T, env *TestEnv, queues, subs int) {
	t.Helper()
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color"); r.ExitCode != 0 {
		t.Fatalf("the re-apply failed (exit %d):\n%s", r.ExitCode, r.Output)
	}
	if err := stateMatchesEmulator(env, w.State(t), queues, subs); err != nil {
		t.Fatalf("after the re-apply: %v", err)
	}
	if r := w.Run(t, "plan", "-detailed-exitcode", "-input=false", "-no-color"); r.ExitCode != 0 {
		t.Fatalf("the plan after the re-apply is not empty (exit %d):\n%s", r.ExitCode, r.Output)
	}
}

// CLIWorkspace is a copy of an example directory driven with the real Terraform CLI and the provider
// built from source, configured from the environment with the service keys of its own emulator.
type CLIWorkspace struct {
	t         *testing.T
	tf        string
	dir       string
	plugins   string
	CliConfig string
	Creds     []string
}

// NewCLIWorkspace writes a dev_overrides CLI configuration for the provider in plugins and the
// emulator's service keys into a temporary directory; dir is where the CLI runs.
func NewCLIWorkspace(t *testing.T, tf, plugins, dir string, env *TestEnv) *CLIWorkspace {
	t.Helper()
	work := t.TempDir()
	keys := filepath.Join(work, "keys")
	if err := env.Srv.WriteKeys(keys); err != nil {
		t.Fatal(err)
	}
	cliConfig := WriteCLIConfig(t, work, plugins)
	return &CLIWorkspace{t: t, tf: tf, dir: dir, plugins: plugins, CliConfig: cliConfig, Creds: []string{
		framework.EnvEventMeshServiceKey + "=" + filepath.Join(keys, "event-mesh.json"),
		framework.EnvCloudIntegrationServiceKey + "=" + filepath.Join(keys, "cloud-integration.json"),
	}}
}

// WithAEM adds the emulator's Advanced Event Mesh connection to the workspace's environment, as the sandbox
// prints it.
func (w *CLIWorkspace) WithAEM(env *TestEnv) {
	w.Creds = append(w.Creds, AEMCLIEnv(env)...)
}

// Run runs one CLI command in the workspace.
func (w *CLIWorkspace) Run(args ...string) CLIRun {
	w.t.Helper()
	return RunTerraformEnv(w.t, w.tf, w.dir, w.CliConfig, w.Creds, args...)
}

// MustRun runs one CLI command and fails the test unless it exits with want.
func (w *CLIWorkspace) MustRun(want int, args ...string) CLIRun {
	w.t.Helper()
	r := w.Run(args...)
	if r.ExitCode != want {
		w.t.Fatalf("%s %s in %s: exit %d, want %d:\n%s", filepath.Base(w.tf), strings.Join(args, " "), w.dir, r.ExitCode, want, r.Output)
	}
	return r
}

// JSONDiagnostic is one diagnostic line of the CLI's machine-readable UI (-json).
type JSONDiagnostic struct {
	Type       string `json:"type"`
	Diagnostic struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
		Snippet  struct {
			Context string `json:"context"`
		} `json:"snippet"`
	} `json:"diagnostic"`
}

// AEMSenderPoisonEndStep is a step that applies config, whose AEM sender (AEMSenderAddr) the plan shows ending a
// poison message at end after runs runs; the state records end, and the next plan is empty.
func AEMSenderPoisonEndStep(config, end string, runs int64) resource.TestStep {
	return resource.TestStep{
		Config: config,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(AEMSenderAddr, tfjsonpath.New("poison_message_end"), knownvalue.StringExact(end)),
				plancheck.ExpectKnownValue(AEMSenderAddr, tfjsonpath.New("worst_case_runs"), knownvalue.Int64Exact(runs)),
			},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(AEMSenderAddr, tfjsonpath.New("poison_message_end"), knownvalue.StringExact(end)),
		},
	}
}

// ExpectActionThenEmptyPlan checks that the plan of a step takes action on addr and passes the checks more, and
// that the plan after its apply is empty.
func ExpectActionThenEmptyPlan(addr string, action plancheck.ResourceActionType, more ...plancheck.PlanCheck) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             append([]plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)}, more...),
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
}

// ExpectUpdateThenEmptyPlan checks that the plan of a step updates addr in place and passes the checks more, and that
// the plan after its apply is empty.
func ExpectUpdateThenEmptyPlan(addr string, more ...plancheck.PlanCheck) resource.ConfigPlanChecks {
	return ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionUpdate, more...)
}

// ExpectUpdatesThenEmptyPlan checks that the plan of a step updates each of addrs in place, and that the plan after
// its apply is empty.
func ExpectUpdatesThenEmptyPlan(addrs ...string) resource.ConfigPlanChecks {
	planned := make([]plancheck.PlanCheck, 0, len(addrs))
	for _, addr := range addrs {
		planned = append(planned, ExpectUpdate(addr))
	}
	return resource.ConfigPlanChecks{PreApply: planned, PostApplyPostRefresh: ExpectEmptyPlan()}
}

// ChangeBeforeApply is the plan checks of a step whose tenant is changed by change between the plan and the apply
// (ChangeOnTenant).
func ChangeBeforeApply(change func() error) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{ChangeOnTenant(change)}}
}

// ImportFlowStep is a step that imports the flow resource addr (a sender) by the import ID id and verifies that the
// import reads the state the apply recorded, matched by iflow_id, but for the attributes ignore.
func ImportFlowStep(addr, id string, ignore ...string) resource.TestStep {
	return resource.TestStep{ResourceName: addr, ImportState: true, ImportStateId: id, ImportStateVerify: true,
		ImportStateVerifyIdentifierAttribute: "iflow_id", ImportStateVerifyIgnore: ignore}
}

// ImportByIdentity is a step that imports addr with an import block holding the identity in the
// state, which must plan nothing but the import.
func ImportByIdentity(config, addr string) resource.TestStep {
	return resource.TestStep{
		Config:          config,
		ResourceName:    addr,
		ImportState:     true,
		ImportStateKind: resource.ImportBlockWithResourceIdentity,
	}
}

const TestQueue = "acme/crm/prod/orders"

// QueueWithDMQHCL is the resource sapmessaging_queue.<resource>, the queue name with max_redelivery_count
// redeliveries and the extra arguments, and its dead message queue sapmessaging_dead_message_queue.dmq, <name>/dmq.
func QueueWithDMQHCL(resource, name string, redeliveries int, extra string) string {
	return fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "%[2]s/dmq"
}

resource "sapmessaging_queue" %[1]q {
  name                 = %[2]q
  max_redelivery_count = %[3]d
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
%[4]s}
`, resource, name, redeliveries, extra)
}

// QueueHCL is a queue with a dead message queue and the given redelivery count.
func QueueHCL(redeliveries int) string {
	return fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/orders/dmq"
}

resource "sapmessaging_queue" "orders" {
  name                 = %q
  max_redelivery_count = %d
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
  respect_ttl          = true
  max_ttl              = 86400
}
`, TestQueue, redeliveries)
}

// Wrapped compiles a pattern whose spaces also match Terraform's line wrapping of diagnostics.
// Diagnostics put attribute names and settings in backticks (`max_ttl`, `force_destroy = true`);
// the pattern need not: a backtick may stand at any boundary of a word.
func Wrapped(pattern string) *regexp.Regexp {
	return regexp.MustCompile("(?s)" + strings.ReplaceAll(BacktickTolerant(pattern), " ", `[\s│]+`))
}

// BacktickTolerant lets an optional backtick stand wherever a word character of pattern meets
// another character, and on either side of a space (not after a backslash, which escapes the
// character that follows it).
func BacktickTolerant(pattern string) string {
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '[' && (i == 0 || pattern[i-1] != '\\') {
			// A character class, [0-9] or [^"], stays as it is: a backtick inside it would
			// break its ranges ("[`?0`?-`?9]" no longer holds 1 to 8).
			end := strings.IndexByte(pattern[i+1:], ']')
			if end >= 0 {
				if i > 0 && isWord(pattern[i-1]) {
					b.WriteString("`?")
				}
				b.WriteString(pattern[i : i+1+end+1])
				i += end + 1
				continue
			}
		}
		if strings.HasPrefix(pattern[i:], "(?") && (i == 0 || pattern[i-1] != '\\') {
			// A flag or non-capturing group, (?s) or (?:, stays as it is.
			end := strings.IndexAny(pattern[i:], ":)")
			b.WriteString(pattern[i : i+end+1])
			i += end
			continue
		}
		if i > 0 && pattern[i-1] != '\\' && (isWord(pattern[i-1]) != isWord(pattern[i]) || (pattern[i-1] == ' ') != (pattern[i] == ' ')) &&
			pattern[i] != '{' && pattern[i] != '*' && pattern[i] != '+' && pattern[i] != '?' {
			b.WriteString("`?")
		}
		b.WriteByte(pattern[i])
	}
	return b.String()
}

func Subscribed(env *TestEnv, t *testing.T, queue, topic string) (bool, error) {
	subs, err := env.EventMesh(t).ListSubscriptions(context.Background(), queue)
	if err != nil {
		return false, err
	}
	for _, s := range subs {
		if s.TopicPattern == topic {
			return true, nil
		}
	}
	return false, nil
}

func PtrTo[T any](v T) *T { return &v }

// WebhookEndpoint is a loopback endpoint that completes the handshake and takes every message.
func WebhookEndpoint(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"endpoint-token","expires_in":3600}`))
			return
		}
		if r.Method == http.MethodOptions {
			w.Header().Set("WebHook-Allowed-Origin", r.Header.Get("WebHook-Request-Origin"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// WebhookHCL is the two queues and one webhook subscription with the given extra arguments.
func WebhookHCL(endpoint, extra string) string {
	return WebhookQueues + fmt.Sprintf(`
resource "sapmessaging_webhook_subscription" "w" {
  name     = "acme/crm/prod/hooked/webhook"
  queue    = sapmessaging_queue.q.name
  endpoint = %q
%s
}
`, endpoint, extra)
}

// ReadExample returns the text of a file under examples/.
func ReadExample(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "examples", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// DeploymentFlows are the flows of the deployment tests, each with the AMQP senders AMQP_A and AMQP_B.
var DeploymentFlows = []string{"DeployFlowA", "DeployFlowB"}

// DeploymentHCL is one sapmessaging_amqp_sender with deploy = false per channel of deploymentFlows
// (named FLOW_CHANNEL) and one sapmessaging_iflow_deployment per flow (named after it), triggered by
// the revisions of its channels. (The test framework's state checks cannot address for_each
// instances, so each resource is written out; the example shows the for_each form.)
func DeploymentHCL(retries int, extra string) string {
	var b strings.Builder
	for _, id := range DeploymentFlows {
		var triggers []string
		for _, ch := range ChannelNames[:2] {
			name := id + "_" + ch
			b.WriteString(ChannelSenderHCL(name, id, ch, retries, retries, "  deploy                = false\n"))
			triggers = append(triggers, fmt.Sprintf("%s = sapmessaging_amqp_sender.%s.revision", ch, name))
		}
		fmt.Fprintf(&b, `
resource "sapmessaging_iflow_deployment" %q {
  iflow_id = %q
  triggers = { %s }
%s
}
`, id, id, strings.Join(triggers, ", "), extra)
	}
	return b.String()
}

// ChannelSenderHCL is the sapmessaging_amqp_sender.<name> of the channel of flow id, with max_number_of_retries
// retries, concurrent_processes concurrency and the extra arguments.
func ChannelSenderHCL(name, id, channel string, retries, concurrency int, extra string) string {
	return fmt.Sprintf(`
resource "sapmessaging_amqp_sender" %q {
  iflow_id              = %q
  channel               = %q
  max_number_of_retries = %d
  concurrent_processes  = %d
%s}
`, name, id, channel, retries, concurrency, extra)
}

func DeploymentAddr(id string) string { return "sapmessaging_iflow_deployment." + id }

// CheckEmulator is the check of a step that does not read the state: check asks the emulator (or the tenant through a
// client) and returns an error unless it holds what the step should have left there.
func CheckEmulator(check func() error) resource.TestCheckFunc {
	return func(*terraform.State) error { return check() }
}

// CheckRunsDesignTime asserts that flow id is STARTED and runs exactly its design-time content.
func CheckRunsDesignTime(env *TestEnv, id string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		d, ok := env.Srv.Deployed(id)
		if !ok || d.Status != "STARTED" {
			return fmt.Errorf("flow %s is not running: %+v", id, d.Status)
		}
		if !bytes.Equal(d.Content, env.Srv.IFlowContent(id)) {
			return fmt.Errorf("flow %s runs other content than its design time: the written settings were never deployed", id)
		}
		return nil
	}
}

// TerraformAtLeast reports whether the CLI tf is Terraform 1.minor or later. OpenTofu, which
// says "OpenTofu v…", is not: it has neither resource identity nor list resources.
func TerraformAtLeast(t *testing.T, tf string, minor int) bool {
	t.Helper()
	out, err := exec.Command(tf, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", tf, err)
	}
	var major, have int
	if _, err := fmt.Sscanf(string(out), "Terraform v%d.%d", &major, &have); err != nil {
		return false
	}
	return major > 1 || major == 1 && have >= minor
}

// ChannelNames are the AMQP sender channels of sharedFlowID, in order.
var ChannelNames = []string{"AMQP_A", "AMQP_B", "AMQP_C"}

// DeployRoute is the emulator's statistics label of a deploy request.
const DeployRoute = "POST /api/v1/DeployIntegrationDesigntimeArtifact"

// ChangeOnTenant is a plan check that changes the tenant after the plan was made and before it is applied.
type ChangeOnTenant func() error

const WebhookQueues = `
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/hooked/dmq"
}

resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/hooked"
  max_redelivery_count = 2
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
}
`

// The hand-made flows of the list resource tests, as made in the Cloud Integration web UI.
const (
	// HandOrders is in package AcmeCRM, with two AMQP senders, Orders and Returns, and deployed.
	HandOrders = "Orders_Inbound"
	// HandInvoices is in package AcmeERP, with one AMQP sender, and deployed.
	HandInvoices = "Invoices_Inbound"
	// HandJMS is in package AcmeCRM, with one JMS sender guarded by SAPJMSRetries > 5, and deployed.
	HandJMS = "Orders_Retry"
	// HandDraft is in package AcmeCRM, with one AMQP sender, and not deployed.
	HandDraft = "Orders_Draft"
	// HandExclusive is in package AcmeCRM, with one JMS sender on an exclusive queue (no concurrent
	// processes and no dead-letter option in the channel), and deployed.
	HandExclusive = "Orders_Exclusive"
	// HandBroken is in package Broken, with a JMS sender whose Exponential Backoff is not a
	// boolean, and not deployed: the sender list resources leave it out with a warning.
	HandBroken = "Broken_Flow"
)

// SharedFlowID is the integration flow whose several AMQP senders the tests below manage with one resource each.
const SharedFlowID = "SharedInbound"

// stateMatchesEmulator is checkStateMatchesEmulator over a list of state resources.
func stateMatchesEmulator(env *TestEnv, resources []StateResource, wantQueues, wantSubs int) error {
	stateQueues := map[string]map[string]string{}
	stateSubs := map[string]bool{}
	for _, rs := range resources {
		addr, a := rs.addr, rs.Attrs
		switch rs.Typ {
		case "sapmessaging_queue", "sapmessaging_dead_message_queue":
			if _, dup := stateQueues[a["name"]]; dup {
				return fmt.Errorf("queue %s is in the state twice (%s)", a["name"], addr)
			}
			stateQueues[a["name"]] = a
		case "sapmessaging_queue_subscription":
			stateSubs[a["queue_name"]+","+a["topic_pattern"]] = true
		}
	}
	if len(stateQueues) != wantQueues || len(stateSubs) != wantSubs {
		return fmt.Errorf("the state holds %d queues and %d subscriptions, the configuration %d and %d",
			len(stateQueues), len(stateSubs), wantQueues, wantSubs)
	}
	listed := env.Srv.Queues()
	seen := map[string]bool{}
	var orphans []string
	serverSubs := map[string]bool{}
	for _, q := range listed {
		if seen[q.Name] {
			return fmt.Errorf("the emulator lists queue %s twice", q.Name)
		}
		seen[q.Name] = true
		a, ok := stateQueues[q.Name]
		if !ok {
			orphans = append(orphans, q.Name)
			continue
		}
		if err := compareQueue(q, a); err != nil {
			return err
		}
		topics, _ := env.Srv.Subscriptions(q.Name)
		for _, topic := range topics {
			serverSubs[q.Name+","+topic] = true
		}
	}
	if len(orphans) > 0 {
		return fmt.Errorf("%d orphaned queue(s) in the emulator, not in the state: %v", len(orphans), orphans)
	}
	var lost []string
	for name := range stateQueues {
		if !seen[name] {
			lost = append(lost, name)
		}
	}
	if len(lost) > 0 {
		sort.Strings(lost)
		return fmt.Errorf("%d queue(s) in the state are missing from the emulator: %v", len(lost), lost)
	}
	if !maps.Equal(serverSubs, stateSubs) {
		return fmt.Errorf("subscriptions differ: emulator %d, state %d", len(serverSubs), len(stateSubs))
	}
	return nil
}

// compareQueue compares the settings the state records with the queue the emulator holds.
func compareQueue(q emulator.Queue, a map[string]string) error {
	want := map[string]string{
		"access_type":             q.AccessType,
		"max_queue_size_in_bytes": fmt.Sprint(q.MaxQueueSizeInBytes),
		"respect_ttl":             fmt.Sprint(q.RespectTTL != nil && *q.RespectTTL),
	}
	if q.MaxTTL != nil {
		want["max_ttl"] = fmt.Sprint(*q.MaxTTL)
	}
	if _, isQueue := a["max_redelivery_count"]; isQueue {
		want["max_redelivery_count"] = fmt.Sprint(q.MaxRedeliveryCount)
		dmq := ""
		if q.DeadMsgQueue != nil {
			dmq = *q.DeadMsgQueue
		}
		want["dead_message_queue"] = dmq
	}
	for k, v := range want {
		if a[k] != v {
			return fmt.Errorf("queue %s: state has %s = %q, the emulator %q", q.Name, k, a[k], v)
		}
	}
	return nil
}

func (c ChangeOnTenant) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c()
}

// GenerateFromQuery runs terraform query -generate-config-out=generated.tf in a new workspace holding
// AdoptionMain and the query file name with query, with the provider built from this tree, and returns the
// workspace and the generated configuration.
func GenerateFromQuery(t *testing.T, tf string, env *TestEnv, name, query string) (*CLIWorkspace, string) {
	t.Helper()
	w := NewQueryWorkspace(t, tf, env, AdoptionMain, name, query)
	_, generated := w.Generate("generated.tf")
	return w, generated
}

// AdoptAsItIs runs GenerateFromQuery and checks that the generated configuration sets each adoption attribute of
// allowed to true in as many blocks as allowed says, and that it adopts what it lists as it is (ImportAsItIs: imports
// objects, showing the warnings); it returns the workspace and the generated configuration.
func AdoptAsItIs(t *testing.T, tf string, env *TestEnv, name, query string, allowed map[string]int, imports int, warnings ...string) (*CLIWorkspace, string) {
	t.Helper()
	w, generated := GenerateFromQuery(t, tf, env, name, query)
	for _, attribute := range sortedNames(allowed) {
		ExpectCountTrue(t, generated, attribute, allowed[attribute])
	}
	w.ImportAsItIs(imports, warnings...)
	return w, generated
}

// sortedNames is the keys of m, in order.
func sortedNames[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// CountTrue is how many blocks of generated set attribute to true.
func CountTrue(generated, attribute string) int { return CountSet(generated, attribute, "true") }

// CountSet is how many blocks of generated set attribute to value, on a line of its own.
func CountSet(generated, attribute, value string) int {
	return len(regexp.MustCompile(`\n\s*`+attribute+`\s*=\s*`+value+`\n`).FindAllString(generated, -1))
}

// ImportAsItIs checks that the generated configuration of the workspace adopts what it lists as it is:
// its plan imports imports objects and changes nothing, showing every warning, the apply imports them,
// and the plan after it is empty and still shows every warning.
func (w *CLIWorkspace) ImportAsItIs(imports int, warnings ...string) {
	w.t.Helper()
	w.PlanImportsOnly(imports, warnings...)
	w.ApplyImports(imports)
	w.PlanEmpty(warnings...)
}

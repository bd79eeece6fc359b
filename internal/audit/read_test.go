package audit

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// Emulator route labels of the calls Read makes.
const (
	routeListQueues  = "GET /queues"
	routeListRuntime = "GET /api/v1/IntegrationRuntimeArtifacts"
	routeDownload    = "GET /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$value"
	routeListHooks   = "GET /messagingrest/v1/subscriptions"
)

// landscape puts queues queues and flows deployed flows on the emulator; flow i reads queue i.
func landscape(tb testing.TB, srv *emulatortest.Emulator, queues, flows int) {
	tb.Helper()
	ctx := tb.Context()
	em := eventmesh.New(srv.ManagementClient(tb))
	for i := range queues {
		if _, _, err := em.PutQueue(ctx, fmt.Sprintf("acme/crm/prod/q%03d", i), eventmesh.QueueSettings{MaxRedeliveryCount: ptr[int64](5)}); err != nil {
			tb.Fatal(err)
		}
	}
	ci := cpi.New(srv.CloudIntegrationClient(tb))
	for i := range flows {
		id := fmt.Sprintf("Flow%03d", i)
		props := iflowbuild.DefaultSenderProperties(fmt.Sprintf("acme/crm/prod/q%03d", i))
		props[iflow.KeyMaxRetries] = "1"
		zip := iflowbuild.Build(iflowbuild.Options{Name: id, Senders: []iflowbuild.Sender{{Name: "EventMesh", Properties: props}}, ExceptionEnds: [][]string{{"error"}}})
		if err := srv.CreateIFlow(id, id, "Bench", zip); err != nil {
			tb.Fatal(err)
		}
		if _, err := ci.DeployAndWait(ctx, id, "active", time.Millisecond); err != nil {
			tb.Fatal(err)
		}
	}
}

// sources are fresh clients, as a new provider process has: nothing cached.
func sources(tb testing.TB, srv *emulatortest.Emulator) Sources {
	return Sources{EventMesh: eventmesh.New(srv.ManagementClient(tb)), Flows: cpi.NewFlows(cpi.New(srv.CloudIntegrationClient(tb)))}
}

func TestRead(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	landscape(t, srv, 12, 10)
	if !srv.DeleteIFlow("Flow009") { // deployed, but its design time is gone: not analysable
		t.Fatal("Flow009 missing")
	}
	srv.ResetStats()
	src := sources(t, srv)
	in, err := Read(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	st := srv.Stats()
	if st.Routes[routeListQueues] != 1 || st.Routes[routeListRuntime] != 1 || st.Routes[routeDownload] != 10 || st.ManagementCalls != 1 {
		t.Errorf("calls %v, want one queue list, one runtime list and one download per deployed flow", st.Routes)
	}
	if len(in.Queues) != 12 || len(in.Deployed) != 10 || len(in.Flows) != 9 || in.Unreadable["Flow009"] == nil || in.Packages != nil {
		t.Fatalf("input: %d queues, %d deployed, %d flows, unreadable %v, packages %v", len(in.Queues), len(in.Deployed), len(in.Flows), in.Unreadable, in.Packages)
	}
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	if r.Summary.Paths != 9 || r.Summary.NotAnalysable != 1 || deref(r.Summary.LargestWorstCase) != int64(7) {
		t.Errorf("summary = %+v", r.Summary)
	}

	// A second read through the same clients costs nothing: the run's cache.
	srv.ResetStats()
	if _, err := Read(t.Context(), src); err != nil {
		t.Fatal(err)
	}
	if st := srv.Stats(); st.Routes[routeListQueues] != 0 || st.Routes[routeDownload] != 1 || st.Routes[routeListRuntime] != 1 {
		t.Errorf("second read: %v, want only the runtime list and the retry of the unreadable flow", st.Routes)
	}

	// With a package filter, one more call: the design time list.
	srv.ResetStats()
	in, err = Read(t.Context(), Sources{Flows: sources(t, srv).Flows, Packages: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := srv.Stats(); st.Routes["GET /api/v1/IntegrationDesigntimeArtifacts"] != 1 || in.Packages["Flow000"] != "Bench" || in.EventMesh {
		t.Errorf("calls %v, packages %v", st.Routes, in.Packages)
	}
}

func TestReadWebhooks(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	landscape(t, srv, 3, 1)
	// A loopback endpoint that completes the handshake.
	ep := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions {
			w.Header().Set("WebHook-Allowed-Origin", r.Header.Get("WebHook-Request-Origin"))
		}
	}))
	t.Cleanup(ep.Close)
	msg := eventmesh.NewMessaging(srv.MessagingClient(t))
	for i, qos := range []int{1, 0} {
		spec := eventmesh.WebhookSpec{Name: fmt.Sprintf("push%d", i), Queue: fmt.Sprintf("acme/crm/prod/q%03d", i+1), QoS: qos, Endpoint: ep.URL + "/in"}
		if _, err := msg.CreateWebhook(t.Context(), spec); err != nil {
			t.Fatal(err)
		}
	}
	srv.ResetStats()
	src := sources(t, srv)
	src.Messaging = eventmesh.NewMessaging(srv.MessagingClient(t))
	in, err := Read(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	if st := srv.Stats(); st.Routes[routeListHooks] != 1 || st.MessagingCalls != 1 || st.Routes[routeListQueues] != 1 || st.Routes[routeListRuntime] != 1 {
		t.Errorf("calls %v (%d messaging), want one webhook list beside the queue and runtime lists", st.Routes, st.MessagingCalls)
	}
	if !in.WebhooksRead || in.WebhooksErr != nil || len(in.Webhooks) != 2 {
		t.Fatalf("webhooks read %v, error %v, %d webhooks", in.WebhooksRead, in.WebhooksErr, len(in.Webhooks))
	}
	r := Run(in, Filter{MinSeverity: rules.SeverityInfo})
	if r.Summary.Paths != 3 || r.Summary.Webhooks != 2 {
		t.Errorf("summary = %+v", r.Summary)
	}
	var unconsumed []string
	for _, f := range r.Findings {
		if f.Rule == "audit.queue_unconsumed" {
			unconsumed = append(unconsumed, f.Objects[0].Name)
		}
	}
	if len(unconsumed) != 0 {
		t.Errorf("queues consumed by a flow or a webhook reported unconsumed: %q", unconsumed)
	}

	// Without messaging credentials the audit reads the rest and says so.
	in, err = Read(t.Context(), sources(t, srv))
	if err != nil || in.WebhooksErr != ErrNoMessaging || in.WebhooksRead {
		t.Fatalf("without messaging: error %v, webhooks error %v", err, in.WebhooksErr)
	}

	// A webhook list that fails (here the messaging token) is a finding, not a failed read.
	cfg := srv.MessagingConfig()
	cfg.ClientSecret = "wrong"
	src = sources(t, srv)
	src.Messaging = eventmesh.NewMessaging(emulatortest.Client(t, cfg))
	in, err = Read(t.Context(), src)
	if err != nil || in.WebhooksErr == nil || in.WebhooksRead || len(in.Queues) != 3 || len(in.Flows) != 1 {
		t.Fatalf("failing list: error %v, webhooks error %v, %d queues, %d flows", err, in.WebhooksErr, len(in.Queues), len(in.Flows))
	}
	r = Run(in, Filter{MinSeverity: rules.SeverityInfo})
	found := false
	for _, f := range r.Findings {
		if f.Rule == "audit.webhooks_not_read" && strings.Contains(f.Message, "webhook subscriptions could not be listed") {
			found = true
		}
	}
	if !found {
		t.Errorf("no audit.webhooks_not_read finding in %q", rulesOf(r.Findings))
	}
}

// BenchmarkAudit reads and joins 250 queues and 50 deployed flows at 100 ms per request, as the
// issue's scale target sets it: wall time within 1.5 × (ceil(50 / concurrency) × latency + one
// list each). Each iteration uses fresh clients (a new provider process: tokens fetched again).
func BenchmarkAudit(b *testing.B) {
	const queues, flows, latency = 250, 50, 100 * time.Millisecond
	srv := emulatortest.Start(b, emulator.Options{})
	landscape(b, srv, queues, flows)
	srv.SetFaults(emulator.Faults{Latency: latency})
	target := time.Duration(float64(int(math.Ceil(float64(flows)/DefaultConcurrency))+2) * float64(latency) * 1.5)
	srv.ResetStats()
	b.ResetTimer()
	var paths int
	for b.Loop() {
		in, err := Read(b.Context(), sources(b, srv))
		if err != nil {
			b.Fatal(err)
		}
		paths = Run(in, Filter{}).Summary.Paths
	}
	b.StopTimer()
	st := srv.Stats()
	n := float64(b.N)
	b.ReportMetric(float64(st.ManagementCalls)/n, "mgmt-calls/op")
	b.ReportMetric(float64(st.CloudIntegrationCalls)/n, "ci-calls/op")
	b.ReportMetric(float64(st.Routes[routeDownload])/n, "downloads/op")
	b.ReportMetric(float64(st.TokenRequests)/n, "tokens/op")
	b.ReportMetric(float64(target.Milliseconds()), "target-ms")
	if paths != flows {
		b.Fatalf("%d paths, want %d", paths, flows)
	}
}

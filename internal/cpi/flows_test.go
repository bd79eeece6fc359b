package cpi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// Route labels of the emulator's statistics.
const (
	routeDownload = "GET /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$value"
	routeUpload   = "PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)"
	routeSetParam = "PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$links/Configurations(ParameterKey)"
	routeDeploy   = "POST /api/v1/DeployIntegrationDesigntimeArtifact"
)

// multiSenderFlow creates the flow "Flow" with n literal AMQP senders CH1..CHn (maxRetries 5), and, when
// externalized, one more sender whose maxRetries is the parameter "Retries".
// flowsOn starts an emulator with opts holding the flow "Flow" with n AMQP sender channels
// (multiSenderFlow), and returns it with a Flows that polls deploys every 5 ms.
func flowsOn(t *testing.T, opts emulator.Options, n int, externalized bool) (*emulatortest.Emulator, *cpi.Flows) {
	t.Helper()
	s, c := setup(t, opts)
	multiSenderFlow(t, s, n, externalized)
	fs := cpi.NewFlows(c)
	fs.Backoff = cpi.FixedPoll(5 * time.Millisecond)
	return s, fs
}

func multiSenderFlow(t *testing.T, s *emulatortest.Emulator, n int, externalized bool) {
	const id = "Flow"
	t.Helper()
	var senders []iflowbuild.Sender
	for i := 1; i <= n; i++ {
		senders = append(senders, iflowbuild.Sender{ID: fmt.Sprintf("MessageFlow_%d", i), Name: fmt.Sprintf("CH%d", i),
			Properties: iflowbuild.DefaultSenderProperties(fmt.Sprintf("acme/crm/prod/q%d", i))})
	}
	params := map[string]string{}
	if externalized {
		props := iflowbuild.DefaultSenderProperties("acme/crm/prod/p")
		props["maxRetries"] = "{{Retries}}"
		senders = append(senders, iflowbuild.Sender{ID: "MessageFlow_P", Name: "PARAM", Properties: props})
		params["Retries"] = "5"
	}
	if err := s.CreateIFlow(id, id, "Pkg", iflowbuild.Build(iflowbuild.Options{Name: id, Senders: senders, Parameters: params})); err != nil {
		t.Fatal(err)
	}
}

func retriesOf(t *testing.T, s *emulatortest.Emulator) map[string]string {
	t.Helper()
	const id = "Flow"
	art, err := iflow.ReadZip(s.IFlowContent(id))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := s.IFlowConfigurations(id)
	params := art.ParameterValues(cfg)
	out := map[string]string{}
	for _, snd := range art.AMQPSenders() {
		out[snd.Name], _ = iflow.Expand(snd.Properties["maxRetries"], params)
	}
	return out
}

func setRetries(channel string, n int64, expected *cpi.SenderSettings) cpi.Change {
	return cpi.Change{
		Edit: func(f *cpi.Flow) (*cpi.Edit, error) {
			return f.EditSender(channel, cpi.SenderSettings{MaxRetries: &n}, expected)
		},
		Deploy: true,
	}
}

// Changes of several channels of one flow that arrive together are written on the content as it is
// after each other's edits: nothing is lost, and the flow is uploaded and deployed once.
func TestFlowsChangesArrivingTogetherShareOneWriteAndDeploy(t *testing.T) {
	t.Parallel()
	s, fs := flowsOn(t, emulator.Options{}, 3, true)
	s.ResetStats()
	ctx := t.Context()
	var wg sync.WaitGroup
	results := make([]cpi.Result, 4)
	errs := make([]error, 4)
	for i, ch := range []string{"CH1", "CH2", "CH3", "PARAM"} {
		wg.Go(func() {
			results[i], errs[i] = fs.Change(ctx, "Flow", "", setRetries(ch, int64(i+1), nil))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil || results[i].DeployErr != nil || !results[i].Deployed || results[i].Runtime == nil || results[i].Runtime.Status != cpi.RuntimeStarted {
			t.Fatalf("change %d: %+v, %v", i, results[i], err)
		}
	}
	if got, want := retriesOf(t, s), map[string]string{"CH1": "1", "CH2": "2", "CH3": "3", "PARAM": "4"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("maxRetries on the tenant = %v, want %v", got, want)
	}
	if !results[3].ParametersChanged || results[3].ContentChanged || !results[0].ContentChanged {
		t.Fatalf("what each change altered: %+v", results)
	}
	if d, ok := s.Deployed("Flow"); !ok || d.Parameters["Retries"] != "4" {
		t.Fatalf("the running flow does not use the new parameter: %+v", d)
	}
	routes := s.Stats().Routes
	if routes[routeDownload] != 1 || routes[routeUpload] != 1 || routes[routeSetParam] != 1 || routes[routeDeploy] != 1 || results[0].Batch != 4 {
		t.Fatalf("one batch of 4 should download, upload, set the parameter and deploy once each; batch %d, calls %v", results[0].Batch, routes)
	}
}

// A change arriving while another batch of the same flow is deployed waits for it and is then
// written on the content that batch left, so it cannot undo it.
func TestFlowsSerializesBatches(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	s.SetDeployDelay(300 * time.Millisecond)
	multiSenderFlow(t, s, 2, false)
	fs := cpi.NewFlows(c)
	fs.Backoff = cpi.FixedPoll(5 * time.Millisecond)
	fs.Gather = 0
	ctx := t.Context()
	first := make(chan error, 1)
	go func() {
		_, err := fs.Change(ctx, "Flow", "", setRetries("CH1", 1, nil))
		first <- err
	}()
	// The second change arrives while the first batch deploys.
	for deadline := time.Now().Add(10 * time.Second); s.Stats().Routes[routeDeploy] == 0; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first change was not deployed")
		}
	}
	res, err := fs.Change(ctx, "Flow", "", setRetries("CH2", 2, nil))
	if err != nil || res.DeployErr != nil || res.Batch != 1 {
		t.Fatalf("second change: %+v, %v", res, err)
	}
	if err := <-first; err != nil {
		t.Fatalf("first change: %v", err)
	}
	if got := retriesOf(t, s); got["CH1"] != "1" || got["CH2"] != "2" {
		t.Fatalf("maxRetries on the tenant = %v", got)
	}
	if n := s.Stats().Routes[routeDeploy]; n != 2 {
		t.Fatalf("%d deploys, want one per batch (2)", n)
	}
}

// A failed deploy fails every change of the batch with the runtime's error; the writes stay saved.
func TestFlowsDeployFailureReachesEveryChange(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	multiSenderFlow(t, s, 2, false)
	s.FailNextDeploy("Flow", "Credential EventMesh not found")
	fs := cpi.NewFlows(c)
	fs.Backoff = cpi.FixedPoll(5 * time.Millisecond)
	var wg sync.WaitGroup
	results := make([]cpi.Result, 2)
	for i, ch := range []string{"CH1", "CH2"} {
		wg.Go(func() {
			var err error
			results[i], err = fs.Change(t.Context(), "Flow", "", setRetries(ch, 1, nil))
			if err != nil {
				t.Errorf("%s: %v", ch, err)
			}
		})
	}
	wg.Wait()
	for i, r := range results {
		var de *cpi.DeployError
		if !errors.As(r.DeployErr, &de) || !strings.Contains(r.DeployErr.Error(), "Credential EventMesh not found") || !r.ContentChanged {
			t.Fatalf("change %d: %+v", i, r)
		}
	}
	if got := retriesOf(t, s); got["CH1"] != "1" || got["CH2"] != "1" {
		t.Fatalf("the writes should stay saved: %v", got)
	}
}

// A channel changed on the tenant since the plan fails the change; a channel already holding the
// desired value, or unchanged, does not.
func TestFlowsRefusesChangeOverUnseenEdit(t *testing.T) {
	t.Parallel()
	s, fs := flowsOn(t, emulator.Options{}, 1, false)
	planned := &cpi.SenderSettings{MaxRetries: i64(3)}
	_, err := fs.Change(t.Context(), "Flow", "", setRetries("CH1", 1, planned))
	var changed *cpi.ChannelChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), "maxRetries: planned from 3, now 5") {
		t.Fatalf("Change over an unseen edit: %v", err)
	}
	if got := retriesOf(t, s); got["CH1"] != "5" {
		t.Fatalf("the refused change was written: %v", got)
	}
	if _, err := fs.Change(t.Context(), "Flow", "", setRetries("CH1", 1, &cpi.SenderSettings{MaxRetries: i64(5)})); err != nil {
		t.Fatalf("Change from the current values: %v", err)
	}
	if _, err := fs.Change(t.Context(), "Flow", "", setRetries("CH1", 1, planned)); err != nil {
		t.Fatalf("Change to the value the tenant already holds: %v", err)
	}

	// After a refused change, reads of the run see the flow as it was read for the change.
	if _, err := fs.Flow(t.Context(), "Flow", ""); err != nil {
		t.Fatal(err)
	}
	zip, err := iflow.PatchZip(s.IFlowContent("Flow"), "MessageFlow_1", map[string]string{"maxRetries": "7"})
	if err != nil {
		t.Fatal(err)
	}
	createFlow(t, s, zip)
	if _, err := fs.Change(t.Context(), "Flow", "", setRetries("CH1", 2, &cpi.SenderSettings{MaxRetries: i64(1)})); !errors.As(err, &changed) {
		t.Fatalf("Change over the second unseen edit: %v", err)
	}
	f, err := fs.Flow(t.Context(), "Flow", "")
	if err != nil {
		t.Fatal(err)
	}
	if snd, err := f.Sender("CH1"); err != nil || *snd.MaxRetries != 7 {
		t.Fatalf("read after the refused change: %+v, %v; want the tenant's 7", snd, err)
	}
}

// Readers of a flow share one download per run; a write through Flows makes the next read fetch it again.
func TestFlowsReadOncePerRun(t *testing.T) {
	t.Parallel()
	s, fs := flowsOn(t, emulator.Options{Faults: emulator.Faults{Latency: 20 * time.Millisecond}}, 2, true)
	s.ResetStats()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			f, err := fs.Flow(t.Context(), "Flow", "active")
			if err != nil {
				t.Error(err)
				return
			}
			if snd, err := f.Sender("CH2"); err != nil || *snd.MaxRetries != 5 {
				t.Errorf("Sender: %+v, %v", snd, err)
			}
		})
	}
	wg.Wait()
	if n := s.Stats().Routes[routeDownload]; n != 1 {
		t.Fatalf("%d downloads for 8 readers, want 1", n)
	}
	if _, err := fs.Change(t.Context(), "Flow", "", setRetries("CH2", 1, nil)); err != nil {
		t.Fatal(err)
	}
	f, err := fs.Flow(t.Context(), "Flow", "")
	if err != nil {
		t.Fatal(err)
	}
	if snd, err := f.Sender("CH2"); err != nil || *snd.MaxRetries != 1 {
		t.Fatalf("read after the write: %+v, %v", snd, err)
	}
	if _, err := fs.Flow(t.Context(), "Missing", ""); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("missing flow: %v", err)
	}
}

// An abandoned change that has not been taken into a batch is dropped and not written.
func TestFlowsAbandonedChangeIsNotWritten(t *testing.T) {
	t.Parallel()
	s, c := setup(t, emulator.Options{})
	multiSenderFlow(t, s, 1, false)
	fs := cpi.NewFlows(c)
	fs.Gather = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if _, err := fs.Change(ctx, "Flow", "", setRetries("CH1", 1, nil)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("abandoned change: %v", err)
	}
	time.Sleep(400 * time.Millisecond)
	if got := retriesOf(t, s); got["CH1"] != "5" {
		t.Fatalf("an abandoned change was written: %v", got)
	}
}

// The runtime artifact of a flow is read once per run for all its readers, and read again after a
// batch written through Flows.
func TestFlowsRuntimeReadOncePerRun(t *testing.T) {
	t.Parallel()
	const routeRuntime = "GET /api/v1/IntegrationRuntimeArtifacts(Id)"
	s, fs := flowsOn(t, emulator.Options{Faults: emulator.Faults{Latency: 20 * time.Millisecond}}, 2, true)
	if _, err := fs.RuntimeArtifact(t.Context(), "Flow"); !errors.Is(err, cpi.ErrNotFound) {
		t.Fatalf("runtime of a flow never deployed: %v, want ErrNotFound", err)
	}
	if _, err := fs.Change(t.Context(), "Flow", "", setRetries("CH2", 1, nil)); err != nil {
		t.Fatal(err)
	}
	s.ResetStats()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			if rt, err := fs.RuntimeArtifact(t.Context(), "Flow"); err != nil || rt.Status == "" {
				t.Errorf("RuntimeArtifact after the deploy: %+v, %v", rt, err)
			}
		})
	}
	wg.Wait()
	if n := s.Stats().Routes[routeRuntime]; n != 1 {
		t.Fatalf("%d runtime reads for 8 readers, want 1", n)
	}
	if _, err := fs.Change(t.Context(), "Flow", "", setRetries("CH2", 2, nil)); err != nil {
		t.Fatal(err)
	}
	s.ResetStats()
	if _, err := fs.RuntimeArtifact(t.Context(), "Flow"); err != nil {
		t.Fatal(err)
	}
	if n := s.Stats().Routes[routeRuntime]; n != 1 {
		t.Fatalf("%d runtime reads after a write, want 1 (the write drops the runtime read before it)", n)
	}
}

// A change without an edit only deploys: it downloads and uploads nothing, and the flow read
// earlier in the run stays cached.
func TestFlowsDeployOnlyChangeDownloadsNothing(t *testing.T) {
	t.Parallel()
	s, fs := flowsOn(t, emulator.Options{}, 1, false)
	ctx := t.Context()
	if _, err := fs.Flow(ctx, "Flow", ""); err != nil {
		t.Fatal(err)
	}
	s.ResetStats()
	res, err := fs.Change(ctx, "Flow", "", cpi.Change{Deploy: true, ForceDeploy: true})
	if err != nil || !res.Deployed || res.DeployErr != nil || res.Runtime == nil || res.Runtime.Status != cpi.RuntimeStarted || res.ContentChanged {
		t.Fatalf("deploy-only change: %+v, %v", res, err)
	}
	if _, err := fs.Flow(ctx, "Flow", ""); err != nil {
		t.Fatal(err)
	}
	routes := s.Stats().Routes
	if routes[routeDownload] != 0 || routes[routeUpload] != 0 || routes[routeDeploy] != 1 {
		t.Fatalf("a deploy-only change should deploy once and download nothing, also for a later read: %v", routes)
	}
	if d, ok := s.Deployed("Flow"); !ok || d.Status != cpi.RuntimeStarted {
		t.Fatalf("flow not running: %+v", d)
	}
}

// A deploy-only change arriving together with a channel's write joins its batch: one download,
// one upload, one deploy, whose result both receive.
func TestFlowsDeployOnlyChangeJoinsChannelWrites(t *testing.T) {
	t.Parallel()
	s, fs := flowsOn(t, emulator.Options{}, 1, false)
	s.ResetStats()
	ctx := t.Context()
	write := setRetries("CH1", 2, nil)
	write.Deploy = false
	var wg sync.WaitGroup
	var results [2]cpi.Result
	var errs [2]error
	for i, ch := range []cpi.Change{write, {Deploy: true, ForceDeploy: true}} {
		wg.Go(func() {
			results[i], errs[i] = fs.Change(ctx, "Flow", "", ch)
		})
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || !results[0].ContentChanged || results[0].Deployed || !results[1].Deployed || results[1].DeployErr != nil {
		t.Fatalf("results %+v, errors %v", results, errs)
	}
	if got := retriesOf(t, s)["CH1"]; got != "2" {
		t.Fatalf("maxRetries of CH1 = %q, want 2", got)
	}
	routes := s.Stats().Routes
	if results[1].Batch != 2 || routes[routeDownload] != 1 || routes[routeUpload] != 1 || routes[routeDeploy] != 1 {
		t.Fatalf("one batch of 2 should download, upload and deploy once each; batch %d, calls %v", results[1].Batch, routes)
	}
	d, _ := s.Deployed("Flow")
	if !bytes.Equal(d.Content, s.IFlowContent("Flow")) {
		t.Fatal("the running flow is not the written content")
	}
}

// Changes that address one flow as "active" and by its explicit version go through one writer:
// each is computed from the flow as the other left it, so neither undoes the other (with one
// writer per version they both read the original flow and the second upload lost the first's
// edit).
func TestFlowsOneWriterPerFlowID(t *testing.T) {
	t.Parallel()
	s, fs := flowsOn(t, emulator.Options{}, 2, false)
	fs.Gather = 0
	// Every request takes a while, so that the two changes overlap.
	s.SetFaults(emulator.Faults{Latency: 30 * time.Millisecond})
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, version := range []string{"active", "1.0.0"} {
		wg.Go(func() {
			_, errs[i] = fs.Change(context.Background(), "Flow", version, setRetries(fmt.Sprintf("CH%d", i+1), int64(i+1), nil))
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := retriesOf(t, s); got["CH1"] != "1" || got["CH2"] != "2" {
		t.Errorf("after both changes the channels hold %v, want CH1 1 and CH2 2", got)
	}
}

// A change whose context ends while it waits behind another batch of the same flow returns at
// once with the context's error and writes nothing.
func TestFlowsChangeBoundedByContextWhileWaiting(t *testing.T) {
	t.Parallel()
	s, fs := flowsOn(t, emulator.Options{}, 2, false)
	fs.Gather = 0
	s.SetDeployDelay(300 * time.Millisecond)
	first := make(chan error, 1)
	go func() {
		ch := setRetries("CH1", 1, nil)
		ch.Deploy = true
		_, err := fs.Change(context.Background(), "Flow", "active", ch)
		first <- err
	}()
	// Wait until the first batch deploys, then queue a change with a short deadline behind it.
	for s.Stats().Routes[routeDeploy] == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := fs.Change(ctx, "Flow", "active", setRetries("CH2", 2, nil))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the waiting change returned %v, want the deadline", err)
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if got := retriesOf(t, s)["CH2"]; got != "5" {
		t.Errorf("CH2 = %q after an abandoned change, want it unchanged (5)", got)
	}
}

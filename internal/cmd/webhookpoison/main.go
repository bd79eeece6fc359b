// Command webhookpoison pushes one failing message through a QoS 0 and a QoS 1
// Event Mesh webhook subscription on a running SAP API emulator and prints
// what happened to each beside what the provider's plan says.
//
// It starts a loopback endpoint that completes the handshake and answers 500
// to every message, creates a dead message queue and two queues (the QoS 1
// queue with max_redelivery_count 2 and the dead message queue), and a webhook
// on each queue through the messaging REST API:
//
//   - QoS 0: the plan refuses it without accept_message_loss = true, saying
//     that any failure of the endpoint loses the message; with it, the one
//     message is pushed once and deleted: lost, in no queue.
//   - QoS 1: rules.WebhookGiveUp predicts the tries (3 within 45 minutes) and
//     the end (the dead message queue); the emulator retries on SAP's schedule
//     on its webhook clock and the message must land in the dead message queue
//     after exactly those tries.
//
// The emulator should run with a short -webhook-minute, for example 1ms. The
// command fails when what happened differs from the prediction.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatorcontrol"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

func main() { cmdkit.Main(run) }

const redeliveries = 2

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := cmdkit.NewFlags("webhookpoison", stderr)
	var emulatorURL, key string
	cmdkit.EmulatorFlag(fs, &emulatorURL)
	cmdkit.EventMeshKeyFlag(fs, &key)
	timeout := fs.Duration("timeout", 60*time.Second, "how long to wait for the whole replay")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || emulatorURL == "" || key == "" {
		fmt.Fprintln(stderr, "webhookpoison: set -emulator and -event-mesh-key (or EMULATOR_URL and SAPMESSAGING_EVENT_MESH_SERVICE_KEY), and no arguments")
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := replay(ctx, emulatorURL, key, stdout); err != nil {
		fmt.Fprintf(stderr, "webhookpoison: %v\n", cmdkit.Unfinished(ctx, err, "replay", *timeout))
		return 1
	}
	return 0
}

// endpoint completes the handshake and refuses every message.
type endpoint struct {
	mu    sync.Mutex
	posts map[string]int
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions {
		w.Header().Set("WebHook-Allowed-Origin", r.Header.Get("WebHook-Request-Origin"))
		return
	}
	e.mu.Lock()
	e.posts[r.URL.Path]++
	e.mu.Unlock()
	http.Error(w, "the order service is down", http.StatusInternalServerError)
}

func (e *endpoint) count(path string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.posts[path]
}

func clients(key string) (*eventmesh.Client, *eventmesh.Messaging, string, error) {
	k, err := cmdkit.LoadEventMesh(key)
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading the Event Mesh service key: %w", err)
	}
	cfg := cmdkit.HTTP("webhookpoison")
	mgmt, err := cmdkit.EventMeshManagement(k, cfg)
	if err != nil {
		return nil, nil, "", err
	}
	msg, err := cmdkit.EventMeshMessaging(k, cfg)
	if err != nil {
		return nil, nil, "", err
	}
	return mgmt, msg, k.Namespace, nil
}

type webhookView struct {
	Subscription struct {
		HandshakeStatus string `json:"handshakeStatus"`
	} `json:"subscription"`
	Report struct {
		Attempts     int64 `json:"attempts"`
		Lost         int64 `json:"lost"`
		DeadLettered int64 `json:"deadLettered"`
		Purged       int64 `json:"purged"`
	} `json:"report"`
}

func replay(ctx context.Context, emulatorURL, key string, stdout io.Writer) error {
	mgmt, messaging, ns, err := clients(key)
	if err != nil {
		return err
	}
	control := emulatorcontrol.URL(emulatorURL)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	ep := &endpoint{posts: map[string]int{}}
	srv := &http.Server{Handler: ep, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close() }()
	base := "http://" + ln.Addr().String()

	dmq, q0, q1 := ns+"/webhook-demo/dmq", ns+"/webhook-demo/qos0", ns+"/webhook-demo/qos1"
	r := int64(redeliveries)
	for _, q := range []struct {
		name string
		s    eventmesh.QueueSettings
	}{
		{dmq, eventmesh.QueueSettings{}},
		{q0, eventmesh.QueueSettings{MaxRedeliveryCount: &r, DeadMsgQueue: &dmq}},
		{q1, eventmesh.QueueSettings{MaxRedeliveryCount: &r, DeadMsgQueue: &dmq}},
	} {
		if _, _, err := mgmt.PutQueue(ctx, q.name, q.s); err != nil {
			return fmt.Errorf("creating queue %s: %w", q.name, err)
		}
	}

	// What the plan says.
	ttl := rules.WebhookTTLSeconds(false, 0)
	qos0 := rules.Webhook{QoS: rules.Known[int64](0), AcceptMessageLoss: rules.Known(false), Endpoint: rules.Known(base + "/qos0"),
		ExemptHandshake: rules.Known(false), HasAuthentication: rules.Known(false)}
	var said0 string
	for _, f := range rules.CheckWebhook(qos0) {
		said0 = f.Severity.String() + ": " + f.Summary + ": " + f.Detail
	}
	if !strings.Contains(said0, "loses the message") {
		return fmt.Errorf("the rules no longer refuse QoS 0 without accept_message_loss: %q", said0)
	}
	tries, minutes, byTTL := rules.WebhookGiveUp(r, ttl)
	said1 := rules.WebhookScheduleText(r, ttl, true)

	hooks := []struct{ name, queue, path string }{{"webhook-demo-qos0", q0, "/qos0"}, {"webhook-demo-qos1", q1, "/qos1"}}
	for i, h := range hooks {
		if _, err := messaging.CreateWebhook(ctx, eventmesh.WebhookSpec{Name: h.name, Queue: h.queue, QoS: i, Endpoint: base + h.path}); err != nil {
			return fmt.Errorf("creating webhook %s: %w", h.name, err)
		}
		defer func(name string) { _ = messaging.DeleteWebhook(context.WithoutCancel(ctx), name) }(h.name)
	}
	view := func(name string) (webhookView, error) {
		var v webhookView
		err := emulatorcontrol.Call(ctx, control, http.MethodGet, "/webhooks/"+url.PathEscape(name), "", &v)
		return v, err
	}
	waitFor := func(what string, cond func() (bool, error)) error {
		for {
			ok, err := cond()
			if err != nil || ok {
				return err
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	for _, h := range hooks {
		if err := waitFor("the handshake of "+h.name, func() (bool, error) {
			v, err := view(h.name)
			return v.Subscription.HandshakeStatus == "COMPLETED", err
		}); err != nil {
			return err
		}
		if err := messaging.Publish(ctx, h.queue, []byte(`{"order":"4711"}`), "application/json"); err != nil {
			return fmt.Errorf("publishing to %s: %w", h.queue, err)
		}
	}
	var v0, v1 webhookView
	if err := waitFor("the QoS 0 try", func() (bool, error) {
		var err error
		v0, err = view(hooks[0].name)
		return v0.Report.Lost == 1, err
	}); err != nil {
		return err
	}
	if err := waitFor("the end of the QoS 1 message", func() (bool, error) {
		var err error
		v1, err = view(hooks[1].name)
		return v1.Report.DeadLettered+v1.Report.Purged == 1, err
	}); err != nil {
		return err
	}
	count := func(name string) (int64, error) {
		q, err := mgmt.GetQueue(ctx, name)
		if err != nil {
			return 0, err
		}
		if q.MessageCount == nil {
			return 0, errors.New("the queue shows no messageCount")
		}
		return *q.MessageCount, nil
	}
	in0, err := count(q0)
	if err != nil {
		return err
	}
	inDMQ, err := count(dmq)
	if err != nil {
		return err
	}

	fmt.Fprintf(stdout, "endpoint %s answers 500 to every message; queues with max_redelivery_count = %d and a dead message queue\n\n", base, r)
	fmt.Fprintf(stdout, "QoS 0 webhook\n  plan said:  %s\n  (applied with accept_message_loss = true)\n", said0)
	fmt.Fprintf(stdout, "  happened:   %d push to the endpoint, %d POST seen; message lost: %v; left in its queue: %d\n\n",
		v0.Report.Attempts, ep.count("/qos0"), v0.Report.Lost == 1, in0)
	end := "the maxRedeliveryCount"
	if byTTL {
		end = "the time to live"
	}
	fmt.Fprintf(stdout, "QoS 1 webhook\n  plan said:  %s (%s ends it after %d minutes of retries)\n", said1, end, minutes)
	fmt.Fprintf(stdout, "  happened:   %d pushes, %d POSTs seen; dead-lettered: %v; messages in the dead message queue: %d (this one only)\n\n",
		v1.Report.Attempts, ep.count("/qos1"), v1.Report.DeadLettered == 1, inDMQ)

	var problems []string
	if v0.Report.Attempts != 1 || v0.Report.Lost != 1 || in0 != 0 {
		problems = append(problems, fmt.Sprintf("QoS 0: %d attempts, lost %d, %d left in the queue; want 1, 1, 0", v0.Report.Attempts, v0.Report.Lost, in0))
	}
	if v1.Report.Attempts != tries || v1.Report.DeadLettered != 1 || inDMQ != 1 {
		problems = append(problems, fmt.Sprintf("QoS 1: %d attempts, dead-lettered %d, %d in the DMQ; want %d, 1, 1", v1.Report.Attempts, v1.Report.DeadLettered, inDMQ, tries))
	}
	if len(problems) > 0 {
		return fmt.Errorf("the emulator and the rules disagree: %s", strings.Join(problems, "; "))
	}
	fmt.Fprintln(stdout, "webhookpoison: both webhooks did what the plan said: QoS 0 lost the message, QoS 1 retried it, then moved it to the dead message queue.")
	for _, q := range []string{q0, q1, dmq} {
		_ = mgmt.DeleteQueue(context.WithoutCancel(ctx), q)
	}
	return nil
}

package provider

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// An interrupted action must still report how it ended. On Ctrl-C Terraform calls StopProvider, and the
// protocol server (terraform-plugin-go's tf6server) then ends the contexts of the calls under way; the loop
// that streams an action's events to Terraform stops at the first event after that and ends the stream
// without the completed event. Terraform reads a stream without one as an action that succeeded: the
// diagnostics of an interrupted redrive (what moved, which message may be in both queues) never reached
// the user, and the apply ended with "Apply complete!".
//
// stopGuard sits between that server and the framework's: StopProvider first ends the contexts of the
// actions under way itself, waits until each has sent its completed event (at most actionStopWait), and
// only then lets the protocol server end the other contexts. Progress events of a stopped action are not
// sent: Terraform stops reading the events at the first one after its stop, and its completed event would
// be lost.

// actionStopWait bounds how long StopProvider waits for the actions under way: a redrive finishes the
// moves under way within aem.DefaultRedriveFinishTimeout once its context has ended.
const actionStopWait = aem.DefaultRedriveFinishTimeout + 15*time.Second

// protocolServer is what the framework's protocol 6 server offers and tf6server asks for.
type protocolServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
}

type stopGuard struct {
	protocolServer

	mu      sync.Mutex
	stops   map[*actionRun]struct{}
	stopped bool
	wait    time.Duration
}

// actionRun is one InvokeAction under way.
type actionRun struct {
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

func (r *actionRun) finish() { r.once.Do(func() { close(r.done) }) }

// NewProtocol6Server returns the provider's protocol 6 server, as main serves it: the framework's server
// behind stopGuard.
func NewProtocol6Server(version string) func() tfprotov6.ProviderServer {
	return newGuardedServer(New(version), actionStopWait)
}

func newGuardedServer(newProvider func() provider.Provider, wait time.Duration) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		inner := providerserver.NewProtocol6(newProvider())()
		ps, ok := inner.(protocolServer)
		if !ok {
			// The framework serves actions and list resources; without them there is nothing to guard.
			return inner
		}
		return &stopGuard{protocolServer: ps, stops: map[*actionRun]struct{}{}, wait: wait}
	}
}

// InvokeAction runs the action with a context that StopProvider ends, and marks the run finished once
// its events were streamed.
func (g *stopGuard) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	actx, cancel := context.WithCancel(ctx)
	run := &actionRun{cancel: cancel, done: make(chan struct{})}
	g.mu.Lock()
	if g.stopped {
		cancel()
	}
	g.stops[run] = struct{}{}
	g.mu.Unlock()
	end := func() {
		run.finish()
		cancel()
		g.mu.Lock()
		delete(g.stops, run)
		g.mu.Unlock()
	}
	stream, err := g.protocolServer.InvokeAction(actx, req)
	if err != nil || stream == nil || stream.Events == nil {
		end()
		return stream, err
	}
	events := stream.Events
	stream.Events = func(push func(tfprotov6.InvokeActionEvent) bool) {
		defer end()
		events(func(ev tfprotov6.InvokeActionEvent) bool {
			if _, progress := ev.Type.(tfprotov6.ProgressInvokeActionEventType); progress && actx.Err() != nil {
				// Once stopped, Terraform 1.14 ends its loop over the events at a progress event and then
				// crashes on the completed event that follows: only the completed event is sent.
				return true
			}
			return push(ev)
		})
	}
	return stream, nil
}

// StopProvider ends the actions under way, waits for their completed events, then stops the rest.
func (g *stopGuard) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	g.mu.Lock()
	g.stopped = true
	runs := make([]*actionRun, 0, len(g.stops))
	for r := range g.stops {
		runs = append(runs, r)
		r.cancel()
	}
	g.mu.Unlock()
	timeout := time.NewTimer(g.wait)
	defer timeout.Stop()
	for _, r := range runs {
		select {
		case <-r.done:
		case <-timeout.C:
			return g.protocolServer.StopProvider(ctx, req)
		case <-ctx.Done():
			return g.protocolServer.StopProvider(ctx, req)
		}
	}
	return g.protocolServer.StopProvider(ctx, req)
}

package main

import (
	"net"
	"net/http"
	"time"
)

// callAnswer is what the call server answers: a queue as the Event Mesh management API returns it
// (the emulator's answer to a PUT of a bench queue), so that the no-API provider reads as many bytes
// per call as the provider does.
const callAnswer = `{"name":"acme/crm/prod/bench/q0000","accessType":"NON_EXCLUSIVE","maxDeliveredUnackedMsgsPerFlow":10000,` +
	`"maxMessageSizeInBytes":1000000,"maxQueueMessageCount":null,"maxQueueSizeInBytes":1572864000,"maxRedeliveryCount":5,` +
	`"maxTtl":null,"respectTtl":false,"deadMsgQueue":"acme/crm/prod/bench/dmq","messageCount":0,"queueSizeInBytes":0,` +
	`"unacknowledgedMessageCount":0}`

// callServer serves the calls of the no-API provider with -noapi-call: each waits latency, as
// the emulator does before it answers, then answers callAnswer. It runs in the bench process, whose
// CPU time is not measured.
type callServer struct {
	srv *http.Server
	url string
}

// startCallServer starts a call server on a free loopback port.
func startCallServer(latency time.Duration) (*callServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 30 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := time.NewTimer(latency)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(callAnswer))
	})}
	go func() { _ = srv.Serve(ln) }()
	return &callServer{srv: srv, url: "http://" + ln.Addr().String() + "/queue"}, nil
}

func (c *callServer) stop() { _ = c.srv.Close() }

// noAPIEnv is the environment of the no-API provider's processes for a section at latency: with
// -noapi-call the URL of the call server cs, with -noapi-wait the latency to wait.
func (b *bench) noAPIEnv(latency time.Duration, cs *callServer) []string {
	switch {
	case cs != nil:
		return []string{"SAPMESSAGING_NOAPI_CALL=" + cs.url}
	case b.o.noAPIWait:
		return []string{"SAPMESSAGING_NOAPI_WAIT=" + latency.String()}
	}
	return nil
}

// startNoAPICalls starts the call server of -noapi-call at latency; nil without the flag.
func (b *bench) startNoAPICalls(latency time.Duration) (*callServer, error) {
	if !b.o.noAPICall {
		return nil, nil
	}
	return startCallServer(latency)
}

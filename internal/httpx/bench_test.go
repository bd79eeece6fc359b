package httpx

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tfsdklog"
)

// BenchmarkDo measures one PUT through the Client as the provider sends them: ten at a time (terraform
// -parallelism 10), each with a cached OAuth2 token, answered by a loopback server with a queue, with
// the provider's logger switched off as SilenceUnwantedLogs does (logs_off: with Config.LogsOff, as the
// provider then sets it; logs_built: without). dials/op counts the new connections per request: a pool
// that keeps too few idle connections for the parallel requests closes and dials them again.
func BenchmarkDo(b *testing.B) {
	b.Setenv("TF_LOG_PROVIDER_SAPMESSAGING", "OFF")
	for _, logsOff := range []bool{false, true} {
		name := "logs_built"
		if logsOff {
			name = "logs_off"
		}
		b.Run(name, func(b *testing.B) { benchmarkDo(b, logsOff) })
	}
}

func benchmarkDo(b *testing.B, logsOff bool) {
	var dials atomic.Int64
	ts := newTestServer(&testing.T{}, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"name":"acme/crm/prod/q","accessType":"NON_EXCLUSIVE","maxRedeliveryCount":5,"deadMsgQueue":"acme/crm/prod/dmq","respectTtl":false}`)
	})
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	cfg := ts.config()
	cfg.LogsOff = logsOff
	c, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	// The provider's root logger as terraform-plugin-go sets it up, at the level of the environment.
	ctx := tfsdklog.NewRootProviderLogger(context.Background(), tfsdklog.WithLevelFromEnv("TF_LOG_PROVIDER", "SAPMESSAGING"))
	body := []byte(`{"accessType":"NON_EXCLUSIVE","maxRedeliveryCount":6,"deadMsgQueue":"acme/crm/prod/dmq"}`)
	header := http.Header{"Content-Type": {"application/json"}}
	if _, err := c.Do(ctx, http.MethodPut, "/queues/q", body, header); err != nil {
		b.Fatal(err)
	}
	dials.Store(0)
	b.SetParallelism(5) // 2 cores: 10 requests in flight, as terraform -parallelism 10
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := c.Do(ctx, http.MethodPut, "/queues/q", body, header)
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Errorf("Do: %v", err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(dials.Load())/float64(b.N), "dials/op")
}

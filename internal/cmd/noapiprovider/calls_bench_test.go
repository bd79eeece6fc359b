package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/oauth2/clientcredentials"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/servicekey"
)

// callsInFlight is how many calls BenchmarkCalls keeps in flight: Terraform's default parallelism.
const callsInFlight = 10

// BenchmarkCalls measures the CPU time one Event Mesh management call costs this process, with
// callsInFlight calls in flight as in Terraform's walks, through the provider's client (httpx:
// OAuth2, retryablehttp, the answer's decoding; configured as the provider configures it) and, as
// the reference, through Go's HTTP client alone with a token fetched beforehand and the answer
// read and discarded (the no-API provider's calls of make bench -noapi-call). The emulator runs
// in a process of its own; SAPMESSAGING_WALK_LATENCY sets its latency, as for BenchmarkWalks.
// cpu-ns/op is per call: what the client adds to a call beyond Go's HTTP client, apart from the
// waiting that both pay.
func BenchmarkCalls(b *testing.B) {
	em := startWalkEmulator(b)
	key, err := servicekey.ParseEventMesh([]byte(em.key))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	names := make([]string, 250)
	for i := range names {
		names[i] = fmt.Sprintf("acme/crm/prod/bench/calls-q%03d", i)
		if _, _, err := em.mgmt.PutQueue(ctx, names[i], eventmesh.QueueSettings{}); err != nil {
			b.Fatal(err)
		}
	}
	defer func() {
		for _, n := range names {
			_ = em.mgmt.DeleteQueue(ctx, n)
		}
	}()
	client, err := cmdkit.EventMeshManagement(key, httpx.Config{UserAgent: "terraform-provider-sapmessaging/bench", LogsOff: true})
	if err != nil {
		b.Fatal(err)
	}
	tok, err := (&clientcredentials.Config{ClientID: key.ClientID, ClientSecret: key.ClientSecret, TokenURL: key.TokenURL}).Token(ctx)
	if err != nil {
		b.Fatal(err)
	}
	bare := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
	base := strings.TrimRight(key.ManagementURL, "/")
	for _, c := range []struct {
		name string
		call func(name string) error
	}{
		{"http/get", func(name string) error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+eventmesh.QueuePath(name), nil)
			if err != nil {
				return err
			}
			req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
			resp, err := bare.Do(req)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			if err := resp.Body.Close(); err != nil {
				return err
			}
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("GET %s: %s", name, resp.Status)
			}
			return nil
		}},
		{"client/get", func(name string) error {
			_, err := client.GetQueue(ctx, name)
			return err
		}},
		{"client/put", func(name string) error {
			_, _, err := client.PutQueue(ctx, name, eventmesh.QueueSettings{})
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			if err := c.call(names[0]); err != nil { // a connection and a token before the timer
				b.Fatal(err)
			}
			cpu := meterCPU(b)
			defer cpu.report()
			var next atomic.Int64
			var wg sync.WaitGroup
			errs := make(chan error, callsInFlight)
			b.ResetTimer()
			for range callsInFlight {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
						if err := c.call(names[i%int64(len(names))]); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				b.Fatal(err)
			}
		})
	}
}

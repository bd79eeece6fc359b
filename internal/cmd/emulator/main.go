// Command emulator runs the SAP API emulator on a loopback address.
//
// It prints "listening on http://127.0.0.1:PORT" on standard output once it
// accepts requests, optionally writes service keys pointing at itself, and
// stops gracefully on SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args, serves until ctx ends and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:0", "loopback `address` to listen on (host:port; port 0 picks a free one)")
	keys := fs.String("keys", "", "`directory` to write event-mesh.json and cloud-integration.json into")
	state := fs.String("state", "", "state `file` loaded at start and rewritten after every change")
	latency := fs.Duration("latency", 0, "latency added to every API request")
	faultRate := fs.Float64("fault-rate", 0, "probability (0..1) of a random fault per API request")
	faultKinds := fs.String("fault-kinds", "", "comma-separated fault kinds drawn at random ("+faultKindNames()+"; default 429,500,502,503)")
	seed := fs.Int64("seed", 0, "seed of the random faults")
	retryAfter := fs.Duration("retry-after", 0, "Retry-After of injected 429 (default 1s) and 503 answers")
	slowDelay := fs.Duration("slow-delay", 0, "delay of the slow fault (default 65s)")
	tokenTTL := fs.Duration("token-ttl", emulator.DefaultTokenTTL, "lifetime of access tokens")
	retryInterval := fs.Duration("retry-interval", emulator.DefaultRetryInterval, "pause between the retries of a deployed flow and before a rejected message is fetched again")
	lockDuration := fs.Duration("lock-duration", emulator.DefaultLockDuration, "redelivery lock of a batch of prefetched messages")
	ackTimeout := fs.Duration("messaging-ack-timeout", emulator.DefaultMessagingAckTimeout, "how long a message consumed with x-qos 1 through the messaging REST API stays unacknowledged before it returns to its queue")
	redeliveryCap := fs.Int64("redelivery-cap", emulator.DefaultRedeliveryCap, "deliveries after which a message on a queue with unlimited redelivery (maxRedeliveryCount 0) is discarded")
	deployDelay := fs.Duration("deploy-delay", emulator.DefaultDeployDelay, "how long a Cloud Integration deploy stays DEPLOYING; the runtime then stays STARTING as long again")
	retryCap := fs.Int64("retry-cap", emulator.DefaultRetryCap, "retries after which a flow with endless retries (empty maxRetries) discards a message")
	jmsMinute := fs.Duration("jms-minute", emulator.DefaultJMSMinute, "real duration of one minute of the JMS retry schedule and expiration (100us lets 30 days pass in about 4s)")
	aemMinute := fs.Duration("aem-minute", emulator.DefaultAEMMinute, "real duration of one minute of the Advanced Event Mesh broker's clock, on which redelivery delays and TTLs run")
	webhookMinute := fs.Duration("webhook-minute", emulator.DefaultWebhookMinute, "real duration of one minute of the webhook retry schedule (1ms lets the 7 days of a queue's time to live pass in about 10s)")
	idleTimeout := fs.Duration("idle-timeout", 0, "close a keep-alive connection idle that long (0: no limit)")
	maxQueues := fs.Int("max-queues", emulator.DefaultMaxQueues, "Event Mesh queue limit of the instance (SAP documents 250; the provider benchmark raises it by one for its dead message queue)")
	jmsMaxQueues := fs.Int("jms-max-queues", emulator.DefaultJMSMaxQueues, "JMS queue limit of the tenant")
	jmsMaxCapacity := fs.Int64("jms-max-capacity", emulator.DefaultJMSMaxCapacity, "JMS capacity of the tenant in bytes")
	sample := fs.Bool("sample-content", false, "start with the integration flows the examples under examples/ name ("+sampleIFlowNames()+
		"), and a landscape made by hand with healthy and broken retry paths: the queues under "+emulator.SampleLandscapePrefix+
		" with their subscriptions and the deployed flows "+sampleLandscapeNames())
	verbose := fs.Bool("v", false, "log every request to standard error")
	keyTypeName := fs.String("key-type", "secret", "credentials of the written service keys: secret, certificate (Event Mesh x509 binding, Cloud Integration "+
		"\"Certificate\") or external-certificate (Cloud Integration \"External Certificate\": the private key goes to cloud-integration-key.pem); "+
		"certificate keys use an HTTPS token endpoint whose CA certificate goes to ca.pem")
	tokenHost := fs.String("token-host", "", "loopback `IP` the token endpoint listens on, apart from the API's (for example 127.0.0.2)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	keyType, err := emulator.ParseKeyType(*keyTypeName)
	if err != nil {
		fmt.Fprintf(stderr, "emulator: -key-type: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "emulator: unexpected arguments %q; use flags only\n", fs.Args())
		return 2
	}
	if _, err := emulator.LoopbackAddr(*listen); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	faults := emulator.Faults{Latency: *latency, Rate: *faultRate, Seed: *seed, RetryAfter: *retryAfter, SlowDelay: *slowDelay}
	if *faultKinds != "" {
		for _, name := range strings.Split(*faultKinds, ",") {
			k, err := emulator.ParseFaultKind(name)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 2
			}
			faults.Kinds = append(faults.Kinds, k)
		}
	}
	if err := faults.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}

	if *maxQueues < 1 {
		fmt.Fprintln(stderr, "emulator: -max-queues must be at least 1; set a larger value")
		return 2
	}
	if *retryInterval <= 0 || *lockDuration <= 0 || *ackTimeout <= 0 || *redeliveryCap < 1 || *retryCap < 1 || *deployDelay < 0 {
		fmt.Fprintln(stderr, "emulator: -retry-interval, -lock-duration and -messaging-ack-timeout must be positive durations, -deploy-delay not negative, and -redelivery-cap and -retry-cap at least 1; set larger values")
		return 2
	}
	opts := emulator.Options{StateFile: *state, TokenTTL: *tokenTTL, Faults: faults,
		RetryInterval: *retryInterval, LockDuration: *lockDuration, RedeliveryCap: *redeliveryCap, RetryCap: *retryCap,
		MessagingAckTimeout: *ackTimeout, KeyType: keyType, TokenHost: *tokenHost, MaxQueues: *maxQueues, IdleTimeout: *idleTimeout}
	logger := log.New(stderr, "", log.LstdFlags)
	if *jmsMinute <= 0 || *jmsMaxQueues < 1 || *jmsMaxCapacity < 1 {
		fmt.Fprintln(stderr, "emulator: -jms-minute must be a positive duration and -jms-max-queues and -jms-max-capacity at least 1; set larger values")
		return 2
	}
	opts.JMSMinute, opts.JMSMaxQueues, opts.JMSMaxCapacity = *jmsMinute, *jmsMaxQueues, *jmsMaxCapacity
	if *webhookMinute <= 0 {
		fmt.Fprintln(stderr, "emulator: -webhook-minute must be a positive duration; set a larger value")
		return 2
	}
	opts.WebhookMinute = *webhookMinute
	if *aemMinute <= 0 {
		fmt.Fprintln(stderr, "emulator: -aem-minute must be a positive duration; set a larger value")
		return 2
	}
	opts.AEMMinute = *aemMinute
	if *verbose {
		opts.Logf = logger.Printf
	}
	srv := emulator.New(opts)
	// A state file carries its own deploy delay; only an explicit flag overrides it.
	if isSet(fs, "deploy-delay") || *state == "" {
		srv.SetDeployDelay(*deployDelay)
	}
	if *sample {
		if err := srv.LoadSampleContent(); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if err := srv.Start(*listen); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *keys != "" {
		if err := srv.WriteKeys(*keys); err != nil {
			fmt.Fprintf(stderr, "emulator: writing service keys to %s: %v\n", *keys, err)
			_ = srv.Close()
			return 1
		}
	}
	if _, err := fmt.Fprintf(stdout, "listening on %s\n", srv.URL()); err != nil {
		_ = srv.Close()
		return 1
	}
	if f, ok := stdout.(interface{ Sync() error }); ok {
		_ = f.Sync()
	}

	<-ctx.Done()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stderr, "emulator: shutdown: %v\n", err)
		return 1
	}
	return 0
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// faultKindNames lists every fault kind the emulator can inject, for the -fault-kinds help.
func faultKindNames() string {
	names := make([]string, len(emulator.AllFaultKinds))
	for i, k := range emulator.AllFaultKinds {
		names[i] = string(k)
	}
	return strings.Join(names, ",")
}

// sampleIFlowNames lists the integration flows of -sample-content, for its help.
func sampleIFlowNames() string {
	names := make([]string, len(emulator.SampleIFlows))
	for i, f := range emulator.SampleIFlows {
		names[i] = f.ID
	}
	return strings.Join(names, ", ")
}

// sampleLandscapeNames lists the deployed integration flows of the sample landscape, for the -sample-content help.
func sampleLandscapeNames() string {
	names := make([]string, len(emulator.SampleLandscapeIFlows))
	for i, f := range emulator.SampleLandscapeIFlows {
		names[i] = f.ID
	}
	return strings.Join(names, ", ")
}

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// redriveOptions are the settings of the redrive section: `terraform apply -invoke` of the
// sapmessaging_redrive action with the Terraform 1.14 CLI, against an emulator with a latency,
// one message at a time and with the default concurrency.
type redriveOptions struct {
	enabled   bool
	terraform string
	messages  int
	baseline  int
	latency   time.Duration
}

// Emulator route labels of the messaging REST API.
const (
	routeConsume = "POST /messagingrest/v1/queues/{queue}/messages/consumption"
	routePublish = "POST /messagingrest/v1/queues/{queue}/messages"
	routeAck     = "POST /messagingrest/v1/queues/{queue}/messages/{id}/acknowledgement"
)

// terraform114 is the default Terraform 1.14 CLI of the sections that need one: $TERRAFORM114,
// else the build of make terraform114.
func terraform114() string {
	def := os.Getenv("TERRAFORM114")
	if def == "" {
		if home, err := os.UserHomeDir(); err == nil {
			def = filepath.Join(home, ".cache", "sapmessaging", "terraform-1.14.3", "terraform")
		}
	}
	return def
}

// executable reports whether path is an executable file.
func executable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

func addRedriveFlags(fs *flag.FlagSet, o *redriveOptions) {
	def := terraform114()
	fs.BoolVar(&o.enabled, "redrive", true, "run the redrive section (the sapmessaging_redrive action; needs the Terraform 1.14 CLI of -redrive-terraform)")
	fs.StringVar(&o.terraform, "redrive-terraform", def, "Terraform 1.14 CLI `path` of the redrive section (default $TERRAFORM114, else the build of make terraform114)")
	fs.IntVar(&o.messages, "redrive-messages", 10000, "redrive section: messages moved with the default concurrency")
	fs.IntVar(&o.baseline, "redrive-baseline", 500, "redrive section: messages moved one at a time (concurrency = 1), the reference of the throughput")
	fs.DurationVar(&o.latency, "redrive-latency", 20*time.Millisecond, "redrive section: latency the emulator adds to every request")
}

// redriveCell is one redrive: its concurrency, messages and what it cost.
type redriveCell struct {
	concurrency int
	messages    int
	moved       int
	dups        int
	wall        time.Duration
	calls       int64 // messaging REST API calls
	mgmtCalls   int64
	providerCPU time.Duration
	rssKB       int64
}

func (c redriveCell) perSecond() float64 { return float64(c.moved) / c.wall.Seconds() }

// redriveSummary is the action's summary line.
var redriveSummary = regexp.MustCompile(`ended: moved (\d+), failed (\d+), possible duplicates (\d+)`)

// measureRedrive runs one message at a time on the baseline messages, and the default
// concurrency on a tenth of the messages and on all of them (memory against the number of
// messages), each against a new emulator.
func (b *bench) measureRedrive() ([]redriveCell, error) {
	r := b.o.redrive
	var cells []redriveCell
	for _, c := range []struct{ concurrency, messages int }{
		{1, r.baseline}, {eventmesh.DefaultRedriveConcurrency, max(r.messages/10, 1)}, {eventmesh.DefaultRedriveConcurrency, r.messages},
	} {
		cell, err := b.redriveOnce(c.concurrency, c.messages)
		if err != nil {
			return nil, err
		}
		b.logf("redrive: concurrency %d, %d messages: %.1f messages/s", cell.concurrency, cell.moved, cell.perSecond())
		cells = append(cells, cell)
	}
	return cells, nil
}

func (b *bench) redriveOnce(concurrency, n int) (redriveCell, error) {
	r := b.o.redrive
	cell := redriveCell{concurrency: concurrency, messages: n}
	dir := filepath.Join(b.work, fmt.Sprintf("redrive-%d-%d", concurrency, n))
	keys := filepath.Join(dir, "keys")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cell, err
	}
	em, err := b.startEmulator(keys, r.latency)
	if err != nil {
		return cell, err
	}
	defer em.stop()
	keyFile := filepath.Join(keys, "event-mesh.json")
	const from, to = "acme/crm/prod/bench/orders/dmq", "acme/crm/prod/bench/orders"
	for _, q := range []string{from, to} {
		if err := createQueue(keyFile, q); err != nil {
			return cell, err
		}
	}
	b.logf("redrive: publishing %d messages", n)
	if err := publishMessages(keyFile, from, n); err != nil {
		return cell, err
	}
	hcl := fmt.Sprintf(requiredProvidersHCL+`
provider "sapmessaging" {}

action "sapmessaging_redrive" "bench" {
  config {
    from         = %q
    to           = %q
    max_messages = %d
    concurrency  = %d
  }
}
`, from, to, n, concurrency)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o644); err != nil {
		return cell, err
	}
	if err := em.resetStats(); err != nil {
		return cell, err
	}
	rssFile := filepath.Join(dir, "rss.txt")
	out, wall, err := b.invokeAction(r.terraform, dir, "sapmessaging_redrive.bench", rssFile, "SAPMESSAGING_EVENT_MESH_SERVICE_KEY="+keyFile)
	cell.wall = wall
	if err != nil {
		return cell, err
	}
	m := redriveSummary.FindSubmatch(out)
	if m == nil {
		return cell, fmt.Errorf("no summary in the output of terraform apply -invoke:\n%s", out)
	}
	cell.moved, _ = strconv.Atoi(string(m[1]))
	cell.dups, _ = strconv.Atoi(string(m[3]))
	if failed, _ := strconv.Atoi(string(m[2])); failed != 0 || cell.moved != n {
		return cell, fmt.Errorf("the redrive moved %d of %d messages, %d failed:\n%s", cell.moved, n, failed, out)
	}
	st, err := em.stats()
	if err != nil {
		return cell, err
	}
	cell.calls = st.Routes[routeConsume] + st.Routes[routePublish] + st.Routes[routeAck]
	cell.mgmtCalls = st.ManagementCalls
	cell.rssKB, cell.providerCPU = peakRSS(rssFile), providerCPU(rssFile)
	return cell, nil
}

// invokeAction runs `terraform apply -invoke=action.NAME` in dir with the provider build of the bench, GNU time's
// figures of the provider processes written to rssFile, and env added; it returns the output and the wall time.
func (b *bench) invokeAction(tf, dir, action, rssFile string, env ...string) ([]byte, time.Duration, error) {
	cmd := exec.Command(tf, "apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action."+action)
	cmd.Dir = dir
	cmd.Env = append(append(cleanEnv(), "TF_CLI_CONFIG_FILE="+b.cliRC, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"SAPMESSAGING_BENCH_RSS="+rssFile), env...)
	begin := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(begin)
	if err != nil {
		return out, wall, fmt.Errorf("terraform apply -invoke: %v\n%s", err, out)
	}
	return out, wall, nil
}

// publishMessages puts n JSON messages into queue through the messaging REST API of the key in
// keyFile, 32 at a time.
func publishMessages(keyFile, queue string, n int) error {
	key, err := cmdkit.LoadEventMesh(keyFile)
	if err != nil {
		return err
	}
	m, err := cmdkit.EventMeshMessaging(key, httpx.Config{})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	return parallel(n, 32, func(i int) error {
		body := fmt.Appendf(nil, `{"order":%d,"note":"a message of about a hundred bytes, as an order event would be"}`, i)
		return m.Publish(ctx, queue, body, "application/json")
	})
}

func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func renderRedrive(o options, cells []redriveCell, rss bool) string {
	var s strings.Builder
	fmt.Fprintf(&s, "### Redrive\n\n`terraform apply -invoke=action.sapmessaging_redrive.NAME` with %s, emulator latency %s per request; "+
		"calls per message are the messaging REST API's consumptions, publishes and acknowledgements over the messages moved "+
		"(3 is the floor: consume, publish, acknowledge).\n\n", tfVersionOf(o.redrive.terraform), o.redrive.latency)
	s.WriteString("| Concurrency | Messages | Wall time | Messages per second | Throughput vs. one at a time | Calls per message | Management calls | Provider CPU | Provider peak RSS |\n")
	s.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var base float64
	for _, c := range cells {
		if c.concurrency == 1 {
			base = c.perSecond()
		}
	}
	for _, c := range cells {
		ratio := "—"
		if base > 0 {
			ratio = fmt.Sprintf("%.1f×", c.perSecond()/base)
		}
		cpu, mem := "—", "—"
		if rss {
			cpu, mem = seconds(c.providerCPU), fmt.Sprintf("%d MiB", c.rssKB/1024)
		}
		fmt.Fprintf(&s, "| %d | %d | %s | %.1f | %s | %.2f | %d | %s | %s |\n", c.concurrency, c.moved, seconds(c.wall), c.perSecond(), ratio,
			float64(c.calls)/float64(max(c.moved, 1)), c.mgmtCalls, cpu, mem)
	}
	return s.String()
}

func tfVersionOf(tf string) string {
	out, err := exec.Command(tf, "version").Output()
	if err != nil {
		return ""
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return strings.Replace(strings.TrimSpace(first), " v", " ", 1) // "Terraform 1.14.3"
}

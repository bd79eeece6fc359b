package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// The AEM redrive section: `terraform apply -invoke` of the sapmessaging_aem_redrive action with the Terraform 1.14
// CLI of -redrive-terraform, moving the messages of a dead message queue filled beforehand (REST messaging,
// POST /QUEUE/{name}) back to its queue on an emulated broker with a latency per request, a new emulator per row.
// SEMP has no move: a redrive is one paged list of the dead message queue, then a copy and a delete per message
// (aem.md §3), so 2 SEMP calls per message is the floor. The action moves 8 messages at a time (its default
// concurrency). Each row is run -runs times, each against a new emulator: the table shows the run of the median
// wall time, the median provider CPU and the highest peak RSS.

// aemRedriveOptions are the settings of the AEM redrive section.
type aemRedriveOptions struct {
	enabled  bool
	messages int
	latency  time.Duration
}

func addAEMRedriveFlags(fs *flag.FlagSet, o *aemRedriveOptions) {
	o.messages, o.latency = aem.MaxRedriveMessages, 20*time.Millisecond
	fs.BoolVar(&o.enabled, "aem-redrive", true, "run the AEM redrive section (the sapmessaging_aem_redrive action; needs the Terraform 1.14 CLI of -redrive-terraform)")
	fs.Func("aem-redrive-messages", fmt.Sprintf("AEM redrive section: messages moved, 1 to %d; a tenth of them is moved too, for memory against the number of messages (default %d)",
		aem.MaxRedriveMessages, aem.MaxRedriveMessages), intIn(&o.messages, 1, aem.MaxRedriveMessages))
	fs.Func("aem-redrive-latency", "AEM redrive section: latency the emulator adds to every request (default 20ms)", durationIn(&o.latency))
}

// aemRedriveCell is one AEM redrive: the messages moved and what it cost.
type aemRedriveCell struct {
	messages, moved        int
	wall                   time.Duration
	semp                   int64 // SEMP calls of the invoke, its plan included
	lists, copies, deletes int64
	providerCPU            time.Duration
	rssKB                  int64
	runs                   int // runs the row is the median of
}

func (c aemRedriveCell) perMessage() float64 { return float64(c.semp) / float64(max(c.moved, 1)) }

// aemRedriveSummary is the action's summary line.
var aemRedriveSummary = regexp.MustCompile(`ended: moved (\d+) in`)

// aemRedriveQueues are the queue the messages failed on and its dead message queue.
const aemRedriveFrom, aemRedriveTo = "bench/aem/orders/dmq", "bench/aem/orders"

// measureAEMRedrive moves a tenth of the messages, then all of them, each against a new emulator.
func (b *bench) measureAEMRedrive() ([]aemRedriveCell, error) {
	n := b.o.aemRedrive.messages
	var cells []aemRedriveCell
	for _, m := range []int{max(n/10, 1), n} {
		var runs []aemRedriveCell
		for r := 1; r <= b.o.runs; r++ {
			cell, err := b.aemRedriveOnce(m, r)
			if err != nil {
				return nil, fmt.Errorf("AEM redrive section, %d messages, run %d: %w", m, r, err)
			}
			b.logf("AEM redrive: %d messages in %s (run %d/%d), %.1f messages/s, %.2f SEMP calls per message",
				cell.moved, seconds(cell.wall), r, b.o.runs, float64(cell.moved)/cell.wall.Seconds(), cell.perMessage())
			runs = append(runs, cell)
		}
		cells = append(cells, medianAEMRedrive(runs))
	}
	return cells, nil
}

// medianAEMRedrive is the run of the median wall time (the lower middle one of an even number), with the
// median provider CPU and the highest peak RSS of the runs.
func medianAEMRedrive(runs []aemRedriveCell) aemRedriveCell {
	byWall := slices.Clone(runs)
	slices.SortFunc(byWall, func(a, b aemRedriveCell) int { return int(a.wall - b.wall) })
	out := byWall[(len(byWall)-1)/2]
	cpus := make([]time.Duration, len(runs))
	for i, r := range runs {
		cpus[i] = r.providerCPU
		out.rssKB = max(out.rssKB, r.rssKB)
	}
	slices.Sort(cpus)
	out.providerCPU, out.runs = cpus[(len(cpus)-1)/2], len(runs)
	return out
}

func (b *bench) aemRedriveOnce(n, run int) (aemRedriveCell, error) {
	cell := aemRedriveCell{messages: n}
	dir := filepath.Join(b.work, fmt.Sprintf("aem-redrive-%d-%d", n, run))
	keys := filepath.Join(dir, "keys")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cell, err
	}
	em, err := b.startEmulator(keys, b.o.aemRedrive.latency)
	if err != nil {
		return cell, err
	}
	defer em.stop()
	creds, err := readAEMCredentials(keys)
	if err != nil {
		return cell, err
	}
	c, err := aemClient(creds)
	if err != nil {
		return cell, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	for _, q := range []aem.Queue{
		{Name: aemRedriveFrom, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](aemDMQTTL)}},
		{Name: aemRedriveTo, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), MaxRedeliveryCount: aem.Ptr[int64](5), DeadMsgQueue: aem.Ptr(aemRedriveFrom)}},
	} {
		if _, err := c.CreateQueue(ctx, q); err != nil {
			return cell, err
		}
	}
	b.logf("AEM redrive: publishing %d messages to %s", n, aemRedriveFrom)
	if err := aemPublish(ctx, creds, aemRedriveFrom, n); err != nil {
		return cell, err
	}
	hcl := requiredProvidersHCL + fmt.Sprintf(`
provider "sapmessaging" {}

action "sapmessaging_aem_redrive" "bench" {
  config {
    from         = %q
    to           = %q
    max_messages = %d
  }
}
`, aemRedriveFrom, aemRedriveTo, n)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o644); err != nil {
		return cell, err
	}
	if err := em.resetStats(); err != nil {
		return cell, err
	}
	rssFile := filepath.Join(dir, "rss.txt")
	out, wall, err := b.invokeAction(b.o.redrive.terraform, dir, "sapmessaging_aem_redrive.bench", rssFile, creds.sapmessagingEnv()...)
	cell.wall = wall
	if err != nil {
		return cell, err
	}
	m := aemRedriveSummary.FindSubmatch(out)
	if m == nil {
		return cell, fmt.Errorf("no summary in the output of terraform apply -invoke:\n%s", out)
	}
	if cell.moved, _ = strconv.Atoi(string(m[1])); cell.moved != n {
		return cell, fmt.Errorf("the redrive moved %d of %d messages:\n%s", cell.moved, n, out)
	}
	st, err := em.stats()
	if err != nil {
		return cell, err
	}
	cell.semp = st.SEMPCalls
	cell.lists, cell.copies, cell.deletes = aemRedriveCalls(st.Routes)
	cell.rssKB, cell.providerCPU = peakRSS(rssFile), providerCPU(rssFile)
	// Every message is in the queue, none left behind or doubled.
	for q, want := range map[string]int{aemRedriveFrom: 0, aemRedriveTo: n} {
		msgs, err := c.ListMessages(ctx, q)
		if err != nil {
			return cell, err
		}
		if len(msgs) != want {
			return cell, fmt.Errorf("after the redrive %s holds %d messages, want %d", q, len(msgs), want)
		}
	}
	return cell, nil
}

// aemRedriveCalls splits the SEMP routes of a redrive into message lists, copies and deletes.
func aemRedriveCalls(routes map[string]int64) (lists, copies, deletes int64) {
	for k, v := range routes {
		switch {
		case !strings.Contains(k, "/SEMP/"):
		case strings.HasSuffix(k, "/copyMsgFromQueue"):
			copies += v
		case strings.HasSuffix(k, "/delete"):
			deletes += v
		case strings.HasPrefix(k, "GET ") && strings.HasSuffix(k, "/msgs"):
			lists += v
		}
	}
	return lists, copies, deletes
}

func aemClient(creds aemCredentials) (*aem.Client, error) {
	h, err := httpx.New(aem.HTTPConfig(creds.SEMPURL, creds.Username, creds.Password))
	if err != nil {
		return nil, err
	}
	return aem.New(h, creds.MsgVpnName)
}

// aemPublish puts n JSON messages into queue through the broker's REST messaging listener, as a publisher would,
// 32 at a time.
func aemPublish(ctx context.Context, creds aemCredentials, queue string, n int) error {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}, Timeout: time.Minute}
	return parallel(n, 32, func(i int) error {
		body := fmt.Sprintf(`{"order":%d,"note":"a message of about a hundred bytes, as an order event would be"}`, i)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, creds.SEMPURL+"/QUEUE/"+url.PathEscape(queue), strings.NewReader(body))
		if err != nil {
			return err
		}
		req.SetBasicAuth(creds.Username, creds.Password)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("publishing to %s: status %d", queue, resp.StatusCode)
		}
		return nil
	})
}

// aemRedriveFloor is the fewest SEMP calls a redrive of n messages can make: the pages of the list (100 messages
// each, aem.md §2) and a copy and a delete per message.
func aemRedriveFloor(n int) int64 { return int64((n+99)/100 + 2*n) }

func renderAEMRedrive(o options, cells []aemRedriveCell, rss bool) string {
	var s strings.Builder
	fmt.Fprintf(&s, "### Redrive on Advanced Event Mesh\n\n`terraform apply -invoke=action.sapmessaging_aem_redrive.NAME` with %s (%d messages at a time), emulator latency %s per request; "+
		"SEMP calls are the emulator's count for the whole invoke (its plan included); the floor is one list page per 100 messages and a copy and a delete per message. "+
		"Each row is the run of the median wall time of %d (a new emulator each), with the median provider CPU and the highest peak RSS.\n\n",
		tfVersionOf(o.redrive.terraform), aem.DefaultRedriveConcurrency, o.aemRedrive.latency, max(o.runs, 1))
	s.WriteString("| Messages | Wall time | Messages per second | SEMP calls | Floor | Calls per message | Lists / copies / deletes | Provider CPU | Provider peak RSS |\n")
	s.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range cells {
		cpu, mem := "—", "—"
		if rss {
			cpu, mem = seconds(c.providerCPU), fmt.Sprintf("%d MiB", c.rssKB/1024)
		}
		fmt.Fprintf(&s, "| %d | %s | %.1f | %d | %d | %.3f | %d / %d / %d | %s | %s |\n", c.moved, seconds(c.wall), float64(c.moved)/c.wall.Seconds(),
			c.semp, aemRedriveFloor(c.moved), c.perMessage(), c.lists, c.copies, c.deletes, cpu, mem)
	}
	return s.String()
}

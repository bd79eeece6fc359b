package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
)

func TestAEMRedriveFlags(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (aemRedriveOptions, error) {
		fs := flag.NewFlagSet("bench", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var o aemRedriveOptions
		addAEMRedriveFlags(fs, &o)
		return o, fs.Parse(args)
	}
	o, err := parse()
	if err != nil || !o.enabled || o.messages != 10000 || o.latency != 20*time.Millisecond {
		t.Errorf("defaults: %+v %v", o, err)
	}
	if o, err = parse("-aem-redrive-messages", "50", "-aem-redrive-latency", "0s"); err != nil || o.messages != 50 || o.latency != 0 {
		t.Errorf("set: %+v %v", o, err)
	}
	for _, bad := range [][]string{{"-aem-redrive-messages", "0"}, {"-aem-redrive-messages", "10001"}, {"-aem-redrive-latency", "-1s"}} {
		if _, err := parse(bad...); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestAEMRedriveCallsAndFloor(t *testing.T) {
	t.Parallel()
	lists, copies, deletes := aemRedriveCalls(map[string]int64{
		"GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/msgs":               100,
		"PUT /SEMP/v2/action/msgVpns/{vpn}/queues/{queue}/copyMsgFromQueue":    10000,
		"PUT /SEMP/v2/action/msgVpns/{vpn}/queues/{queue}/msgs/{msgId}/delete": 10000,
		"GET /SEMP/v2/config/msgVpns/{vpn}/queues":                             2,
		"POST /QUEUE/{queue}": 5,
		"GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/msgs/{msgId}": 1,
	})
	if lists != 100 || copies != 10000 || deletes != 10000 {
		t.Errorf("aemRedriveCalls = %d, %d, %d; want 100, 10000, 10000", lists, copies, deletes)
	}
	for n, want := range map[int]int64{1: 3, 100: 201, 101: 204, 10000: 20100} {
		if got := aemRedriveFloor(n); got != want {
			t.Errorf("aemRedriveFloor(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestRenderAEMRedrive(t *testing.T) {
	t.Parallel()
	var o options
	o.aemRedrive.latency = 20 * time.Millisecond
	cells := []aemRedriveCell{{messages: 1000, moved: 1000, wall: 50 * time.Second, semp: 2014, lists: 10, copies: 1000, deletes: 1000, providerCPU: time.Second, rssKB: 28 * 1024}}
	md := renderAEMRedrive(o, cells, true)
	cmdtest.Contains(t, "the section", md, "### Redrive on Advanced Event Mesh", "| 1000 | 50.00 s | 20.0 | 2014 | 2010 | 2.014 | 10 / 1000 / 1000 | 1.00 s | 28 MiB |")
	if md := renderAEMRedrive(o, cells, false); !strings.Contains(md, "| — | — |") {
		t.Errorf("without GNU time the CPU and RSS are not shown as measured:\n%s", md)
	}
}

// A row of -runs 3 is the run of the median wall time, with the median provider CPU and the highest peak RSS.
func TestMedianAEMRedrive(t *testing.T) {
	t.Parallel()
	runs := []aemRedriveCell{
		{moved: 10, wall: 3 * time.Second, semp: 23, providerCPU: 2 * time.Second, rssKB: 30 * 1024},
		{moved: 10, wall: time.Second, semp: 21, providerCPU: 3 * time.Second, rssKB: 40 * 1024},
		{moved: 10, wall: 2 * time.Second, semp: 22, providerCPU: time.Second, rssKB: 35 * 1024},
	}
	got := medianAEMRedrive(runs)
	if got.wall != 2*time.Second || got.semp != 22 || got.providerCPU != 2*time.Second || got.rssKB != 40*1024 || got.runs != 3 {
		t.Errorf("median of 3 runs: %+v", got)
	}
	if got := medianAEMRedrive(runs[:1]); got.wall != 3*time.Second || got.runs != 1 {
		t.Errorf("median of 1 run: %+v", got)
	}
}

// The section end to end on a small scale, as make bench runs it: the provider binary and the emulator built, 20
// messages published, the action invoked, every message in the queue after it. Needs the Terraform 1.14 CLI.
func TestAEMRedriveSectionSmall(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("builds the provider and the emulator and runs Terraform: set TF_ACC=1")
	}
	if tf := terraform114(); !executable(tf) {
		t.Skipf("no Terraform 1.14 CLI at %s (make terraform114)", tf)
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	var out, log bytes.Buffer
	if err := run([]string{"-aem-redrive", "-aem-redrive-messages", "20", "-aem-redrive-latency", "0s", "-validation=false"}, &out, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`\| 2 \| [\d.]+ s \| [\d.]+ \| \d+ \| 5 \| [\d.]+ \| 1 / 2 / 2 \|`),
		regexp.MustCompile(`\| 20 \| [\d.]+ s \| [\d.]+ \| \d+ \| 41 \| [\d.]+ \| 1 / 20 / 20 \|`),
	} {
		if !want.MatchString(out.String()) {
			t.Errorf("the section lacks a row matching %s:\n%s", want, out.String())
		}
	}
}

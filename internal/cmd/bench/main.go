// Command bench measures the provider against the emulator and prints
// markdown tables.
//
// The Event Mesh section times `terraform apply` (create), `terraform plan`
// (refresh, no changes) and an update of every queue, for each latency and
// number of queues, with the management API calls, the provider's CPU time
// and peak RSS, and the plan-time validation cost per resource. Its
// reference is internal/cmd/noapiprovider, measured in the same run: a
// provider on the same plugin framework with the same queue schema that
// makes no API call, which measures what Terraform and the framework cost
// for N plugin resources of this schema. Its floor adds ceil(N /
// parallelism) × latency × the API calls a resource needs (1 for a create,
// 1 for an update; a refresh needs one list of all queues in total). The
// same commands over N built-in terraform_data resources (Terraform alone)
// are shown as context.
//
// The Cloud Integration section manages the AMQP sender channels of several
// flows, one resource per channel, against an emulator with a deploy delay,
// and counts content downloads, uploads and deploys per command.
//
// The Advanced Event Mesh section (aem.go) applies 1,000 AEM queues and their
// dead message queue on one emulated broker, then times a refresh-only plan
// and a plan with the SEMP calls they make, beside the provider without an
// API and, when a build is there, SolaceProducts/terraform-provider-solacebroker.
//
// Run it from the repository root: go run ./internal/cmd/bench (or make bench).
// The peak RSS is taken with /usr/bin/time -v wrapped around the provider.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpuprofile"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// options are the command-line settings.
type options struct {
	terraform   string
	goCmd       string
	timeCmd     string
	latencies   []time.Duration
	sizes       []int
	runs        int
	parallelism int
	out         string
	keep        bool
	validation  bool
	eventMesh   bool
	ci          ciOptions
	landscape   landscapeOptions
	cpuProfile  string
	noAPIWait   bool
	noAPICall   bool
	otherFloor  bool
	redrive     redriveOptions    // redrive.go
	query       queryOptions      // query.go
	audit       auditOptions      // audit.go
	aem         aemOptions        // aem.go
	aemRedrive  aemRedriveOptions // aemredrive.go
	aemAudit    aemAuditOptions   // aemaudit.go
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	defTF := os.Getenv("TERRAFORM")
	if defTF == "" {
		defTF, _ = exec.LookPath("terraform")
	}
	fs.StringVar(&o.terraform, "terraform", defTF, "Terraform CLI `path` (default $TERRAFORM, else terraform on PATH)")
	fs.StringVar(&o.goCmd, "go", envOr("GO", "go"), "Go `command`")
	fs.StringVar(&o.timeCmd, "time", "/usr/bin/time", "GNU time `path` for the provider's peak RSS; empty to skip")
	lat := fs.String("latencies", "20ms,100ms", "comma-separated latencies the emulator adds to every request")
	sizes := fs.String("sizes", "50,250", "comma-separated numbers of queues")
	fs.IntVar(&o.runs, "runs", 3, "runs per measurement; the table shows the median wall times")
	fs.IntVar(&o.parallelism, "parallelism", 10, "terraform -parallelism")
	fs.StringVar(&o.out, "o", "", "also write the markdown to this `file`")
	fs.BoolVar(&o.keep, "keep", false, "keep the work directory")
	fs.BoolVar(&o.validation, "validation", true, "run the plan-time validation Go benchmark")
	fs.BoolVar(&o.eventMesh, "event-mesh", true, "run the Event Mesh section (queues against terraform_data and the provider without an API); "+
		"naming any of -event-mesh, -landscape, -ci, -redrive, -query, -audit, -aem, -aem-redrive, -aem-audit true runs only the sections so named")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write CPU profiles of the providers into this `directory`, one per provider process, named "+
		"<configuration>-<provider>-<step>.<pid>.pprof (Event Mesh: <latency>-<N>-<run>-queues, -noapi or -noapi-other; landscape: landscape-<run>-queues or -noapi; "+
		"step 0 create, 1 refresh, 2 update, 3 destroy)")
	fs.BoolVar(&o.noAPIWait, "noapi-wait", false, "Event Mesh and landscape sections: the provider without an API waits the latency in each create and update "+
		"(in each delete once with force_destroy = true, else twice), as the provider waits for its one API call, so that the CPU ratio leaves out what the waiting itself costs "+
		"a process on the machine; by default it never waits (the plain floor, the floor of issue 41's targets)")
	fs.BoolVar(&o.noAPICall, "noapi-call", false, "Event Mesh and landscape sections: the provider without an API makes one HTTP GET in each create and update "+
		"(in each delete once with force_destroy = true, else twice; once more per process for the list) to a server in the bench that waits the latency and answers a queue, "+
		"so that the CPU ratio leaves out what the calls themselves cost a provider process (Go's HTTP client, the waiting); it takes the place of -noapi-wait")
	fs.BoolVar(&o.otherFloor, "other-floor", true, "Event Mesh section: also run, in each run, the provider without an API of the other kind beside the floor of the targets "+
		"(the one that waits beside the plain floor, the plain one beside a floor that waits or calls) and show the provider's CPU ratio to it, as context")
	fs.BoolVar(&o.landscape.enabled, "landscape", true, "run the landscape section (several Event Mesh instances, one aliased provider configuration and one emulator each, in one configuration)")
	fs.IntVar(&o.landscape.instances, "landscape-instances", 8, "landscape section: number of Event Mesh instances")
	fs.IntVar(&o.landscape.queues, "landscape-queues", 250, "landscape section: queues per instance (1 to 250, SAP's limit)")
	fs.DurationVar(&o.landscape.latency, "landscape-latency", 20*time.Millisecond, "landscape section: latency each emulator adds to every request")
	fs.IntVar(&o.landscape.runs, "landscape-runs", 1, "landscape section: interleaved runs; the table shows medians (one by default: each run applies 2,000 resources four times with each provider)")
	fs.BoolVar(&o.ci.enabled, "ci", true, "run the Cloud Integration section (AMQP sender channels of several flows, deployed per channel and by one sapmessaging_iflow_deployment per flow)")
	fs.IntVar(&o.ci.flows, "ci-flows", 10, "Cloud Integration section: number of flows")
	fs.IntVar(&o.ci.channels, "ci-channels", 2, "Cloud Integration section: AMQP sender channels per flow, one resource each")
	fs.DurationVar(&o.ci.deployDelay, "ci-deploy-delay", 5*time.Second, "Cloud Integration section: the emulator's deploy delay (DEPLOYING that long, then STARTING as long again)")
	fs.DurationVar(&o.ci.latency, "ci-latency", 100*time.Millisecond, "Cloud Integration section: latency the emulator adds to every request")
	addRedriveFlags(fs, &o.redrive)
	addQueryFlags(fs, &o.query)
	addAuditFlags(fs, &o.audit)
	addAEMFlags(fs, &o.aem)
	addAEMRedriveFlags(fs, &o.aemRedrive)
	addAEMAuditFlags(fs, &o.aemAudit)
	ciPar := fs.String("ci-parallelism", "", "Cloud Integration section: comma-separated terraform -parallelism values (default: -parallelism and flows × channels)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	selectSections(fs, map[string]*bool{"event-mesh": &o.eventMesh, "landscape": &o.landscape.enabled, "ci": &o.ci.enabled, "redrive": &o.redrive.enabled, "query": &o.query.enabled, "audit": &o.audit.enabled, "aem": &o.aem.enabled, "aem-redrive": &o.aemRedrive.enabled, "aem-audit": &o.aemAudit.enabled})
	if o.landscape.instances < 1 || o.landscape.instances > 50 || o.landscape.queues < 1 || o.landscape.queues > 250 ||
		o.landscape.latency < 0 || o.landscape.runs < 1 {
		return o, errors.New("-landscape-instances must be 1 to 50, -landscape-queues 1 to 250, -landscape-latency not negative, -landscape-runs at least 1")
	}
	if o.ci.flows < 1 || o.ci.flows > 99 || o.ci.channels < 1 || o.ci.channels > 26 || o.ci.deployDelay < 0 || o.ci.latency < 0 {
		return o, errors.New("-ci-flows must be 1 to 99, -ci-channels 1 to 26, -ci-deploy-delay and -ci-latency not negative")
	}
	if *ciPar == "" {
		o.ci.parallelism = []int{o.parallelism}
		if all := o.ci.flows * o.ci.channels; all > o.parallelism {
			o.ci.parallelism = append(o.ci.parallelism, all)
		}
	} else {
		for _, v := range strings.Split(*ciPar, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return o, fmt.Errorf("-ci-parallelism %q is not a list of positive numbers", *ciPar)
			}
			o.ci.parallelism = append(o.ci.parallelism, n)
		}
	}
	if o.terraform == "" {
		return o, errors.New("no Terraform CLI: set -terraform or TERRAFORM, or put terraform on PATH")
	}
	for _, s := range strings.Split(*lat, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d < 0 {
			return o, fmt.Errorf("latency %q is not a duration such as 20ms", s)
		}
		o.latencies = append(o.latencies, d)
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 250 {
			return o, fmt.Errorf("size %q is not a number of queues from 1 to 250 (the emulator's limit)", s)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.cpuProfile != "" {
		abs, err := filepath.Abs(o.cpuProfile)
		if err == nil {
			err = os.MkdirAll(abs, 0o755)
		}
		if err != nil {
			return o, fmt.Errorf("-cpuprofile: %w", err)
		}
		o.cpuProfile = abs
	}
	if o.runs < 1 || o.parallelism < 1 {
		return o, errors.New("-runs and -parallelism must be at least 1")
	}
	return o, nil
}

// selectSections runs only the sections named true on the command line when any is (-landscape
// alone runs the landscape alone); otherwise every section not switched off runs.
func selectSections(fs *flag.FlagSet, sections map[string]*bool) {
	named := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		if _, ok := sections[f.Name]; ok && f.Value.String() == "true" {
			named[f.Name] = true
		}
	})
	if len(named) == 0 {
		return
	}
	for name, on := range sections {
		*on = named[name]
	}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// Operations measured per configuration.
const (
	opCreate = "apply (create)"
	opPlan   = "plan (refresh, no changes)"
	opUpdate = "apply (update every queue)"
	// opDestroy is the fourth command of the Event Mesh and landscape sections; their queues set
	// force_destroy = true, as a configuration torn down at the end would.
	opDestroy = "destroy"
)

var operations = []string{opCreate, opPlan, opUpdate, opDestroy}

// sample is one timed command.
type sample struct {
	wall        time.Duration
	cpu         time.Duration // user and system time of the CLI and the plugins it waited for
	providerCPU time.Duration // user and system time of the provider processes
	mgmtCalls   int64
	sempCalls   int64 // requests to the AEM broker's SEMP v2 API
	tokenCalls  int64
	rssKB       int64
	ciCalls     int64
	routes      map[string]int64 // requests per emulator route label
	bytes       int64            // response bytes the emulators sent
	perInstance int64            // the most management calls one emulator got
	rssSumKB    int64            // the provider processes' peaks added up
	procs       int              // provider processes the command started
}

// cell is the result of one operation at one latency and size.
type cell struct {
	latency                      time.Duration
	n                            int
	op                           string
	wall                         time.Duration // median of the runs
	tfAlone                      time.Duration // median of terraform_data
	noAPI                        time.Duration // median of the provider without an API
	noAPICPU                     time.Duration // median CPU time of the provider without an API
	noAPIFloor                   time.Duration
	cpu, providerCPU, tfAloneCPU time.Duration // medians
	mgmtCalls                    int64         // the most any run made
	tokens                       int64
	rssKB                        int64 // peak over the runs, 0 when not measured
	// ratioLo and ratioHi are the lowest and the highest CPU ratio of one run's pair (the provider's
	// command and the no-API provider's in the same run, minutes apart), 0 when not measured: how far
	// the ratio moves between runs of one build, beside the ratio of the medians.
	ratioLo, ratioHi float64
	// otherCPU is the median CPU time of the other no-API provider (-other-floor): the one that
	// waits beside the plain floor, the plain one beside a floor that waits or calls; 0 when not measured.
	otherCPU time.Duration
}

// noAPIRatio compares the wall time with the floor of a provider that makes no API call.
func (c cell) noAPIRatio() float64 {
	if c.noAPIFloor == 0 {
		return 0
	}
	return float64(c.wall) / float64(c.noAPIFloor)
}

// floorFor is the no-API provider's wall time base plus the API round trips of the provider that
// base does not hold: one per wave of parallelism resources unless the no-API provider waited in
// each create, update and delete (-noapi-wait or -noapi-call), and the lists unless it called for
// them too (-noapi-call, once per process).
func floorFor(op string, n, parallelism int, latency, base time.Duration, o options) time.Duration {
	waves := int64((n + parallelism - 1) / parallelism)
	if o.noAPIWait || o.noAPICall {
		waves = 0
	}
	waits := time.Duration(waves * int64(latency))
	if o.noAPICall {
		return base + waits
	}
	switch op {
	case opPlan:
		return base + latency // one list of all queues
	case opCreate:
		// One list before the first create checks that no queue exists yet.
		return base + latency + waits
	case opDestroy:
		// terraform destroy starts three provider processes: the plan with refresh that it runs
		// first lists the queues once, the destroy plan makes no management call, and the apply
		// lists them once (whether another queue names the deleted one as its dead message queue)
		// and sends one DELETE per queue. Token requests are left out, as for the other commands
		// (the destroy waits for three, one per process; a create or an update for two).
		return base + 2*latency + waits
	default:
		return base + waits
	}
}

type bench struct {
	o        options
	work     string
	plugins  string
	emulator string
	cliRC    string
	noAPIRC  string // CLI configuration that installs the provider without an API
	rss      bool
	log      io.Writer
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if _, err := os.Stat("go.mod"); err != nil {
		return errors.New("run it from the repository root (go run ./internal/cmd/bench)")
	}
	work, err := os.MkdirTemp("", "sapmessaging-bench-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintln(stderr, "bench: work directory", work)
	} else {
		defer func() { _ = os.RemoveAll(work) }()
	}
	// The emulators' standard error goes to the log too, from goroutines of their own.
	b := &bench{o: o, work: work, log: &syncWriter{w: stderr}}
	if err := b.build(); err != nil {
		return err
	}
	tfVersion := b.terraformVersion()
	var md strings.Builder
	if o.eventMesh {
		var cells []cell
		for _, lat := range o.latencies {
			for _, n := range o.sizes {
				cs, err := b.measure(lat, n)
				if err != nil {
					return err
				}
				cells = append(cells, cs...)
			}
		}
		var validation []benchLine
		if o.validation {
			validation, err = b.validationBenchmark()
			if err != nil {
				return err
			}
		}
		md.WriteString(render(o, tfVersion, cells, validation, b.rss))
	}
	if o.landscape.enabled {
		cells, err := b.measureLandscape()
		if err != nil {
			return err
		}
		if md.Len() > 0 {
			md.WriteString("\n")
		}
		md.WriteString(renderLandscape(o, tfVersion, cells, b.rss))
	}
	if o.ci.enabled {
		cells, err := b.measureCI()
		if err != nil {
			return err
		}
		if md.Len() > 0 {
			md.WriteString("\n")
		}
		md.WriteString(renderCI(o, tfVersion, cells, b.rss))
	}
	if o.redrive.enabled {
		if !executable(o.redrive.terraform) {
			b.logf("redrive section skipped: no Terraform 1.14 CLI at %q (make terraform114, or -redrive-terraform)", o.redrive.terraform)
		} else {
			cells, err := b.measureRedrive()
			if err != nil {
				return err
			}
			if md.Len() > 0 {
				md.WriteString("\n")
			}
			md.WriteString(renderRedrive(o, cells, b.rss))
		}
	}
	if o.query.enabled {
		if !executable(o.query.terraform) {
			b.logf("query section skipped: no Terraform 1.14 CLI at %q (make terraform114, or -query-terraform)", o.query.terraform)
		} else {
			res, err := b.measureQuery()
			if err != nil {
				return err
			}
			if md.Len() > 0 {
				md.WriteString("\n")
			}
			md.WriteString(renderQuery(o, res, b.rss))
		}
	}
	if o.audit.enabled {
		cells, err := b.measureAudit()
		if err != nil {
			return err
		}
		if md.Len() > 0 {
			md.WriteString("\n")
		}
		md.WriteString(renderAudit(o, tfVersion, cells, b.rss))
	}
	if o.aem.enabled {
		res, err := b.measureAEM()
		if err != nil {
			return err
		}
		if md.Len() > 0 {
			md.WriteString("\n")
		}
		md.WriteString(renderAEM(o, tfVersion, res, b.rss))
	}
	if o.aemRedrive.enabled {
		if !executable(o.redrive.terraform) {
			b.logf("AEM redrive section skipped: no Terraform 1.14 CLI at %q (make terraform114, or -redrive-terraform)", o.redrive.terraform)
		} else {
			cells, err := b.measureAEMRedrive()
			if err != nil {
				return err
			}
			if md.Len() > 0 {
				md.WriteString("\n")
			}
			md.WriteString(renderAEMRedrive(o, cells, b.rss))
		}
	}
	if o.aemAudit.enabled {
		cells, err := b.measureAEMAudit()
		if err != nil {
			return err
		}
		if md.Len() > 0 {
			md.WriteString("\n")
		}
		md.WriteString(renderAEMAudit(o, tfVersion, cells, b.rss))
	}
	if _, err := io.WriteString(stdout, md.String()); err != nil {
		return err
	}
	if o.out != "" {
		return os.WriteFile(o.out, []byte(md.String()), 0o644)
	}
	return nil
}

// syncWriter serializes the writes of several goroutines to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "bench: "+format+"\n", args...)
}

// build compiles the provider, the provider without an API and the emulator, and writes the
// CLI configurations that install them.
func (b *bench) build() error {
	realDir := filepath.Join(b.work, "real")
	noAPIDir := filepath.Join(b.work, "noapi")
	b.plugins = filepath.Join(b.work, "plugins")
	b.emulator = filepath.Join(b.work, "emulator")
	for _, d := range []string{realDir, noAPIDir, b.plugins} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	b.logf("building the provider, the provider without an API and the emulator")
	provider := filepath.Join(realDir, "terraform-provider-sapmessaging")
	for _, c := range [][]string{
		{b.o.goCmd, "build", "-trimpath", "-o", provider, "."},
		{b.o.goCmd, "build", "-trimpath", "-o", filepath.Join(noAPIDir, "terraform-provider-sapmessaging"), "./internal/cmd/noapiprovider"},
		{b.o.goCmd, "build", "-trimpath", "-o", b.emulator, "./internal/cmd/emulator"},
	} {
		cmd := exec.Command(c[0], c[1:]...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
	noAPIPlugins := filepath.Join(b.work, "noapi-plugins")
	if err := os.MkdirAll(noAPIPlugins, 0o755); err != nil {
		return err
	}
	st, err := os.Stat(b.o.timeCmd)
	b.rss = b.o.timeCmd != "" && err == nil && st.Mode()&0o111 != 0
	if !b.rss {
		b.logf("no GNU time at %q: the providers' peak RSS and CPU time are not measured (install the Debian package time)", b.o.timeCmd)
	}
	for dir, binary := range map[string]string{b.plugins: provider, noAPIPlugins: filepath.Join(noAPIDir, "terraform-provider-sapmessaging")} {
		if err := b.installPlugin(dir, binary); err != nil {
			return err
		}
	}
	b.cliRC = filepath.Join(b.work, "cli.tfrc")
	b.noAPIRC = filepath.Join(b.work, "noapi.tfrc")
	if err := writeCLIConfig(b.cliRC, b.plugins); err != nil {
		return err
	}
	return writeCLIConfig(b.noAPIRC, noAPIPlugins)
}

// installPlugin puts the provider binary into the plugin directory dir: wrapped in GNU time,
// which runs it as its child and appends its resource use to $SAPMESSAGING_BENCH_RSS on exit,
// or linked when GNU time is missing.
func (b *bench) installPlugin(dir, binary string) error {
	plugin := filepath.Join(dir, "terraform-provider-sapmessaging")
	if !b.rss {
		return os.Symlink(binary, plugin)
	}
	script := fmt.Sprintf("#!/bin/sh\nexec %q -v -a -o \"$SAPMESSAGING_BENCH_RSS\" %q \"$@\"\n", b.o.timeCmd, binary)
	return os.WriteFile(plugin, []byte(script), 0o755)
}

// writeCLIConfig writes a CLI configuration that takes the sapmessaging provider from dir.
func writeCLIConfig(path, dir string) error {
	rc := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/sapmessaging/sapmessaging" = %q
    "registry.opentofu.org/sapmessaging/sapmessaging" = %q
  }
  direct {}
}
`, dir, dir)
	return os.WriteFile(path, []byte(rc), 0o644)
}

// terraformVersion returns the CLI's name and version, such as "Terraform 1.11.4".
func (b *bench) terraformVersion() string { return b.cliVersion(b.o.terraform) }

// cliVersion returns the name and version of the CLI at path, such as "Terraform 1.14.3".
func (b *bench) cliVersion(path string) string {
	cmd := exec.Command(path, "version", "-json")
	cmd.Env = append(cleanEnv(), "TF_CLI_CONFIG_FILE="+b.cliRC, "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err != nil || json.Unmarshal(out, &v) != nil || v.Version == "" {
		return filepath.Base(path)
	}
	name := "Terraform"
	if strings.Contains(strings.ToLower(filepath.Base(path)), "tofu") {
		name = "OpenTofu"
	}
	return name + " " + v.Version
}

// requiredProvidersHCL is the terraform block every configuration of the benchmark starts with.
const requiredProvidersHCL = `terraform {
  required_providers {
    sapmessaging = { source = "sapmessaging/sapmessaging" }
  }
}
`

// queuesHCL is n queues whose redelivery count is var.redeliveries. They set force_destroy = true,
// as the landscape's do, so that the destroy deletes each queue with one call.
func queuesHCL(n int) string {
	return fmt.Sprintf(requiredProvidersHCL+`
provider "sapmessaging" {}

variable "redeliveries" {
  type = number
}

resource "sapmessaging_queue" "q" {
  count                = %d
  name                 = format("acme/crm/prod/bench/q%%04d", count.index)
  max_redelivery_count = var.redeliveries
  dead_message_queue   = "`+benchDMQ+`"
  force_destroy        = true
}
`, n)
}

// dataHCL is n terraform_data resources whose input is var.redeliveries.
func dataHCL(n int) string {
	return fmt.Sprintf(`variable "redeliveries" {
  type = number
}

resource "terraform_data" "q" {
  count = %d
  input = var.redeliveries
}
`, n)
}

// measure runs every operation o.runs times for one latency and size.
func (b *bench) measure(latency time.Duration, n int) ([]cell, error) {
	mine := map[string][]sample{}
	alone := map[string][]sample{}
	noAPI := map[string][]sample{}
	other := map[string][]sample{}
	steps := destroySteps(b.o.parallelism)
	for r := 1; r <= b.o.runs; r++ {
		b.logf("latency %s, %d queues, run %d/%d", latency, n, r, b.o.runs)
		base := filepath.Join(b.work, fmt.Sprintf("%s-%d-%d", latency, n, r))
		// The dead message queue is one queue more than the N measured: the emulator's limit (250, as
		// SAP documents) is raised to hold it at the largest N.
		em, err := b.startEmulator(filepath.Join(base, "keys"), latency, "-max-queues", strconv.Itoa(max(250, n+1)))
		if err != nil {
			return nil, err
		}
		key := filepath.Join(base, "keys", "event-mesh.json")
		// The queues name a dead message queue, which must exist before them. It is created
		// outside the configuration, so that the configuration stays the no-API provider's.
		if err := createQueue(key, benchDMQ); err != nil {
			em.stop()
			return nil, err
		}
		cs, err := b.startNoAPICalls(latency)
		if err != nil {
			em.stop()
			return nil, err
		}
		// The floor of the targets runs right beside the provider.
		configs := []sideConfig{
			{name: "terraform_data", what: "terraform_data", dir: filepath.Join(base, "terraform_data"), hcl: dataHCL(n), rc: b.cliRC,
				env: []string{"SAPMESSAGING_EVENT_MESH_SERVICE_KEY="}, into: alone},
		}
		if b.o.otherFloor {
			configs = append(configs, sideConfig{name: otherFloorName(b.o), what: "the other provider without an API", dir: filepath.Join(base, "noapi-other"),
				hcl: queuesHCL(n), rc: b.noAPIRC, env: b.otherEnv(latency), into: other})
		}
		configs = append(configs,
			sideConfig{name: "no-API provider", what: "the provider without an API", dir: filepath.Join(base, "noapi"), hcl: queuesHCL(n), rc: b.noAPIRC,
				env: b.noAPIEnv(latency, cs), into: noAPI},
			sideConfig{name: "provider", what: fmt.Sprintf("%d queues at %s latency", n, latency), dir: filepath.Join(base, "queues"), hcl: queuesHCL(n), rc: b.cliRC,
				env: []string{"SAPMESSAGING_EVENT_MESH_SERVICE_KEY=" + key}, ems: emulators{em}, into: mine})
		err = b.sideBySide(r, steps, configs, func(c sideConfig, op string, s sample) {
			// terraform_data has no provider process: its line gives Terraform's CPU time.
			cpu, whose := s.providerCPU, "provider CPU"
			if c.name == "terraform_data" {
				cpu, whose = s.cpu, "Terraform's CPU"
			}
			b.logf("latency %s, %d queues, run %d, %s, %s: wall %s, %s %s", latency, n, r, c.name, op, seconds(s.wall), whose, seconds(cpu))
		})
		em.stop()
		if cs != nil {
			cs.stop()
		}
		if err != nil {
			return nil, err
		}
	}
	var cells []cell
	for _, op := range operations {
		c := cell{latency: latency, n: n, op: op, wall: median(mine[op]), tfAlone: median(alone[op]),
			cpu:         medianOf(mine[op], func(s sample) time.Duration { return s.cpu }),
			providerCPU: medianOf(mine[op], func(s sample) time.Duration { return s.providerCPU }),
			tfAloneCPU:  medianOf(alone[op], func(s sample) time.Duration { return s.cpu })}
		for _, s := range mine[op] {
			c.mgmtCalls = max(c.mgmtCalls, s.mgmtCalls)
			c.tokens = max(c.tokens, s.tokenCalls)
			c.rssKB = max(c.rssKB, s.rssKB)
		}
		c.noAPI = median(noAPI[op])
		c.noAPICPU = medianOf(noAPI[op], func(s sample) time.Duration { return s.providerCPU })
		c.noAPIFloor = floorFor(op, n, b.o.parallelism, latency, c.noAPI, b.o)
		c.ratioLo, c.ratioHi = pairedRatios(mine[op], noAPI[op])
		c.otherCPU = medianOf(other[op], func(s sample) time.Duration { return s.providerCPU })
		cells = append(cells, c)
	}
	return cells, nil
}

// sideConfig is one configuration of a section run side by side with the others (sideBySide).
type sideConfig struct {
	name, what, dir, hcl, rc string // name in the log, what in errors
	env                      []string
	ems                      emulators
	into                     map[string][]sample // the samples per command
}

// sideBySide runs steps in every configuration command by command: each command of the sequence
// in every configuration, one after the other, before the next command (in even runs r the
// configurations in the opposite order), so that a command and its floor run seconds to minutes
// apart, on the same machine, whose speed drifts over the minutes a section run takes. Each
// sample goes into its configuration's map, and logged sees it.
func (b *bench) sideBySide(r int, steps []step, configs []sideConfig, logged func(c sideConfig, op string, s sample)) error {
	configs = slices.Clone(configs)
	if r%2 == 0 {
		slices.Reverse(configs)
	}
	for i, st := range steps {
		for _, c := range configs {
			ss, err := b.runStepsFrom(c.dir, c.hcl, c.rc, c.env, c.ems, steps[i:i+1], i)
			if err != nil {
				return fmt.Errorf("%s: %w", c.what, err)
			}
			s := ss[st.op]
			c.into[st.op] = append(c.into[st.op], s)
			logged(c, st.op, s)
		}
	}
	return nil
}

// otherEnv is the environment of the other no-API provider (-other-floor) at latency: the wait
// beside the plain floor, none (the plain floor) beside a floor that waits or calls.
func (b *bench) otherEnv(latency time.Duration) []string {
	if b.o.noAPIWait || b.o.noAPICall {
		return nil
	}
	return []string{"SAPMESSAGING_NOAPI_WAIT=" + latency.String()}
}

// otherFloorName names the other no-API provider of the table.
func otherFloorName(o options) string {
	if o.noAPIWait || o.noAPICall {
		return "plain floor"
	}
	return "waiting floor"
}

// pairedRatios returns the lowest and the highest provider CPU ratio of the runs, run r of the
// provider over run r of the no-API provider; 0, 0 without a pair whose CPU times were both measured.
func pairedRatios(mine, noAPI []sample) (lo, hi float64) {
	for r := range min(len(mine), len(noAPI)) {
		if mine[r].providerCPU <= 0 || noAPI[r].providerCPU <= 0 {
			continue
		}
		x := float64(mine[r].providerCPU) / float64(noAPI[r].providerCPU)
		if lo == 0 || x < lo {
			lo = x
		}
		hi = max(hi, x)
	}
	return lo, hi
}

func median(ss []sample) time.Duration {
	return medianOf(ss, func(s sample) time.Duration { return s.wall })
}

func medianOf(ss []sample, get func(sample) time.Duration) time.Duration {
	ws := make([]time.Duration, len(ss))
	for i, s := range ss {
		ws[i] = get(s)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i] < ws[j] })
	if len(ws) == 0 {
		return 0
	}
	if len(ws)%2 == 1 {
		return ws[len(ws)/2]
	}
	return (ws[len(ws)/2-1] + ws[len(ws)/2]) / 2
}

// step is one timed Terraform command.
type step struct {
	op   string
	args []string
	// cli is the Terraform CLI of the step; empty for -terraform.
	cli string
	// check, when set, judges the command's output; an error ends the section.
	check func(output string) error
}

// standardSteps are create (variable = before), a plan without changes, and an update (variable = after).
func standardSteps(parallelism int, variable string, before, after int) []step {
	par := fmt.Sprintf("-parallelism=%d", parallelism)
	return []step{
		{op: opCreate, args: []string{"apply", "-auto-approve", "-input=false", "-no-color", par, "-var", fmt.Sprintf("%s=%d", variable, before)}},
		{op: opPlan, args: []string{"plan", "-detailed-exitcode", "-input=false", "-no-color", par, "-var", fmt.Sprintf("%s=%d", variable, before)}},
		{op: opUpdate, args: []string{"apply", "-auto-approve", "-input=false", "-no-color", par, "-var", fmt.Sprintf("%s=%d", variable, after)}},
	}
}

// destroySteps are the standard steps of var.redeliveries (5, then 6) and a destroy: the commands
// of the Event Mesh and the landscape sections.
func destroySteps(parallelism int) []step {
	steps := standardSteps(parallelism, "redeliveries", 5, 6)
	return append(steps, step{op: opDestroy, args: []string{"destroy", "-auto-approve", "-input=false", "-no-color",
		fmt.Sprintf("-parallelism=%d", parallelism), "-var", "redeliveries=6"}})
}

// emulators are the emulators of one configuration, one per instance.
type emulators []*emulatorProc

// stop stops every emulator of es.
func (es emulators) stop() {
	for _, em := range es {
		em.stop()
	}
}

// runSteps writes hcl into dir and runs steps there with the CLI configuration rc and the extra
// environment env, timing each. With ems set, the emulators' statistics are taken per command and
// summed (perInstance is the most management calls one of them got).
func (b *bench) runSteps(dir, hcl, rc string, env []string, ems emulators, steps []step) (map[string]sample, error) {
	return b.runStepsFrom(dir, hcl, rc, env, ems, steps, 0)
}

// runStepsFrom is runSteps of steps that begin at index first of the command sequence, which
// names their files (rss-<index>.txt, the profiles' step): runStepsFrom(…, steps[i:i+1], i) runs
// the sequence's step i alone, in the directory its earlier steps ran in.
func (b *bench) runStepsFrom(dir, hcl, rc string, env []string, ems emulators, steps []step, first int) (map[string]sample, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o644); err != nil {
		return nil, err
	}
	out := map[string]sample{}
	for j, st := range steps {
		i := first + j
		rssFile := filepath.Join(dir, fmt.Sprintf("rss-%d.txt", i))
		for _, em := range ems {
			if err := em.resetStats(); err != nil {
				return nil, err
			}
		}
		cli := b.o.terraform
		if st.cli != "" {
			cli = st.cli
		}
		cmd := exec.Command(cli, st.args...)
		cmd.Dir = dir
		cmd.Env = append(append(cleanEnv(),
			"TF_CLI_CONFIG_FILE="+rc,
			"TF_IN_AUTOMATION=1",
			"CHECKPOINT_DISABLE=1",
			"SAPMESSAGING_BENCH_RSS="+rssFile,
		), env...)
		if b.o.cpuProfile != "" {
			// dir is <work>/<latency>-<N>-<run>/<provider>.
			name := filepath.Base(filepath.Dir(dir)) + "-" + filepath.Base(dir) + "-" + strconv.Itoa(i)
			cmd.Env = append(cmd.Env, cpuprofile.Env+"="+filepath.Join(b.o.cpuProfile, name))
		}
		begin := time.Now()
		output, err := cmd.CombinedOutput()
		wall := time.Since(begin)
		var exitErr *exec.ExitError
		switch {
		case st.op == opPlan && errors.As(err, &exitErr) && exitErr.ExitCode() == 2:
			return nil, fmt.Errorf("the plan after the apply shows changes:\n%s", output)
		case err != nil:
			return nil, fmt.Errorf("terraform %s: %v\n%s", strings.Join(st.args, " "), err, output)
		}
		if st.check != nil {
			if err := st.check(string(output)); err != nil {
				return nil, fmt.Errorf("terraform %s: %w", strings.Join(st.args, " "), err)
			}
		}
		s := sample{wall: wall}
		if ps := cmd.ProcessState; ps != nil {
			s.cpu = ps.UserTime() + ps.SystemTime()
		}
		s.rssKB, s.rssSumKB, s.providerCPU = peakRSS(rssFile), sumRSS(rssFile), providerCPU(rssFile)
		s.procs = len(rssValues(rssFile))
		for _, em := range ems {
			stats, err := em.stats()
			if err != nil {
				return nil, err
			}
			s.mgmtCalls += stats.ManagementCalls
			s.sempCalls += stats.SEMPCalls
			s.tokenCalls += stats.TokenRequests
			s.ciCalls += stats.CloudIntegrationCalls
			s.bytes += stats.ResponseBytes
			s.perInstance = max(s.perInstance, stats.ManagementCalls)
			if s.routes == nil {
				s.routes = map[string]int64{}
			}
			for route, n := range stats.Routes {
				s.routes[route] += n
			}
		}
		out[st.op] = s
	}
	return out, nil
}

// cleanEnv is the environment without Terraform logging and provider settings.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TF_LOG") || strings.HasPrefix(k, "SAPMESSAGING_") || k == "TF_CLI_CONFIG_FILE" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

var (
	maxRSSLine = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)
	cpuLine    = regexp.MustCompile(`(?:User|System) time \(seconds\): ([\d.]+)`)
)

// providerCPU sums the user and system time GNU time wrote into path.
func providerCPU(path string) time.Duration {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var sum float64
	for _, m := range cpuLine.FindAllStringSubmatch(string(b), -1) {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil {
			sum += v
		}
	}
	return time.Duration(sum * float64(time.Second))
}

// peakRSS returns the largest "Maximum resident set size" GNU time wrote into path, in KiB.
func peakRSS(path string) int64 {
	var peak int64
	for _, v := range rssValues(path) {
		peak = max(peak, v)
	}
	return peak
}

// sumRSS adds up the "Maximum resident set size" lines GNU time wrote into path, one per provider
// process, in KiB: more than the processes held at once, since not all of them run at once.
func sumRSS(path string) int64 {
	var sum int64
	for _, v := range rssValues(path) {
		sum += v
	}
	return sum
}

func rssValues(path string) []int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var vs []int64
	for _, m := range maxRSSLine.FindAllStringSubmatch(string(b), -1) {
		if v, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			vs = append(vs, v)
		}
	}
	return vs
}

// benchDMQ is the dead message queue every benchmark queue names.
const benchDMQ = "acme/crm/prod/bench/dmq"

// createQueue creates queue name through the management API of the service key in keyFile.
func createQueue(keyFile, name string) error {
	c, err := managementClient(keyFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, _, err := c.PutQueue(ctx, name, eventmesh.QueueSettings{}); err != nil {
		return fmt.Errorf("creating the dead message queue %s: %w", name, err)
	}
	return nil
}

// managementClient is an Event Mesh management client for the service key in keyFile.
func managementClient(keyFile string) (*eventmesh.Client, error) {
	key, err := cmdkit.LoadEventMesh(keyFile)
	if err != nil {
		return nil, err
	}
	return cmdkit.EventMeshManagement(key, httpx.Config{})
}

// cloudIntegrationClient is a Cloud Integration client for the service key in keyFile.
func cloudIntegrationClient(keyFile string) (*cpi.Client, error) {
	key, err := cmdkit.LoadCloudIntegration(keyFile)
	if err != nil {
		return nil, err
	}
	return cmdkit.CloudIntegration(key, httpx.Config{})
}

// emulatorProc is a running standalone emulator.
type emulatorProc struct {
	cmd *exec.Cmd
	url string
}

func (b *bench) startEmulator(keys string, latency time.Duration, extra ...string) (*emulatorProc, error) {
	cmd := exec.Command(b.emulator, append([]string{"-listen", "127.0.0.1:0", "-keys", keys, "-latency", latency.String()}, extra...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = b.log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	select {
	case line := <-lines:
		url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("the emulator printed %q instead of its address", line)
		}
		return &emulatorProc{cmd: cmd, url: url}, nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, errors.New("the emulator did not print its address within 30s")
	}
}

func (e *emulatorProc) stop() {
	_ = e.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = e.cmd.Process.Kill()
		<-done
	}
}

type emulatorStats struct {
	Requests              int64            `json:"requests"`
	ManagementCalls       int64            `json:"managementCalls"`
	SEMPCalls             int64            `json:"sempCalls"`
	CloudIntegrationCalls int64            `json:"cloudIntegrationCalls"`
	TokenRequests         int64            `json:"tokenRequests"`
	ResponseBytes         int64            `json:"responseBytes"`
	Routes                map[string]int64 `json:"routes"`
}

func (e *emulatorProc) resetStats() error {
	resp, err := http.Post(e.url+"/emulator/v1/stats/reset", "application/json", nil)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("resetting the emulator statistics: %s", resp.Status)
	}
	return nil
}

func (e *emulatorProc) stats() (emulatorStats, error) {
	var st emulatorStats
	resp, err := http.Get(e.url + "/emulator/v1/stats")
	if err != nil {
		return st, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("reading the emulator statistics: %s", resp.Status)
	}
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// benchLine is one result line of go test -bench.
type benchLine struct {
	name    string
	nsPerOp float64
	allocs  string
}

var benchResult = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:.*?\s(\d+) allocs/op)?`)

// validationBenchmark runs the plan-time validation benchmark of the provider package.
func (b *bench) validationBenchmark() ([]benchLine, error) {
	b.logf("running the plan-time validation benchmark")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.o.goCmd, "test", "-run", "^$", "-bench", "^BenchmarkValidateResourceConfig$",
		"-benchmem", "-benchtime", "2000x", "-count", "1", "./internal/provider")
	cmd.Env = cleanEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go test -bench: %v\n%s", err, out)
	}
	var lines []benchLine
	for _, l := range strings.Split(string(out), "\n") {
		if m := benchResult.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			ns, _ := strconv.ParseFloat(m[2], 64)
			lines = append(lines, benchLine{name: m[1], nsPerOp: ns, allocs: m[3]})
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("go test -bench printed no results:\n%s", out)
	}
	return lines, nil
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// render formats the results as markdown.
func render(o options, tfVersion string, cells []cell, validation []benchLine, rss bool) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s, parallelism %d, median of %d run(s). No-API provider = the same command against a provider with the same queue schema on the same "+
		"plugin framework that makes no API call; its floor adds to its wall time ceil(N / %d) × latency × API calls per resource when it did not wait for them (1 per create, update or delete, the queues setting force_destroy = true) and, unless it called a server for them (-noapi-call), the lists ("+
		"1 list in total for a refresh, 1 list in total before the creates, for the check that no queue exists yet, and 1 list each in a destroy's plan with refresh and its apply). CPU ratio = the provider's CPU time / the no-API provider's, medians; "+
		"in brackets the lowest and highest ratio of one run's pair, the provider's command over the no-API provider's in the same run. terraform_data = the same command over N built-in terraform_data "+
		"resources (Terraform alone), as context.\n\n",
		tfVersion, o.parallelism, o.runs, o.parallelism)
	switch {
	case o.noAPICall:
		sb.WriteString("The no-API provider makes one HTTP GET in each create, update and delete (-noapi-call), and one per process for the list, to a server that waits the latency and answers a queue, as for its API calls, without doing any other work.\n\n")
	case o.noAPIWait:
		sb.WriteString("The no-API provider waits the latency in each create, update and delete (-noapi-wait), as the provider waits for its one API call, without doing any work: " +
			"it pays what waiting itself costs a process, which the plain floor never pays.\n\n")
	default:
		sb.WriteString("The no-API provider never waits (the plain floor, the floor of the targets): the CPU ratio includes what the provider's waits for its API cost the process.\n\n")
	}
	otherShown := false
	for _, c := range cells {
		otherShown = otherShown || c.otherCPU > 0
	}
	otherName := otherFloorName(o)
	if otherShown {
		if otherName == "waiting floor" {
			sb.WriteString("Waiting floor = the no-API provider that waits the latency in each create, update and delete as the provider waits for its API, run beside the plain floor in each run (-other-floor): the provider's CPU over its CPU, medians, as context.\n\n")
		} else {
			sb.WriteString("Plain floor = the no-API provider that never waits, run beside the floor of the targets in each run (-other-floor): the provider's CPU over its CPU, medians, as context.\n\n")
		}
	}
	sb.WriteString("| Latency | N | Command | Mgmt API calls | Wall time | No-API provider → floor | Wall ratio | CPU: provider / no-API provider | CPU ratio | terraform_data wall / CPU | CPU: all | Provider peak RSS |")
	if otherShown {
		fmt.Fprintf(&sb, " CPU: %s | CPU ratio to the %s |", otherName, otherName)
	}
	sb.WriteString("\n|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	if otherShown {
		sb.WriteString("---:|---:|")
	}
	sb.WriteString("\n")
	for _, c := range cells {
		mem, provCPU, noAPICPU, cpuRatio := "n/a", "n/a", "n/a", "n/a"
		if rss && c.rssKB > 0 {
			mem = fmt.Sprintf("%.0f MiB", float64(c.rssKB)/1024)
			provCPU = seconds(c.providerCPU)
		}
		if rss && c.noAPICPU > 0 {
			noAPICPU = seconds(c.noAPICPU)
		}
		if r := c.cpuRatio(); rss && r > 0 {
			cpuRatio = fmt.Sprintf("%.2f×", r)
			if c.ratioHi > c.ratioLo && c.ratioLo > 0 {
				cpuRatio += fmt.Sprintf(" (runs %.2f–%.2f)", c.ratioLo, c.ratioHi)
			}
		}
		noAPI, noAPIRatio := "n/a", "n/a"
		if c.noAPIFloor > 0 {
			noAPI = seconds(c.noAPI) + " → " + seconds(c.noAPIFloor)
			noAPIRatio = fmt.Sprintf("%.2f×", c.noAPIRatio())
		}
		fmt.Fprintf(&sb, "| %s | %d | %s | %d | %s | %s | %s | %s / %s | %s | %s / %s | %s | %s |",
			c.latency, c.n, c.op, c.mgmtCalls, seconds(c.wall), noAPI, noAPIRatio, provCPU, noAPICPU, cpuRatio,
			seconds(c.tfAlone), seconds(c.tfAloneCPU), seconds(c.cpu), mem)
		if otherShown {
			otherCPU, otherRatio := "n/a", "n/a"
			if rss && c.otherCPU > 0 {
				otherCPU = seconds(c.otherCPU)
				if c.providerCPU > 0 {
					otherRatio = fmt.Sprintf("%.2f×", float64(c.providerCPU)/float64(c.otherCPU))
				}
			}
			fmt.Fprintf(&sb, " %s | %s |", otherCPU, otherRatio)
		}
		sb.WriteString("\n")
	}
	if len(validation) > 0 {
		sb.WriteString("\n| Plan-time validation (ValidateResourceConfig through the provider server) | Time per resource | Allocations |\n")
		sb.WriteString("|---|---:|---:|\n")
		for _, v := range validation {
			fmt.Fprintf(&sb, "| %s | %.0f µs | %s |\n", strings.TrimPrefix(v.name, "BenchmarkValidateResourceConfig/"), v.nsPerOp/1000, v.allocs)
		}
	}
	sb.WriteString("\n" + targets(cells, validation, rss, floorName(o)))
	return sb.String()
}

// cpuRatio is the provider's CPU time over the no-API provider's, 0 when either is unknown.
func (c cell) cpuRatio() float64 {
	if c.noAPICPU <= 0 || c.providerCPU <= 0 {
		return 0
	}
	return float64(c.providerCPU) / float64(c.noAPICPU)
}

// cpuTarget is the most provider CPU per no-API provider CPU that a command may take: 1.15× for a
// create, which writes every queue after reading the run's list, 1.1× for the others (issue 41).
func cpuTarget(op string) float64 {
	if op == opCreate {
		return 1.15
	}
	return 1.1
}

// floorName names the no-API provider that the CPU targets are read against.
func floorName(o options) string {
	switch {
	case o.noAPICall:
		return "the no-API provider that calls a server as the provider calls its API"
	case o.noAPIWait:
		return "the no-API provider that waits as the provider does"
	}
	return "the no-API provider that never waits (the plain floor)"
}

// targets checks the results against the targets: at the largest N, the provider's CPU time within
// cpuTarget of the no-API provider's for every command, a refresh with one management API call and a
// destroy with at most N + 5, as the landscape's per instance;
// validation under 1 ms per resource; the provider's peak RSS under 100 MB.
func targets(cells []cell, validation []benchLine, rss bool, floor string) string {
	var sb strings.Builder
	sb.WriteString("Targets:\n\n")
	var peakKB int64
	maxN := 0
	for _, c := range cells {
		maxN = max(maxN, c.n)
		peakKB = max(peakKB, c.rssKB)
	}
	for _, c := range cells {
		if c.n != maxN {
			continue
		}
		switch c.op {
		case opPlan:
			fmt.Fprintf(&sb, "- refresh of %d queues at %s with 1 management API call: %d, %s\n", c.n, c.latency, c.mgmtCalls, mark(c.mgmtCalls <= 1))
		case opDestroy:
			fmt.Fprintf(&sb, "- destroy (force_destroy = true) of %d queues at %s with at most N + 5 = %d management API calls: %d, %s\n",
				c.n, c.latency, c.n+5, c.mgmtCalls, mark(c.mgmtCalls <= int64(c.n+5)))
		case opCreate, opUpdate:
			// One write per queue and the lists (two, as measured: 252 calls for 250 queues).
			fmt.Fprintf(&sb, "- %s of %d queues at %s with at most N + 2 = %d management API calls: %d, %s\n",
				c.op, c.n, c.latency, c.n+2, c.mgmtCalls, mark(c.mgmtCalls <= int64(c.n+2)))
		}
		if r := c.cpuRatio(); rss && r > 0 {
			fmt.Fprintf(&sb, "- %d queues at %s, %s: provider CPU within %.3g× of %s: %s / %s = %.2f×, %s\n",
				c.n, c.latency, c.op, cpuTarget(c.op), floor, seconds(c.providerCPU), seconds(c.noAPICPU), r, mark(r <= cpuTarget(c.op)))
		}
	}
	if len(validation) > 0 {
		slowest := validation[0]
		for _, v := range validation {
			if v.nsPerOp > slowest.nsPerOp {
				slowest = v
			}
		}
		fmt.Fprintf(&sb, "- plan-time validation under 1 ms per resource: slowest %.0f µs, %s\n", slowest.nsPerOp/1000, mark(slowest.nsPerOp < 1e6))
	}
	if rss {
		fmt.Fprintf(&sb, "- provider peak RSS under 100 MB at %d resources: %.0f MiB, %s\n", maxN, float64(peakKB)/1024, mark(peakKB*1024 < 100e6))
	}
	return sb.String()
}

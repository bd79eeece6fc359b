// Command bench measures the provider against the emulator and prints a
// markdown table: management API calls, wall time, floor and ratio for
// `terraform apply` (create), `terraform plan` (refresh, no changes) and an
// update of every queue, for each latency and number of queues, plus the
// provider's peak RSS and the plan-time validation cost per resource.
//
// The floor of a command is what Terraform itself needs for the same command
// over N built-in terraform_data resources, measured in the same run, plus
// ceil(N / parallelism) × latency × the API calls a resource needs (1 for a
// create, 1 for an update; a refresh needs one list of all queues in total).
// A second floor puts the same commands against internal/cmd/noapiprovider in
// place of terraform_data: a provider on the same plugin framework with the
// same queue schema that makes no API call, which measures what Terraform and
// the framework cost for N plugin resources of this schema.
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
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
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
	if err := fs.Parse(args); err != nil {
		return o, err
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
	if o.runs < 1 || o.parallelism < 1 {
		return o, errors.New("-runs and -parallelism must be at least 1")
	}
	return o, nil
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
)

var operations = []string{opCreate, opPlan, opUpdate}

// sample is one timed command.
type sample struct {
	wall        time.Duration
	cpu         time.Duration // user and system time of the CLI and the plugins it waited for
	providerCPU time.Duration // user and system time of the provider processes
	mgmtCalls   int64
	tokenCalls  int64
	rssKB       int64
}

// cell is the result of one operation at one latency and size.
type cell struct {
	latency                      time.Duration
	n                            int
	op                           string
	wall                         time.Duration // median of the runs
	tfAlone                      time.Duration // median of terraform_data
	floor                        time.Duration
	noAPI                        time.Duration // median of the provider without an API
	noAPICPU                     time.Duration // median CPU time of the provider without an API
	noAPIFloor                   time.Duration
	cpu, providerCPU, tfAloneCPU time.Duration // medians
	mgmtCalls                    int64         // the most any run made
	tokens                       int64
	rssKB                        int64 // peak over the runs, 0 when not measured
}

func (c cell) ratio() float64 { return float64(c.wall) / float64(c.floor) }

// noAPIRatio compares the wall time with the floor of a provider that makes no API call.
func (c cell) noAPIRatio() float64 {
	if c.noAPIFloor == 0 {
		return 0
	}
	return float64(c.wall) / float64(c.noAPIFloor)
}

// floorFor is Terraform's own time plus the API round trips a resource needs.
func floorFor(op string, n, parallelism int, latency, tfAlone time.Duration) time.Duration {
	waves := int64((n + parallelism - 1) / parallelism)
	switch op {
	case opPlan:
		return tfAlone + latency // one list of all queues
	case opCreate:
		// One list before the first create checks that no queue exists yet.
		return tfAlone + latency + time.Duration(waves*int64(latency))
	default:
		return tfAlone + time.Duration(waves*int64(latency))
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
	b := &bench{o: o, work: work, log: stderr}
	if err := b.build(); err != nil {
		return err
	}
	tfVersion := b.terraformVersion()
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
	md := render(o, tfVersion, cells, validation, b.rss)
	if _, err := io.WriteString(stdout, md); err != nil {
		return err
	}
	if o.out != "" {
		return os.WriteFile(o.out, []byte(md), 0o644)
	}
	return nil
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
func (b *bench) terraformVersion() string {
	cmd := exec.Command(b.o.terraform, "version", "-json")
	cmd.Env = append(cleanEnv(), "TF_CLI_CONFIG_FILE="+b.cliRC, "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err != nil || json.Unmarshal(out, &v) != nil || v.Version == "" {
		return filepath.Base(b.o.terraform)
	}
	name := "Terraform"
	if strings.Contains(strings.ToLower(filepath.Base(b.o.terraform)), "tofu") {
		name = "OpenTofu"
	}
	return name + " " + v.Version
}

// queuesHCL is n queues whose redelivery count is var.redeliveries.
func queuesHCL(n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    sapmessaging = { source = "sapmessaging/sapmessaging" }
  }
}

provider "sapmessaging" {}

variable "redeliveries" {
  type = number
}

resource "sapmessaging_queue" "q" {
  count                = %d
  name                 = format("acme/crm/prod/bench/q%%04d", count.index)
  max_redelivery_count = var.redeliveries
  dead_message_queue   = "acme/crm/prod/bench/dmq"
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
	collect := func(into map[string][]sample, ss map[string]sample) {
		for op, s := range ss {
			into[op] = append(into[op], s)
		}
	}
	for r := 1; r <= b.o.runs; r++ {
		b.logf("latency %s, %d queues, run %d/%d", latency, n, r, b.o.runs)
		base := filepath.Join(b.work, fmt.Sprintf("%s-%d-%d", latency, n, r))
		ss, err := b.sequence(filepath.Join(base, "terraform_data"), dataHCL(n), b.cliRC, "", nil)
		if err != nil {
			return nil, fmt.Errorf("terraform_data, %d resources: %w", n, err)
		}
		collect(alone, ss)
		ss, err = b.sequence(filepath.Join(base, "noapi"), queuesHCL(n), b.noAPIRC, "", nil)
		if err != nil {
			return nil, fmt.Errorf("%d queues without an API: %w", n, err)
		}
		collect(noAPI, ss)
		em, err := b.startEmulator(filepath.Join(base, "keys"), latency)
		if err != nil {
			return nil, err
		}
		ss, err = b.sequence(filepath.Join(base, "queues"), queuesHCL(n), b.cliRC, filepath.Join(base, "keys", "event-mesh.json"), em)
		em.stop()
		if err != nil {
			return nil, fmt.Errorf("%d queues at %s latency: %w", n, latency, err)
		}
		collect(mine, ss)
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
		c.floor = floorFor(op, n, b.o.parallelism, latency, c.tfAlone)
		c.noAPI = median(noAPI[op])
		c.noAPICPU = medianOf(noAPI[op], func(s sample) time.Duration { return s.providerCPU })
		c.noAPIFloor = floorFor(op, n, b.o.parallelism, latency, c.noAPI)
		cells = append(cells, c)
	}
	return cells, nil
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

// sequence creates, refreshes and updates the configuration hcl in dir with the CLI
// configuration rc. With em set, the emulator's statistics and the provider's RSS are taken
// per command.
func (b *bench) sequence(dir, hcl, rc, key string, em *emulatorProc) (map[string]sample, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o644); err != nil {
		return nil, err
	}
	par := fmt.Sprintf("-parallelism=%d", b.o.parallelism)
	steps := []struct {
		op   string
		args []string
	}{
		{opCreate, []string{"apply", "-auto-approve", "-input=false", "-no-color", par, "-var", "redeliveries=5"}},
		{opPlan, []string{"plan", "-detailed-exitcode", "-input=false", "-no-color", par, "-var", "redeliveries=5"}},
		{opUpdate, []string{"apply", "-auto-approve", "-input=false", "-no-color", par, "-var", "redeliveries=6"}},
	}
	out := map[string]sample{}
	for i, st := range steps {
		rssFile := filepath.Join(dir, fmt.Sprintf("rss-%d.txt", i))
		if em != nil {
			if err := em.resetStats(); err != nil {
				return nil, err
			}
		}
		cmd := exec.Command(b.o.terraform, st.args...)
		cmd.Dir = dir
		cmd.Env = append(cleanEnv(),
			"TF_CLI_CONFIG_FILE="+rc,
			"TF_IN_AUTOMATION=1",
			"CHECKPOINT_DISABLE=1",
			"SAPMESSAGING_EVENT_MESH_SERVICE_KEY="+key,
			"SAPMESSAGING_BENCH_RSS="+rssFile,
		)
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
		s := sample{wall: wall}
		if ps := cmd.ProcessState; ps != nil {
			s.cpu = ps.UserTime() + ps.SystemTime()
		}
		s.rssKB, s.providerCPU = peakRSS(rssFile), providerCPU(rssFile)
		if em != nil {
			stats, err := em.stats()
			if err != nil {
				return nil, err
			}
			s.mgmtCalls, s.tokenCalls = stats.ManagementCalls, stats.TokenRequests
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
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var peak int64
	for _, m := range maxRSSLine.FindAllStringSubmatch(string(b), -1) {
		if v, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			peak = max(peak, v)
		}
	}
	return peak
}

// emulatorProc is a running standalone emulator.
type emulatorProc struct {
	cmd *exec.Cmd
	url string
}

func (b *bench) startEmulator(keys string, latency time.Duration) (*emulatorProc, error) {
	cmd := exec.Command(b.emulator, "-listen", "127.0.0.1:0", "-keys", keys, "-latency", latency.String())
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
	Requests        int64 `json:"requests"`
	ManagementCalls int64 `json:"managementCalls"`
	TokenRequests   int64 `json:"tokenRequests"`
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
	fmt.Fprintf(&sb, "%s, parallelism %d, median of %d run(s). Floor = the same command over N terraform_data + ceil(N / %d) × latency × API calls per resource "+
		"(1 per create or update; 1 list in total for a refresh, and for the check before the creates that no queue exists yet). No-API floor = the same command against a provider with the same queue schema on the same "+
		"plugin framework that makes no API call + the same latency term.\n\n",
		tfVersion, o.parallelism, o.runs, o.parallelism)
	sb.WriteString("| Latency | N | Command | Mgmt API calls | Wall time | terraform_data → floor | Ratio | No-API provider → floor | Ratio | CPU: all / provider / no-API provider / terraform_data | Provider peak RSS |\n")
	sb.WriteString("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range cells {
		mem, provCPU, noAPICPU := "n/a", "n/a", "n/a"
		if rss && c.rssKB > 0 {
			mem = fmt.Sprintf("%.0f MiB", float64(c.rssKB)/1024)
			provCPU = seconds(c.providerCPU)
		}
		if rss && c.noAPICPU > 0 {
			noAPICPU = seconds(c.noAPICPU)
		}
		noAPI, noAPIRatio := "n/a", "n/a"
		if c.noAPIFloor > 0 {
			noAPI = seconds(c.noAPI) + " → " + seconds(c.noAPIFloor)
			noAPIRatio = fmt.Sprintf("%.2f×", c.noAPIRatio())
		}
		fmt.Fprintf(&sb, "| %s | %d | %s | %d | %s | %s → %s | %.2f× | %s | %s | %s / %s / %s / %s | %s |\n",
			c.latency, c.n, c.op, c.mgmtCalls, seconds(c.wall), seconds(c.tfAlone), seconds(c.floor), c.ratio(), noAPI, noAPIRatio,
			seconds(c.cpu), provCPU, noAPICPU, seconds(c.tfAloneCPU), mem)
	}
	if len(validation) > 0 {
		sb.WriteString("\n| Plan-time validation (ValidateResourceConfig through the provider server) | Time per resource | Allocations |\n")
		sb.WriteString("|---|---:|---:|\n")
		for _, v := range validation {
			fmt.Fprintf(&sb, "| %s | %.0f µs | %s |\n", strings.TrimPrefix(v.name, "BenchmarkValidateResourceConfig/"), v.nsPerOp/1000, v.allocs)
		}
	}
	sb.WriteString("\n" + targets(cells, validation, rss))
	return sb.String()
}

// targets checks the results against the targets of the performance issue.
func targets(cells []cell, validation []benchLine, rss bool) string {
	var sb strings.Builder
	sb.WriteString("Targets:\n\n")
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**missed**"
	}
	var worstRatio, worstNoAPI float64
	var worst, worstCell cell
	var peakKB int64
	maxN := 0
	for _, c := range cells {
		maxN = max(maxN, c.n)
		peakKB = max(peakKB, c.rssKB)
		if c.op != opPlan && c.ratio() > worstRatio {
			worstRatio, worst = c.ratio(), c
		}
		if c.op != opPlan && c.noAPIRatio() > worstNoAPI {
			worstNoAPI, worstCell = c.noAPIRatio(), c
		}
	}
	for _, c := range cells {
		if c.op == opPlan && c.n == maxN {
			fmt.Fprintf(&sb, "- refresh of %d queues at %s with at most 2 management API calls: %d calls, %s\n", c.n, c.latency, c.mgmtCalls, mark(c.mgmtCalls <= 2))
		}
	}
	if worst.n > 0 {
		fmt.Fprintf(&sb, "- apply within 1.2× of the floor: worst %.2f× (%s, %d queues, %s), %s\n", worstRatio, worst.op, worst.n, worst.latency, mark(worstRatio <= 1.2))
	}
	if worstCell.n > 0 {
		fmt.Fprintf(&sb, "- for comparison, against the no-API floor (Terraform and the plugin framework with this schema): worst %.2f× (%s, %d queues, %s)\n",
			worstNoAPI, worstCell.op, worstCell.n, worstCell.latency)
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

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The Advanced Event Mesh (AEM) section: N sapmessaging_aem_queue resources and the one
// sapmessaging_aem_dead_message_queue they name, on one emulated broker, applied once, then
// `terraform plan -refresh-only` and `terraform plan`, with the SEMP calls the emulator counted
// (sempCalls), the wall time, the provider's CPU time and peak RSS. Beside it, in the same run: the
// same configuration against the provider without an API (internal/cmd/noapiprovider, the CPU floor
// of Terraform and the framework for these schemas), and the same queues through the provider users
// would pick instead, SolaceProducts/terraform-provider-solacebroker v1.3.0
// (solacebroker_msg_vpn_queue), when a build of it is at -aem-solacebroker (skipped, saying so,
// otherwise; scripts/build-solacebroker.sh builds it from the Go module cache).

// aemOptions are the settings of the AEM section.
type aemOptions struct {
	enabled      bool
	queues       int // sapmessaging_aem_queue resources, the dead message queue not included
	latency      time.Duration
	runs         int
	solacebroker string // path of a terraform-provider-solacebroker binary; "" or missing: skipped
}

// AEM section commands.
const (
	aemOpCreate  = "apply (create)"
	aemOpRefresh = "plan -refresh-only"
	aemOpPlan    = opPlan // "plan (refresh, no changes)"
)

var aemOperations = []string{aemOpCreate, aemOpRefresh, aemOpPlan}

// The providers of the section, in the order of the table.
const (
	aemProviderMine   = "sapmessaging"
	aemProviderNoAPI  = "no-API provider"
	aemProviderSolace = "solacebroker v1.3.0"
)

// aemDMQ is the dead message queue every queue of the section names; aemDMQTTL its time to live.
const (
	aemDMQ    = "bench.aem.dmq"
	aemDMQTTL = 604800
)

// aemRefreshTarget is the most SEMP calls a refresh of the section's queues may make: one check of
// the connection and one paged list (issue 30: "refresh in at most 12 SEMP calls" for 1,000 queues).
const aemRefreshTarget = 12

// aemCPUTarget is the most the provider's CPU time may exceed the no-API provider's.
const aemCPUTarget = 1.15

// solacebrokerEnv names the default of -aem-solacebroker.
const solacebrokerEnv = "SOLACEBROKER_PROVIDER"

// defaultSolacebroker is where scripts/build-solacebroker.sh puts its build.
func defaultSolacebroker(getenv func(string) string) string {
	if p := getenv(solacebrokerEnv); p != "" {
		return p
	}
	home := getenv("HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "sapmessaging", "solacebroker-v1.3.0", "terraform-provider-solacebroker")
}

// addAEMFlags registers the flags of the AEM section, each checked as it is parsed.
func addAEMFlags(fs *flag.FlagSet, o *aemOptions) {
	o.queues, o.latency, o.runs, o.solacebroker = 1000, 20*time.Millisecond, 1, defaultSolacebroker(os.Getenv)
	fs.BoolVar(&o.enabled, "aem", true, "run the Advanced Event Mesh section (queues and their dead message queue on one broker: create, refresh-only plan, plan; "+
		"-aem alone runs it alone, as naming any section true runs only the sections so named)")
	fs.Func("aem-queues", "AEM section: sapmessaging_aem_queue resources, the dead message queue they name not included, 1 to 5000 (default 1000)", intIn(&o.queues, 1, 5000))
	fs.Func("aem-latency", "AEM section: latency the emulator adds to every request (default 20ms)", durationIn(&o.latency))
	fs.Func("aem-runs", "AEM section: runs per provider; the table shows medians (default 1)", intIn(&o.runs, 1, 100))
	fs.StringVar(&o.solacebroker, "aem-solacebroker", o.solacebroker, "AEM section: `path` of a terraform-provider-solacebroker v1.3.0 build to compare with "+
		"(default $"+solacebrokerEnv+", else ~/.cache/sapmessaging/solacebroker-v1.3.0/terraform-provider-solacebroker, which scripts/build-solacebroker.sh writes); "+
		"skipped when missing")
}

// aemVariablesHCL declares the broker's connection as variables, set through TF_VAR_ in the
// environment of the solacebroker configuration.
const aemVariablesHCL = `
variable "semp_url" {
  type = string
}

variable "msg_vpn_name" {
  type = string
}

variable "semp_username" {
  type = string
}

variable "semp_password" {
  type      = string
  sensitive = true
}
`

// aemHCL is n sapmessaging_aem_queue resources with the provider's settings and the dead message
// queue they name. The broker's connection comes from the SAPMESSAGING_AEM_ variables.
func aemHCL(n int) string {
	return requiredProvidersHCL + fmt.Sprintf(`
provider "sapmessaging" {}

resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = true
  max_ttl         = %d
  ingress_enabled = true
}

resource "sapmessaging_aem_queue" "q" {
  count                    = %d
  name                     = format("bench.aem.q%%04d", count.index)
  max_redelivery_count     = 5
  dead_message_queue       = sapmessaging_aem_dead_message_queue.dmq.name
  respect_ttl              = false
  max_ttl                  = 0
  redelivery_delay_enabled = true
  ingress_enabled          = true
  egress_enabled           = true
}
`, aemDMQ, aemDMQTTL, n)
}

// solacebrokerHCL is the same queues as aemHCL through solacebroker_msg_vpn_queue.
func solacebrokerHCL(n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    solacebroker = { source = "solaceproducts/solacebroker" }
  }
}
%s
provider "solacebroker" {
  url      = var.semp_url
  username = var.semp_username
  password = var.semp_password
}

resource "solacebroker_msg_vpn_queue" "dmq" {
  msg_vpn_name        = var.msg_vpn_name
  queue_name          = %q
  respect_ttl_enabled = true
  max_ttl             = %d
  ingress_enabled     = true
}

resource "solacebroker_msg_vpn_queue" "q" {
  count                    = %d
  msg_vpn_name             = var.msg_vpn_name
  queue_name               = format("bench.aem.q%%04d", count.index)
  max_redelivery_count     = 5
  dead_msg_queue           = solacebroker_msg_vpn_queue.dmq.queue_name
  respect_ttl_enabled      = false
  max_ttl                  = 0
  redelivery_delay_enabled = true
  ingress_enabled          = true
  egress_enabled           = true
}
`, aemVariablesHCL, aemDMQ, aemDMQTTL, n)
}

// aemSteps are the section's commands: one apply that creates everything, a refresh-only plan that
// must find nothing changed, and a plan without changes.
func aemSteps(parallelism int) []step {
	par := fmt.Sprintf("-parallelism=%d", parallelism)
	return []step{
		{op: aemOpCreate, args: []string{"apply", "-auto-approve", "-input=false", "-no-color", par}},
		{op: aemOpRefresh, args: []string{"plan", "-refresh-only", "-input=false", "-no-color", par}, check: refreshFoundNothing},
		{op: aemOpPlan, args: []string{"plan", "-detailed-exitcode", "-input=false", "-no-color", par}},
	}
}

// refreshFoundNothing fails a refresh-only plan that found the objects changed outside Terraform.
func refreshFoundNothing(out string) error {
	if strings.Contains(out, "No changes") {
		return nil
	}
	return fmt.Errorf("the refresh-only plan after the apply found changes:\n%s", lastLines(out, 40))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// aemCredentials are the broker's management access as the emulator writes it
// (advanced-event-mesh.json).
type aemCredentials struct {
	SEMPURL    string `json:"semp_url"`
	MsgVpnName string `json:"msg_vpn_name"`
	Username   string `json:"username"`
	Password   string `json:"password"`
}

func readAEMCredentials(keys string) (aemCredentials, error) {
	var c aemCredentials
	b, err := os.ReadFile(filepath.Join(keys, "advanced-event-mesh.json"))
	if err != nil {
		return c, fmt.Errorf("the emulator wrote no AEM credentials: %w", err)
	}
	if err := json.Unmarshal(b, &c); err != nil || c.SEMPURL == "" || c.MsgVpnName == "" || c.Username == "" || c.Password == "" {
		return c, fmt.Errorf("the AEM credentials the emulator wrote are incomplete (%v)", err)
	}
	return c, nil
}

// sapmessagingEnv is the environment that connects the sapmessaging provider to the broker.
func (c aemCredentials) sapmessagingEnv() []string {
	return []string{"SAPMESSAGING_AEM_SEMP_URL=" + c.SEMPURL, "SAPMESSAGING_AEM_MSG_VPN_NAME=" + c.MsgVpnName,
		"SAPMESSAGING_AEM_USERNAME=" + c.Username, "SAPMESSAGING_AEM_PASSWORD=" + c.Password}
}

// variablesEnv is the environment that sets aemVariablesHCL.
func (c aemCredentials) variablesEnv() []string {
	return []string{"TF_VAR_semp_url=" + c.SEMPURL, "TF_VAR_msg_vpn_name=" + c.MsgVpnName,
		"TF_VAR_semp_username=" + c.Username, "TF_VAR_semp_password=" + c.Password}
}

// aemCell is one command of one provider, over the runs.
type aemCell struct {
	provider string
	op       string
	runs     int
	wall     time.Duration // median
	cpu      time.Duration // median provider CPU time
	semp     int64         // the most SEMP calls a run made
	routes   map[string]int64
	rssKB    int64 // peak over the runs
}

// aemCellOf sums up the samples of one command of one provider.
func aemCellOf(provider, op string, ss []sample) aemCell {
	c := aemCell{provider: provider, op: op, runs: len(ss), wall: median(ss),
		cpu: medianOf(ss, func(s sample) time.Duration { return s.providerCPU })}
	for _, s := range ss {
		if s.sempCalls >= c.semp {
			c.semp, c.routes = s.sempCalls, s.routes
		}
		c.rssKB = max(c.rssKB, s.rssKB)
	}
	return c
}

// aemResult is the section's measurement.
type aemResult struct {
	cells        []aemCell
	solaceReason string // why solacebroker was skipped; "" when it ran
}

func (r aemResult) cell(provider, op string) (aemCell, bool) {
	for _, c := range r.cells {
		if c.provider == provider && c.op == op {
			return c, true
		}
	}
	return aemCell{}, false
}

// measureAEM runs the section: per run, the provider without an API, the sapmessaging provider against
// a fresh emulator, and solacebroker against another when it is there, command by command (sideBySide:
// each command in every configuration before the next; in even runs in the opposite order), the floor
// right beside the provider.
func (b *bench) measureAEM() (aemResult, error) {
	o := b.o.aem
	res := aemResult{}
	solaceRC, err := b.solacebrokerSetup()
	if err != nil {
		res.solaceReason = err.Error()
		b.logf("AEM section: solacebroker skipped: %v", err)
	}
	samples := map[string]map[string][]sample{aemProviderMine: {}, aemProviderNoAPI: {}, aemProviderSolace: {}}
	steps := aemSteps(b.o.parallelism)
	for r := 1; r <= o.runs; r++ {
		base := filepath.Join(b.work, fmt.Sprintf("aem-%d", r))
		b.logf("AEM section: %d queues at %s latency, run %d/%d, command by command", o.queues, o.latency, r, o.runs)
		configs := []sideConfig{{name: aemProviderNoAPI, what: "AEM section, the provider without an API", dir: filepath.Join(base, "noapi"),
			hcl: aemHCL(o.queues), rc: b.noAPIRC, into: samples[aemProviderNoAPI]}}
		var ems emulators
		mine, err := b.aemConfig(filepath.Join(base, "sapmessaging"), aemHCL(o.queues), b.cliRC,
			func(c aemCredentials) []string { return c.sapmessagingEnv() })
		if err != nil {
			return res, fmt.Errorf("AEM section, sapmessaging: %w", err)
		}
		mine.name, mine.what, mine.into = aemProviderMine, "AEM section, sapmessaging", samples[aemProviderMine]
		configs, ems = append(configs, mine), append(ems, mine.ems...)
		if solaceRC != "" {
			solace, err := b.aemConfig(filepath.Join(base, "solacebroker"), solacebrokerHCL(o.queues), solaceRC,
				func(c aemCredentials) []string { return c.variablesEnv() })
			if err != nil {
				ems.stop()
				return res, fmt.Errorf("AEM section, solacebroker: %w", err)
			}
			solace.name, solace.what, solace.into = aemProviderSolace, "AEM section, solacebroker", samples[aemProviderSolace]
			configs, ems = append(configs, solace), append(ems, solace.ems...)
		}
		err = b.sideBySide(r, steps, configs, func(c sideConfig, op string, s sample) {
			b.logf("AEM section: run %d/%d, %s, %s: wall %s, provider CPU %s", r, o.runs, c.name, op, seconds(s.wall), seconds(s.providerCPU))
		})
		ems.stop()
		if err != nil {
			return res, err
		}
	}
	for _, p := range []string{aemProviderMine, aemProviderNoAPI, aemProviderSolace} {
		for _, op := range aemOperations {
			if ss := samples[p][op]; len(ss) > 0 {
				res.cells = append(res.cells, aemCellOf(p, op, ss))
			}
		}
	}
	return res, nil
}

// aemConfig starts a fresh emulator with the section's latency and returns the configuration that
// runs hcl in dir against it (its emulator in ems, for the caller to stop).
func (b *bench) aemConfig(dir, hcl, rc string, env func(aemCredentials) []string) (sideConfig, error) {
	keys := filepath.Join(dir, "keys")
	em, err := b.startEmulator(keys, b.o.aem.latency)
	if err != nil {
		return sideConfig{}, err
	}
	creds, err := readAEMCredentials(keys)
	if err != nil {
		em.stop()
		return sideConfig{}, err
	}
	return sideConfig{dir: filepath.Join(dir, "config"), hcl: hcl, rc: rc, env: env(creds), ems: emulators{em}}, nil
}

// solacebrokerSetup installs the solacebroker build into its own plugin directory (wrapped in GNU
// time as the other providers) and returns its CLI configuration, or an error that says why the
// comparison is skipped.
func (b *bench) solacebrokerSetup() (string, error) {
	bin := b.o.aem.solacebroker
	if bin == "" || !executable(bin) {
		return "", fmt.Errorf("no terraform-provider-solacebroker build at %q (scripts/build-solacebroker.sh builds v1.3.0 from the Go module cache; or set -aem-solacebroker)", bin)
	}
	dir := filepath.Join(b.work, "solacebroker-plugins")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	plugin := filepath.Join(dir, "terraform-provider-solacebroker")
	if b.rss {
		script := fmt.Sprintf("#!/bin/sh\nexec %q -v -a -o \"$SAPMESSAGING_BENCH_RSS\" %q \"$@\"\n", b.o.timeCmd, bin)
		if err := os.WriteFile(plugin, []byte(script), 0o755); err != nil {
			return "", err
		}
	} else if err := os.Symlink(bin, plugin); err != nil {
		return "", err
	}
	rc := filepath.Join(b.work, "solacebroker.tfrc")
	return rc, os.WriteFile(rc, []byte(solacebrokerCLIConfig(dir)), 0o644)
}

// solacebrokerCLIConfig takes the solacebroker provider from dir.
func solacebrokerCLIConfig(dir string) string {
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/solaceproducts/solacebroker" = %q
    "registry.opentofu.org/solaceproducts/solacebroker" = %q
  }
  direct {}
}
`, dir, dir)
}

// routesText lists the routes of a command, most requests first: "GET …/queues 11, GET …/about/api 1".
func routesText(routes map[string]int64) string {
	type kv struct {
		k string
		v int64
	}
	var l []kv
	for k, v := range routes {
		if strings.Contains(k, "/SEMP/") {
			l = append(l, kv{strings.Replace(k, "/SEMP/v2/config/msgVpns/{vpn}", "…", 1), v})
		}
	}
	sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v || l[i].v == l[j].v && l[i].k < l[j].k })
	parts := make([]string, len(l))
	for i, x := range l {
		parts[i] = fmt.Sprintf("%s × %d", x.k, x.v)
	}
	return strings.Join(parts, ", ")
}

// renderAEM formats the section as markdown.
func renderAEM(o options, tfVersion string, r aemResult, rss bool) string {
	var sb strings.Builder
	n := o.aem.queues
	fmt.Fprintf(&sb, "Advanced Event Mesh: %d sapmessaging_aem_queue resources and the sapmessaging_aem_dead_message_queue they name (%d queues) on one broker, "+
		"%s latency per request, %s, parallelism %d, median of %d run(s). SEMP calls = requests to the broker's SEMP v2 API the emulator counted. "+
		"No-API provider = the same configuration against a provider with the same schemas that makes no API call. "+
		"solacebroker = the same queues through SolaceProducts/terraform-provider-solacebroker v1.3.0 (solacebroker_msg_vpn_queue), against the same emulator.\n\n",
		n, n+1, o.aem.latency, tfVersion, o.parallelism, o.aem.runs)
	sb.WriteString("| Provider | Command | SEMP calls | Wall time | Provider CPU | CPU / no-API provider | Provider peak RSS | SEMP requests |\n")
	sb.WriteString("|---|---|---:|---:|---:|---:|---:|---|\n")
	for _, c := range r.cells {
		semp, routes, ratio, cpu, mem := "–", "", "–", "n/a", "n/a"
		if c.provider != aemProviderNoAPI {
			semp, routes = fmt.Sprint(c.semp), routesText(c.routes)
		}
		if rss && c.cpu > 0 {
			cpu = seconds(c.cpu)
			if f, ok := r.cell(aemProviderNoAPI, c.op); ok && f.cpu > 0 && c.provider != aemProviderNoAPI {
				ratio = fmt.Sprintf("%.2f×", float64(c.cpu)/float64(f.cpu))
			}
		}
		if rss && c.rssKB > 0 {
			mem = fmt.Sprintf("%.0f MiB", float64(c.rssKB)/1024)
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", c.provider, c.op, semp, seconds(c.wall), cpu, ratio, mem, routes)
	}
	if r.solaceReason != "" {
		fmt.Fprintf(&sb, "\nsolacebroker skipped: %s.\n", r.solaceReason)
	}
	sb.WriteString("\n" + aemTargets(n, r, rss))
	return sb.String()
}

// aemTargets checks the section against issue 30: a refresh in at most 12 SEMP calls, the
// provider's CPU time within 1.15× of the no-API provider's for the refresh and the plan, peak RSS
// under 100 MB; against issue 41: the create's CPU within 1.15× and the plans' within 1.1×; and
// the comparison with solacebroker.
func aemTargets(n int, r aemResult, rss bool) string {
	var sb strings.Builder
	sb.WriteString("Targets:\n\n")
	if c, ok := r.cell(aemProviderMine, aemOpRefresh); ok {
		fmt.Fprintf(&sb, "- refresh of %d queues in at most %d SEMP calls: %d, %s\n", n+1, aemRefreshTarget, c.semp, mark(c.semp <= aemRefreshTarget))
	}
	for _, op := range []string{aemOpRefresh, aemOpPlan} {
		c, ok := r.cell(aemProviderMine, op)
		f, fok := r.cell(aemProviderNoAPI, op)
		if !ok || !fok || !rss || c.cpu <= 0 || f.cpu <= 0 {
			continue
		}
		ratio := float64(c.cpu) / float64(f.cpu)
		fmt.Fprintf(&sb, "- %s: provider CPU within %.2f× of the no-API provider: %s / %s = %.2f×, %s\n",
			op, aemCPUTarget, seconds(c.cpu), seconds(f.cpu), ratio, mark(ratio <= aemCPUTarget))
	}
	// Issue 41: the same targets as the Event Mesh side, the create within 1.15× and the plans
	// within 1.1×, against the no-API provider that never waits (the AEM section's only floor).
	for _, op := range []string{aemOpCreate, aemOpRefresh, aemOpPlan} {
		c, ok := r.cell(aemProviderMine, op)
		f, fok := r.cell(aemProviderNoAPI, op)
		if !ok || !fok || !rss || c.cpu <= 0 || f.cpu <= 0 {
			continue
		}
		target := 1.1
		if op == aemOpCreate {
			target = 1.15
		}
		ratio := float64(c.cpu) / float64(f.cpu)
		fmt.Fprintf(&sb, "- %s (issue 41): provider CPU within %.3g× of the no-API provider that never waits: %s / %s = %.2f×, %s\n",
			op, target, seconds(c.cpu), seconds(f.cpu), ratio, mark(ratio <= target))
	}
	if rss {
		var peak int64
		for _, c := range r.cells {
			if c.provider == aemProviderMine {
				peak = max(peak, c.rssKB)
			}
		}
		fmt.Fprintf(&sb, "- provider peak RSS under 100 MB at %d resources: %.0f MiB, %s\n", n+1, float64(peak)/1024, mark(peak > 0 && peak*1024 < 100e6))
	}
	for _, op := range []string{aemOpRefresh, aemOpPlan} {
		c, ok := r.cell(aemProviderMine, op)
		s, sok := r.cell(aemProviderSolace, op)
		if !ok || !sok {
			continue
		}
		line := fmt.Sprintf("- beside solacebroker, %s: %d SEMP calls against %d", op, c.semp, s.semp)
		if rss && c.cpu > 0 && s.cpu > 0 {
			line += fmt.Sprintf("; provider CPU %s against %s", seconds(c.cpu), seconds(s.cpu))
		}
		sb.WriteString(line + "\n")
	}
	if r.solaceReason != "" {
		sb.WriteString("- beside solacebroker: skipped (no build)\n")
	}
	return sb.String()
}

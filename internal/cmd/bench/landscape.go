package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The landscape section: SAP documents 250 queues per Event Mesh instance, so a large landscape
// is many instances in one configuration, one aliased provider configuration per instance. It
// runs one emulator per instance and times create, refresh, an update of every queue and a
// destroy of the whole configuration, against the no-API provider with the same resources
// (interleaved runs).

// landscapeOptions are the settings of the landscape section.
type landscapeOptions struct {
	enabled   bool
	instances int
	queues    int // per instance
	latency   time.Duration
	runs      int
}

// landscapeHCL is queues queues on each of instances aliased provider configurations; keys holds
// each instance's service key file, nil for the no-API provider (whose configuration has no
// attributes). The queues have force_destroy = true, as a landscape torn down at the end would,
// for both providers alike.
func landscapeHCL(instances, queues int, keys []string) string {
	var sb strings.Builder
	sb.WriteString(requiredProvidersHCL + `
variable "redeliveries" {
  type = number
}
`)
	for i := range instances {
		conn := ""
		if keys != nil {
			conn = fmt.Sprintf("\n  event_mesh = { service_key = file(%q) }", keys[i])
		}
		fmt.Fprintf(&sb, `
provider "sapmessaging" {
  alias = "i%d"%s
}

resource "sapmessaging_queue" "i%d" {
  provider             = sapmessaging.i%d
  count                = %d
  name                 = format("acme/crm/prod/bench/q%%04d", count.index)
  max_redelivery_count = var.redeliveries
  dead_message_queue   = "%s"
  force_destroy        = true
}
`, i, conn, i, i, queues, benchDMQ)
	}
	return sb.String()
}

// landscapeCell is the result of one command of the landscape.
type landscapeCell struct {
	op                    string
	wall, noAPIWall       time.Duration // medians
	providerCPU, noAPICPU time.Duration // medians, all provider processes of the command
	mgmtCalls             int64         // all instances, the most any run made
	perInstance           int64         // the most calls one instance got in any run
	bytes                 int64         // response bytes of all instances, the most any run made
	rssKB, noAPIRSSKB     int64         // the largest provider process of any run
	rssSumKB, noAPISumKB  int64         // the processes' peaks added up, the most of any run
	procs, noAPIProcs     int           // provider processes of the command, the most of any run
	ratioLo, ratioHi      float64       // the lowest and highest CPU ratio of one run's pair (pairedRatios)
}

// measureLandscape runs the landscape o.landscape.runs times and returns one cell per command.
// Each run interleaves the two providers command by command (the no-API provider's create, the
// provider's create, the no-API provider's plan, …; in even runs the provider goes first), so the
// two commands of a pair run minutes apart rather than a whole sequence apart: on a shared machine
// whose speed drifts over the quarter of an hour a run takes, the pair then sees the same machine.
func (b *bench) measureLandscape() ([]landscapeCell, error) {
	lo := b.o.landscape
	steps := destroySteps(b.o.parallelism)
	mine, noAPI := map[string][]sample{}, map[string][]sample{}
	for r := 1; r <= lo.runs; r++ {
		base := filepath.Join(b.work, fmt.Sprintf("landscape-%d", r))
		b.logf("landscape of %d instances × %d queues, run %d/%d: the provider against %d emulators and the provider without an API, command by command",
			lo.instances, lo.queues, r, lo.runs, lo.instances)
		var ems []*emulatorProc
		var cs *callServer
		stopAll := func() {
			emulators(ems).stop()
			if cs != nil {
				cs.stop()
			}
		}
		var keys []string
		for i := range lo.instances {
			dir := filepath.Join(base, "keys", strconv.Itoa(i))
			// Each instance holds its queues and the dead message queue they name, one more than
			// SAP's 250 at the largest size.
			em, err := b.startEmulator(dir, lo.latency, "-max-queues", strconv.Itoa(max(250, lo.queues+1)))
			if err != nil {
				stopAll()
				return nil, err
			}
			ems = append(ems, em)
			key := filepath.Join(dir, "event-mesh.json")
			if err := createQueue(key, benchDMQ); err != nil {
				stopAll()
				return nil, err
			}
			keys = append(keys, key)
		}
		cs, err := b.startNoAPICalls(lo.latency)
		if err != nil {
			stopAll()
			return nil, err
		}
		err = b.sideBySide(r, steps, []sideConfig{
			{name: "no-API provider", what: "landscape without an API", dir: filepath.Join(base, "noapi"), hcl: landscapeHCL(lo.instances, lo.queues, nil),
				rc: b.noAPIRC, env: b.noAPIEnv(lo.latency, cs), into: noAPI},
			{name: "provider", what: "landscape", dir: filepath.Join(base, "queues"), hcl: landscapeHCL(lo.instances, lo.queues, keys),
				rc: b.cliRC, ems: emulators(ems), into: mine},
		}, func(c sideConfig, op string, s sample) {
			if c.ems == nil {
				b.logf("landscape run %d, no-API provider, %s: wall %s, provider CPU %s, peak RSS %d KiB (%d processes, %d KiB)",
					r, op, seconds(s.wall), seconds(s.providerCPU), s.rssKB, s.procs, s.rssSumKB)
				return
			}
			b.logf("landscape run %d, provider, %s: %d management calls (at most %d per instance), %d bytes sent, wall %s, provider CPU %s, peak RSS %d KiB (%d processes, %d KiB)",
				r, op, s.mgmtCalls, s.perInstance, s.bytes, seconds(s.wall), seconds(s.providerCPU), s.rssKB, s.procs, s.rssSumKB)
		})
		stopAll()
		if err != nil {
			return nil, err
		}
	}
	return landscapeCells(steps, mine, noAPI), nil
}

// landscapeCells is one cell per command of steps from the samples of the runs.
func landscapeCells(steps []step, mine, noAPI map[string][]sample) []landscapeCell {
	var cells []landscapeCell
	for _, st := range steps {
		op := st.op
		c := landscapeCell{op: op, wall: median(mine[op]), noAPIWall: median(noAPI[op]),
			providerCPU: medianOf(mine[op], func(s sample) time.Duration { return s.providerCPU }),
			noAPICPU:    medianOf(noAPI[op], func(s sample) time.Duration { return s.providerCPU })}
		c.ratioLo, c.ratioHi = pairedRatios(mine[op], noAPI[op])
		for _, s := range mine[op] {
			c.mgmtCalls = max(c.mgmtCalls, s.mgmtCalls)
			c.perInstance = max(c.perInstance, s.perInstance)
			c.bytes = max(c.bytes, s.bytes)
			c.rssKB = max(c.rssKB, s.rssKB)
			c.rssSumKB = max(c.rssSumKB, s.rssSumKB)
			c.procs = max(c.procs, s.procs)
		}
		for _, s := range noAPI[op] {
			c.noAPIRSSKB = max(c.noAPIRSSKB, s.rssKB)
			c.noAPISumKB = max(c.noAPISumKB, s.rssSumKB)
			c.noAPIProcs = max(c.noAPIProcs, s.procs)
		}
		cells = append(cells, c)
	}
	return cells
}

// renderLandscape formats the landscape's results with its targets.
func renderLandscape(o options, tfVersion string, cells []landscapeCell, rss bool) string {
	lo := o.landscape
	var sb strings.Builder
	fmt.Fprintf(&sb, "Landscape: %d Event Mesh instances (one emulator each, latency %s) × %d queues = %d sapmessaging_queue resources, "+
		"one aliased provider configuration per instance, one configuration; %s, parallelism %d, median of %d run(s), the two providers' commands interleaved one by one, "+
		"against the no-API provider with the same resources. Calls and bytes are the emulators' (the most of any run); "+
		"provider CPU adds up the provider processes of a command (Terraform starts several per command, at least one per alias in each of its phases), and the CPU ratio "+
		"shows in brackets the lowest and highest ratio of one run's pair; peak RSS is the "+
		"largest provider process, then how many processes the command started and their peaks added up (more than they held at once: "+
		"not all run at once), for the provider and the no-API provider.\n\n",
		lo.instances, lo.latency, lo.queues, lo.instances*lo.queues, tfVersion, o.parallelism, lo.runs)
	switch {
	case o.noAPICall:
		sb.WriteString("The no-API provider makes one HTTP GET in each create, update and delete (the queues set force_destroy = true), and one per process for the list, to a server that waits the latency (-noapi-call).\n\n")
	case o.noAPIWait:
		sb.WriteString("The no-API provider waits the latency in each create, update and delete (the queues set force_destroy = true) as the provider waits for its one API call (-noapi-wait).\n\n")
	default:
		sb.WriteString("The no-API provider never waits (the plain floor, the floor of the targets).\n\n")
	}
	sb.WriteString("| Command | Mgmt API calls: all / most per instance | Bytes sent | Wall time | No-API wall | CPU: provider / no-API provider | CPU ratio | Peak RSS: provider (processes, sum) | Peak RSS: no-API (processes, sum) |\n")
	sb.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range cells {
		cpu, ratio, mem, noAPIMem := "n/a", "n/a", "n/a", "n/a"
		if rss && c.providerCPU > 0 && c.noAPICPU > 0 {
			cpu = seconds(c.providerCPU) + " / " + seconds(c.noAPICPU)
			ratio = fmt.Sprintf("%.2f×", float64(c.providerCPU)/float64(c.noAPICPU))
			if c.ratioHi > c.ratioLo && c.ratioLo > 0 {
				ratio += fmt.Sprintf(" (runs %.2f–%.2f)", c.ratioLo, c.ratioHi)
			}
		}
		if rss && c.rssKB > 0 {
			mem = fmt.Sprintf("%s (%d, %s)", mib(c.rssKB), c.procs, mib(c.rssSumKB))
		}
		if rss && c.noAPIRSSKB > 0 {
			noAPIMem = fmt.Sprintf("%s (%d, %s)", mib(c.noAPIRSSKB), c.noAPIProcs, mib(c.noAPISumKB))
		}
		fmt.Fprintf(&sb, "| %s | %d / %d | %s | %s | %s | %s | %s | %s | %s |\n",
			c.op, c.mgmtCalls, c.perInstance, byteSize(c.bytes), seconds(c.wall), seconds(c.noAPIWall), cpu, ratio, mem, noAPIMem)
	}
	sb.WriteString("\n" + landscapeTargets(lo.queues, cells, rss, floorName(o)))
	return sb.String()
}

// landscapeTargets checks the landscape against its targets: a refresh with 1 management API call
// per instance, a destroy (force_destroy = true) with at most N + 5 per instance, the provider's
// CPU time within cpuTarget of the no-API provider's for every command, and every provider process
// under 200 MB.
func landscapeTargets(queues int, cells []landscapeCell, rss bool, floor string) string {
	var sb strings.Builder
	sb.WriteString("Targets of the landscape:\n\n")
	var peakKB int64
	for _, c := range cells {
		peakKB = max(peakKB, c.rssKB)
		switch c.op {
		case opPlan:
			fmt.Fprintf(&sb, "- refresh with 1 management API call per instance: at most %d, %s\n", c.perInstance, mark(c.perInstance <= 1))
		case opDestroy:
			fmt.Fprintf(&sb, "- destroy (force_destroy = true) with at most N + 5 = %d management API calls per instance: at most %d, %s\n",
				queues+5, c.perInstance, mark(c.perInstance <= int64(queues+5)))
		case opCreate, opUpdate:
			fmt.Fprintf(&sb, "- %s with at most N + 2 = %d management API calls per instance: at most %d, %s\n",
				c.op, queues+2, c.perInstance, mark(c.perInstance <= int64(queues+2)))
		}
		if rss && c.providerCPU > 0 && c.noAPICPU > 0 {
			r := float64(c.providerCPU) / float64(c.noAPICPU)
			fmt.Fprintf(&sb, "- %s: provider CPU within %.3g× of %s: %s / %s = %.3f×, %s\n",
				c.op, cpuTarget(c.op), floor, seconds(c.providerCPU), seconds(c.noAPICPU), r, mark(r <= cpuTarget(c.op)))
		}
	}
	if rss {
		fmt.Fprintf(&sb, "- provider peak RSS under 200 MB (the largest provider process): %s, %s\n", mib(peakKB), mark(peakKB*1024 < 200e6))
	}
	return sb.String()
}

func mib(kb int64) string { return fmt.Sprintf("%.0f MiB", float64(kb)/1024) }

// byteSize formats n bytes in kB or MB.
func byteSize(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

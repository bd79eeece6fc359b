package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// ciOptions are the settings of the Cloud Integration section: flows × channels AMQP sender
// channels, one sapmessaging_amqp_sender each, against an emulator whose deploys take
// 2 × deployDelay (DEPLOYING, then STARTING), in each configuration of ciConfigs.
type ciOptions struct {
	enabled     bool
	flows       int
	channels    int
	deployDelay time.Duration
	latency     time.Duration
	parallelism []int
}

// deployTime is how long one deploy takes on the emulator: DEPLOYING, then STARTING.
func (c ciOptions) deployTime() time.Duration { return 2 * c.deployDelay }

// Emulator route labels of the calls the section counts.
const (
	routeDownload = "GET /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$value"
	routeUpload   = "PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)"
	routeSetParam = "PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$links/Configurations(ParameterKey)"
	routeDeploy   = "POST /api/v1/DeployIntegrationDesigntimeArtifact"
)

// ciConfig is how the section's configuration deploys the flows.
type ciConfig int

const (
	// ciPerChannel: every channel resource deploys its flow (deploy = true, the default).
	ciPerChannel ciConfig = iota
	// ciPerFlow: the channel resources only write (deploy = false) and one
	// sapmessaging_iflow_deployment per flow, triggered by the revisions of its channels, deploys it.
	ciPerFlow
)

// ciConfigs are the configurations the section measures, in order.
var ciConfigs = []ciConfig{ciPerChannel, ciPerFlow}

func (k ciConfig) String() string {
	if k == ciPerFlow {
		return "one deployment per flow"
	}
	return "per-channel deploy"
}

// ciCell is one command of the Cloud Integration section in one configuration at one parallelism.
type ciCell struct {
	config      ciConfig
	parallelism int
	op          string
	sample
}

func ciFlowID(i int) string { return fmt.Sprintf("BenchFlow%02d", i) }

func ciChannel(i int) string { return "AMQP_" + string(rune('A'+i)) }

// ciFlowZip is flow i with the given number of literal AMQP sender channels AMQP_A, AMQP_B, ...
func ciFlowZip(i, channels int) []byte {
	var senders []iflowbuild.Sender
	for c := 0; c < channels; c++ {
		props := iflowbuild.DefaultSenderProperties(fmt.Sprintf("acme/crm/prod/bench/f%02d/%c", i, 'a'+c))
		senders = append(senders, iflowbuild.Sender{ID: fmt.Sprintf("MessageFlow_%d", c+1), Name: ciChannel(c), Properties: props})
	}
	return iflowbuild.Build(iflowbuild.Options{Name: ciFlowID(i), Senders: senders, ExceptionEnds: [][]string{{"error"}}})
}

// ciHCL is one sapmessaging_amqp_sender per channel of every flow, whose retries are var.retries;
// with ciPerFlow they do not deploy, and one sapmessaging_iflow_deployment per flow does.
func ciHCL(flows, channels int, config ciConfig) string {
	deploy, deployments := "", ""
	if config == ciPerFlow {
		deploy = "  deploy                  = false\n"
		deployments = `
resource "sapmessaging_iflow_deployment" "flow" {
  for_each = toset([for k, s in sapmessaging_amqp_sender.c : s.iflow_id])
  iflow_id = each.key
  triggers = { for k, s in sapmessaging_amqp_sender.c : k => s.revision if s.iflow_id == each.key }
}
`
	}
	names := make([]string, channels)
	for c := range names {
		names[c] = fmt.Sprintf("%q", ciChannel(c))
	}
	return fmt.Sprintf(requiredProvidersHCL+`
provider "sapmessaging" {}

variable "retries" {
  type = number
}

locals {
  channels = merge([
    for f in range(%d) : {
      for c in [%s] : "${format("BenchFlow%%02d", f)},${c}" => { flow = format("BenchFlow%%02d", f), channel = c }
    }
  ]...)
}

resource "sapmessaging_amqp_sender" "c" {
  for_each                = local.channels
  iflow_id                = each.value.flow
  channel                 = each.value.channel
  max_number_of_retries   = var.retries
  max_prefetched_messages = 1
  concurrent_processes    = 1
%s}
%s`, flows, strings.Join(names, ", "), deploy, deployments)
}

// measureCI runs create, plan and update of the Cloud Integration configuration once per parallelism,
// each against a new emulator holding the flows as built.
func (b *bench) measureCI() ([]ciCell, error) {
	c := b.o.ci
	var cells []ciCell
	for _, config := range ciConfigs {
		for _, par := range c.parallelism {
			cs, err := b.measureCIOnce(config, par)
			if err != nil {
				return nil, err
			}
			cells = append(cells, cs...)
		}
	}
	return cells, nil
}

// measureCIOnce runs create, plan and update of one configuration at one parallelism against a
// new emulator holding the flows as built.
func (b *bench) measureCIOnce(config ciConfig, par int) ([]ciCell, error) {
	c := b.o.ci
	b.logf("Cloud Integration (%s): %d flows × %d channels, deploy delay %s, latency %s, parallelism %d", config, c.flows, c.channels, c.deployDelay, c.latency, par)
	base := filepath.Join(b.work, fmt.Sprintf("ci-%d-%d", config, par))
	keys := filepath.Join(base, "keys")
	em, err := b.startEmulator(keys, c.latency, "-deploy-delay", c.deployDelay.String())
	if err != nil {
		return nil, err
	}
	for i := 0; i < c.flows; i++ {
		if err := em.putIFlow(ciFlowID(i), ciFlowZip(i, c.channels)); err != nil {
			em.stop()
			return nil, err
		}
	}
	steps := standardSteps(par, "retries", 1, 2)
	ss, err := b.runSteps(filepath.Join(base, "tf"), ciHCL(c.flows, c.channels, config), b.cliRC,
		[]string{"SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY=" + filepath.Join(keys, "cloud-integration.json")}, emulators{em}, steps)
	em.stop()
	if err != nil {
		return nil, fmt.Errorf("the Cloud Integration section (%s) at parallelism %d: %w", config, par, err)
	}
	var cells []ciCell
	for _, st := range steps {
		cells = append(cells, ciCell{config: config, parallelism: par, op: st.op, sample: ss[st.op]})
	}
	return cells, nil
}

// putIFlow creates or replaces an integration flow through the emulator's control API.
func (e *emulatorProc) putIFlow(id string, content []byte) error {
	body, err := json.Marshal(map[string]string{"name": id, "packageId": "Bench", "content": base64.StdEncoding.EncodeToString(content)})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPut, e.url+"/emulator/v1/iflows/"+id, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("creating integration flow %s on the emulator: %s", id, resp.Status)
	}
	return nil
}

// ciOpLabel names the commands of the Cloud Integration section.
func ciOpLabel(op string) string {
	switch op {
	case opCreate:
		return "apply (create)"
	case opPlan:
		return "plan (refresh, no changes)"
	default:
		return "apply (update every channel)"
	}
}

// renderCI formats the Cloud Integration section and checks its targets.
func renderCI(o options, tfVersion string, cells []ciCell, rss bool) string {
	c := o.ci
	var sb strings.Builder
	fmt.Fprintf(&sb, "Cloud Integration: %s, %d flows × %d AMQP sender channels (one `sapmessaging_amqp_sender` each, literal settings), "+
		"emulator deploy delay %s (DEPLOYING %s, then STARTING %s: one deploy takes %s), latency %s, one run per configuration and parallelism. "+
		"Configurations: *per-channel deploy*, every channel resource deploys its flow (`deploy = true`); *one deployment per flow*, "+
		"the channel resources set `deploy = false` and one `sapmessaging_iflow_deployment` per flow, triggered by its channels' `revision`, deploys it.\n\n",
		tfVersion, c.flows, c.channels, c.deployDelay, c.deployDelay, c.deployDelay, seconds(c.deployTime()), c.latency)
	sb.WriteString("| Configuration | Parallelism | Command | CI API calls | Content downloads | Content uploads | Parameter updates | Deploys | Wall time | Wall / one deploy | Provider CPU |\n")
	sb.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, x := range cells {
		cpu := "n/a"
		if rss && x.providerCPU > 0 {
			cpu = seconds(x.providerCPU)
		}
		fmt.Fprintf(&sb, "| %s | %d | %s | %d | %d | %d | %d | %d | %s | %.2f× | %s |\n",
			x.config, x.parallelism, ciOpLabel(x.op), x.ciCalls, x.routes[routeDownload], x.routes[routeUpload], x.routes[routeSetParam], x.routes[routeDeploy],
			seconds(x.wall), ciRatio(c, x), cpu)
	}
	sb.WriteString("\n" + ciTargets(c, cells))
	return sb.String()
}

func ciRatio(c ciOptions, x ciCell) float64 {
	if c.deployTime() == 0 {
		return 0
	}
	return float64(x.wall) / float64(c.deployTime())
}

// ciTargets checks the Cloud Integration section against its targets: at most one download per flow
// per plan, at most one deploy per flow per apply, and an apply within 1.5× of one deploy's time.
func ciTargets(c ciOptions, cells []ciCell) string {
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**missed**"
	}
	var sb strings.Builder
	sb.WriteString("Cloud Integration targets:\n\n")
	for _, x := range cells {
		switch x.op {
		case opPlan:
			n := x.routes[routeDownload]
			fmt.Fprintf(&sb, "- %s, parallelism %d, plan: at most %d content downloads (one per flow): %d, %s\n", x.config, x.parallelism, c.flows, n, mark(n <= int64(c.flows)))
		default:
			n := x.routes[routeDeploy]
			r := ciRatio(c, x)
			fmt.Fprintf(&sb, "- %s, parallelism %d, %s: at most %d deploys (one per flow): %d, %s; wall time within 1.5× of one deploy (%s): %.2f×, %s\n",
				x.config, x.parallelism, ciOpLabel(x.op), c.flows, n, mark(n <= int64(c.flows)), seconds(c.deployTime()), r, mark(r <= 1.5))
		}
	}
	return sb.String()
}

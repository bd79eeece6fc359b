package acctest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// TestAccProtoV6ProviderFactories runs the provider in process for acceptance tests.
var TestAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"sapmessaging": providerserver.NewProtocol6WithError(provider.NewWithHTTPClient("test", RecordingHTTPClient)()),
}

// ParallelTest runs the steps of an acceptance test with the provider in process, in parallel with other tests.
func ParallelTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: TestAccProtoV6ProviderFactories, Steps: steps})
}

// IdentityTest runs the steps of a test of resource identities (an import block by identity) with the provider in
// process, in parallel with other tests; Terraform before 1.12, which has no resource identities, skips it.
func IdentityTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	parallelTestSkipping(t, tfversion.SkipBelow(tfversion.Version1_12_0), steps)
}

// parallelTestSkipping runs steps as ParallelTest does, unless the Terraform version check skip skips them.
func parallelTestSkipping(t *testing.T, skip tfversion.TerraformVersionCheck, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skip},
		ProtoV6ProviderFactories: TestAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// TestEnv is one emulator with the Terraform provider block that points at it.
type TestEnv struct {
	Srv *emulatortest.Emulator
	// ProviderBlock configures the provider with the emulator's service keys.
	ProviderBlock string
}

// NewTestEnv starts an emulator on a random loopback port for one test.
func NewTestEnv(t *testing.T) *TestEnv {
	t.Helper()
	srv := emulatortest.Start(t, emulator.Options{})
	return &TestEnv{
		Srv: srv,
		ProviderBlock: fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh        = { service_key = %q }
  cloud_integration = { service_key = %q }
  max_retries       = 3
}
`, string(srv.EventMeshKey()), string(srv.CloudIntegrationKey())),
	}
}

// AEMProviderBlock configures the provider with the emulator's service keys and its Advanced Event Mesh
// broker service (with args added inside the block).
func (e *TestEnv) AEMProviderBlock(args string) string {
	return fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh        = { service_key = %q }
  cloud_integration = { service_key = %q }
%s
  max_retries = 3
%s
}
`, string(e.Srv.EventMeshKey()), string(e.Srv.CloudIntegrationKey()), e.AEMArgument(), args)
}

// AEMArgument is the provider's advanced_event_mesh argument for the emulator's broker service, as
// NewCLIWork's providerArgs take it.
func (e *TestEnv) AEMArgument() string {
	c := e.Srv.AdvancedEventMeshCredentials()
	return fmt.Sprintf(`  advanced_event_mesh = {
    semp_url     = %q
    msg_vpn_name = %q
    username     = %q
    password     = %q
  }`, c.SEMPURL, c.MsgVpnName, c.Username, c.Password)
}

// AEMWrongPasswordProvider configures the provider with the emulator's Advanced Event Mesh broker service and a
// password the broker refuses, without retries.
func (e *TestEnv) AEMWrongPasswordProvider() string {
	c := e.Srv.AdvancedEventMeshCredentials()
	return fmt.Sprintf(`
provider "sapmessaging" {
  advanced_event_mesh = {
    semp_url     = %q
    msg_vpn_name = %q
    username     = %q
    password     = "wrong"
  }
  max_retries = 0
}
`, c.SEMPURL, c.MsgVpnName, c.Username)
}

// AEMConfig joins the provider block with the AEM broker and the given HCL.
func (e *TestEnv) AEMConfig(hcl string) string { return e.AEMProviderBlock("") + hcl }

// aem returns a SEMP v2 client that talks to the emulator's broker out of band, as the cloud console would.
func (e *TestEnv) AEM(t *testing.T) *aem.Client {
	t.Helper()
	c := e.Srv.AdvancedEventMeshCredentials()
	cl, err := aem.New(emulatortest.Client(t, aem.HTTPConfig(c.SEMPURL, c.Username, c.Password)), c.MsgVpnName)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// Config joins the provider block and the given HCL.
func (e *TestEnv) Config(hcl string) string {
	return e.ProviderBlock + hcl
}

// Configf joins the provider block and the formatted HCL.
func (e *TestEnv) Configf(format string, args ...any) string {
	return e.ProviderBlock + fmt.Sprintf(format, args...)
}

// EventMesh returns a management client that talks to the emulator out of band, as the cockpit would.
func (e *TestEnv) EventMesh(t *testing.T) *eventmesh.Client {
	t.Helper()
	return eventmesh.New(e.Srv.ManagementClient(t))
}

// Messaging returns a messaging REST client for publishing test messages.
func (e *TestEnv) Messaging(t *testing.T) *eventmesh.Messaging {
	t.Helper()
	return eventmesh.NewMessaging(e.Srv.MessagingClient(t))
}

// testClients records the HTTP clients the provider creates, so that a test
// can read their retry counters, and lets a test tune the clients of its own
// emulator (selected by URL prefix) without touching other tests.
var testClients = struct {
	sync.Mutex
	clients []*httpx.Client
	tune    map[string]func(*httpx.Config)
}{tune: map[string]func(*httpx.Config){}}

// RecordingHTTPClient is the provider's HTTP client constructor in tests: it applies the
// tuning registered for the client's emulator and records the client.
func RecordingHTTPClient(cfg httpx.Config) (*httpx.Client, error) {
	testClients.Lock()
	for prefix, tune := range testClients.tune {
		if strings.HasPrefix(cfg.BaseURL, prefix) {
			tune(&cfg)
		}
	}
	testClients.Unlock()
	c, err := httpx.New(cfg)
	if err == nil {
		testClients.Lock()
		testClients.clients = append(testClients.clients, c)
		testClients.Unlock()
	}
	return c, err
}

// TuneClients changes the configuration of every HTTP client the provider creates for this emulator.
func (e *TestEnv) TuneClients(t *testing.T, tune func(*httpx.Config)) {
	t.Helper()
	prefix := e.Srv.URL()
	testClients.Lock()
	testClients.tune[prefix] = tune
	testClients.Unlock()
	t.Cleanup(func() {
		testClients.Lock()
		delete(testClients.tune, prefix)
		testClients.Unlock()
	})
}

// ClientStats sums the counters of the provider's HTTP clients that talk to this emulator.
func (e *TestEnv) ClientStats() httpx.Stats {
	testClients.Lock()
	defer testClients.Unlock()
	var sum httpx.Stats
	for _, c := range testClients.clients {
		if strings.HasPrefix(c.BaseURL(), e.Srv.URL()) {
			st := c.Stats()
			sum.Requests += st.Requests
			sum.Retries += st.Retries
			sum.TokenFetches += st.TokenFetches
			sum.TokenRequests += st.TokenRequests
		}
	}
	return sum
}

// ProviderOf is a provider block for the emulator with the services and arguments of lines, one a line: a service
// ("event_mesh", "cloud_integration" or "advanced_event_mesh") is connected with the emulator's credentials, any other
// line (max_retries = 0) is written as it is. A service not named is not configured.
func (e *TestEnv) ProviderOf(lines ...string) string {
	var b strings.Builder
	b.WriteString("\nprovider \"sapmessaging\" {\n")
	for _, line := range lines {
		switch line {
		case "event_mesh":
			line = fmt.Sprintf("event_mesh = { service_key = %q }", string(e.Srv.EventMeshKey()))
		case "cloud_integration":
			line = fmt.Sprintf("cloud_integration = { service_key = %q }", string(e.Srv.CloudIntegrationKey()))
		case "advanced_event_mesh":
			c := e.Srv.AdvancedEventMeshCredentials()
			line = fmt.Sprintf("advanced_event_mesh = { semp_url = %q, msg_vpn_name = %q, username = %q, password = %q }",
				c.SEMPURL, c.MsgVpnName, c.Username, c.Password)
		}
		fmt.Fprintf(&b, "  %s\n", line)
	}
	b.WriteString("}\n")
	return b.String()
}

// ProviderWith is a provider block for the emulator with extra provider arguments.
func (e *TestEnv) ProviderWith(args string) string {
	return fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh        = { service_key = %q }
  cloud_integration = { service_key = %q }
%s
}
`, string(e.Srv.EventMeshKey()), string(e.Srv.CloudIntegrationKey()), args)
}

// TerraformCLI returns the Terraform CLI the acceptance tests use, skipping the test without TF_ACC.
func TerraformCLI(t *testing.T) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 to run it")
	}
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("no terraform on PATH and TF_ACC_TERRAFORM_PATH is not set")
	}
	return p
}

// BuildProvider builds the provider binary with go build into dir.
func BuildProvider(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "terraform-provider-sapmessaging"), ".")
	cmd.Dir = RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of the provider: %v\n%s", err, out)
	}
}

// CLIRun is one Terraform command of a test, with its own log file.
type CLIRun struct {
	ExitCode int
	Output   string // stdout and stderr
	Log      string // TF_LOG_PATH contents
}

// RunTerraform runs the CLI in dir with TF_LOG=trace and the dev_overrides configuration cliConfig.
func RunTerraform(t *testing.T, tf, dir, cliConfig string, args ...string) CLIRun {
	t.Helper()
	return RunTerraformEnv(t, tf, dir, cliConfig, nil, args...)
}

// RunTerraformEnv is runTerraform with extra environment variables (KEY=VALUE), which win over the defaults.
func RunTerraformEnv(t *testing.T, tf, dir, cliConfig string, env []string, args ...string) CLIRun {
	t.Helper()
	logFile := filepath.Join(t.TempDir(), "terraform.log")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tf, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+cliConfig,
		"TF_LOG=trace",
		"TF_LOG_PATH="+logFile,
		"TF_IN_AUTOMATION=1",
		"CHECKPOINT_DISABLE=1",
		"SAPMESSAGING_EVENT_MESH_SERVICE_KEY=",
		"SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY=",
	)
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	run := CLIRun{Output: out.String()}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		run.ExitCode = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatalf("reading the log of terraform %s: %v", strings.Join(args, " "), err)
	}
	run.Log = string(b)
	return run
}

func WriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// WriteCLIConfig writes dir/cli.tfrc, a Terraform CLI configuration that takes the provider
// from the binary in plugins (dev_overrides), and returns its path.
func WriteCLIConfig(t *testing.T, dir, plugins string) string {
	t.Helper()
	cliConfig := filepath.Join(dir, "cli.tfrc")
	WriteFile(t, cliConfig, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/sapmessaging/sapmessaging" = %q
    "registry.opentofu.org/sapmessaging/sapmessaging" = %q
  }
  direct {}
}
`, plugins, plugins))
	return cliConfig
}

// RequiredProviders is the terraform block of a configuration that the Terraform CLI runs
// with the provider from writeCLIConfig.
const RequiredProviders = `
terraform {
  required_providers {
    sapmessaging = { source = "sapmessaging/sapmessaging" }
  }
}
`

// RepoRoot is the repository's top directory: the nearest directory above the test's working
// directory (its package directory) that holds go.mod, so that a test finds examples/, docs/ and
// templates/ at any depth of the package tree.
func RepoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			panic("no go.mod above " + dir)
		}
	}
}

package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// testCA signs the HTTPS token endpoint of every emulator with certificate keys in this
// package's tests. The provider runs in the test process and trusts it as a user's provider
// would trust any CA: through the system roots, here SSL_CERT_FILE, set before anything in
// the process reads them.
var testCA *emulator.CA

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	ca, err := emulator.NewCA()
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating the test CA:", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "sapmessaging-ca")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()
	file := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(file, ca.CertPEM(), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.Setenv("SSL_CERT_FILE", file); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	testCA = ca
	return m.Run()
}

// newCertEnv starts an emulator whose service keys are certificate keys of keyType.
func newCertEnv(t *testing.T, keyType emulator.KeyType, ciExtra string) *acctest.TestEnv {
	t.Helper()
	srv := emulatortest.Start(t, emulator.Options{KeyType: keyType, CA: testCA})
	return &acctest.TestEnv{Srv: srv, ProviderBlock: fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh        = { service_key = %q }
  cloud_integration = { service_key = %q%s }
  max_retries       = 3
}
`, string(srv.EventMeshKey()), string(srv.CloudIntegrationKey()), ciExtra)}
}

// certHCL is a queue with its dead message queue and an AMQP sender reading from it.
var certHCL = acctest.QueueHCL(5) + `
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id                   = "OrdersInbound"
  max_number_of_retries      = 1
  max_prefetched_messages    = 1
  queue_max_redelivery_count = sapmessaging_queue.orders.max_redelivery_count
  max_total_attempts         = 20
}
`

// certSteps applies a queue and an AMQP sender through certificate keys, then re-plans empty.
func certSteps(t *testing.T, env *acctest.TestEnv) resource.TestCase {
	t.Helper()
	env.AddFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil, []string{"error"})
	return resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.Config(certHCL),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt("sapmessaging_queue.orders", "max_redelivery_count", 5),
				acctest.ExpectInt("sapmessaging_amqp_sender.orders", "max_number_of_retries", 1),
			},
			Check: resource.ComposeTestCheckFunc(
				acctest.CheckEmulator(func() error {
					if q, ok := env.Srv.Queue("acme/crm/prod/orders"); !ok || q.MaxRedeliveryCount != 5 {
						return fmt.Errorf("the queue on Event Mesh: %v %+v", ok, q)
					}
					if env.Srv.Stats().TokensIssued == 0 {
						return fmt.Errorf("no token was issued")
					}
					return nil
				}),
				acctest.CheckSenderProperty(env, "maxRetries", "1"),
			),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		}},
	}
}

// Service keys of type Certificate (Event Mesh x509 binding, Cloud Integration "Certificate"):
// the provider fetches its tokens with mutual TLS.
func TestAccCertificateKeys_certificate(t *testing.T) {
	env := newCertEnv(t, emulator.KeyCertificate, "")
	resource.ParallelTest(t, certSteps(t, env))
}

// Cloud Integration "External Certificate": the private key comes from private_key, as a file path.
func TestAccCertificateKeys_externalCertificateAttribute(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cloud-integration-key.pem")
	env := newCertEnv(t, emulator.KeyExternalCertificate, fmt.Sprintf(", private_key = %q", file))
	if err := os.WriteFile(file, env.Srv.CloudIntegrationPrivateKey(), 0o600); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, certSteps(t, env))
}

// Cloud Integration "External Certificate": the private key comes from the environment, as PEM
// text; without it the provider says where to put it.
func TestAccCertificateKeys_externalCertificateEnvironment(t *testing.T) {
	env := newCertEnv(t, emulator.KeyExternalCertificate, "")
	missing := certSteps(t, env)
	missing.Steps = []resource.TestStep{{
		Config:      env.Config(certHCL),
		ExpectError: acctest.Wrapped(`Missing Cloud Integration Private Key.*External Certificate.*private_key.*` + framework.EnvCloudIntegrationPrivateKey),
	}}
	t.Setenv(framework.EnvCloudIntegrationPrivateKey, "")
	resource.Test(t, missing)

	env2 := newCertEnv(t, emulator.KeyExternalCertificate, "")
	t.Setenv(framework.EnvCloudIntegrationPrivateKey, string(env2.Srv.CloudIntegrationPrivateKey()))
	resource.Test(t, certSteps(t, env2))
}

// The private keys of certificate service keys never reach a log, an output or the state: the
// Event Mesh key inside its service key, and the External Certificate key given as PEM text.
func TestAccSecrets_certificateKeysNeverLogged(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv, work, keys, cliConfig := secretsWork(t, emulator.Options{KeyType: emulator.KeyExternalCertificate, CA: testCA})
	em := srv.EventMesh
	dir := filepath.Join(work, "main")
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.RequiredProviders+fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh        = { service_key = file(%q) }
  cloud_integration = {
    service_key = file(%q)
    private_key = file(%q)
  }
}
`, filepath.Join(keys, emulator.EventMeshKeyFile), filepath.Join(keys, emulator.CloudIntegrationKeyFile),
		filepath.Join(keys, emulator.CloudIntegrationPrivateKeyFile))+certHCL)
	caEnv := []string{"SSL_CERT_FILE=" + filepath.Join(keys, emulator.CAFile)}
	var runs []acctest.CLIRun
	for _, args := range [][]string{
		{"apply", "-auto-approve", "-input=false", "-no-color"},
		{"plan", "-detailed-exitcode", "-input=false", "-no-color"},
	} {
		r := acctest.RunTerraformEnv(t, tf, dir, cliConfig, caEnv, args...)
		if r.ExitCode != 0 {
			t.Fatalf("terraform %s: exit %d:\n%s", args[0], r.ExitCode, r.Output)
		}
		runs = append(runs, r)
	}
	// The base64 body lines of each PEM key: any of them in a text is a leak.
	reportLeaks(t, runTexts(t, dir, []string{"run 0", "run 1"}, runs), map[string][]string{
		"Event Mesh private key":        pemBody(em.Key),
		"Event Mesh messaging key":      pemBody(em.MessagingKey),
		"Cloud Integration private key": pemBody(string(srv.CloudIntegrationPrivateKey())),
	})
	if srv.Stats().TokensIssued == 0 || !strings.Contains(runs[0].Log, "SAP API request") {
		t.Errorf("the apply fetched no token or its log shows no provider requests")
	}
}

// pemBody returns the base64 lines of a PEM block.
func pemBody(p string) []string {
	var out []string
	for _, line := range strings.Split(p, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "-----") {
			out = append(out, line)
		}
	}
	return out
}

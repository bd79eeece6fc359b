package provider_test

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// secretForms returns every form in which a credential could leak: the value, its URL-encoded
// form, its parts, and the Basic Authorization value built with it.
func secretForms(id, secret string) map[string]string {
	forms := map[string]string{
		"client secret":                 secret,
		"URL-encoded client secret":     url.QueryEscape(secret),
		"Basic Authorization value":     base64.StdEncoding.EncodeToString([]byte(id + ":" + secret)),
		"encoded Basic Authorization":   base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id) + ":" + url.QueryEscape(secret))),
		"Basic Authorization (URL-enc)": base64.URLEncoding.EncodeToString([]byte(url.QueryEscape(id) + ":" + url.QueryEscape(secret))),
	}
	for i, part := range strings.FieldsFunc(secret, func(r rune) bool { return r == '$' || r == '-' || r == '=' }) {
		if len(part) >= 12 {
			forms[fmt.Sprintf("client secret part %d", i)] = part
		}
	}
	return forms
}

// eventMeshClientHCL is a provider block with the Event Mesh management connection given by its
// URLs and client credentials, and the lines of extra.
func eventMeshClientHCL(managementURL, tokenURL, clientID, clientSecret, extra string) string {
	return fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh = {
    management_url = %q
    token_url      = %q
    client_id      = %q
    client_secret  = %q
  }
%s}
`, managementURL, tokenURL, clientID, clientSecret, extra)
}

// secretsWork starts an emulator with opts holding the flow OrdersInbound, and writes its service
// keys and a CLI configuration for the provider built from this tree into a new directory; it
// returns the emulator, the directory, the keys' directory and the CLI configuration.
func secretsWork(t *testing.T, opts emulator.Options) (srv *emulatortest.Emulator, work, keys, cliConfig string) {
	t.Helper()
	work = t.TempDir()
	plugins := filepath.Join(work, "plugins")
	acctest.BuildProvider(t, plugins)
	srv = emulatortest.Start(t, opts)
	env := &acctest.TestEnv{Srv: srv}
	env.AddFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil, []string{"error"})
	keys = filepath.Join(work, "keys")
	if err := srv.WriteKeys(keys); err != nil {
		t.Fatal(err)
	}
	return srv, work, keys, acctest.WriteCLIConfig(t, work, plugins)
}

// runTexts are the texts a secret must not reach: the state in dir, and the log and the output of
// each run (named by names).
func runTexts(t *testing.T, dir string, names []string, runs []acctest.CLIRun) map[string]string {
	t.Helper()
	state := acctest.ReadFile(t, filepath.Join(dir, "terraform.tfstate"))
	texts := map[string]string{"state": string(state)}
	for i, r := range runs {
		texts[names[i]+" log"] = r.Log
		texts[names[i]+" output"] = r.Output
	}
	return texts
}

// reportLeaks fails the test for each text (by where it comes from) that holds a secret: any of
// the strings of one (by what it is).
func reportLeaks(t *testing.T, texts map[string]string, secrets map[string][]string) {
	t.Helper()
	for where, text := range texts {
		for what, forms := range secrets {
			for _, form := range forms {
				if strings.Contains(text, form) {
					t.Errorf("the %s contains the %s", where, what)
					break
				}
			}
		}
	}
}

// A real terraform apply with TF_LOG=trace, through a failing request, a token expiry, a CSRF
// fetch, a successful apply and a token refused for a wrong secret: no client secret, access
// token or Authorization header value shows up in any log, output or state.
func TestAccSecrets_neverLogged(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv, work, keys, cliConfig := secretsWork(t, emulator.Options{RequireCSRF: true})
	em := srv.EventMesh
	ci := srv.CloudIntegration

	dir := filepath.Join(work, "main")
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.RequiredProviders+fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh        = { service_key = file(%q) }
  cloud_integration = { service_key = file(%q) }
  max_retries       = 1
}
`, filepath.Join(keys, "event-mesh.json"), filepath.Join(keys, "cloud-integration.json"))+acctest.QueueHCL(3)+`
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = sapmessaging_queue.orders.name
  topic_pattern = "acme/crm/prod/ce/orders/*"
}
`+acctest.SenderHCL(""))

	// A wrong secret that contains the right one, so that a leak of either is caught.
	wrongDir := filepath.Join(work, "wrong")
	acctest.WriteFile(t, filepath.Join(wrongDir, "main.tf"), acctest.RequiredProviders+
		eventMeshClientHCL(em.ManagementURL, em.TokenURL, em.ClientID, em.ClientSecret+"-revoked", "  max_retries = 0\n")+fmt.Sprintf(`
data "sapmessaging_queue" "orders" {
  name = %q
}
`, acctest.TestQueue))

	var runs []acctest.CLIRun
	names := []string{}
	record := func(name string, r acctest.CLIRun) acctest.CLIRun {
		runs, names = append(runs, r), append(names, name)
		return r
	}

	// One request at a time, so that the faults hit one call: its token has expired (401, a new
	// token, a repeat), then it fails twice with 500, which uses up max_retries = 1.
	srv.InjectNext(emulator.FaultTokenExpiry, emulator.Fault500, emulator.Fault500)
	failed := record("failing apply", acctest.RunTerraform(t, tf, dir, cliConfig, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=1"))
	if failed.ExitCode == 0 || !strings.Contains(failed.Output, "500 Internal Server Error") {
		t.Fatalf("the apply with injected faults did not fail with the 500 (exit %d):\n%s", failed.ExitCode, failed.Output)
	}
	if st := srv.Stats(); st.Statuses[401] == 0 || st.Faults[emulator.FaultTokenExpiry] != 1 {
		t.Fatalf("the token expiry was not exercised: %+v", st)
	}
	if r := record("apply", acctest.RunTerraform(t, tf, dir, cliConfig, "apply", "-auto-approve", "-input=false", "-no-color")); r.ExitCode != 0 {
		t.Fatalf("apply failed (exit %d):\n%s", r.ExitCode, r.Output)
	}
	if r := record("plan", acctest.RunTerraform(t, tf, dir, cliConfig, "plan", "-detailed-exitcode", "-input=false", "-no-color")); r.ExitCode != 0 {
		t.Fatalf("plan after apply: exit %d, want 0 (no changes):\n%s", r.ExitCode, r.Output)
	}
	wrong := record("wrong secret", acctest.RunTerraform(t, tf, wrongDir, cliConfig, "plan", "-input=false", "-no-color"))
	// Terraform wraps diagnostics at any space.
	if wrong.ExitCode == 0 || !strings.Contains(strings.Join(strings.Fields(wrong.Output), " "), "client secret") {
		t.Fatalf("the plan with a wrong client secret did not fail with a hint at the secret (exit %d):\n%s", wrong.ExitCode, wrong.Output)
	}
	if st := srv.Stats(); st.Statuses[403] == 0 {
		t.Fatalf("no write was asked for a CSRF token, so the CSRF path was not exercised: %+v", st.Statuses)
	}
	t.Logf("the failing apply said:\n%s", failed.Output)

	secrets := map[string][]string{}
	for label, v := range secretForms(em.ClientID, em.ClientSecret) {
		secrets["Event Mesh management "+label] = []string{v}
	}
	for label, v := range secretForms(em.MessagingClientID, em.MessagingClientSecret) {
		secrets["Event Mesh messaging "+label] = []string{v}
	}
	for label, v := range secretForms(ci.ClientID, ci.ClientSecret) {
		secrets["Cloud Integration "+label] = []string{v}
	}
	tokens := srv.IssuedTokens()
	if len(tokens) < 3 {
		t.Fatalf("only %d access tokens were issued; the test must see the tokens of both APIs and a refreshed one", len(tokens))
	}
	for i, tok := range tokens {
		secrets[fmt.Sprintf("access token %d", i)] = []string{tok}
	}
	var logBytes int
	for _, r := range runs {
		logBytes += len(r.Log)
	}
	reportLeaks(t, runTexts(t, dir, names, runs), secrets)
	// The logs are real trace logs of the provider: they show its requests.
	if !strings.Contains(runs[1].Log, "SAP API request") || !strings.Contains(runs[1].Log, "/queues/") {
		t.Errorf("the apply log shows no provider requests; is TF_LOG=trace reaching the provider?")
	}
	t.Logf("checked %d secret forms (%d access tokens) against %d KiB of trace logs, the outputs and the state",
		len(secrets), len(tokens), logBytes/1024)
}

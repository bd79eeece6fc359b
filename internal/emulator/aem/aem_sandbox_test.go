package aem_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// `make sandbox` (scripts/sandbox.sh) prints the exports of the four SAPMESSAGING_AEM_ variables; run as
// printed against the key file the emulator writes, they set the broker's credentials.
func TestSandboxPrintsAEMVariables(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile(filepath.Join("..", "..", "..", "scripts", "sandbox.sh"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var exports []string
	for _, line := range strings.Split(string(script), "\n") {
		if strings.Contains(line, "export SAPMESSAGING_AEM_") {
			// As the heredoc prints it: ${dir} expanded, \$ a plain $.
			line = strings.ReplaceAll(line, "${dir}", dir)
			exports = append(exports, strings.ReplaceAll(line, `\$`, "$"))
		}
	}
	if len(exports) != 4 {
		t.Fatalf("sandbox.sh prints %d SAPMESSAGING_AEM_ exports, want 4", len(exports))
	}
	s := emulator.New(emulator.Options{})
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.WriteKeys(filepath.Join(dir, "keys")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", strings.Join(exports, "\n")+`
printf '%s\n' "$SAPMESSAGING_AEM_SEMP_URL" "$SAPMESSAGING_AEM_MSG_VPN_NAME" "$SAPMESSAGING_AEM_USERNAME" "$SAPMESSAGING_AEM_PASSWORD"`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the printed exports: %v", err)
	}
	c := s.AdvancedEventMeshCredentials()
	if got, want := string(out), strings.Join([]string{c.SEMPURL, c.MsgVpnName, c.Username, c.Password}, "\n")+"\n"; got != want {
		t.Errorf("the printed exports set\n%s\nwant\n%s", got, want)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func TestRuntimeFlagsRejected(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-retry-interval", "0s"},
		{"-lock-duration", "-1s"},
		{"-messaging-ack-timeout", "0s"},
		{"-redelivery-cap", "0"},
		{"-retry-cap", "0"},
		{"-deploy-delay", "-1s"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "-retry-cap at least 1") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and an explanation", args, code, errOut.String())
		}
	}
}

// -deploy-delay sets the Cloud Integration deploy delay, which the state file then records.
func TestDeployDelayFlag(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	base, _, stop := startRun(t, "-state", state, "-deploy-delay", "5s")
	body := `{"name":"F","packageId":"P","content":"` + base64.StdEncoding.EncodeToString(iflowbuild.Build(iflowbuild.Options{Name: "F"})) + `"}`
	req, _ := http.NewRequest(http.MethodPut, base+"/emulator/v1/iflows/F", strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("creating a flow: %v %v", resp, err)
	}
	_ = resp.Body.Close()
	stop()
	data, err := os.ReadFile(state)
	i := bytes.Index(data, []byte(`"deployDelay"`))
	if err != nil || i < 0 || !strings.Contains(string(data[i:min(len(data), i+40)]), `"5s"`) {
		t.Fatalf("state file without the deploy delay of the flag: %v", err)
	}
}

package emulatorcontrol_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatorcontrol"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

func TestCall(t *testing.T) {
	t.Parallel()
	e := emulatortest.Start(t, emulator.Options{})
	base := emulatorcontrol.URL(e.URL() + "/")
	if want := e.URL() + emulator.ControlBasePath; base != want {
		t.Fatalf("URL = %q, want %q", base, want)
	}
	ctx := context.Background()

	if err := emulatorcontrol.Call(ctx, base, http.MethodPost, "/stats/reset", "", nil); err != nil {
		t.Fatalf("resetting the statistics: %v", err)
	}
	var stats emulator.Stats
	if err := emulatorcontrol.Call(ctx, base, http.MethodGet, "/stats", "", &stats); err != nil {
		t.Fatalf("reading the statistics: %v", err)
	}
	if stats.Requests != 0 {
		t.Errorf("requests after a reset = %d, want 0", stats.Requests)
	}

	err := emulatorcontrol.Call(ctx, base, http.MethodGet, "/no-such-endpoint", "", nil)
	if err == nil || !strings.Contains(err.Error(), "GET /no-such-endpoint: 404") {
		t.Errorf("an unknown endpoint: err = %v, want the method, path and 404", err)
	}
}

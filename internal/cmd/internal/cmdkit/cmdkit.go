// Package cmdkit holds what the programs under internal/cmd share: the main
// function's signal handling, the flags of the replays against a running
// emulator (its URL and the service keys, their defaults from the
// environment) and the API clients built from a service key. Only the
// programs import it.
package cmdkit

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatorcontrol"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/servicekey"
)

// Run is a program's body: it parses args, writes to stdout and stderr and
// returns the exit code.
type Run func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// Main runs run with the command line and a context that ends on an
// interrupt or SIGTERM, and exits with its code.
func Main(run Run) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// NewFlags is the flag set of the program name, which reports its errors
// and usage on stderr instead of exiting.
func NewFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// Parse parses args into fs and refuses positional arguments. It reports
// whether the program goes on; when not, the exit code is 2.
func Parse(fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	if err := fs.Parse(args); err != nil {
		return false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q; use flags only\n", fs.Name(), fs.Args())
		return false
	}
	return true
}

// EmulatorFlag defines -emulator, the running emulator's base URL, by
// default $EMULATOR_URL.
func EmulatorFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "emulator", os.Getenv("EMULATOR_URL"), "base `URL` of the running emulator (default $EMULATOR_URL)")
}

// EventMeshKeyFlag defines -event-mesh-key, by default
// $SAPMESSAGING_EVENT_MESH_SERVICE_KEY.
func EventMeshKeyFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "event-mesh-key", os.Getenv("SAPMESSAGING_EVENT_MESH_SERVICE_KEY"), "Event Mesh service key `file` or JSON (default $SAPMESSAGING_EVENT_MESH_SERVICE_KEY)")
}

// CloudIntegrationKeyFlag defines -cloud-integration-key, by default
// $SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY.
func CloudIntegrationKeyFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "cloud-integration-key", os.Getenv("SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY"), "Cloud Integration service key `file` or JSON (default $SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY)")
}

// Unfinished adds to err, when ctx has ended, that the program's what (a
// replay, a run) did not finish within -timeout.
func Unfinished(ctx context.Context, err error, what string, timeout time.Duration) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (the %s did not finish within -timeout %s)", err, what, timeout)
	}
	return err
}

// ControlURL checks the emulator's base URL (the -emulator flag) and returns
// the base URL of its control endpoints.
func ControlURL(emulatorURL string) (string, error) {
	if err := httpx.CheckURL(emulatorURL); err != nil {
		return "", fmt.Errorf("-emulator: %w", err)
	}
	return emulatorcontrol.URL(emulatorURL), nil
}

// HTTP is the client configuration of the replays: three retries 50 ms to
// 1 s apart, 30 s a request, the user agent sapmessaging-name.
func HTTP(name string) httpx.Config {
	return httpx.Config{MaxRetries: 3, RequestTimeout: 30 * time.Second, RetryWaitMin: 50 * time.Millisecond,
		RetryWaitMax: time.Second, UserAgent: "sapmessaging-" + name}
}

// LoadEventMesh reads the Event Mesh service key given as JSON or as the
// path of a file holding it.
func LoadEventMesh(textOrPath string) (servicekey.EventMesh, error) {
	data, err := servicekey.Load(textOrPath)
	if err != nil {
		return servicekey.EventMesh{}, err
	}
	return servicekey.ParseEventMesh(data)
}

// LoadCloudIntegration reads the Cloud Integration service key given as JSON
// or as the path of a file holding it.
func LoadCloudIntegration(textOrPath string) (servicekey.CloudIntegration, error) {
	data, err := servicekey.Load(textOrPath)
	if err != nil {
		return servicekey.CloudIntegration{}, err
	}
	return servicekey.ParseCloudIntegration(data)
}

// EventMeshManagement is the management client of key, with the other
// settings of cfg.
func EventMeshManagement(key servicekey.EventMesh, cfg httpx.Config) (*eventmesh.Client, error) {
	cfg.BaseURL, cfg.TokenURL, cfg.ClientID, cfg.ClientSecret = key.ManagementURL, key.TokenURL, key.ClientID, key.ClientSecret
	h, err := httpx.New(cfg)
	if err != nil {
		return nil, err
	}
	return eventmesh.New(h), nil
}

// EventMeshMessaging is the messaging client of key (its httprest entry),
// with the other settings of cfg.
func EventMeshMessaging(key servicekey.EventMesh, cfg httpx.Config) (*eventmesh.Messaging, error) {
	cfg.BaseURL, cfg.TokenURL, cfg.ClientID, cfg.ClientSecret = key.MessagingURL, key.MessagingTokenURL, key.MessagingClientID, key.MessagingClientSecret
	h, err := httpx.New(cfg)
	if err != nil {
		return nil, err
	}
	return eventmesh.NewMessaging(h), nil
}

// CloudIntegration is the client of key, with the CSRF token fetch and the
// response limit of integration flow archives, and the other settings of cfg.
func CloudIntegration(key servicekey.CloudIntegration, cfg httpx.Config) (*cpi.Client, error) {
	cfg.BaseURL, cfg.TokenURL, cfg.ClientID, cfg.ClientSecret = key.URL, key.TokenURL, key.ClientID, key.ClientSecret
	cfg.CSRFFetchPath, cfg.MaxResponseBytes = cpi.CSRFFetchPath, httpx.ArtifactMaxResponseBytes
	h, err := httpx.New(cfg)
	if err != nil {
		return nil, err
	}
	return cpi.New(h), nil
}

// PutFlow makes zip the content of the integration flow id: it creates the flow in the package Demo when the
// tenant does not hold it and replaces its content when it does. The deploy is the caller's.
func PutFlow(ctx context.Context, ci *cpi.Client, id string, zip []byte) error {
	switch _, err := ci.GetArtifact(ctx, id, cpi.ActiveVersion); {
	case errors.Is(err, cpi.ErrNotFound):
		if _, err := ci.CreateArtifact(ctx, cpi.Artifact{ID: id, Name: id, PackageID: "Demo"}, zip); err != nil {
			return fmt.Errorf("creating integration flow %s: %w", id, err)
		}
	case err != nil:
		return fmt.Errorf("reading integration flow %s: %w", id, err)
	default:
		if err := ci.UpdateContent(ctx, id, cpi.ActiveVersion, id, zip); err != nil {
			return fmt.Errorf("updating integration flow %s: %w", id, err)
		}
	}
	return nil
}

// FailEveryRun tells the emulator behind controlURL that every execution of the flow ends in an Error End.
func FailEveryRun(ctx context.Context, controlURL, flow string) error {
	return emulatorcontrol.Call(ctx, controlURL, http.MethodPut, "/iflows/"+url.PathEscape(flow)+"/behaviour", `{"outcome": "error"}`, nil)
}

// FlowRuns reads the executions of the flow that the emulator behind controlURL recorded into runs (a pointer to
// a slice of the program's run type).
func FlowRuns(ctx context.Context, controlURL, flow string, runs any) error {
	return emulatorcontrol.Call(ctx, controlURL, http.MethodGet, "/iflows/"+url.PathEscape(flow)+"/runs", "", runs)
}

package framework

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// Credential is the client credential of one connection of the provider, proven once per run at
// plan with a token request, as a caller-identity check proves cloud credentials: a plan that
// cannot read the service fails instead of passing with what it could not check.
type Credential struct {
	Service  string // "Event Mesh management API"
	Source   string // where the credential came from: the environment variable or the provider attribute
	ClientID string
	HTTP     *httpx.Client
	// Check proves the credential instead of a token request, for a connection without OAuth2
	// (Advanced Event Mesh's HTTP Basic authentication: one cheap authenticated read).
	Check func(context.Context) error

	mu     sync.Mutex
	proven bool
	err    error // the token endpoint's refusal or another failure, kept for the run
}

// Prove fetches a token once per run (the client keeps it for the requests that follow) and
// adds an error when that fails. A cancelled request is not kept: the next plan step tries again.
func (c *Credential) Prove(ctx context.Context, diags *diag.Diagnostics) bool {
	if c.HTTP == nil {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.proven {
		check := c.HTTP.CheckCredentials
		if c.Check != nil {
			check = c.Check
		}
		err := check(ctx)
		if err != nil && ctx.Err() != nil {
			diags.AddError("Cannot Verify "+c.Service+" Credentials", fmt.Sprintf("The token request was cancelled: %s. Run the command again.", Clause(err)))
			return false
		}
		c.proven, c.err = true, err
	}
	if c.err == nil {
		return true
	}
	if refused(c.err) {
		diags.AddError(credentialsRefusedSummary(c.Service), refusedDetail(c, c.err))
	} else if c.Check != nil {
		diags.AddError("Cannot Verify "+c.Service+" Credentials", fmt.Sprintf(
			"The provider could not read the %s as the user %q from %s: %s. A plan that cannot read the service cannot check what it "+
				"plans, so it stops here. Check the network, the SEMP URL and the Message VPN name, then run the command again.",
			c.Service, c.ClientID, c.Source, Clause(c.err)))
	} else {
		diags.AddError("Cannot Verify "+c.Service+" Credentials", fmt.Sprintf(
			"The provider could not fetch an OAuth2 token for the %s with the client ID %q from %s: %s. A plan that cannot read the "+
				"service cannot check what it plans, so it stops here. Check the network and the token URL of the service key, then run the command again.",
			c.Service, c.ClientID, c.Source, Clause(c.err)))
	}
	return false
}

func credentialsRefusedSummary(service string) string { return service + " Credentials Refused" }

// refusedDetail says which credential an answer of 401 or 403 refused, never its secret.
func refusedDetail(c *Credential, err error) string {
	if c.Check != nil {
		var ae *aem.Error
		if errors.As(err, &ae) {
			// The detail gives the fix once: the client's own fix names the same settings.
			err = errors.New(strings.Replace(err.Error(), ae.Error(), ae.Problem(), 1))
		}
		return fmt.Sprintf("The %s refused the user %q from %s: %s. Nothing of the broker can be read with them, so this plan stops here. "+
			"Set `advanced_event_mesh.username` and `advanced_event_mesh.password` (or %s and %s) to the management user the cloud console "+
			"shows under the broker service's SEMP access, with read-write access to the Message VPN.",
			c.Service, c.ClientID, c.Source, Clause(err), EnvAEMUsername, EnvAEMPassword)
	}
	return fmt.Sprintf("The %s refused the credentials with the client ID %q from %s: %s. Nothing of the service can be read with them, "+
		"so this plan stops here. Set `%s` to a current service key of the instance (a key deleted or rotated in SAP BTP, or a "+
		"secret copied wrongly, no longer works; the cockpit shows the instance's service keys).",
		c.Service, c.ClientID, c.Source, Clause(err), c.Source)
}

// refused reports whether err is an answer of 401 or 403 (or the token endpoint's 400
// invalid_client, which tokenError counts with them): the credential, not the service, failed.
func refused(err error) bool {
	var te *httpx.TokenError
	if errors.As(err, &te) {
		return te.StatusCode == http.StatusUnauthorized || te.StatusCode == http.StatusForbidden || te.StatusCode == http.StatusBadRequest
	}
	if errors.Is(err, aem.ErrUnauthorized) {
		return true
	}
	var apiErr *httpx.APIError
	return errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusUnauthorized || apiErr.StatusCode == http.StatusForbidden)
}

// AddRefused adds, for a read at plan that failed with 401 or 403, the error that names the
// Credential ("... Credentials Refused") on the attribute at (none when at is empty), and reports
// whether it did; the caller reports any other failure itself.
func (c *Credential) AddRefused(diags *diag.Diagnostics, at path.Path, err error) bool {
	if !refused(err) || c.HTTP == nil {
		return false
	}
	if at.Equal(path.Empty()) {
		diags.AddError(credentialsRefusedSummary(c.Service), refusedDetail(c, err))
	} else {
		diags.AddAttributeError(at, credentialsRefusedSummary(c.Service), refusedDetail(c, err))
	}
	return true
}

// ConnectionNeed is a connection a resource, data source or action needs.
type ConnectionNeed int

const (
	NeedEventMesh ConnectionNeed = iota
	NeedMessaging
	NeedCloudIntegration
	NeedAEM
)

// Connected reports whether the provider has the connection need, and proves its credentials at plan
// (RequireAtPlan), for what reads through it at plan (the data sources); false after adding an error.
func (d *ProviderData) Connected(ctx context.Context, diags *diag.Diagnostics, need ConnectionNeed) bool {
	switch need {
	case NeedEventMesh:
		if !d.EventMeshOrError(diags) {
			return false
		}
	case NeedCloudIntegration:
		if !d.CloudIntegrationOrError(diags) {
			return false
		}
	case NeedAEM:
		if !d.AEMOrError(diags) {
			return false
		}
	}
	return d.RequireAtPlan(ctx, diags, need)
}

// RequireAtPlan checks at plan that the provider has each connection needed and proves its
// credentials (once per run). Without a connection the error names the provider block and the
// environment variable to set; with a connection whose settings are known only after apply it
// checks nothing, as the apply does then. It returns false after adding an error.
func (d *ProviderData) RequireAtPlan(ctx context.Context, diags *diag.Diagnostics, needs ...ConnectionNeed) bool {
	if d == nil {
		return true // not configured yet: the framework calls again after Configure
	}
	for _, n := range needs {
		switch n {
		case NeedEventMesh:
			if d.EventMeshUnknown {
				continue
			}
			if !d.EventMeshOrError(diags) {
				return false
			}
			if !d.EventMeshCredential.Prove(ctx, diags) {
				return false
			}
		case NeedMessaging:
			if d.EventMeshUnknown {
				continue
			}
			if d.Messaging == nil && d.EventMesh == nil && d.EventMeshKeyError.HasError() {
				diags.Append(d.EventMeshKeyError...)
				return false
			}
			if d.Messaging == nil {
				diags.AddError("Event Mesh Messaging Not Configured", messagingNotConfigured)
				return false
			}
			if !d.MessagingCredential.Prove(ctx, diags) {
				return false
			}
		case NeedCloudIntegration:
			if d.CloudIntegrationUnknown {
				continue
			}
			if !d.CloudIntegrationOrError(diags) {
				return false
			}
			if !d.CloudIntegrationCredential.Prove(ctx, diags) {
				return false
			}
		case NeedAEM:
			if d.AEMUnknown {
				continue
			}
			if !d.AEMOrError(diags) || !d.AEMCredential.Prove(ctx, diags) {
				return false
			}
		}
	}
	return true
}

// HasUnknown reports whether a connection block, or one of its attributes, is known only after apply.
func HasUnknown(o types.Object) bool {
	if o.IsUnknown() {
		return true
	}
	for _, v := range o.Attributes() {
		if v.IsUnknown() {
			return true
		}
	}
	return false
}

// messagingNotConfigured explains a plan that needs the messaging API without its connection.
const messagingNotConfigured = "This needs the SAP Event Mesh messaging REST API, but the provider's Event Mesh connection has no messaging entry. " +
	"Set the `event_mesh` block's `service_key` (or the environment variable " + EnvEventMeshServiceKey + ") to a service key with a " +
	"messaging entry of protocol httprest."

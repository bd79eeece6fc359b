package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Environment variables read when the provider block leaves a section out.
const (
	EnvEventMeshServiceKey        = "SAPMESSAGING_EVENT_MESH_SERVICE_KEY"
	EnvCloudIntegrationServiceKey = "SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY"
	// EnvCloudIntegrationPrivateKey holds the private key of an "External Certificate" key.
	EnvCloudIntegrationPrivateKey = "SAPMESSAGING_CLOUD_INTEGRATION_PRIVATE_KEY"
)

// MaskSecrets keeps secret values out of every log line written with ctx.
func MaskSecrets(ctx *context.Context, secrets ...string) {
	for _, s := range secrets {
		if s != "" {
			*ctx = tflog.MaskMessageStrings(*ctx, s)
			*ctx = tflog.MaskAllFieldValuesStrings(*ctx, s)
		}
	}
}

// Environment variables of the advanced_event_mesh block.
const (
	EnvAEMSEMPURL    = "SAPMESSAGING_AEM_SEMP_URL"
	EnvAEMMsgVpnName = "SAPMESSAGING_AEM_MSG_VPN_NAME"
	EnvAEMUsername   = "SAPMESSAGING_AEM_USERNAME"
	EnvAEMPassword   = "SAPMESSAGING_AEM_PASSWORD"
)

// AEMOrError returns whether the AEM client is there, or adds a clear error.
func (d *ProviderData) AEMOrError(diags *diag.Diagnostics) bool {
	if d != nil && d.AEM == nil && d.AEMKeyError.HasError() {
		diags.Append(d.AEMKeyError...)
		return false
	}
	if d == nil || d.AEM == nil {
		diags.AddError("Advanced Event Mesh Not Configured", aemMissing)
		return false
	}
	return true
}

// aemMissing explains a plan that needs AEM without the connection.
const aemMissing = "This needs the SEMP v2 API of an SAP Integration Suite, advanced event mesh broker service, but the provider has " +
	"no Advanced Event Mesh connection. Set the provider's `advanced_event_mesh` block (`semp_url`, `msg_vpn_name`, `username`, " +
	"`password`), or the environment variables " + EnvAEMSEMPURL + ", " + EnvAEMMsgVpnName + ", " + EnvAEMUsername + " and " + EnvAEMPassword + "."

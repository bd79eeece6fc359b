package framework

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var ObjectAsOptions = basetypes.ObjectAsOptions{}

// AppendFindings turns rule findings into attribute-scoped diagnostics.
func AppendFindings(diags *diag.Diagnostics, findings []rules.Finding) {
	for _, f := range findings {
		if f.Attribute == "" {
			if f.Severity == rules.SeverityError {
				diags.AddError(f.Summary, f.Detail)
			} else {
				diags.AddWarning(f.Summary, f.Detail)
			}
			continue
		}
		p := path.Root(f.Attribute)
		if f.Severity == rules.SeverityError {
			diags.AddAttributeError(p, f.Summary, f.Detail)
		} else {
			diags.AddAttributeWarning(p, f.Summary, f.Detail)
		}
	}
}

func Int64Value(v types.Int64) rules.Value[int64] {
	switch {
	case v.IsUnknown():
		return rules.Unknown[int64]()
	case v.IsNull():
		return rules.Null[int64]()
	default:
		return rules.Known(v.ValueInt64())
	}
}

func StringValue(v types.String) rules.Value[string] {
	switch {
	case v.IsUnknown():
		return rules.Unknown[string]()
	case v.IsNull():
		return rules.Null[string]()
	default:
		return rules.Known(v.ValueString())
	}
}

func BoolValue(v types.Bool) rules.Value[bool] {
	switch {
	case v.IsUnknown():
		return rules.Unknown[bool]()
	case v.IsNull():
		return rules.Null[bool]()
	default:
		return rules.Known(v.ValueBool())
	}
}

// ProviderDataFrom checks what Configure handed to a resource or data source.
func ProviderDataFrom(raw any, diags *diag.Diagnostics) *ProviderData {
	if raw == nil {
		return nil
	}
	d, ok := raw.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider. Report it with this message to the provider's maintainers.", raw))
		return nil
	}
	return d
}

const eventMeshMissing = "This needs the SAP Event Mesh management API, but the provider has no Event Mesh connection. " +
	"Set the `event_mesh` block of the provider (`service_key`, or `management_url`, `token_url`, `client_id` and `client_secret`), " +
	"or the environment variable " + EnvEventMeshServiceKey + "."

const cloudIntegrationMissing = "This needs the SAP Cloud Integration OData API, but the provider has no Cloud Integration connection. " +
	"Set the `cloud_integration` block of the provider (`service_key`, or url, `token_url`, `client_id` and `client_secret`), " +
	"or the environment variable " + EnvCloudIntegrationServiceKey + "."

// EventMeshOrError returns the Event Mesh client, or adds a clear error when the section is missing.
func (d *ProviderData) EventMeshOrError(diags *diag.Diagnostics) bool {
	if d != nil && d.EventMesh == nil && d.EventMeshKeyError.HasError() {
		diags.Append(d.EventMeshKeyError...)
		return false
	}
	if d == nil || d.EventMesh == nil {
		diags.AddError("Event Mesh Not Configured", eventMeshMissing)
		return false
	}
	return true
}

// CloudIntegrationOrError returns whether the Cloud Integration client is there, or adds a clear error.
func (d *ProviderData) CloudIntegrationOrError(diags *diag.Diagnostics) bool {
	if d != nil && d.CloudIntegration == nil && d.CloudIntegrationKeyError.HasError() {
		diags.Append(d.CloudIntegrationKeyError...)
		return false
	}
	if d == nil || d.CloudIntegration == nil {
		diags.AddError("Cloud Integration Not Configured", cloudIntegrationMissing)
		return false
	}
	return true
}

// ImportBlock is the import block, followed by a blank line, that adopts the object id as a resource of typeName
// in a diagnostic's detail.
func ImportBlock(typeName, id string) string {
	return fmt.Sprintf("import {\n  to = %s.<resource name>\n  id = %q\n}\n\n", typeName, id)
}

package framework

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Resource identity (Terraform 1.12 and later, see the reference note terraform-1.14.md): every
// resource's identity is made of the parts of its import ID, each a string attribute of the
// state with the same name. Terraform stores it next to the state, import blocks can name an
// object by it (identity = { ... }) instead of by the ID, and list resources return it.
//
// Each resource sets its identity from its state in Create, Read and Update, and turns an
// identity given to ImportState into the import ID it already parses. Read sets it from the
// prior state before anything else: a state written before identities existed has none, and a
// Read that removes the resource (deleted out of band) must still return one, or the framework
// reports "Missing Resource Identity After Read".

// IdentityPart is one part of a resource's identity: a string attribute of its state of the
// same name.
type IdentityPart struct {
	Attr        string
	Description string
	// Optional parts may be left out (null); no part may be empty.
	Optional bool
	// Example is the value the expected form shows for the part.
	Example string
}

// ResourceIdentity is the identity of a resource type: the parts of its import ID, in the
// order the import ID joins them with commas (or with sep, when set).
type ResourceIdentity struct {
	Parts []IdentityPart
	// Sep joins the parts in the import ID instead of a comma, for names that may hold commas.
	Sep string
	// Version is the identity schema's version: raised when a part is added, with an upgrade of the
	// identities stored before (UpgradeIdentity of the resource).
	Version int64
}

// Schema is the identity schema: the parts as string attributes.
func (ri ResourceIdentity) Schema() identityschema.Schema {
	attrs := make(map[string]identityschema.Attribute, len(ri.Parts))
	for _, p := range ri.Parts {
		attrs[p.Attr] = identityschema.StringAttribute{
			Description:       p.Description,
			RequiredForImport: !p.Optional,
			OptionalForImport: p.Optional,
		}
	}
	return identityschema.Schema{Attributes: attrs, Version: ri.Version}
}

// Form is the expected identity block, with an example value for each part.
func (ri ResourceIdentity) Form() string {
	var b strings.Builder
	b.WriteString("identity = {")
	for i, p := range ri.Parts {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s = %q", p.Attr, p.Example)
	}
	b.WriteString(" }")
	for _, p := range ri.Parts {
		if p.Optional {
			fmt.Fprintf(&b, " (%s only when the resource sets it)", p.Attr)
		}
	}
	return b.String()
}

// Set sets identity from the parts in state. A null state (nothing created, or removed) and a
// resource without identity (a CLI older than 1.12 sends none, the framework then makes it
// null) are left as they are.
func (ri ResourceIdentity) Set(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || state == nil || state.Raw.IsNull() || !state.Raw.IsKnown() {
		return
	}
	var attrs map[string]tftypes.Value
	if err := state.Raw.As(&attrs); err != nil {
		diags.AddError("Cannot Set Resource Identity", fmt.Sprintf("The state could not be read for the resource identity: %s. "+
			"Report this as a bug of the provider.", Clause(err)))
		return
	}
	parts := make(map[string]tftypes.Value, len(ri.Parts))
	for _, p := range ri.Parts {
		if v, ok := attrs[p.Attr]; ok && v.IsKnown() {
			parts[p.Attr] = v
		} else {
			parts[p.Attr] = tftypes.NewValue(tftypes.String, nil)
		}
	}
	identity.Raw = tftypes.NewValue(ri.TerraformType(ctx, identity.Schema), parts)
}

// identityTypes holds the Terraform type of each resource identity's schema, by the first part of the
// identity (shared by every copy of a ResourceIdentity): the framework builds the type from the schema's
// attributes on every call, which was most of the CPU and allocations of setting an identity, once per
// resource in every create, read and update.
var identityTypes sync.Map

// terraformType returns the Terraform type of s, the identity schema of ri (ri.Schema()).
func (ri ResourceIdentity) TerraformType(ctx context.Context, s schemaTyped) tftypes.Type {
	if len(ri.Parts) == 0 {
		return s.Type().TerraformType(ctx)
	}
	key := &ri.Parts[0]
	if t, ok := identityTypes.Load(key); ok {
		if typ, ok := t.(tftypes.Type); ok {
			return typ
		}
	}
	t := s.Type().TerraformType(ctx)
	identityTypes.Store(key, t)
	return t
}

// ImportID returns the import ID that the identity of an import block stands for, or the
// import ID given; ok is false, with an error, when a part of the identity is missing or empty.
func (ri ResourceIdentity) ImportID(req resource.ImportStateRequest, diags *diag.Diagnostics) (id string, ok bool) {
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() {
		return req.ID, true
	}
	var attrs map[string]tftypes.Value
	if err := req.Identity.Raw.As(&attrs); err != nil {
		diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity could not be read: %s. "+
			"Write it in the form %s.", Clause(err), ri.Form()))
		return "", false
	}
	values := make([]string, 0, len(ri.Parts))
	for _, p := range ri.Parts {
		var s *string
		v := attrs[p.Attr]
		if !v.IsKnown() {
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity's %s is not known before the import. "+
				"Write it as a value known at plan time, in the form %s.", p.Attr, ri.Form()))
			return "", false
		}
		if err := v.As(&s); err != nil {
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity's %s is not a string: %s. "+
				"Write it in the form %s.", p.Attr, Clause(err), ri.Form()))
			return "", false
		}
		switch {
		case s == nil && p.Optional:
			continue
		case s == nil:
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity has no %s, so it names no object to import. "+
				"Write it in the form %s.", p.Attr, ri.Form()))
			return "", false
		case strings.TrimSpace(*s) == "":
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity's %s is empty, so it names no object to import. "+
				"Write it in the form %s.", p.Attr, ri.Form()))
			return "", false
		}
		values = append(values, *s)
	}
	sep := ri.Sep
	if sep == "" {
		sep = ","
	}
	return strings.Join(values, sep), true
}

// ResolveImport turns an import by identity into an import by the ID the identity stands for,
// so that ImportState parses one form; false, with an error, when the identity is invalid.
func (ri ResourceIdentity) ResolveImport(req *resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	id, ok := ri.ImportID(*req, &resp.Diagnostics)
	req.ID = id
	return ok
}

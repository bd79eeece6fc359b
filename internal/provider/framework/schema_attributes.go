package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// FalseByDefault is an optional boolean attribute of a resource that is false when left out (the `allow_*`
// acceptances, `force_destroy`, switches that are off unless set), described by description.
func FalseByDefault(description string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: description,
		Optional:            true,
		Computed:            true,
		Default:             booldefault.StaticBool(false),
	}
}

// ComputedKept is a computed string attribute of a resource (its `id`, the Message VPN of an AEM object), described
// by description: set at create and kept from the state in later plans.
func ComputedKept(description string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description,
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

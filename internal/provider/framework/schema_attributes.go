package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
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

package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// ServicePackage is what a product package (internal/service/<product>) gives the provider: the
// constructors of its resources, data sources, list resources, actions and functions. The provider
// asks every product package for its types (internal/provider/registry.go) and names none itself.
type ServicePackage struct {
	// Name is the product's package name, for messages and the registry's tests.
	Name          string
	Resources     []func() resource.Resource
	DataSources   []func() datasource.DataSource
	ListResources []func() list.ListResource
	Actions       []func() action.Action
	Functions     []func() function.Function
}

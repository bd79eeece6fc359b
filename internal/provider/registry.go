package provider

import (
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/integration"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/landscape"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/netweaver"
)

// servicePackages are the product packages whose types the provider serves. A new product is one
// line here; a new type of a product is a line of its own service_package.go.
var servicePackages = []framework.ServicePackage{
	tfeventmesh.ServicePackage(),
	tfaem.ServicePackage(),
	integration.ServicePackage(),
	netweaver.ServicePackage(),
	landscape.ServicePackage(),
}

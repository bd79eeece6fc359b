package netweaver

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the SAP NetWeaver JMS types with the provider.
func ServicePackage() framework.ServicePackage { return servicePackage{} }

type servicePackage struct{ framework.NoTypes }

func (servicePackage) Name() string { return "netweaver" }

func (servicePackage) DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewJMSResourcesDataSource,
	}
}

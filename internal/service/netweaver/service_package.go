package netweaver

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the SAP NetWeaver JMS types with the provider.
func ServicePackage() framework.ServicePackage {
	return framework.ServicePackage{
		Name: "netweaver",
		DataSources: []func() datasource.DataSource{
			NewJMSResourcesDataSource,
		},
	}
}

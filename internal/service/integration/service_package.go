package integration

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the Cloud Integration types with the provider.
func ServicePackage() framework.ServicePackage { return servicePackage{} }

type servicePackage struct{ framework.NoTypes }

func (servicePackage) Name() string { return "integration" }

func (servicePackage) Resources() []func() resource.Resource {
	return []func() resource.Resource{
		NewAMQPSenderResource,
		NewJMSSenderResource,
		NewAEMSenderResource,
		NewIFlowDeploymentResource,
	}
}

func (servicePackage) ListResources() []func() list.ListResource {
	return []func() list.ListResource{
		NewAMQPSenderListResource,
		NewJMSSenderListResource,
		NewAEMSenderListResource,
		NewIFlowDeploymentListResource,
	}
}

func (servicePackage) DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewJMSQueuesDataSource,
	}
}

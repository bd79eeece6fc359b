package integration

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the Cloud Integration types with the provider.
func ServicePackage() framework.ServicePackage {
	return framework.ServicePackage{
		Name: "integration",
		Resources: []func() resource.Resource{
			NewAMQPSenderResource,
			NewJMSSenderResource,
			NewAEMSenderResource,
			NewIFlowDeploymentResource,
		},
		ListResources: []func() list.ListResource{
			NewAMQPSenderListResource,
			NewJMSSenderListResource,
			NewAEMSenderListResource,
			NewIFlowDeploymentListResource,
		},
		DataSources: []func() datasource.DataSource{
			NewJMSQueuesDataSource,
		},
	}
}

package aem

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the Advanced Event Mesh types with the provider.
func ServicePackage() framework.ServicePackage {
	return framework.ServicePackage{
		Name: "aem",
		Resources: []func() resource.Resource{
			NewAEMQueueResource,
			NewAEMDeadMessageQueueResource,
			NewAEMQueueSubscriptionResource,
		},
		ListResources: []func() list.ListResource{
			NewAEMQueueListResource,
			NewAEMDeadMessageQueueListResource,
			NewAEMQueueSubscriptionListResource,
		},
		Actions: []func() action.Action{
			NewAEMRedriveAction,
		},
		DataSources: []func() datasource.DataSource{
			NewAEMQueueDataSource,
			NewAEMQueuesDataSource,
		},
	}
}

package eventmesh

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the SAP Event Mesh types with the provider.
func ServicePackage() framework.ServicePackage {
	return framework.ServicePackage{
		Name: "eventmesh",
		Resources: []func() resource.Resource{
			NewQueueResource,
			NewDeadMessageQueueResource,
			NewQueueSubscriptionResource,
			NewWebhookSubscriptionResource,
		},
		ListResources: []func() list.ListResource{
			NewQueueListResource,
			NewDeadMessageQueueListResource,
			NewQueueSubscriptionListResource,
			NewWebhookSubscriptionListResource,
		},
		Actions: []func() action.Action{
			NewRedriveAction,
		},
		DataSources: []func() datasource.DataSource{
			NewQueueDataSource,
			NewQueuesDataSource,
		},
	}
}

package eventmesh

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the SAP Event Mesh types with the provider.
func ServicePackage() framework.ServicePackage { return servicePackage{} }

type servicePackage struct{ framework.NoTypes }

func (servicePackage) Name() string { return "eventmesh" }

func (servicePackage) Resources() []func() resource.Resource {
	return []func() resource.Resource{
		NewQueueResource,
		NewDeadMessageQueueResource,
		NewQueueSubscriptionResource,
		NewWebhookSubscriptionResource,
	}
}

func (servicePackage) ListResources() []func() list.ListResource {
	return []func() list.ListResource{
		NewQueueListResource,
		NewDeadMessageQueueListResource,
		NewQueueSubscriptionListResource,
		NewWebhookSubscriptionListResource,
	}
}

func (servicePackage) Actions() []func() action.Action {
	return []func() action.Action{
		NewRedriveAction,
	}
}

func (servicePackage) DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewQueueDataSource,
		NewQueuesDataSource,
	}
}

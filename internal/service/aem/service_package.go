package aem

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the Advanced Event Mesh types with the provider.
func ServicePackage() framework.ServicePackage { return servicePackage{} }

type servicePackage struct{ framework.NoTypes }

func (servicePackage) Name() string { return "aem" }

func (servicePackage) Resources() []func() resource.Resource {
	return []func() resource.Resource{
		NewAEMQueueResource,
		NewAEMDeadMessageQueueResource,
		NewAEMQueueSubscriptionResource,
	}
}

func (servicePackage) ListResources() []func() list.ListResource {
	return []func() list.ListResource{
		NewAEMQueueListResource,
		NewAEMDeadMessageQueueListResource,
		NewAEMQueueSubscriptionListResource,
	}
}

func (servicePackage) Actions() []func() action.Action {
	return []func() action.Action{
		NewAEMRedriveAction,
	}
}

func (servicePackage) DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewAEMQueueDataSource,
		NewAEMQueuesDataSource,
	}
}

package landscape

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the landscape-wide (retry audit, retry policy, functions) types with the provider.
func ServicePackage() framework.ServicePackage { return servicePackage{} }

type servicePackage struct{ framework.NoTypes }

func (servicePackage) Name() string { return "landscape" }

func (servicePackage) DataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewRetryPolicyDataSource,
		NewRetryAuditDataSource,
	}
}

func (servicePackage) Functions() []func() function.Function {
	return []func() function.Function{
		NewMaxAttemptsFunction,
		NewRedeliveriesForFunction,
		NewJMSGiveUpMinutesFunction,
		NewAEMMaxRunsFunction,
		NewAEMTimeToDeadLetterFunction,
		NewAEMSenderTimeToDeadLetterFunction,
	}
}

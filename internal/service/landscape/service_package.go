package landscape

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
)

// ServicePackage registers the landscape-wide (retry audit, retry policy, functions) types with the provider.
func ServicePackage() framework.ServicePackage {
	return framework.ServicePackage{
		Name: "landscape",
		DataSources: []func() datasource.DataSource{
			NewRetryPolicyDataSource,
			NewRetryAuditDataSource,
		},
		Functions: []func() function.Function{
			NewMaxAttemptsFunction,
			NewRedeliveriesForFunction,
			NewJMSGiveUpMinutesFunction,
			NewAEMMaxRunsFunction,
			NewAEMTimeToDeadLetterFunction,
			NewAEMSenderTimeToDeadLetterFunction,
		},
	}
}

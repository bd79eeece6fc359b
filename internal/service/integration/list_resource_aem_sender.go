package integration

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// The list resource of AEM sender channels (Terraform 1.14 and later, `terraform query`): every
// AdvancedEventMesh sender channel of the tenant's integration flows, and every sender of Solace's own adapter
// (SolacePubSubPlus, the same keys; its `adapter` says which), listed as sapmessaging_aem_sender
// (senderListResource in flow_list_shared.go).

var (
	_ list.ListResource                   = (*senderListResource[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges])(nil)
	_ list.ListResourceWithConfigure      = (*senderListResource[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges])(nil)
	_ list.ListResourceWithValidateConfig = (*senderListResource[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges])(nil)
)

// NewAEMSenderListResource returns the sapmessaging_aem_sender list resource.
func NewAEMSenderListResource() list.ListResource {
	return &senderListResource[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges]{
		typeSuffix: "_aem_sender",
		kind:       "AEM",
		channels:   (*cpi.Flow).AEMSenderChannels,
		queue: func(f *cpi.Flow, channel string) (string, error) {
			s, err := f.AEMSender(channel)
			if err != nil {
				return "", err
			}
			return s.QueueName, nil
		},
		glue: func(data *framework.ProviderData) senderGlue[AEMSenderModel, *AEMSenderModel, iflow.AEMSenderChanges] {
			return newAEMSenderResource(data).refreshedGlue() // with the queue, as an import's read
		},
	}
}

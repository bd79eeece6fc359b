package integration

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

// The list resource of AMQP sender channels (Terraform 1.14 and later, `terraform query`): every
// AMQP sender channel of the tenant's integration flows, listed as sapmessaging_amqp_sender
// (senderListResource in flow_list_shared.go).

var (
	_ list.ListResource                   = (*senderListResource[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings])(nil)
	_ list.ListResourceWithConfigure      = (*senderListResource[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings])(nil)
	_ list.ListResourceWithValidateConfig = (*senderListResource[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings])(nil)
)

// NewAMQPSenderListResource returns the sapmessaging_amqp_sender list resource.
func NewAMQPSenderListResource() list.ListResource {
	return &senderListResource[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings]{
		typeSuffix: "_amqp_sender",
		kind:       "AMQP",
		channels:   (*cpi.Flow).SenderChannels,
		queue: func(f *cpi.Flow, channel string) (string, error) {
			s, err := f.Sender(channel)
			if err != nil {
				return "", err
			}
			return s.QueueName, nil
		},
		glue: func(data *framework.ProviderData) senderGlue[amqpSenderModel, *amqpSenderModel, cpi.SenderSettings] {
			return (&amqpSenderResource{data: data}).glue()
		},
	}
}

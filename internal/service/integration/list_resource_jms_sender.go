package integration

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

// The list resource of JMS sender channels (Terraform 1.14 and later, `terraform query`): every
// JMS sender channel of the tenant's integration flows, listed as sapmessaging_jms_sender
// (senderListResource in flow_list_shared.go).

var (
	_ list.ListResource                   = (*senderListResource[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings])(nil)
	_ list.ListResourceWithConfigure      = (*senderListResource[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings])(nil)
	_ list.ListResourceWithValidateConfig = (*senderListResource[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings])(nil)
)

// NewJMSSenderListResource returns the sapmessaging_jms_sender list resource.
func NewJMSSenderListResource() list.ListResource {
	return &senderListResource[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings]{
		typeSuffix: "_jms_sender",
		kind:       "JMS",
		channels:   (*cpi.Flow).JMSSenderChannels,
		queue: func(f *cpi.Flow, channel string) (string, error) {
			s, err := f.JMSSender(channel)
			if err != nil {
				return "", err
			}
			return s.QueueName, nil
		},
		glue: func(data *framework.ProviderData) senderGlue[JMSSenderModel, *JMSSenderModel, cpi.JMSSenderSettings] {
			return (&jmsSenderResource{data: data}).glue()
		},
	}
}

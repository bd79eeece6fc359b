package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

// The list resource of JMS sender channels (Terraform 1.14 and later, `terraform query`): every
// JMS sender channel of the tenant's integration flows, listed as sapmessaging_jms_sender
// (senderListResource in flow_list_shared.go).

var (
	_ list.ListResource                   = (*senderListResource[jmsSenderModel, *jmsSenderModel, cpi.JMSSenderSettings])(nil)
	_ list.ListResourceWithConfigure      = (*senderListResource[jmsSenderModel, *jmsSenderModel, cpi.JMSSenderSettings])(nil)
	_ list.ListResourceWithValidateConfig = (*senderListResource[jmsSenderModel, *jmsSenderModel, cpi.JMSSenderSettings])(nil)
)

// NewJMSSenderListResource returns the sapmessaging_jms_sender list resource.
func NewJMSSenderListResource() list.ListResource {
	return &senderListResource[jmsSenderModel, *jmsSenderModel, cpi.JMSSenderSettings]{
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
		glue: func(data *providerData) senderGlue[jmsSenderModel, *jmsSenderModel, cpi.JMSSenderSettings] {
			return (&jmsSenderResource{data: data}).glue()
		},
	}
}

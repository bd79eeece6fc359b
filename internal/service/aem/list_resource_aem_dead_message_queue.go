package aem

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
)

// The sapmessaging_aem_dead_message_queue list resource: the queues that another queue names as its dead
// message queue and that have no redelivery count and no dead message queue of their own
// (aemListedAsDeadMessageQueue in list_resource_aem_queue.go, which both AEM queue list resources share).

var (
	_ list.ListResource                   = (*aemQueueListResource[aemDeadMessageQueueModel, *aemDeadMessageQueueModel])(nil)
	_ list.ListResourceWithConfigure      = (*aemQueueListResource[aemDeadMessageQueueModel, *aemDeadMessageQueueModel])(nil)
	_ list.ListResourceWithValidateConfig = (*aemQueueListResource[aemDeadMessageQueueModel, *aemDeadMessageQueueModel])(nil)
)

// NewAEMDeadMessageQueueListResource returns the sapmessaging_aem_dead_message_queue list resource.
func NewAEMDeadMessageQueueListResource() list.ListResource {
	return &aemQueueListResource[aemDeadMessageQueueModel, *aemDeadMessageQueueModel]{typeSuffix: "_aem_dead_message_queue", deadMessageQueues: true}
}

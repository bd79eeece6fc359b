package aem

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
)

// The sapmessaging_aem_dead_message_queue list resource: the queues that another queue names as its dead
// message queue and that have no redelivery count and no dead message queue of their own
// (aemListedAsDeadMessageQueue in list_resource_aem_queue.go, which both AEM queue list resources share).

// NewAEMDeadMessageQueueListResource returns the sapmessaging_aem_dead_message_queue list resource.
func NewAEMDeadMessageQueueListResource() list.ListResource {
	return aemQueueList[aemDeadMessageQueueModel](true)
}

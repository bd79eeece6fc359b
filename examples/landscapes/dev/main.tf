# The dev landscape: the same module as every other landscape, with its own budget.
# Credentials come from SAPMESSAGING_EVENT_MESH_SERVICE_KEY and
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY.

terraform {
  required_version = ">= 1.8.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

provider "sapmessaging" {}

module "orders" {
  source = "../../modules/retry-policy"

  namespace            = "acme/crm/dev"
  name                 = "orders"
  total_attempts       = 3
  attempt_seconds      = 2
  topics               = ["acme/crm/dev/ce/sap/s4/SalesOrder/*"]
  iflow_id             = "OrdersInbound"
  concurrent_processes = 1
  force_destroy        = true
}

data "sapmessaging_queue" "orders_dmq" {
  name       = module.orders.dead_message_queue_name
  depends_on = [module.orders]
}

check "orders_dmq_is_empty" {
  assert {
    condition     = data.sapmessaging_queue.orders_dmq.message_count == 0
    error_message = "${data.sapmessaging_queue.orders_dmq.message_count} dead message(s) wait in ${module.orders.dead_message_queue_name}."
  }
}

output "worst_case_attempts" {
  value = module.orders.worst_case_attempts
}

output "queue_name" {
  value = module.orders.queue_name
}

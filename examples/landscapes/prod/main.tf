# The prod landscape: the same module as every other landscape, with its own budget.
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

  namespace            = "acme/crm/prod"
  name                 = "orders"
  total_attempts       = 7
  attempt_seconds      = 2
  topics               = ["acme/crm/prod/ce/sap/s4/SalesOrder/*"]
  iflow_id             = "OrdersInbound"
  concurrent_processes = 4
  force_destroy        = false
}

# Dead messages in any DMQ of the namespace: a warning in every plan, never a change of
# `plan -detailed-exitcode` (see the guide "Detecting Drift"). The data source names the
# namespace, not a resource, so it is read during every plan.
data "sapmessaging_queues" "namespace" {
  name_prefix = "acme/crm/prod/"
}

check "dead_messages" {
  assert {
    condition = alltrue([
      for q in data.sapmessaging_queues.namespace.queues : q.message_count == 0 if q.is_dead_message_queue
    ])
    error_message = "Dead messages wait: ${join(", ", [
      for q in data.sapmessaging_queues.namespace.queues : "${q.name} (${q.message_count})" if q.is_dead_message_queue && q.message_count > 0
    ])}."
  }
}

output "worst_case_attempts" {
  value = module.orders.worst_case_attempts
}

output "queue_name" {
  value = module.orders.queue_name
}

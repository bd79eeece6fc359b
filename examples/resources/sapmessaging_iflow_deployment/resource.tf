# The AMQP sender channels of two flows, written without a deployment of their
# own: with several channel resources per flow, or more channel resources than
# Terraform's -parallelism (10 by default), each flow is then deployed once per
# apply, after all its channels, by the sapmessaging_iflow_deployment below.
locals {
  channels = {
    "Acme_Orders_Inbound/AMQP_Orders" = { retries = 1, concurrency = 1 }
    "OrdersInbound/EventMesh"         = { retries = 1, concurrency = 2 }
  }
}

resource "sapmessaging_amqp_sender" "c" {
  for_each = local.channels

  iflow_id              = split("/", each.key)[0]
  channel               = split("/", each.key)[1]
  max_number_of_retries = each.value.retries
  concurrent_processes  = each.value.concurrency
  deploy                = false
}

# One deployment per flow. A channel's revision is unknown in the plan whenever
# the channel is written, so the flow is deployed again exactly when one of its
# channels changes (and when the flow no longer runs).
resource "sapmessaging_iflow_deployment" "flow" {
  for_each = toset([for k, s in sapmessaging_amqp_sender.c : s.iflow_id])

  iflow_id = each.key
  triggers = { for k, s in sapmessaging_amqp_sender.c : k => s.revision if s.iflow_id == each.key }

  timeouts = {
    create = "15m"
    update = "15m"
  }
}

output "runtime_status" {
  value = { for id, d in sapmessaging_iflow_deployment.flow : id => d.runtime_status }
}

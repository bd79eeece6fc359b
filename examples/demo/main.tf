# The demo landscape of `make demo`: one order queue with a dead message
# queue, a topic subscription, and checks that watch both.
#
# The provider reads its credentials from SAPMESSAGING_EVENT_MESH_SERVICE_KEY
# and SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY (scripts/demo.sh points them
# at the service keys written by the local emulator).

terraform {
  required_version = ">= 1.8.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

provider "sapmessaging" {}

# Dead messages wait here for a week, then expire.
resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name    = "acme/crm/prod/orders/dmq"
  max_ttl = 604800
}

# A message that always fails is delivered 1 + 3 times, then moves to the
# dead message queue; so does a message older than a day.
resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
  respect_ttl          = true
  max_ttl              = 86400
}

resource "sapmessaging_queue_subscription" "business_partner" {
  queue_name    = sapmessaging_queue.orders.name
  topic_pattern = "acme/crm/prod/ce/sap/s4/BusinessPartner/*"
}

# Read after the queues exist, so the counters are live.
data "sapmessaging_queue" "orders_dmq" {
  name = sapmessaging_dead_message_queue.orders_dmq.name

  depends_on = [sapmessaging_dead_message_queue.orders_dmq]
}

data "sapmessaging_queues" "landscape" {
  name_prefix = "acme/crm/prod/"

  depends_on = [
    sapmessaging_queue.orders,
    sapmessaging_dead_message_queue.orders_dmq,
  ]
}

# A dead message queue nobody looks at is data loss on a delay.
check "orders_dmq_is_empty" {
  assert {
    condition     = data.sapmessaging_queue.orders_dmq.message_count == 0
    error_message = "${data.sapmessaging_queue.orders_dmq.message_count} dead message(s) wait in ${data.sapmessaging_queue.orders_dmq.name}: inspect them, fix the cause and resend them."
  }
}

# max_redelivery_count 0 (or unset) means unlimited redelivery, not none.
check "no_unbounded_redelivery" {
  assert {
    condition = alltrue([
      for q in data.sapmessaging_queues.landscape.queues : !q.unbounded_redelivery
    ])
    error_message = "Queues that redeliver a poison message for ever: ${join(", ", [
      for q in data.sapmessaging_queues.landscape.queues : q.name if q.unbounded_redelivery
    ])}. Set max_redelivery_count to 1 or more."
  }
}

output "orders_queue" {
  value = {
    name                 = sapmessaging_queue.orders.name
    max_redelivery_count = sapmessaging_queue.orders.max_redelivery_count
    dead_message_queue   = sapmessaging_queue.orders.dead_message_queue
    worst_case_attempts  = provider::sapmessaging::max_attempts(sapmessaging_queue.orders.max_redelivery_count, 1)
  }
}

output "orders_dmq_message_count" {
  value = data.sapmessaging_queue.orders_dmq.message_count
}

output "landscape_queues" {
  value = data.sapmessaging_queues.landscape.names
}

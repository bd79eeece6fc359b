resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name = "acme/crm/prod/orders/dmq"
}

# The queue of examples/resources/sapmessaging_queue, with the same settings.
resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  access_type          = "NON_EXCLUSIVE"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
  respect_ttl          = true
  max_ttl              = 86400
}

# The AMQP sender of the iFlow that consumes the queue. With one in-memory
# retry per delivery, one message that always fails runs at most
# (3 + 1) × 1 + 1 = 5 times before it reaches the dead message queue.
resource "sapmessaging_amqp_sender" "orders_inbound" {
  iflow_id = "Acme_Orders_Inbound"

  max_number_of_retries             = 1
  delivery_status_after_max_retries = "REJECTED"
  max_prefetched_messages           = 1
  concurrent_processes              = 1

  # Cross-checks against the queue the channel reads from.
  queue_max_redelivery_count  = sapmessaging_queue.orders.max_redelivery_count
  max_total_attempts          = 5
  expected_processing_seconds = 90

  timeouts = {
    create = "15m"
    update = "15m"
  }
}

output "orders_inbound_worst_case_attempts" {
  value = sapmessaging_amqp_sender.orders_inbound.worst_case_attempts
}

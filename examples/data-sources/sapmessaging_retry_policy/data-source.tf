# At most 5 executions for a message that always fails; one takes ~2 seconds.
data "sapmessaging_retry_policy" "orders" {
  total_attempts  = 5
  attempt_seconds = 2
}

resource "sapmessaging_dead_message_queue" "orders" {
  name = "acme/crm/prod/orders/dmq"
}

resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = data.sapmessaging_retry_policy.orders.max_redelivery_count # 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders.name
}

resource "sapmessaging_amqp_sender" "orders_inbound" {
  iflow_id                          = "Acme_Orders_Inbound"
  max_number_of_retries             = data.sapmessaging_retry_policy.orders.max_number_of_retries             # 1
  delivery_status_after_max_retries = data.sapmessaging_retry_policy.orders.delivery_status_after_max_retries # REJECTED
  queue_max_redelivery_count        = sapmessaging_queue.orders.max_redelivery_count
  max_total_attempts                = 5
}

output "seconds_until_dead_message_queue" {
  value = data.sapmessaging_retry_policy.orders.seconds_to_dead_message_queue # 10
}

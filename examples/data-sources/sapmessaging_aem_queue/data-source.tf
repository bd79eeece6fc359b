data "sapmessaging_aem_queue" "orders" {
  name = "acme/aem/prod/orders"
}

# A poison message must reach the dead message queue within a bounded number of deliveries.
check "orders_dead_letters" {
  assert {
    condition     = data.sapmessaging_aem_queue.orders.poison_message_deliveries != null
    error_message = "acme/aem/prod/orders redelivers a poison message for ever: ${data.sapmessaging_aem_queue.orders.retry_plan}."
  }
}

# The messages the queue holds now (spooled_msg_count is a running total, not the backlog).
output "orders_backlog" {
  value = data.sapmessaging_aem_queue.orders.message_count
}

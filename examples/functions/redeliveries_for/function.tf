# With one adapter retry per delivery, 5 executions at most need a queue
# max_redelivery_count of 5 − 2 = 3.
resource "sapmessaging_dead_message_queue" "orders" {
  name = "acme/crm/prod/orders/dmq"
}

resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = provider::sapmessaging::redeliveries_for(5)
  dead_message_queue   = sapmessaging_dead_message_queue.orders.name
}

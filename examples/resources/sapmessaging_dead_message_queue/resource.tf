# A dead message queue is inspected, not consumed: it has no redelivery count,
# always respects the TTL, and keeps dead messages for 7 days by default.
resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name    = "acme/crm/prod/orders/dmq"
  max_ttl = 604800
}

resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
}

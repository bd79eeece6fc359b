# The dead message queue that receives what the main queue gives up on.
resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name    = "acme/crm/prod/orders/dmq"
  max_ttl = 604800 # 7 days
}

# A poison message is delivered at most 1 + 3 times, then moves to the DMQ.
# Messages older than a day move there too (respect_ttl with max_ttl).
resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  access_type          = "NON_EXCLUSIVE"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
  respect_ttl          = true
  max_ttl              = 86400
}

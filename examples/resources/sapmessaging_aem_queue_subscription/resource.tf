# Every order event lands in the queue acme/aem/prod/orders. The queue comes from a sapmessaging_aem_queue
# resource (queue_name = sapmessaging_aem_queue.orders.name) or exists on the broker already:
# the plan fails when it does neither.
resource "sapmessaging_aem_queue_subscription" "orders_created" {
  queue_name = "acme/aem/prod/orders"
  topic      = "acme/orders/*/created"
}

# ">" matches one or more levels: every event under acme/orders/eu/.
resource "sapmessaging_aem_queue_subscription" "orders_eu" {
  queue_name = "acme/aem/prod/orders"
  topic      = "acme/orders/eu/>"
}

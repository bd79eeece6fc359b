resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name = "acme/crm/prod/orders-push/dmq"
}

# A failing message gets 3 tries within 45 minutes (15, then 30 minutes apart),
# then moves to the dead message queue.
resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders-push"
  max_redelivery_count = 2
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
}

# Event Mesh pushes each message of the queue to the endpoint and keeps it
# until the endpoint answers 2xx (QoS 1).
resource "sapmessaging_webhook_subscription" "orders" {
  name     = "acme/crm/prod/orders-push/webhook"
  queue    = sapmessaging_queue.orders.name
  endpoint = "https://orders.example.com/events"
}

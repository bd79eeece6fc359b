# Moves the messages of a dead message queue back into the queue they failed on, once the
# cause is fixed. Run it on request (Terraform 1.14 and later):
#
#   terraform apply -invoke=action.sapmessaging_redrive.orders
#
# Start with a few messages, watch them being processed, then raise max_messages.
action "sapmessaging_redrive" "orders" {
  config {
    from           = sapmessaging_dead_message_queue.orders_dmq.name
    to             = sapmessaging_queue.orders.name
    max_messages   = 10
    max_per_second = 50
  }
}

resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name = "acme/crm/prod/orders/dmq"
}

resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
}

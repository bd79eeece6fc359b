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

# The queues of the queue example, as they are: the action adds no change to them.
resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name    = "acme/crm/prod/orders/dmq"
  max_ttl = 604800 # 7 days
}

resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  access_type          = "NON_EXCLUSIVE"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
  respect_ttl          = true
  max_ttl              = 86400
}

# Moves the messages of an Advanced Event Mesh dead message queue back into the queue they failed
# on, once the cause is fixed. Run it on request (Terraform 1.14 and later):
#
#   terraform apply -invoke=action.sapmessaging_aem_redrive.orders
#
# Start with a few messages, watch them being processed, then raise max_messages.
data "sapmessaging_aem_queue" "orders" {
  name = "acme/aem/prod/orders"
}

action "sapmessaging_aem_redrive" "orders" {
  config {
    from         = data.sapmessaging_aem_queue.orders.dead_message_queue
    to           = data.sapmessaging_aem_queue.orders.name
    max_messages = 10
  }
}

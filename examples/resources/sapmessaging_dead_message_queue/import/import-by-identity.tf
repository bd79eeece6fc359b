import {
  to = sapmessaging_dead_message_queue.orders_dmq
  identity = {
    name = "acme/crm/prod/orders/dmq"
  }
}

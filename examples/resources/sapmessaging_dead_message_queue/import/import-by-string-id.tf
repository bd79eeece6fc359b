import {
  to = sapmessaging_dead_message_queue.orders_dmq
  id = "acme/crm/prod/orders/dmq"
}

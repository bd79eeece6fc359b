import {
  to = sapmessaging_queue.orders
  id = "acme/crm/prod/orders"
}

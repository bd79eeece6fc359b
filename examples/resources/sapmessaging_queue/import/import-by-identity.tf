import {
  to = sapmessaging_queue.orders
  identity = {
    name = "acme/crm/prod/orders"
  }
}

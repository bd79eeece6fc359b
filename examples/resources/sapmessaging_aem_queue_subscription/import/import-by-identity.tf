import {
  to = sapmessaging_aem_queue_subscription.orders_created
  identity = {
    queue_name = "acme/aem/prod/orders"
    topic      = "acme/orders/*/created"
  }
}

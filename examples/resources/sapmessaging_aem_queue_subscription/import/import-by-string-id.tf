import {
  to = sapmessaging_aem_queue_subscription.orders_created
  id = "acme/orders;acme/orders/*/created"
}

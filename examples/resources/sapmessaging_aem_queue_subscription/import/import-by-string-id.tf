import {
  to = sapmessaging_aem_queue_subscription.orders_created
  id = "acme/aem/prod/orders;acme/orders/*/created"
}

import {
  to = sapmessaging_aem_queue_subscription.orders_created
  identity = {
    msg_vpn_name = "acme-aem-prod"
    queue_name   = "acme/aem/prod/orders"
    topic        = "acme/orders/*/created"
  }
}

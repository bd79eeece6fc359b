import {
  to = sapmessaging_webhook_subscription.orders
  identity = {
    name = "acme/crm/prod/orders-push/webhook"
  }
}

import {
  to = sapmessaging_webhook_subscription.orders
  id = "acme/crm/prod/orders-push/webhook"
}

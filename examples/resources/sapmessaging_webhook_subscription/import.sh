# The import ID is the webhook subscription's name.
terraform import sapmessaging_webhook_subscription.orders 'acme/crm/prod/orders-push/webhook'

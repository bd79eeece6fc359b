# The import ID is the queue name and the topic, separated by a semicolon (no queue name holds one).
terraform import sapmessaging_aem_queue_subscription.orders_created 'acme/aem/prod/orders;acme/orders/*/created'

# The import ID is the queue name and the topic, separated by a semicolon (no queue name holds one).
terraform import sapmessaging_aem_queue_subscription.orders_created 'acme/aem/prod/orders;acme/orders/*/created'

# Solace's form, as the solacebroker provider imports it: the Message VPN, the queue name and the topic, each URL-encoded.
terraform import sapmessaging_aem_queue_subscription.orders_created 'acme-aem-prod/acme%2Faem%2Fprod%2Forders/acme%2Forders%2F*%2Fcreated'

# A queue is imported by its full name, namespace included.
terraform import sapmessaging_queue.orders acme/crm/prod/orders

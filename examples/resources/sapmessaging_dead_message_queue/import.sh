# A dead message queue is imported by its full name, namespace included.
terraform import sapmessaging_dead_message_queue.orders_dmq acme/crm/prod/orders/dmq

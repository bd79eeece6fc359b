# An Advanced Event Mesh dead message queue is imported by its name.
terraform import sapmessaging_aem_dead_message_queue.shipments_dmq acme/aem/prod/shipments/dmq

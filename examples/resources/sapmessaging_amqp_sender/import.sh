# An iFlow with a single AMQP sender is imported by its ID.
terraform import sapmessaging_amqp_sender.orders_inbound Acme_Orders_Inbound

# With more than one AMQP sender, name the channel after a comma.
terraform import sapmessaging_amqp_sender.orders_inbound Acme_Orders_Inbound,AMQP_Orders

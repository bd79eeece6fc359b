# An iFlow with a single JMS sender is imported by its ID.
terraform import sapmessaging_jms_sender.orders_retry Acme_Orders_Retry

# With more than one JMS sender, name the channel after a comma.
terraform import sapmessaging_jms_sender.orders_retry Acme_Orders_Retry,JMS_OrdersRetry

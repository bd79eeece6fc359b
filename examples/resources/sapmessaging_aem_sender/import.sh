# An iFlow with a single AEM sender is imported by its ID.
terraform import sapmessaging_aem_sender.orders Acme_AEM_Orders_Inbound

# With more than one AEM sender, name the channel after a comma.
terraform import sapmessaging_aem_sender.orders Acme_AEM_Orders_Inbound,AEM_Orders

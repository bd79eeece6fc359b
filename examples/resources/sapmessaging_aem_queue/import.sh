# An Advanced Event Mesh queue is imported by its name (the provider configuration names the Message VPN).
terraform import sapmessaging_aem_queue.invoices acme/aem/prod/invoices

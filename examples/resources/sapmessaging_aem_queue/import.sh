# An Advanced Event Mesh queue is imported by its name (the provider configuration names the Message VPN).
terraform import sapmessaging_aem_queue.invoices acme/aem/prod/invoices

# Solace's form, as the solacebroker provider imports it: the Message VPN and the URL-encoded queue name.
terraform import sapmessaging_aem_queue.invoices acme-aem-prod/acme%2Faem%2Fprod%2Finvoices

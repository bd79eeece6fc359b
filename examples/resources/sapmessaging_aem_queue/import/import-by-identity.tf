import {
  to = sapmessaging_aem_queue.invoices
  identity = {
    msg_vpn_name = "acme-aem-prod"
    name         = "acme/aem/prod/invoices"
  }
}

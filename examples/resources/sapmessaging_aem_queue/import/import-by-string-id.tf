import {
  to = sapmessaging_aem_queue.invoices
  id = "acme/aem/prod/invoices"
}

import {
  to = sapmessaging_aem_dead_message_queue.shipments_dmq
  id = "acme/aem/prod/shipments/dmq"
}

import {
  to = sapmessaging_aem_dead_message_queue.shipments_dmq
  identity = {
    msg_vpn_name = "acme-aem-prod"
    name         = "acme/aem/prod/shipments/dmq"
  }
}

import {
  to = sapmessaging_aem_sender.orders
  identity = {
    iflow_id = "Acme_AEM_Orders_Inbound"
  }
}

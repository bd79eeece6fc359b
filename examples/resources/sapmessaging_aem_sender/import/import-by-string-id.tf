import {
  to = sapmessaging_aem_sender.orders
  id = "Acme_AEM_Orders_Inbound"
}

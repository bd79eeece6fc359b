import {
  to = sapmessaging_iflow_deployment.flow["Acme_Orders_Inbound"]
  id = "Acme_Orders_Inbound"
}

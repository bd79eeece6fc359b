import {
  to = sapmessaging_iflow_deployment.flow["Acme_Orders_Inbound"]
  identity = {
    iflow_id = "Acme_Orders_Inbound"
  }
}

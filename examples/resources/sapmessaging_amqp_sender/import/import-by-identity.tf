import {
  to = sapmessaging_amqp_sender.orders_inbound
  identity = {
    iflow_id = "Acme_Orders_Inbound"
  }
}

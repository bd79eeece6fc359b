import {
  to = sapmessaging_amqp_sender.orders_inbound
  id = "Acme_Orders_Inbound"
}

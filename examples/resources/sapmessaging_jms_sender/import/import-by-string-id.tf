import {
  to = sapmessaging_jms_sender.orders_retry
  id = "Acme_Orders_Retry"
}

import {
  to = sapmessaging_jms_sender.orders_retry
  identity = {
    iflow_id = "Acme_Orders_Retry"
  }
}

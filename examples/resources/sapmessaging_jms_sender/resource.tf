# The JMS sender of the iFlow that consumes the JMS queue Acme_Orders_Retry. The
# adapter has no retry limit of its own: the flow ends a message in an exception
# subprocess once ${header.SAPJMSRetries} > 5, and max_retries declares that
# limit. With waits of 1, 2, 4, 8, 16 and 32 minutes the message is given up
# 63 minutes after its first failure, long before the queue's 30 days expire.
resource "sapmessaging_jms_sender" "orders_retry" {
  iflow_id = "Acme_Orders_Retry"

  retry_interval       = 1
  exponential_backoff  = true
  max_retry_interval   = 60
  concurrent_processes = 1
  dead_letter_queue    = true

  # The limit the flow's guard should enforce, and the Expiration Period of the
  # JMS receiver that fills the queue.
  max_retries           = 5
  queue_expiration_days = 30

  timeouts = {
    create = "15m"
    update = "15m"
  }
}

output "orders_retry_give_up_after_minutes" {
  value = sapmessaging_jms_sender.orders_retry.give_up_after_minutes
}

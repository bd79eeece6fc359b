# The Advanced Event Mesh sender of the iFlow that consumes the AEM queue
# acme/aem/prod/orders (max_redelivery_count 5, dead message queue
# acme/aem/prod/orders/dmq). The adapter runs a failing message 3 times on each
# delivery, waiting 1 s and 2 s, then hands it back (FAILED); the broker
# redelivers it 5 times, so a poison message runs at most 3 × (5 + 1) = 18
# times before it reaches the dead message queue. The plan reads the queue
# through the provider's advanced_event_mesh connection and refuses FAILED on a
# queue that retries for ever.
resource "sapmessaging_aem_sender" "orders" {
  iflow_id = "Acme_AEM_Orders_Inbound"

  max_message_processing_attempts = 3
  retry_interval                  = 1000
  max_retry_interval              = 30000
  retry_multiplier                = 2.0
  settlement_outcome              = "FAILED"
  acknowledgement_mode            = "AUTOMATIC_ON_EXCHANGE_COMPLETE"

  # The plan fails when a poison message could run more often than this.
  max_total_attempts = 20

  timeouts = {
    create = "15m"
    update = "15m"
  }
}

output "orders_worst_case_runs" {
  value = sapmessaging_aem_sender.orders.worst_case_runs
}

output "orders_poison_message_end" {
  value = "${sapmessaging_aem_sender.orders.poison_message_end} after ${sapmessaging_aem_sender.orders.time_to_end}"
}

# Applies the module against an Event Mesh instance and a Cloud Integration tenant, and
# destroys what it created: run it against the sandbox of `make sandbox` (guide "Try It
# Locally") with its service key variables exported, never against a landscape that
# matters. The flow Acme_Orders_Inbound is part of the sandbox's sample content.
variables {
  namespace      = "acme/crm/test"
  name           = "tftest"
  total_attempts = 9
  topics         = ["acme/crm/test/ce/sap/s4/SalesOrder/*"]
  force_destroy  = true
}

run "queues" {
  assert {
    condition     = sapmessaging_queue.this.max_redelivery_count == 7 && sapmessaging_queue.this.dead_message_queue == "acme/crm/test/tftest/dmq"
    error_message = "The service holds max_redelivery_count = ${sapmessaging_queue.this.max_redelivery_count}, want 7 for a budget of 9: (7 + 1) × 1 + 1 = 9."
  }
  assert {
    condition     = sapmessaging_dead_message_queue.this.respect_ttl && sapmessaging_dead_message_queue.this.max_ttl == 604800
    error_message = "The dead message queue does not expire dead messages after 7 days."
  }
  assert {
    condition     = sapmessaging_queue_subscription.this["acme/crm/test/ce/sap/s4/SalesOrder/*"].queue_name == "acme/crm/test/tftest"
    error_message = "The subscription was not created on the queue."
  }
  assert {
    condition     = output.worst_case_attempts == 9
    error_message = "worst_case_attempts is ${output.worst_case_attempts}, want 9."
  }
}

run "sender" {
  variables {
    iflow_id = "Acme_Orders_Inbound"
  }

  assert {
    condition     = sapmessaging_amqp_sender.this[0].max_number_of_retries == 1 && sapmessaging_amqp_sender.this[0].delivery_status_after_max_retries == "REJECTED"
    error_message = "The flow's AMQP sender does not hold the policy's retries and delivery status."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this[0].worst_case_attempts == 9
    error_message = "The sender computes ${sapmessaging_amqp_sender.this[0].worst_case_attempts} executions in the worst case, want (7 + 1) × 1 + 1 = 9."
  }
}

# The module's wiring and input validation with a mocked provider: no API and no
# credentials (`terraform test -filter=tests/validation.tftest.hcl`). The policy the
# mock returns is what sapmessaging_retry_policy computes for a budget of 5
# (arithmetic.tftest.hcl checks that with the real provider).
mock_provider "sapmessaging" {
  mock_data "sapmessaging_retry_policy" {
    defaults = {
      max_redelivery_count              = 3
      max_number_of_retries             = 1
      delivery_status_after_max_retries = "REJECTED"
      worst_case_attempts               = 5
      seconds_to_dead_message_queue     = 10
    }
  }
}

variables {
  namespace       = "acme/crm/test"
  name            = "orders"
  total_attempts  = 5
  attempt_seconds = 1.5
  topics = [
    "acme/crm/test/ce/sap/s4/SalesOrder/*",
    "acme/crm/test/ce/sap/s4/BusinessPartner/*",
  ]
}

run "queues_follow_the_policy" {
  command = plan

  assert {
    condition     = sapmessaging_queue.this.name == "acme/crm/test/orders"
    error_message = "The queue is not named namespace/name."
  }
  assert {
    condition     = sapmessaging_dead_message_queue.this.name == "acme/crm/test/orders/dmq"
    error_message = "The dead message queue is not named namespace/name/dmq."
  }
  assert {
    condition     = sapmessaging_queue.this.dead_message_queue == sapmessaging_dead_message_queue.this.name
    error_message = "The queue does not name the module's dead message queue."
  }
  assert {
    condition     = sapmessaging_queue.this.max_redelivery_count == data.sapmessaging_retry_policy.this.max_redelivery_count
    error_message = "The queue's max_redelivery_count is not the policy's."
  }
  assert {
    condition     = sapmessaging_dead_message_queue.this.max_ttl == 604800
    error_message = "The dead message queue does not keep dead messages for 7 days by default."
  }
  assert {
    condition     = length(sapmessaging_queue_subscription.this) == 2 && sapmessaging_queue_subscription.this["acme/crm/test/ce/sap/s4/SalesOrder/*"].queue_name == "acme/crm/test/orders"
    error_message = "The queue does not subscribe to each topic."
  }
  assert {
    condition     = length(sapmessaging_amqp_sender.this) == 0
    error_message = "Without iflow_id the module manages an AMQP sender."
  }
  assert {
    condition     = output.worst_case_attempts == 5 && output.max_redelivery_count == 3
    error_message = "The outputs do not report the policy."
  }
}

run "sender_follows_the_policy" {
  command = plan

  variables {
    iflow_id = "Acme_Orders_Inbound"
  }

  assert {
    condition     = length(sapmessaging_amqp_sender.this) == 1 && sapmessaging_amqp_sender.this[0].iflow_id == "Acme_Orders_Inbound"
    error_message = "With iflow_id the module does not manage that flow's AMQP sender."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this[0].max_number_of_retries == 1 && sapmessaging_amqp_sender.this[0].delivery_status_after_max_retries == "REJECTED"
    error_message = "The sender's retries and delivery status are not the policy's."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this[0].queue_max_redelivery_count == 3 && sapmessaging_amqp_sender.this[0].max_total_attempts == 5
    error_message = "The sender's budget check does not get the queue's redelivery count and the budget."
  }
  assert {
    # (R + 1) × n + 1 with the policy's values stays within the budget.
    condition     = (sapmessaging_amqp_sender.this[0].queue_max_redelivery_count + 1) * sapmessaging_amqp_sender.this[0].max_number_of_retries + 1 <= var.total_attempts
    error_message = "The policy exceeds the budget: (R + 1) × n + 1 > total_attempts."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this[0].expected_processing_seconds == 2
    error_message = "expected_processing_seconds is not attempt_seconds rounded up."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this[0].max_prefetched_messages == 1 && sapmessaging_amqp_sender.this[0].concurrent_processes == 1
    error_message = "The sender does not keep one prefetched message and one process by default."
  }
}

run "budget_below_3_is_refused" {
  command = plan

  variables {
    total_attempts = 2
  }

  expect_failures = [var.total_attempts]
}

run "budget_above_257_is_refused" {
  command = plan

  variables {
    total_attempts = 258
  }

  expect_failures = [var.total_attempts]
}

run "namespace_needs_three_segments" {
  command = plan

  variables {
    namespace = "acme/crm"
  }

  expect_failures = [var.namespace]
}

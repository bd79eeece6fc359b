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
  namespace = "acme/crm/test"
  queues = {
    orders = {
      total_attempts  = 5
      attempt_seconds = 1.5
      topics          = ["acme/crm/test/ce/sap/s4/SalesOrder/*", "acme/crm/test/ce/sap/s4/BusinessPartner/*"]
    }
    invoices = {
      total_attempts = 5
    }
  }
}

run "queues_follow_the_policy" {
  command = plan

  assert {
    condition     = sapmessaging_queue.this["orders"].name == "acme/crm/test/orders" && sapmessaging_queue.this["invoices"].name == "acme/crm/test/invoices"
    error_message = "The queues are not named namespace/key."
  }
  assert {
    condition     = sapmessaging_dead_message_queue.this["orders"].name == "acme/crm/test/orders/dmq"
    error_message = "The dead message queue is not named namespace/key/dmq."
  }
  assert {
    condition     = alltrue([for k, q in sapmessaging_queue.this : q.dead_message_queue == sapmessaging_dead_message_queue.this[k].name])
    error_message = "A queue does not name its own dead message queue."
  }
  assert {
    condition     = sapmessaging_queue.this["orders"].max_redelivery_count == data.sapmessaging_retry_policy.this["orders"].max_redelivery_count
    error_message = "The queue's max_redelivery_count is not the policy's."
  }
  assert {
    condition     = sapmessaging_dead_message_queue.this["invoices"].max_ttl == 604800
    error_message = "The dead message queue does not keep dead messages for 7 days by default."
  }
  assert {
    condition     = length(sapmessaging_queue_subscription.this) == 2 && sapmessaging_queue_subscription.this["orders acme/crm/test/ce/sap/s4/SalesOrder/*"].queue_name == "acme/crm/test/orders"
    error_message = "The queue does not subscribe to each of its topics."
  }
  assert {
    condition     = length(sapmessaging_amqp_sender.this) + length(sapmessaging_jms_sender.this) + length(sapmessaging_webhook_subscription.this) + length(sapmessaging_iflow_deployment.this) == 0
    error_message = "Without senders or webhooks the module manages senders, webhooks or deployments."
  }
  assert {
    condition     = output.worst_case_attempts == { orders = 5, invoices = 5 } && output.max_redelivery_counts == { orders = 3, invoices = 3 }
    error_message = "The outputs do not report the policy of each queue."
  }
}

run "senders_and_webhooks" {
  command = plan

  variables {
    amqp_senders = {
      "Acme_Orders_Inbound"        = { queue = "orders" }
      "Acme_Invoices/AMQP_Invoice" = { queue = "invoices", concurrent_processes = 2 }
    }
    jms_senders = {
      "Acme_Orders_Retry"         = { max_retries = 5 }
      "Acme_Invoices/JMS_Archive" = { max_retries = 3, retry_interval = 10, exponential_backoff = false }
    }
    webhooks = {
      "orders/push" = { queue = "orders", endpoint = "https://orders.example.com/events" }
    }
  }

  assert {
    condition     = sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].iflow_id == "Acme_Orders_Inbound" && sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].channel == null
    error_message = "A sender keyed FLOW does not manage that flow's only AMQP sender."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this["Acme_Invoices/AMQP_Invoice"].iflow_id == "Acme_Invoices" && sapmessaging_amqp_sender.this["Acme_Invoices/AMQP_Invoice"].channel == "AMQP_Invoice"
    error_message = "A sender keyed FLOW/CHANNEL does not manage that channel."
  }
  assert {
    condition     = alltrue([for s in sapmessaging_amqp_sender.this : s.max_number_of_retries == 1 && s.delivery_status_after_max_retries == "REJECTED" && s.queue_max_redelivery_count == 3 && s.max_total_attempts == 5])
    error_message = "An AMQP sender does not get its queue's policy and budget check."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].expected_processing_seconds == 2 && sapmessaging_amqp_sender.this["Acme_Invoices/AMQP_Invoice"].expected_processing_seconds == null
    error_message = "expected_processing_seconds is not the queue's attempt_seconds rounded up."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].concurrent_processes == 1 && sapmessaging_amqp_sender.this["Acme_Invoices/AMQP_Invoice"].concurrent_processes == 2 && sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].max_prefetched_messages == 1
    error_message = "The AMQP senders do not keep one prefetched message and one process unless told."
  }
  assert {
    condition     = sapmessaging_jms_sender.this["Acme_Orders_Retry"].max_retries == 5 && sapmessaging_jms_sender.this["Acme_Orders_Retry"].exponential_backoff && sapmessaging_jms_sender.this["Acme_Invoices/JMS_Archive"].channel == "JMS_Archive" && sapmessaging_jms_sender.this["Acme_Invoices/JMS_Archive"].retry_interval == 10
    error_message = "The JMS senders do not get their settings."
  }
  assert {
    condition     = alltrue([for s in concat(values(sapmessaging_amqp_sender.this), values(sapmessaging_jms_sender.this)) : s.deploy == false])
    error_message = "A sender deploys its flow itself instead of leaving it to the flow's deployment."
  }
  assert {
    # Three flows, each deployed once: Acme_Invoices has an AMQP and a JMS sender.
    condition     = toset(keys(sapmessaging_iflow_deployment.this)) == toset(["Acme_Orders_Inbound", "Acme_Orders_Retry", "Acme_Invoices"])
    error_message = "The module does not deploy each flow exactly once."
  }
  assert {
    condition     = sapmessaging_webhook_subscription.this["orders/push"].name == "acme/crm/test/orders/push" && sapmessaging_webhook_subscription.this["orders/push"].queue == "acme/crm/test/orders" && sapmessaging_webhook_subscription.this["orders/push"].endpoint == "https://orders.example.com/events"
    error_message = "The webhook is not named namespace/key or does not push its queue to its endpoint."
  }
}

run "budget_below_3_is_refused" {
  command = plan

  variables {
    queues = { orders = { total_attempts = 2 } }
  }

  expect_failures = [var.queues]
}

run "budget_above_257_is_refused" {
  command = plan

  variables {
    queues = { orders = { total_attempts = 5 }, invoices = { total_attempts = 258 } }
  }

  expect_failures = [var.queues]
}

run "namespace_needs_three_segments" {
  command = plan

  variables {
    namespace = "acme/crm"
  }

  expect_failures = [var.namespace]
}

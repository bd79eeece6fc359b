# A queue with its dead message queue, topic subscriptions and the AMQP sender
# of the integration flow that consumes it, all derived from one budget: the
# most executions one always-failing message may cost.

terraform {
  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

# The recipe: one adapter retry, the rest of the budget spent on redeliveries.
data "sapmessaging_retry_policy" "this" {
  total_attempts  = var.total_attempts
  attempt_seconds = var.attempt_seconds
}

resource "sapmessaging_dead_message_queue" "this" {
  name          = "${var.namespace}/${var.name}/dmq"
  max_ttl       = var.dead_message_ttl
  force_destroy = var.force_destroy

  # A queue must stop naming its dead message queue before that queue can go:
  # replace the DMQ by creating the new one first.
  lifecycle {
    create_before_destroy = true
  }
}

resource "sapmessaging_queue" "this" {
  name                 = "${var.namespace}/${var.name}"
  max_redelivery_count = data.sapmessaging_retry_policy.this.max_redelivery_count
  dead_message_queue   = sapmessaging_dead_message_queue.this.name
  force_destroy        = var.force_destroy
}

resource "sapmessaging_queue_subscription" "this" {
  for_each = toset(var.topics)

  queue_name    = sapmessaging_queue.this.name
  topic_pattern = each.value
}

resource "sapmessaging_amqp_sender" "this" {
  count = var.iflow_id == null ? 0 : 1

  iflow_id                          = var.iflow_id
  max_number_of_retries             = data.sapmessaging_retry_policy.this.max_number_of_retries
  delivery_status_after_max_retries = data.sapmessaging_retry_policy.this.delivery_status_after_max_retries
  max_prefetched_messages           = var.max_prefetched_messages
  concurrent_processes              = var.concurrent_processes
  expected_processing_seconds       = var.attempt_seconds == null ? null : ceil(var.attempt_seconds)

  # The budget check: the plan fails if the two loops together could exceed it.
  queue_max_redelivery_count = sapmessaging_queue.this.max_redelivery_count
  max_total_attempts         = var.total_attempts
}

# The retry and dead-letter settings of one team's namespace, derived from one
# budget per queue: the most executions one always-failing message may cost.
# Every object is a map entry, so a landscape adds a queue, a sender or a
# webhook by adding a line to its variables, never by calling the module again:
#
#   queues        one queue each, with its own dead message queue and topic subscriptions
#   amqp_senders  the Cloud Integration AMQP sender channels that consume the queues
#   jms_senders   the JMS sender channels of flows that retry through a JMS queue
#   webhooks      Event Mesh webhook subscriptions that push a queue to an endpoint
#
# The sender resources only write their channels (deploy = false); each flow is
# deployed once per apply, after all its channels, by one
# sapmessaging_iflow_deployment per flow.

terraform {
  required_version = ">= 1.8.0"

  required_providers {
    sapmessaging = {
      source  = "sapmessaging/sapmessaging"
      version = "~> 0.1.0"
    }
  }
}

locals {
  # "FLOW" or "FLOW/CHANNEL" → the flow and its channel (null: the flow's only sender of that kind).
  amqp_channels = { for k, s in var.amqp_senders : k => {
    iflow_id = split("/", k)[0]
    channel  = length(split("/", k)) > 1 ? split("/", k)[1] : null
  } }
  jms_channels = { for k, s in var.jms_senders : k => {
    iflow_id = split("/", k)[0]
    channel  = length(split("/", k)) > 1 ? split("/", k)[1] : null
  } }
  flows = toset(concat(
    [for c in values(local.amqp_channels) : c.iflow_id],
    [for c in values(local.jms_channels) : c.iflow_id],
  ))
  subscriptions = merge([for q, s in var.queues : { for topic in s.topics : "${q} ${topic}" => { queue = q, topic = topic } }]...)
}

# The recipe for each queue: one adapter retry, the rest of the budget spent on redeliveries.
data "sapmessaging_retry_policy" "this" {
  for_each = var.queues

  total_attempts  = each.value.total_attempts
  attempt_seconds = each.value.attempt_seconds
}

resource "sapmessaging_dead_message_queue" "this" {
  for_each = var.queues

  name          = "${var.namespace}/${each.key}/dmq"
  max_ttl       = each.value.dead_message_ttl
  force_destroy = var.force_destroy

  # A queue must stop naming its dead message queue before that queue can go:
  # replace the DMQ by creating the new one first.
  lifecycle {
    create_before_destroy = true
  }
}

resource "sapmessaging_queue" "this" {
  for_each = var.queues

  name                 = "${var.namespace}/${each.key}"
  max_redelivery_count = data.sapmessaging_retry_policy.this[each.key].max_redelivery_count
  dead_message_queue   = sapmessaging_dead_message_queue.this[each.key].name
  force_destroy        = var.force_destroy
}

resource "sapmessaging_queue_subscription" "this" {
  for_each = local.subscriptions

  queue_name    = sapmessaging_queue.this[each.value.queue].name
  topic_pattern = each.value.topic
}

resource "sapmessaging_webhook_subscription" "this" {
  for_each = var.webhooks

  name     = "${var.namespace}/${each.key}"
  queue    = sapmessaging_queue.this[each.value.queue].name
  endpoint = each.value.endpoint
}

resource "sapmessaging_amqp_sender" "this" {
  for_each = var.amqp_senders

  iflow_id                          = local.amqp_channels[each.key].iflow_id
  channel                           = local.amqp_channels[each.key].channel
  max_number_of_retries             = data.sapmessaging_retry_policy.this[each.value.queue].max_number_of_retries
  delivery_status_after_max_retries = data.sapmessaging_retry_policy.this[each.value.queue].delivery_status_after_max_retries
  max_prefetched_messages           = each.value.max_prefetched_messages
  concurrent_processes              = each.value.concurrent_processes
  expected_processing_seconds       = var.queues[each.value.queue].attempt_seconds == null ? null : ceil(var.queues[each.value.queue].attempt_seconds)

  # The budget check: the plan fails if the two loops together could exceed it.
  queue_max_redelivery_count = sapmessaging_queue.this[each.value.queue].max_redelivery_count
  max_total_attempts         = var.queues[each.value.queue].total_attempts

  # Deployed by sapmessaging_iflow_deployment.this, once per flow.
  deploy = false
}

resource "sapmessaging_jms_sender" "this" {
  for_each = var.jms_senders

  iflow_id              = local.jms_channels[each.key].iflow_id
  channel               = local.jms_channels[each.key].channel
  retry_interval        = each.value.retry_interval
  exponential_backoff   = each.value.exponential_backoff
  max_retry_interval    = each.value.max_retry_interval
  concurrent_processes  = each.value.concurrent_processes
  dead_letter_queue     = each.value.dead_letter_queue
  max_retries           = each.value.max_retries
  queue_expiration_days = each.value.queue_expiration_days

  deploy = false
}

# One deployment per flow, after all its channels. A channel's revision is
# unknown in the plan whenever the channel is written, so the flow is deployed
# again exactly when one of its channels changes (and when it no longer runs).
resource "sapmessaging_iflow_deployment" "this" {
  for_each = local.flows

  iflow_id = each.key
  triggers = merge(
    { for k, s in sapmessaging_amqp_sender.this : "amqp ${k}" => s.revision if s.iflow_id == each.key },
    { for k, s in sapmessaging_jms_sender.this : "jms ${k}" => s.revision if s.iflow_id == each.key },
  )

  timeouts = {
    create = "15m"
    update = "15m"
  }
}

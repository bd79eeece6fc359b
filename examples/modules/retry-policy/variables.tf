variable "namespace" {
  description = "The Event Mesh namespace, three segments, for example acme/crm/prod."
  type        = string

  validation {
    condition     = length(split("/", var.namespace)) == 3
    error_message = "The namespace has exactly three segments, for example acme/crm/prod."
  }
}

variable "queues" {
  description = <<-EOT
    The queues, by name below the namespace (orders → NAMESPACE/orders, with its dead message queue
    NAMESPACE/orders/dmq). total_attempts is the most executions one always-failing message may cost,
    3 to 257; attempt_seconds how long one execution takes (for the time to the dead message queue);
    topics the topic patterns the queue subscribes to; dead_message_ttl how long dead messages are
    kept, in seconds (at most 604800).
  EOT
  type = map(object({
    total_attempts   = number
    attempt_seconds  = optional(number)
    topics           = optional(set(string), [])
    dead_message_ttl = optional(number, 604800)
  }))

  validation {
    condition     = alltrue([for q in values(var.queues) : q.total_attempts >= 3 && q.total_attempts <= 257])
    error_message = "Each total_attempts must be 3 to 257: the smallest bounded policy, one redelivery of one attempt, costs (1 + 1) × 1 + 1 = 3 executions, and Event Mesh allows at most 255 redeliveries, (255 + 1) × 1 + 1 = 257. Set a budget in that range."
  }
}

variable "amqp_senders" {
  description = <<-EOT
    The AMQP sender channels that consume the queues, by "FLOW" (the flow's only AMQP sender) or
    "FLOW/CHANNEL". queue is the key of the queue in queues: the channel gets that queue's policy
    (retries and delivery status) and its budget check.
  EOT
  type = map(object({
    queue                   = string
    max_prefetched_messages = optional(number, 1) # keep 1 for flows slower than a minute
    concurrent_processes    = optional(number, 1)
  }))
  default = {}
}

variable "jms_senders" {
  description = <<-EOT
    The JMS sender channels, by "FLOW" or "FLOW/CHANNEL". max_retries is the limit the flow's
    SAPJMSRetries guard enforces (the plan fails when the flow has none or another); the waits start
    at retry_interval minutes and double up to max_retry_interval with exponential_backoff.
  EOT
  type = map(object({
    max_retries           = number
    retry_interval        = optional(number, 1)
    exponential_backoff   = optional(bool, true)
    max_retry_interval    = optional(number, 60)
    concurrent_processes  = optional(number, 1)
    dead_letter_queue     = optional(bool, true)
    queue_expiration_days = optional(number, 30)
  }))
  default = {}
}

variable "webhooks" {
  description = <<-EOT
    Webhook subscriptions, by name below the namespace: Event Mesh pushes each message of the queue
    (the key of the queue in queues) to endpoint, and keeps it until the endpoint answers 2xx (QoS 1).
  EOT
  type = map(object({
    queue    = string
    endpoint = string
  }))
  default = {}
}

variable "force_destroy" {
  description = "Whether destroying the landscape may discard queued and dead messages."
  type        = bool
  default     = false
}

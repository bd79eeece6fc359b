variable "namespace" {
  description = "The Event Mesh namespace, three segments, for example acme/crm/prod."
  type        = string

  validation {
    condition     = length(split("/", var.namespace)) == 3
    error_message = "The namespace has exactly three segments, for example acme/crm/prod."
  }
}

variable "name" {
  description = "The queue name below the namespace, for example orders."
  type        = string
}

variable "total_attempts" {
  description = "The most executions one always-failing message may cost, 3 to 257."
  type        = number

  validation {
    condition     = var.total_attempts >= 3 && var.total_attempts <= 257
    error_message = "The total_attempts must be 3 to 257: the smallest bounded policy, one redelivery of one attempt, costs (1 + 1) × 1 + 1 = 3 executions, and Event Mesh allows at most 255 redeliveries, (255 + 1) × 1 + 1 = 257. Set a budget in that range."
  }
}

variable "attempt_seconds" {
  description = "How long one execution of the flow takes, in seconds; used for the time to the dead message queue."
  type        = number
  default     = null
}

variable "topics" {
  description = "Topic patterns the queue subscribes to."
  type        = list(string)
  default     = []
}

variable "iflow_id" {
  description = "The integration flow that consumes the queue through an AMQP sender; null to manage only the queues."
  type        = string
  default     = null
}

variable "max_prefetched_messages" {
  description = "Max. Number of Prefetched Messages of the AMQP sender; keep 1 for flows slower than a minute."
  type        = number
  default     = 1
}

variable "concurrent_processes" {
  description = "Number of Concurrent Processes of the AMQP sender; 1 while testing."
  type        = number
  default     = 1
}

variable "dead_message_ttl" {
  description = "How long dead messages are kept, in seconds (at most 604800)."
  type        = number
  default     = 604800
}

variable "force_destroy" {
  description = "Whether destroying the landscape may discard queued and dead messages."
  type        = bool
  default     = false
}

variable "environment" {
  description = "dev, test or prod: the namespace acme/crm/<environment> of every queue."
  type        = string

  validation {
    condition     = contains(["dev", "test", "prod"], var.environment)
    error_message = "The environment is dev, test or prod."
  }
}

variable "event_mesh_service_key_file" {
  description = "The service key of this environment's Event Mesh instance, as BTP hands it out."
  type        = string
}

variable "cloud_integration_service_key_file" {
  description = "The service key of this environment's Cloud Integration tenant (API plan), as BTP hands it out."
  type        = string
}

variable "queues" {
  description = "The queues by name below the namespace, with their budget: see the retry-policy module."
  type = map(object({
    total_attempts   = number
    attempt_seconds  = optional(number)
    topics           = optional(set(string), [])
    dead_message_ttl = optional(number, 604800)
  }))
}

variable "amqp_senders" {
  description = "The AMQP sender channels by FLOW or FLOW/CHANNEL, each with the queue it consumes."
  type = map(object({
    queue                   = string
    max_prefetched_messages = optional(number, 1)
    concurrent_processes    = optional(number, 1)
  }))
  default = {}
}

variable "jms_senders" {
  description = "The JMS sender channels by FLOW or FLOW/CHANNEL, each with the retry limit of its flow."
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
  description = "The webhook subscriptions by name below the namespace, each with its queue and endpoint."
  type = map(object({
    queue    = string
    endpoint = string
  }))
  default = {}
}

variable "force_destroy" {
  description = "Whether destroying the environment may discard queued and dead messages (never in prod)."
  type        = bool
  default     = false
}

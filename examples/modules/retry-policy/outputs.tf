output "queue_name" {
  description = "The full name of the queue."
  value       = sapmessaging_queue.this.name
}

output "dead_message_queue_name" {
  description = "The full name of the dead message queue."
  value       = sapmessaging_dead_message_queue.this.name
}

output "max_redelivery_count" {
  description = "The queue's redelivery count from the budget."
  value       = sapmessaging_queue.this.max_redelivery_count
}

output "worst_case_attempts" {
  description = "The most executions one always-failing message can cost."
  value       = data.sapmessaging_retry_policy.this.worst_case_attempts
}

output "seconds_to_dead_message_queue" {
  description = "How long a poison message takes to reach the dead message queue, when attempt_seconds is set."
  value       = data.sapmessaging_retry_policy.this.seconds_to_dead_message_queue
}

output "queue_names" {
  description = "The full name of each queue, by its key in queues."
  value       = { for k, q in sapmessaging_queue.this : k => q.name }
}

output "dead_message_queue_names" {
  description = "The full name of each queue's dead message queue, by its key in queues."
  value       = { for k, q in sapmessaging_dead_message_queue.this : k => q.name }
}

output "max_redelivery_counts" {
  description = "Each queue's redelivery count from its budget."
  value       = { for k, q in sapmessaging_queue.this : k => q.max_redelivery_count }
}

output "worst_case_attempts" {
  description = "The most executions one always-failing message can cost, by queue."
  value       = { for k, p in data.sapmessaging_retry_policy.this : k => p.worst_case_attempts }
}

output "seconds_to_dead_message_queue" {
  description = "How long a poison message takes to reach the dead message queue, by queue (null without attempt_seconds)."
  value       = { for k, p in data.sapmessaging_retry_policy.this : k => p.seconds_to_dead_message_queue }
}

output "jms_give_up_after_minutes" {
  description = "Minutes from the first failure until each JMS sender's flow gives a message up."
  value       = { for k, s in sapmessaging_jms_sender.this : k => s.give_up_after_minutes }
}

output "runtime_status" {
  description = "The runtime status of each flow the module deploys."
  value       = { for id, d in sapmessaging_iflow_deployment.this : id => d.runtime_status }
}

output "dead_message_queues" {
  description = "Each dead message queue's name and time to live, by its queue's key in queues."
  value       = { for k, q in sapmessaging_dead_message_queue.this : k => { name = q.name, respect_ttl = q.respect_ttl, max_ttl = q.max_ttl } }
}

output "subscriptions" {
  description = "The queue of each topic subscription, by \"QUEUE_KEY TOPIC\"."
  value       = { for k, s in sapmessaging_queue_subscription.this : k => s.queue_name }
}

output "amqp_senders" {
  description = "Each AMQP sender's retries, delivery status and worst case, by its key in amqp_senders."
  value = { for k, s in sapmessaging_amqp_sender.this : k => {
    max_number_of_retries             = s.max_number_of_retries
    delivery_status_after_max_retries = s.delivery_status_after_max_retries
    worst_case_attempts               = s.worst_case_attempts
  } }
}

output "webhooks" {
  description = "Each webhook subscription's name, queue and endpoint, by its key in webhooks."
  value       = { for k, w in sapmessaging_webhook_subscription.this : k => { name = w.name, queue = w.queue, endpoint = w.endpoint } }
}

data "sapmessaging_aem_queues" "acme" {
  name_prefix = "acme/"
}

# No queue of the broker may keep the broker's default of retrying a poison message for ever. A dead
# message queue (named by another queue, is_dead_message_queue) has no redelivery count either: it
# is inspected, not consumed, and is left out.
check "no_unlimited_redelivery" {
  assert {
    condition = alltrue([
      for q in data.sapmessaging_aem_queues.acme.queues : q.poison_message_deliveries != null || q.is_dead_message_queue
    ])
    error_message = "Queues that redeliver for ever: ${join(", ", [
      for q in data.sapmessaging_aem_queues.acme.queues : q.name if q.poison_message_deliveries == null && !q.is_dead_message_queue
    ])}."
  }
}

# Every finding of the provider's AEM queue rules, by queue and rule ID.
output "findings" {
  value = {
    for q in data.sapmessaging_aem_queues.acme.queues : q.name => [for f in q.findings : f.rule] if length(q.findings) > 0
  }
}

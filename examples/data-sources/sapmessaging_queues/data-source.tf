data "sapmessaging_queues" "crm" {
  name_prefix = "acme/crm/prod/"
}

# No queue of the landscape may redeliver a poison message for ever.
check "no_unbounded_redelivery" {
  assert {
    condition = alltrue([
      for q in data.sapmessaging_queues.crm.queues : !q.unbounded_redelivery
    ])
    error_message = "Queues with unlimited redelivery: ${join(", ", [
      for q in data.sapmessaging_queues.crm.queues : q.name if q.unbounded_redelivery
    ])}."
  }
}

output "crm_queue_names" {
  value = data.sapmessaging_queues.crm.names
}

# The JMS queues of the Cloud Integration tenant. A failing message on a JMS
# queue is retried until it expires and is then deleted, so watch the queues.
data "sapmessaging_jms_queues" "tenant" {}

# Stopped queues and queues the JMS monitor grades warning or critical.
check "jms_queues_healthy" {
  assert {
    condition     = length(data.sapmessaging_jms_queues.tenant.unhealthy_queues) == 0
    error_message = "JMS queues stopped or not ok: ${join(", ", data.sapmessaging_jms_queues.tenant.unhealthy_queues)}."
  }
}

# The broker's capacity and queue count against the tenant's limits
# (by default 9.3 GB and 30 queues).
check "jms_capacity" {
  assert {
    condition     = data.sapmessaging_jms_queues.tenant.capacity_state == "ok"
    error_message = "The JMS capacity is ${data.sapmessaging_jms_queues.tenant.capacity_state}: ${format("%.1f", coalesce(data.sapmessaging_jms_queues.tenant.capacity_used_percent, 0))}% of ${data.sapmessaging_jms_queues.tenant.max_capacity_bytes} bytes used."
  }
  assert {
    condition     = data.sapmessaging_jms_queues.tenant.queue_count_state == "ok"
    error_message = "${data.sapmessaging_jms_queues.tenant.queue_count} of ${data.sapmessaging_jms_queues.tenant.queue_limit} JMS queues are in use; at most one more fits."
  }
}

# Messages waiting on each queue (null where the tenant does not offer counts).
output "jms_messages" {
  value = { for q in data.sapmessaging_jms_queues.tenant.queues : q.name => q.message_count }
}

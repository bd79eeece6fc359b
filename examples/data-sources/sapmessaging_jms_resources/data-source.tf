data "sapmessaging_jms_resources" "orders" {
  application_name = "AcmeOrders"

  connection_factories = [{
    name      = "AcmeOrdersQueueFactory"
    type      = "javax.jms.QueueConnectionFactory"
    client_id = "acmeOrders"
  }]

  destinations = [
    {
      name                       = "AcmeOrdersQueue"
      type                       = "queue"
      delivery_attempts_limited  = true
      max_delivery_attempts      = 5
      delivery_delay_interval_ms = 60000
      error_destination          = "AcmeOrdersErrorQueue"
    },
    {
      # The error queue itself; its own dead messages go to sapDefaultErrorQueue.
      name = "AcmeOrdersErrorQueue"
      type = "queue"
    },
  ]
}

# The checked descriptor, to ship as META-INF/jms-resources.xml.
output "jms_resources_xml" {
  value = data.sapmessaging_jms_resources.orders.xml
}

# 5 attempts × 60 s: a message that always fails is dead after 5 minutes.
output "time_to_dead_ms" {
  value = data.sapmessaging_jms_resources.orders.time_to_dead_ms
}

# Or check a descriptor that already exists.
data "sapmessaging_jms_resources" "legacy" {
  source_xml = file("${path.module}/legacy/jms-resources.xml")
}

output "legacy_findings" {
  value = [for f in data.sapmessaging_jms_resources.legacy.findings : "${f.severity}: ${f.summary}"]
}

# A dead message queue: it takes messages (ingress on), expires them after 3 days, and is inspected
# rather than consumed, so it has no redelivery count or dead message queue of its own.
resource "sapmessaging_aem_dead_message_queue" "shipments_dmq" {
  name            = "acme/aem/prod/shipments/dmq"
  respect_ttl     = true
  max_ttl         = 259200
  ingress_enabled = true
  egress_enabled  = true
}

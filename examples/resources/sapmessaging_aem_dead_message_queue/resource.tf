# A dead message queue: it takes and delivers messages (ingress and egress on, the provider's default),
# expires them after 3 days instead of the default 7, and is inspected rather than consumed, so it has no
# redelivery count or dead message queue of its own.
resource "sapmessaging_aem_dead_message_queue" "shipments_dmq" {
  name    = "acme/aem/prod/shipments/dmq"
  max_ttl = 259200
}

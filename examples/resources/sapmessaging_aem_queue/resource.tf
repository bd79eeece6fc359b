# The dead message queue keeps what the queue gives up on for 7 days: with only its name it takes and
# delivers messages, with respect_ttl = true and max_ttl = 604800 (the broker's defaults would take
# nothing and keep it for ever).
resource "sapmessaging_aem_dead_message_queue" "invoices_dmq" {
  name = "acme/aem/prod/invoices/dmq"
}

# A poison message is delivered 6 times over 31 s of redelivery delays (1 s, 2 s, 4 s, 8 s, 16 s),
# then moved to the dead message queue. The broker's defaults would retry it for ever, as fast as
# the consumer fails it; ingress and egress, off by the broker's default, are on by the provider's.
resource "sapmessaging_aem_queue" "invoices" {
  name                              = "acme/aem/prod/invoices"
  max_redelivery_count              = 5
  dead_message_queue                = sapmessaging_aem_dead_message_queue.invoices_dmq.name
  redelivery_delay_enabled          = true
  redelivery_delay_initial_interval = 1000
  redelivery_delay_multiplier       = 200
  redelivery_delay_max_interval     = 64000
  delivery_count_enabled            = true
}

output "invoices_poison_message" {
  value = "${sapmessaging_aem_queue.invoices.poison_message_deliveries} deliveries over ${sapmessaging_aem_queue.invoices.time_to_dead_letter}"
}

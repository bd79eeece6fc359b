resource "sapmessaging_dead_message_queue" "business_partner" {
  name = "acme/crm/prod/business-partner/dmq"
}

resource "sapmessaging_queue" "business_partner" {
  name                 = "acme/crm/prod/business-partner"
  max_redelivery_count = 5
  dead_message_queue   = sapmessaging_dead_message_queue.business_partner.name
}

# Every BusinessPartner event from S/4HANA lands in the queue.
resource "sapmessaging_queue_subscription" "business_partner_events" {
  queue_name    = sapmessaging_queue.business_partner.name
  topic_pattern = "acme/crm/prod/ce/sap/s4/BusinessPartner/*"
}

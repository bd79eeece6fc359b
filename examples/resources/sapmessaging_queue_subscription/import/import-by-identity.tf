import {
  to = sapmessaging_queue_subscription.business_partner_events
  identity = {
    queue_name    = "acme/crm/prod/business-partner"
    topic_pattern = "acme/crm/prod/ce/sap/s4/BusinessPartner/*"
  }
}

import {
  to = sapmessaging_queue_subscription.business_partner_events
  id = "acme/crm/prod/business-partner,acme/crm/prod/ce/sap/s4/BusinessPartner/*"
}

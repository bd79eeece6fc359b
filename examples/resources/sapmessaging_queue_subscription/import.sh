# The import ID is the full queue name and the topic pattern, separated by a comma.
terraform import sapmessaging_queue_subscription.business_partner_events 'acme/crm/prod/business-partner,acme/crm/prod/ce/sap/s4/BusinessPartner/*'

# test: the budgets of prod, so that what test shows is what prod will do.
environment                        = "test"
event_mesh_service_key_file        = "keys/test/event-mesh.json"
cloud_integration_service_key_file = "keys/test/cloud-integration.json"
force_destroy                      = true

queues = {
  orders = {
    total_attempts  = 7
    attempt_seconds = 2
    topics          = ["acme/crm/test/ce/sap/s4/SalesOrder/*"]
  }
  orders-push = {
    total_attempts = 4
  }
}

amqp_senders = {
  "OrdersInbound" = { queue = "orders", concurrent_processes = 2 }
}

jms_senders = {
  "Acme_Orders_Retry" = { max_retries = 5 }
}

webhooks = {
  "orders-push/webhook" = { queue = "orders-push", endpoint = "https://orders-test.example.com/events" }
}

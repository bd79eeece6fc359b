# prod: the budgets test has shown, more consumers, and no destroy that discards messages.
environment                        = "prod"
event_mesh_service_key_file        = "keys/prod/event-mesh.json"
cloud_integration_service_key_file = "keys/prod/cloud-integration.json"
force_destroy                      = false

queues = {
  orders = {
    total_attempts  = 7
    attempt_seconds = 2
    topics          = ["acme/crm/prod/ce/sap/s4/SalesOrder/*", "acme/crm/prod/ce/sap/s4/SalesOrderChange/*"]
  }
  orders-push = {
    total_attempts = 4
  }
}

amqp_senders = {
  "OrdersInbound" = { queue = "orders", concurrent_processes = 4 }
}

jms_senders = {
  "Acme_Orders_Retry" = { max_retries = 5, concurrent_processes = 2 }
}

webhooks = {
  "orders-push/webhook" = { queue = "orders-push", endpoint = "https://orders.example.com/events" }
}

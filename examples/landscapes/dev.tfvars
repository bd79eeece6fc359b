# dev: small budgets, one consumer per flow, and a landscape that may be thrown away.
environment                        = "dev"
event_mesh_service_key_file        = "keys/dev/event-mesh.json"
cloud_integration_service_key_file = "keys/dev/cloud-integration.json"
force_destroy                      = true

queues = {
  orders = {
    total_attempts  = 3
    attempt_seconds = 2
    topics          = ["acme/crm/dev/ce/sap/s4/SalesOrder/*"]
  }
  # Pushed to a webhook: at most 2 redeliveries, so a failing message leaves within 45 minutes.
  orders-push = {
    total_attempts = 3
  }
}

amqp_senders = {
  "OrdersInbound" = { queue = "orders" }
}

jms_senders = {
  "Acme_Orders_Retry" = { max_retries = 5, max_retry_interval = 10 }
}

webhooks = {
  "orders-push/webhook" = { queue = "orders-push", endpoint = "https://orders-dev.example.com/events" }
}

# Applies the module against an Event Mesh instance and a Cloud Integration tenant, and
# destroys what it created. The service key files are variables, and the first run
# refuses them unless every URL in them is a loopback address: run it against the
# sandbox of `make sandbox` (guide "Try It Locally"),
#
#   terraform test -var event_mesh_service_key_file=$SANDBOX/keys/event-mesh.json \
#     -var cloud_integration_service_key_file=$SANDBOX/keys/cloud-integration.json
#
# and add -var remote_tenant_is_meant=true only to run it against a tenant that is not
# on this machine on purpose. The flows Acme_Orders_Inbound and Acme_Orders_Retry are part
# of the sandbox's sample content.

# Refuses a tenant that is not on this machine; later runs are skipped when it fails.
run "tenant_is_loopback" {
  command = plan

  module {
    source = "./tests/tenant"
  }
}

# Exactly the keys the guard read.
provider "sapmessaging" {
  event_mesh        = { service_key = run.tenant_is_loopback.event_mesh_service_key }
  cloud_integration = { service_key = run.tenant_is_loopback.cloud_integration_service_key }
}

variables {
  namespace     = "acme/crm/test"
  force_destroy = true
  queues = {
    tftest = {
      total_attempts = 9
      topics         = ["acme/crm/test/ce/sap/s4/SalesOrder/*"]
    }
    # Pushed to a webhook: at most 2 redeliveries, so that a failing message leaves within
    # 45 minutes instead of holding one of the webhook's 18 messages in flight for hours.
    push = {
      total_attempts = 4
    }
  }
}

run "queues" {
  assert {
    condition     = sapmessaging_queue.this["tftest"].max_redelivery_count == 7 && sapmessaging_queue.this["tftest"].dead_message_queue == "acme/crm/test/tftest/dmq"
    error_message = "The service holds max_redelivery_count = ${sapmessaging_queue.this["tftest"].max_redelivery_count}, want 7 for a budget of 9: (7 + 1) × 1 + 1 = 9."
  }
  assert {
    condition     = sapmessaging_dead_message_queue.this["tftest"].respect_ttl && sapmessaging_dead_message_queue.this["tftest"].max_ttl == 604800
    error_message = "The dead message queue does not expire dead messages after 7 days."
  }
  assert {
    condition     = sapmessaging_queue_subscription.this["tftest acme/crm/test/ce/sap/s4/SalesOrder/*"].queue_name == "acme/crm/test/tftest"
    error_message = "The subscription was not created on the queue."
  }
  assert {
    condition     = output.worst_case_attempts["tftest"] == 9
    error_message = "worst_case_attempts is ${output.worst_case_attempts["tftest"]}, want 9."
  }
}

run "senders_and_webhook" {
  variables {
    amqp_senders = { "Acme_Orders_Inbound" = { queue = "tftest" } }
    jms_senders  = { "Acme_Orders_Retry" = { max_retries = 5 } }
    webhooks     = { "push/webhook" = { queue = "push", endpoint = "https://orders.example.com/events" } }
  }

  assert {
    condition     = sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].max_number_of_retries == 1 && sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].delivery_status_after_max_retries == "REJECTED"
    error_message = "The flow's AMQP sender does not hold the policy's retries and delivery status."
  }
  assert {
    condition     = sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].worst_case_attempts == 9
    error_message = "The sender computes ${sapmessaging_amqp_sender.this["Acme_Orders_Inbound"].worst_case_attempts} executions in the worst case, want (7 + 1) × 1 + 1 = 9."
  }
  assert {
    condition     = sapmessaging_jms_sender.this["Acme_Orders_Retry"].give_up_after_minutes == 63
    error_message = "The JMS sender gives a message up after ${sapmessaging_jms_sender.this["Acme_Orders_Retry"].give_up_after_minutes} minutes, want 1 + 2 + 4 + 8 + 16 + 32 = 63."
  }
  assert {
    condition     = output.runtime_status == { Acme_Orders_Inbound = "STARTED", Acme_Orders_Retry = "STARTED" }
    error_message = "The module's flows do not run after the apply: ${jsonencode(output.runtime_status)}."
  }
  assert {
    condition     = sapmessaging_webhook_subscription.this["push/webhook"].name == "acme/crm/test/push/webhook" && sapmessaging_webhook_subscription.this["push/webhook"].queue == "acme/crm/test/push"
    error_message = "The webhook is not named namespace/key or does not push its queue."
  }
}

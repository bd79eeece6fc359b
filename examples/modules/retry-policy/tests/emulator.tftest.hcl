# Applies the module against an Event Mesh instance and a Cloud Integration tenant, and
# destroys what it created. Every run applies tests/harness, which configures the provider
# from the two service key files given as variables and refuses them unless every URL in
# them is a loopback address. Run it against the sandbox of `make sandbox` (guide "Try It
# Locally"):
#
#   terraform test -var event_mesh_service_key_file=$SANDBOX/keys/event-mesh.json \
#     -var cloud_integration_service_key_file=$SANDBOX/keys/cloud-integration.json
#
# and add -var remote_tenant_is_meant=true only to run it against a tenant that is not on
# this machine, on purpose. The flows Acme_Orders_Inbound and Acme_Orders_Retry are part of
# the sandbox's sample content.

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
  module {
    source = "./tests/harness"
  }

  assert {
    condition     = output.policy.max_redelivery_counts["tftest"] == 7 && output.policy.dead_message_queues["tftest"].name == "acme/crm/test/tftest/dmq"
    error_message = "The service holds max_redelivery_count = ${output.policy.max_redelivery_counts["tftest"]}, want 7 for a budget of 9: (7 + 1) × 1 + 1 = 9."
  }
  assert {
    condition     = output.policy.dead_message_queues["tftest"].respect_ttl && output.policy.dead_message_queues["tftest"].max_ttl == 604800
    error_message = "The dead message queue does not expire dead messages after 7 days."
  }
  assert {
    condition     = output.policy.subscriptions["tftest acme/crm/test/ce/sap/s4/SalesOrder/*"] == "acme/crm/test/tftest"
    error_message = "The subscription was not created on the queue."
  }
  assert {
    condition     = output.policy.worst_case_attempts["tftest"] == 9
    error_message = "worst_case_attempts is ${output.policy.worst_case_attempts["tftest"]}, want 9."
  }
}

run "senders_and_webhook" {
  module {
    source = "./tests/harness"
  }

  variables {
    amqp_senders = { "Acme_Orders_Inbound" = { queue = "tftest" } }
    jms_senders  = { "Acme_Orders_Retry" = { max_retries = 5 } }
    webhooks     = { "push/webhook" = { queue = "push", endpoint = "https://orders.example.com/events" } }
  }

  assert {
    condition     = output.policy.amqp_senders["Acme_Orders_Inbound"].max_number_of_retries == 1 && output.policy.amqp_senders["Acme_Orders_Inbound"].delivery_status_after_max_retries == "REJECTED"
    error_message = "The flow's AMQP sender does not hold the policy's retries and delivery status."
  }
  assert {
    condition     = output.policy.amqp_senders["Acme_Orders_Inbound"].worst_case_attempts == 9
    error_message = "The sender computes ${output.policy.amqp_senders["Acme_Orders_Inbound"].worst_case_attempts} executions in the worst case, want (7 + 1) × 1 + 1 = 9."
  }
  assert {
    condition     = output.policy.jms_give_up_after_minutes["Acme_Orders_Retry"] == 63
    error_message = "The JMS sender gives a message up after ${output.policy.jms_give_up_after_minutes["Acme_Orders_Retry"]} minutes, want 1 + 2 + 4 + 8 + 16 + 32 = 63."
  }
  assert {
    condition     = output.policy.runtime_status == { Acme_Orders_Inbound = "STARTED", Acme_Orders_Retry = "STARTED" }
    error_message = "The module's flows do not run after the apply: ${jsonencode(output.policy.runtime_status)}."
  }
  assert {
    condition     = output.policy.webhooks["push/webhook"].name == "acme/crm/test/push/webhook" && output.policy.webhooks["push/webhook"].queue == "acme/crm/test/push"
    error_message = "The webhook is not named namespace/key or does not push its queue."
  }
}

# The webhook subscriptions that push the queues under acme/crm/prod/. One call of the
# messaging API lists them all. terraform query -generate-config-out=webhooks.tf writes a
# resource block and an import block for each; a QoS 0 subscription is generated with
# accept_message_loss = true, as it runs.
list "sapmessaging_webhook_subscription" "crm_prod" {
  provider = sapmessaging
  limit    = 1000

  config {
    queue_name_prefix = "acme/crm/prod/"
  }
}

# Other selections, one at a time in place of the block above: two list blocks that return the same
# webhook subscription each write it to the configuration -generate-config-out generates, and the plan refuses
# the object managed twice. Uncomment one and remove the block above.
# Every webhook subscription of the instance.
# list "sapmessaging_webhook_subscription" "all" {
#   provider = sapmessaging
#   limit    = 1000
# }

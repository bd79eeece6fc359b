# The topic subscriptions of every queue under acme/crm/prod/: one call lists the
# queues, one more per matching queue lists its subscriptions. An instance holds up to
# 3000 subscriptions: limit = 3000 lists them all (Terraform's default is 100; a block cut
# at its limit warns).
list "sapmessaging_queue_subscription" "crm_prod" {
  provider = sapmessaging
  limit    = 3000

  config {
    queue_name_prefix = "acme/crm/prod/"
  }
}

# Other selections, one at a time in place of the block above: two list blocks that return the same
# subscription each write it to the configuration -generate-config-out generates, and the plan refuses
# the object managed twice. Uncomment one and remove the block above.
# The subscriptions of one queue: one call.
# list "sapmessaging_queue_subscription" "orders" {
#   provider = sapmessaging
#
#   config {
#     queue_name = "acme/crm/prod/orders"
#   }
# }
#
# Every subscription of the instance.
# list "sapmessaging_queue_subscription" "all" {
#   provider = sapmessaging
#   limit    = 3000
# }

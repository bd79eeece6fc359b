# The topic subscriptions of every queue under acme/: one paged list of the queues, then the
# subscriptions of each matching queue. Terraform returns 100 results per list block unless it
# sets `limit`; a block cut at its limit warns.
list "sapmessaging_aem_queue_subscription" "acme" {
  provider = sapmessaging
  limit    = 1000

  config {
    queue_name_prefix = "acme/"
  }
}

# Other selections, one at a time in place of the block above: two list blocks that return the same
# subscription each write it to the configuration -generate-config-out generates, and the plan refuses
# the object managed twice. Uncomment one and remove the block above.
# The subscriptions of one queue.
# list "sapmessaging_aem_queue_subscription" "orders" {
#   provider = sapmessaging
#
#   config {
#     queue_name = "acme/aem/prod/orders"
#   }
# }
#
# Every subscription of the Message VPN.
# list "sapmessaging_aem_queue_subscription" "all" {
#   provider = sapmessaging
#   limit    = 1000
# }

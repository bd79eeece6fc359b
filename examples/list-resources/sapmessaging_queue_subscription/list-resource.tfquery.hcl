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

# The subscriptions of one queue: one call.
list "sapmessaging_queue_subscription" "orders" {
  provider = sapmessaging

  config {
    queue_name = "acme/crm/prod/orders"
  }
}

# Every subscription of the instance.
list "sapmessaging_queue_subscription" "all" {
  provider = sapmessaging
  limit    = 3000
}

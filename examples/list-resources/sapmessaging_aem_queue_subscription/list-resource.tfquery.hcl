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

# The subscriptions of one queue.
list "sapmessaging_aem_queue_subscription" "orders" {
  provider = sapmessaging

  config {
    queue_name = "acme/aem/prod/orders"
  }
}

# Every subscription of the Message VPN.
list "sapmessaging_aem_queue_subscription" "all" {
  provider = sapmessaging
  limit    = 1000
}

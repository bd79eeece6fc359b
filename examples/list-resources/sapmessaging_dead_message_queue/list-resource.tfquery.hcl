# The queues under acme/crm/prod/ that another queue names as its dead message queue,
# and that have no redelivery count and no dead message queue of their own, each as a
# sapmessaging_dead_message_queue; the display name says which queues name it. An instance
# holds up to 250 queues: limit = 250 lists them all (Terraform's default is 100).
list "sapmessaging_dead_message_queue" "crm_prod" {
  provider = sapmessaging
  limit    = 250

  config {
    name_prefix = "acme/crm/prod/"
  }
}

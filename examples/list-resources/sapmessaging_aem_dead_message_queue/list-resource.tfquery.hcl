# The queues under acme/aem/prod/ that another queue names as its dead message queue and that
# have no redelivery count and no dead message queue of their own, each as a
# sapmessaging_aem_dead_message_queue; the display name says which queues name it.
list "sapmessaging_aem_dead_message_queue" "aem_prod" {
  provider         = sapmessaging
  include_resource = true
  limit            = 1000

  config {
    name_prefix = "acme/aem/prod/"
  }
}

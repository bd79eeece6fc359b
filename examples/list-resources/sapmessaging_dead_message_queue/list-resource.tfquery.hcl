# The queues under acme/crm/prod/ that another queue names as its dead message queue,
# each as a sapmessaging_dead_message_queue; the display name says which queues name it.
list "sapmessaging_dead_message_queue" "crm_prod" {
  provider = sapmessaging

  config {
    name_prefix = "acme/crm/prod/"
  }
}

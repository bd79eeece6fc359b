# The queues under acme/crm/prod/ that another queue names as its dead message queue.
# Import them first, or in the same apply: a queue can name only an existing dead
# message queue.
list "sapmessaging_dead_message_queue" "crm_prod" {
  provider = sapmessaging

  config {
    name_prefix = "acme/crm/prod/"
  }
}

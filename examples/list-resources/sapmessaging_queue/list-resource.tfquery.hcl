# The queues under acme/crm/prod/ that no other queue names as its dead message queue
# (those are listed by the sapmessaging_dead_message_queue list resource).
# terraform query -generate-config-out=queues.tf writes a resource block and an import
# block for each.
list "sapmessaging_queue" "crm_prod" {
  provider = sapmessaging

  config {
    name_prefix = "acme/crm/prod/"
  }
}

# The queues under acme/crm/prod/ that are no dead message queue (those are listed by
# the sapmessaging_dead_message_queue list resource; a chained error queue, named as dead
# message queue but with a redelivery count or a dead message queue of its own, is listed
# here). terraform query -generate-config-out=queues.tf writes a resource block and an
# import block for each. An instance holds up to 250 queues: limit = 250 lists them all
# (Terraform's default is 100; a block cut at its limit warns).
list "sapmessaging_queue" "crm_prod" {
  provider = sapmessaging
  limit    = 250

  config {
    name_prefix = "acme/crm/prod/"
  }
}

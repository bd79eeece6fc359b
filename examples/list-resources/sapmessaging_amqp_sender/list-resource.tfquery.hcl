# Every AMQP sender channel of the flows in the package AcmeCRM: a result per
# channel, with the channel in the identity when a flow has more than one.
# Terraform returns 100 results per list block unless limit says otherwise.
list "sapmessaging_amqp_sender" "crm" {
  provider = sapmessaging
  limit    = 1000

  config {
    package_id = "AcmeCRM"
  }
}

# Other selections, one at a time in place of the block above: two list blocks that return the same
# channel each write it to the configuration -generate-config-out generates, and the plan refuses
# the object managed twice. Uncomment one and remove the block above.
# The AMQP sender channels of the flows whose ID starts with Orders_Inbound.
# Each flow is downloaded once for all the list blocks of the query.
# list "sapmessaging_amqp_sender" "orders_inbound" {
#   provider = sapmessaging
#
#   config {
#     iflow_id_prefix = "Orders_Inbound"
#   }
# }

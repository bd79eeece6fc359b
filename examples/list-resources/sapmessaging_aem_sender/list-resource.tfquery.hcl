# Every Advanced Event Mesh sender channel of the flows in the package AcmeAEM,
# with every setting and the path of a poison message (include_resource;
# terraform query -generate-config-out=aem.tf switches it on and writes a
# resource and an import block per channel). A channel that acknowledges on
# receipt is written with accept_message_loss = true, so that it is adopted as
# it is. A tenant can have more than 100 channels: limit = 1000 (Terraform's
# default is 100; a block cut at its limit warns).
list "sapmessaging_aem_sender" "acme_aem" {
  provider         = sapmessaging
  include_resource = true
  limit            = 1000

  config {
    package_id = "AcmeAEM"
  }
}

# Other selections, one at a time in place of the block above: two list blocks that return the same
# channel each write it to the configuration -generate-config-out generates, and the plan refuses
# the object managed twice. Uncomment one and remove the block above.
# Only the flows whose ID starts with a prefix.
# list "sapmessaging_aem_sender" "orders" {
#   provider = sapmessaging
#
#   config {
#     iflow_id_prefix = "Acme_AEM_Orders_"
#   }
# }

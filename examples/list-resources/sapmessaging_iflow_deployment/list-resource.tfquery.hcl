# The deployed integration flows of the package AcmeCRM. A tenant can run more than
# 100 flows: limit = 1000 (Terraform's default is 100; a block cut at its limit warns).
list "sapmessaging_iflow_deployment" "crm" {
  provider = sapmessaging
  limit    = 1000

  config {
    package_id = "AcmeCRM"
  }
}

# Other selections, one at a time in place of the block above: two list blocks that return the same
# deployment each write it to the configuration -generate-config-out generates, and the plan refuses
# the object managed twice. Uncomment one and remove the block above.
# The deployed flows whose ID starts with Orders_, in any package.
# list "sapmessaging_iflow_deployment" "orders" {
#   provider = sapmessaging
#
#   config {
#     iflow_id_prefix = "Orders_"
#   }
# }
#
# Both filters: the deployed flows of AcmeERP whose ID starts with Orders_.
# list "sapmessaging_iflow_deployment" "erp" {
#   provider = sapmessaging
#
#   config {
#     package_id      = "AcmeERP"
#     iflow_id_prefix = "Orders_"
#   }
# }

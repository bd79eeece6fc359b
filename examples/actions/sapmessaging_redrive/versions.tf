# Not shown in the documentation: what `terraform plan` in this directory needs.
# The provider reads its credentials from SAPMESSAGING_EVENT_MESH_SERVICE_KEY and
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY (see the guide "Try It Locally").
# Actions need Terraform 1.14 or later; OpenTofu has none.
terraform {
  required_version = ">= 1.14.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

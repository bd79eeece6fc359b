# Not shown in the documentation: what `terraform plan` in this directory needs.
# The provider reads its credentials from SAPMESSAGING_EVENT_MESH_SERVICE_KEY and
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY (see the guide "Try It Locally").
terraform {
  required_version = ">= 1.8.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

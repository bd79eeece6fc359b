# Not shown in the documentation: what `terraform plan` in this directory needs.
# The provider reads its Advanced Event Mesh connection from SAPMESSAGING_AEM_SEMP_URL,
# SAPMESSAGING_AEM_MSG_VPN_NAME, SAPMESSAGING_AEM_USERNAME and SAPMESSAGING_AEM_PASSWORD.
terraform {
  required_version = ">= 1.8.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

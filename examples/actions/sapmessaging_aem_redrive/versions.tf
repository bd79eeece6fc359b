# Not shown in the documentation: what `terraform plan` in this directory needs.
# The provider reads the broker connection from SAPMESSAGING_AEM_SEMP_URL,
# SAPMESSAGING_AEM_MSG_VPN_NAME, SAPMESSAGING_AEM_USERNAME and SAPMESSAGING_AEM_PASSWORD.
# Actions need Terraform 1.14 or later; OpenTofu has none.
terraform {
  required_version = ">= 1.14.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

# Every JMS sender channel of the flows in the package AcmeCRM, with every
# setting (include_resource; terraform query -generate-config-out=jms.tf
# switches it on and writes a resource and an import block per channel).
# A tenant can have more than 100 channels: limit = 1000 (Terraform's default is 100;
# a block cut at its limit warns).
list "sapmessaging_jms_sender" "crm" {
  provider         = sapmessaging
  include_resource = true
  limit            = 1000

  config {
    package_id = "AcmeCRM"
  }
}

# A prefix that matches no flow lists nothing.
list "sapmessaging_jms_sender" "none" {
  provider = sapmessaging

  config {
    iflow_id_prefix = "Billing_"
  }
}

# Every JMS sender channel of the flows in the package AcmeCRM, with every
# setting (include_resource; terraform query -generate-config-out=jms.tf
# switches it on and writes a resource and an import block per channel).
list "sapmessaging_jms_sender" "crm" {
  provider         = sapmessaging
  include_resource = true

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

# The queues of the ERP landscape, dead message queues first. A queue that another
# queue names as its dead message queue is listed by the first block only, every
# other queue by the second, so that each queue is generated once, with the
# resource type that fits it. An instance holds up to 250 queues; Terraform stops a
# list block at 100 results unless limit says otherwise.
list "sapmessaging_dead_message_queue" "erp" {
  provider = sapmessaging
  limit    = 250

  config {
    name_prefix = "acme/erp/prod/"
  }
}

list "sapmessaging_queue" "erp" {
  provider = sapmessaging
  limit    = 250

  config {
    name_prefix = "acme/erp/prod/"
  }
}

# Added once the queues are adopted, in a query file of its own: terraform query runs
# every list block of every .tfquery.hcl file in the directory and generates a block
# for every result, managed or not, so the adopted queues' file is moved away first
# (guide "Adopting an Existing Landscape", section 5).

# The subscriptions of the ERP queues. Event Mesh allows 3000 subscriptions per
# instance; Terraform stops a list block at 100 results unless limit says otherwise.
list "sapmessaging_queue_subscription" "erp" {
  provider = sapmessaging
  limit    = 3000

  config {
    queue_name_prefix = "acme/erp/prod/"
  }
}

# The AMQP senders of the flows of the ERP package.
list "sapmessaging_amqp_sender" "erp" {
  provider = sapmessaging
  limit    = 1000

  config {
    package_id = "AcmeERP"
  }
}

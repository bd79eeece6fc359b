resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name = "acme/crm/prod/orders/dmq"
}

# A top-level data source, read during every plan. Inside the check block it
# would be read during the apply instead, and a scheduled
# `terraform plan -detailed-exitcode` would exit 2 on every run.
data "sapmessaging_queue" "orders_dmq" {
  name = sapmessaging_dead_message_queue.orders_dmq.name
}

# Warn in every plan while dead messages wait for someone to look at them.
check "orders_dmq_is_empty" {
  assert {
    condition     = data.sapmessaging_queue.orders_dmq.message_count == 0
    error_message = "${data.sapmessaging_queue.orders_dmq.message_count} dead message(s) wait in ${data.sapmessaging_queue.orders_dmq.name}."
  }
}

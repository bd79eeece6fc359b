data "sapmessaging_queue" "orders_dmq" {
  name = "acme/crm/prod/orders/dmq"
}

# Fail the plan's checks while dead messages wait for someone to look at them.
check "orders_dmq_is_empty" {
  assert {
    condition     = data.sapmessaging_queue.orders_dmq.message_count == 0
    error_message = "${data.sapmessaging_queue.orders_dmq.message_count} dead message(s) wait in ${data.sapmessaging_queue.orders_dmq.name}."
  }
}

output "orders_dmq_message_count" {
  value = data.sapmessaging_queue.orders_dmq.message_count
}

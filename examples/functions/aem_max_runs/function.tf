# 5 attempts on each of the 5 + 1 deliveries of the AEM queue: 30 runs of a poison message.
output "orders_worst_case" {
  value = provider::sapmessaging::aem_max_runs(5, 5)
}

# One attempt per delivery leaves the count to the broker: 3 + 1 = 4 runs.
output "one_attempt" {
  value = provider::sapmessaging::aem_max_runs(1, 3)
}

# (3 + 1) × 1 + 1 = 5 executions at most for a message that always fails.
output "orders_worst_case" {
  value = provider::sapmessaging::max_attempts(3, 1)
}

# Multiplying both loops: (2 + 1) × 2 + 1 = 7.
output "two_and_two" {
  value = provider::sapmessaging::max_attempts(2, 2)
}

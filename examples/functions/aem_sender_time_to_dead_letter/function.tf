# The channel's usual waits (5 attempts: 1, 3, 9 and 27 s = 40 s per delivery) on each of the
# 5 + 1 deliveries, plus the queue's 31 s of redelivery delays: 271000 ms.
output "orders_ms" {
  value = provider::sapmessaging::aem_sender_time_to_dead_letter(5, 1000, 30000, 3.0, 5, true, 1000, 64000, 200)
}

# Constant 2 s waits between 3 attempts, 2 deliveries, no broker delay: 2 × 4 s = 8000 ms.
output "constant_waits_ms" {
  value = provider::sapmessaging::aem_sender_time_to_dead_letter(3, 2000, 30000, 1.0, 1, false, 1000, 64000, 200)
}

# The broker's default delay (1000 ms, ×2.00, at most 64000 ms) over 5 redeliveries:
# 1 + 2 + 4 + 8 + 16 s = 31000 ms between the first delivery and the dead message queue.
output "orders_delays_ms" {
  value = provider::sapmessaging::aem_time_to_dead_letter(5, true, 1000, 64000, 200)
}

# The broker's default: no delay, a poison message comes back as fast as it fails: 0.
output "no_delay_ms" {
  value = provider::sapmessaging::aem_time_to_dead_letter(5, false, 1000, 64000, 200)
}

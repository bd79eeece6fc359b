# SAP's defaults (1 minute, maximum 60, backoff on): waits 1, 2, 4, 8, 16, 32, then 60 each,
# so the 10th retry starts 303 minutes (5 h 3 min) after the first failure.
output "defaults_ten_retries" {
  value = provider::sapmessaging::jms_give_up_minutes(1, 60, true, 10)
}

# A guard ${header.SAPJMSRetries} > 5 ends the message on retry 6: 63 minutes.
output "guard_of_five" {
  value = provider::sapmessaging::jms_give_up_minutes(1, 60, true, 5 + 1)
}

# Without backoff every wait is the retry interval: 10 × 5 = 50 minutes.
output "constant_five_minutes" {
  value = provider::sapmessaging::jms_give_up_minutes(5, 60, false, 10)
}

# A Cloud Integration JMS sender at SAP's defaults (retry interval 1 minute, exponential
# backoff, maximum retry interval 60 minutes). The flow's guard
# ${header.SAPJMSRetries} > 5 ends a failing message on retry 6.
data "sapmessaging_retry_policy" "orders_jms" {
  total_attempts = 7

  jms = {
    retries        = 6
    budget_minutes = 30 * 24 * 60 # the queue's default expiration period: 30 days
  }
}

output "jms_waits_minutes" {
  value = data.sapmessaging_retry_policy.orders_jms.jms.waits_minutes # [1, 2, 4, 8, 16, 32]
}

output "jms_give_up_after_minutes" {
  value = data.sapmessaging_retry_policy.orders_jms.jms.give_up_after_minutes # 63
}

# Without a guard nothing stops the retries: about 724 of them before the queue deletes the message.
output "jms_retries_before_expiry" {
  value = data.sapmessaging_retry_policy.orders_jms.jms.retries_within_budget # 724
}

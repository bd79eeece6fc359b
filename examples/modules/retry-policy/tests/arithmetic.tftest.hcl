# The budget arithmetic with the real provider and no API: sapmessaging_retry_policy
# computes the policy without a connection (`terraform test -filter=tests/arithmetic.tftest.hcl`
# needs no credentials). Each run plans the data source alone: a plan of the module's queues
# needs the Event Mesh connection, whose credentials the provider proves at plan. That the
# queue takes the policy is checked with the mocked provider (validation.tftest.hcl) and
# against the emulator (emulator.tftest.hcl).
# One adapter retry, the rest of the budget spent on redeliveries: N = (R + 1) × 1 + 1.
variables {
  namespace = "acme/crm/test"
}

run "budgets" {
  command = plan

  plan_options {
    target = [data.sapmessaging_retry_policy.this]
  }

  variables {
    queues = {
      orders   = { total_attempts = 5, attempt_seconds = 2 }
      smallest = { total_attempts = 3 }
      largest  = { total_attempts = 257 }
      hundred  = { total_attempts = 100 }
    }
  }

  assert {
    condition     = data.sapmessaging_retry_policy.this["orders"].max_redelivery_count == 3 && data.sapmessaging_retry_policy.this["orders"].max_number_of_retries == 1
    error_message = "A budget of 5 gives max_redelivery_count = ${data.sapmessaging_retry_policy.this["orders"].max_redelivery_count} and ${data.sapmessaging_retry_policy.this["orders"].max_number_of_retries} retries, want 3 and 1: (3 + 1) × 1 + 1 = 5."
  }
  assert {
    condition     = data.sapmessaging_retry_policy.this["orders"].worst_case_attempts == 5 && data.sapmessaging_retry_policy.this["orders"].delivery_status_after_max_retries == "REJECTED"
    error_message = "A budget of 5 must cost at most 5 executions and end in REJECTED, so that Event Mesh redelivers."
  }
  assert {
    condition     = data.sapmessaging_retry_policy.this["orders"].seconds_to_dead_message_queue == 10
    error_message = "5 executions of 2 seconds take 10 seconds to the dead message queue, not ${data.sapmessaging_retry_policy.this["orders"].seconds_to_dead_message_queue}."
  }
  assert {
    condition     = data.sapmessaging_retry_policy.this["smallest"].max_redelivery_count == 1 && data.sapmessaging_retry_policy.this["smallest"].worst_case_attempts == 3
    error_message = "A budget of 3 gives one redelivery of one retry: (1 + 1) × 1 + 1 = 3."
  }
  assert {
    condition     = data.sapmessaging_retry_policy.this["largest"].max_redelivery_count == 255 && data.sapmessaging_retry_policy.this["largest"].worst_case_attempts == 257
    error_message = "A budget of 257 uses Event Mesh's largest redelivery count: (255 + 1) × 1 + 1 = 257."
  }
  assert {
    condition     = (data.sapmessaging_retry_policy.this["hundred"].max_redelivery_count + 1) * data.sapmessaging_retry_policy.this["hundred"].max_number_of_retries + 1 <= 100 && data.sapmessaging_retry_policy.this["hundred"].max_redelivery_count >= 1
    error_message = "The policy for a budget of 100 exceeds it or redelivers without limit."
  }
}

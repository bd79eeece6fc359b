# The payments queue and its dead message queue, imported by the first apply of
# generated.tf (sapmessaging_queue.erp_3 and sapmessaging_dead_message_queue.erp_1), moved
# into the retry-policy module that examples/landscapes uses, copied from the repository's
# examples/modules/retry-policy into modules/retry-policy beside this configuration. Delete
# their resource and import blocks from generated.tf and add this file: the plan moves both
# into the module and changes nothing on the service.
module "payments" {
  source = "./modules/retry-policy"

  namespace = "acme/erp/prod"
  queues = {
    payments = {
      total_attempts = 7 # (5 + 1) × 1 + 1: the queue keeps its 5 redeliveries
      topics         = ["acme/erp/prod/ce/sap/s4/Payment/*"]
    }
  }
}

moved {
  from = sapmessaging_queue.erp_3
  to   = module.payments.sapmessaging_queue.this["payments"]
}

moved {
  from = sapmessaging_dead_message_queue.erp_1
  to   = module.payments.sapmessaging_dead_message_queue.this["payments"]
}

# The subscription existed before the module: import it instead of creating it.
import {
  to = module.payments.sapmessaging_queue_subscription.this["payments acme/erp/prod/ce/sap/s4/Payment/*"]
  id = "acme/erp/prod/payments,acme/erp/prod/ce/sap/s4/Payment/*"
}

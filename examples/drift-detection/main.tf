# A landscape watched by a scheduled `terraform plan -detailed-exitcode`
# (see github-workflow.yml and the guide "Detecting Drift"). Two signals stay
# apart:
#
#   * drift: the plan's exit code. 0 means the queues match this configuration,
#     2 means someone changed or deleted one outside Terraform.
#   * dead messages, unbounded queues and unbounded retry paths: warnings of
#     the check blocks, which never change the exit code.
#
# The monitoring reads one top-level data source that names no managed
# resource: Terraform reads it during every plan, never defers it to the
# apply, and a queue deleted outside Terraform does not make the read fail.
# Nothing here outputs a live counter: a changed output value would also make
# the plan exit 2.

terraform {
  required_version = ">= 1.8.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

provider "sapmessaging" {}

locals {
  namespace = "acme/crm/prod"
}

resource "sapmessaging_dead_message_queue" "orders_dmq" {
  name = "${local.namespace}/orders/dmq"
}

resource "sapmessaging_queue" "orders" {
  name                 = "${local.namespace}/orders"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.orders_dmq.name
}

# Every queue of the namespace, managed here or not, with its live counters.
data "sapmessaging_queues" "namespace" {
  name_prefix = "${local.namespace}/"
}

# Dead messages wait for someone to look at them: a warning, never exit 2.
check "dead_messages" {
  assert {
    condition = alltrue([
      for q in data.sapmessaging_queues.namespace.queues : q.message_count == 0 if q.is_dead_message_queue
    ])
    error_message = "Dead messages wait: ${join(", ", [
      for q in data.sapmessaging_queues.namespace.queues : "${q.name} (${q.message_count})" if q.is_dead_message_queue && q.message_count > 0
    ])}. Inspect them, fix the cause and resend them."
  }
}

# max_redelivery_count 0 means unlimited redelivery, also on queues created outside Terraform.
check "no_unbounded_redelivery" {
  assert {
    condition = alltrue([
      for q in data.sapmessaging_queues.namespace.queues : !q.unbounded_redelivery
    ])
    error_message = "Queues that redeliver a poison message for ever: ${join(", ", [
      for q in data.sapmessaging_queues.namespace.queues : q.name if q.unbounded_redelivery
    ])}. Set max_redelivery_count to 1 or more."
  }
}

# Every retry path of the namespace: each queue joined with the deployed flows
# that read it (see the guide "Auditing a Landscape"). The workflow draws its
# diagram in the job summary.
data "sapmessaging_retry_audit" "landscape" {
  queue_name_prefix = "${local.namespace}/"
}

# A new unbounded path (R = 0 on a consumed queue, an empty retry count) or an
# audit error: a warning, never exit 2.
check "retry_paths" {
  assert {
    condition = data.sapmessaging_retry_audit.landscape.summary.unbounded_paths == 0 && data.sapmessaging_retry_audit.landscape.summary.errors == 0
    error_message = "Retry audit: ${join("; ", [
      for f in data.sapmessaging_retry_audit.landscape.findings : "${f.rule_id} (${join(", ", f.objects)})" if f.severity == "error"
    ])}. Unbounded paths: ${data.sapmessaging_retry_audit.landscape.summary.unbounded_paths}."
  }
}

# Adopting the queues of a landscape without Terraform 1.14 (OpenTofu 1.7 and later,
# Terraform 1.7 to 1.13): `import` blocks with `for_each` over the sapmessaging_queues
# data source. Each queue that another queue names as its dead message queue becomes a
# sapmessaging_dead_message_queue, every other one a sapmessaging_queue, with the
# settings the service holds. `terraform plan` shows the imports and the changes the
# provider's rules ask for; review them before `terraform apply` (guide "Adopting an
# Existing Landscape").
#
# After the apply, freeze the result: replace local.queues and
# local.dead_message_queues by the literal maps `terraform console` prints for them,
# or move the queues into modules. As long as for_each reads the service, a queue made
# later in the cockpit is imported by the next apply without anyone deciding it.

terraform {
  required_version = ">= 1.7.0"

  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

provider "sapmessaging" {}

variable "name_prefix" {
  description = "The queues to adopt: those whose name starts with this prefix."
  type        = string
  default     = "acme/erp/prod/"
}

variable "redeliveries_when_unlimited" {
  description = "The max_redelivery_count given to a queue that has 0 (unlimited), which the provider refuses. Review it per queue in the plan."
  type        = number
  default     = 5
}

data "sapmessaging_queues" "existing" {
  name_prefix = var.name_prefix
}

locals {
  # A queue that others name but that has a redelivery count or a dead message queue of
  # its own (a chained error queue, read by consumers) stays an ordinary queue, as the
  # list resources decide.
  dead_message_queues = {
    for q in data.sapmessaging_queues.existing.queues : q.name => q
    if q.is_dead_message_queue && coalesce(q.max_redelivery_count, 0) == 0 && q.dead_message_queue == null
  }
  # Chained error queues get a resource of their own, so that the queues naming them can
  # reference them (Terraform then destroys a queue before the error queue it names).
  error_queues = {
    for q in data.sapmessaging_queues.existing.queues : q.name => q
    if q.is_dead_message_queue && !contains(keys(local.dead_message_queues), q.name)
  }
  queues = {
    for q in data.sapmessaging_queues.existing.queues : q.name => q if !q.is_dead_message_queue
  }
}

import {
  for_each = local.dead_message_queues
  to       = sapmessaging_dead_message_queue.adopted[each.key]
  id       = each.key
}

import {
  for_each = local.error_queues
  to       = sapmessaging_queue.adopted_error_queue[each.key]
  id       = each.key
}

import {
  for_each = local.queues
  to       = sapmessaging_queue.adopted[each.key]
  id       = each.key
}

# Dead message queues keep their messages for max_ttl seconds; one without a time to
# live gets the provider's 7 days (the plan shows respect_ttl changing to true).
resource "sapmessaging_dead_message_queue" "adopted" {
  for_each = local.dead_message_queues

  name                                = each.key
  max_ttl                             = coalesce(each.value.max_ttl, 604800)
  access_type                         = each.value.access_type
  max_queue_size_in_bytes             = each.value.max_queue_size_in_bytes
  max_message_size_in_bytes           = each.value.max_message_size_in_bytes
  max_delivered_unacked_msgs_per_flow = each.value.max_delivered_unacked_msgs_per_flow
}

resource "sapmessaging_queue" "adopted" {
  for_each = local.queues

  name                 = each.key
  max_redelivery_count = each.value.max_redelivery_count == 0 ? var.redeliveries_when_unlimited : each.value.max_redelivery_count
  # A reference, not the name alone: Terraform then orders the dead message queue
  # before the queue that names it, on create as on destroy. A dead message queue
  # outside name_prefix is named as it is.
  dead_message_queue                  = each.value.dead_message_queue == null ? null : try(sapmessaging_dead_message_queue.adopted[each.value.dead_message_queue].name, sapmessaging_queue.adopted_error_queue[each.value.dead_message_queue].name, each.value.dead_message_queue)
  respect_ttl                         = each.value.respect_ttl
  max_ttl                             = each.value.max_ttl
  access_type                         = each.value.access_type
  max_queue_size_in_bytes             = each.value.max_queue_size_in_bytes
  max_message_size_in_bytes           = each.value.max_message_size_in_bytes
  max_delivered_unacked_msgs_per_flow = each.value.max_delivered_unacked_msgs_per_flow
}

# A queue that others name as dead message queue, with a redelivery count or a dead
# message queue of its own: an ordinary queue that consumers read.
resource "sapmessaging_queue" "adopted_error_queue" {
  for_each = local.error_queues

  name                                = each.key
  max_redelivery_count                = each.value.max_redelivery_count == 0 ? var.redeliveries_when_unlimited : each.value.max_redelivery_count
  dead_message_queue                  = each.value.dead_message_queue == null ? null : try(sapmessaging_dead_message_queue.adopted[each.value.dead_message_queue].name, each.value.dead_message_queue)
  respect_ttl                         = each.value.respect_ttl
  max_ttl                             = each.value.max_ttl
  access_type                         = each.value.access_type
  max_queue_size_in_bytes             = each.value.max_queue_size_in_bytes
  max_message_size_in_bytes           = each.value.max_message_size_in_bytes
  max_delivered_unacked_msgs_per_flow = each.value.max_delivered_unacked_msgs_per_flow
}

# One landscape, three environments: dev, test and prod are this configuration
# applied with their own variable file, their own state and their own
# credentials. What differs between them is in dev.tfvars, test.tfvars and
# prod.tfvars; everything else is the same code for all three.
#
#   terraform init -reconfigure -backend-config=dev.tfbackend
#   terraform apply -var-file=dev.tfvars
#
# Each environment reads the service keys of its own Event Mesh instance and
# Cloud Integration tenant from the files its variable file names
# (keys/<environment>/event-mesh.json and keys/<environment>/cloud-integration.json,
# kept out of git), so dev never holds prod's credentials.

terraform {
  required_version = ">= 1.8.0, < 2.0.0"

  required_providers {
    sapmessaging = {
      source  = "sapmessaging/sapmessaging"
      version = "~> 0.1.0"
    }
  }

  # The state of each environment is its own: <environment>.tfbackend names it.
  # A team replaces "local" by its remote backend (s3, azurerm, gcs, http, ...)
  # and keeps one .tfbackend file per environment with that backend's settings.
  backend "local" {}
}

locals {
  namespace = "acme/crm/${var.environment}"
}

provider "sapmessaging" {
  event_mesh = {
    service_key = file(var.event_mesh_service_key_file)
  }

  cloud_integration = {
    service_key = file(var.cloud_integration_service_key_file)
  }
}

module "retry_policy" {
  source = "../modules/retry-policy"

  namespace     = local.namespace
  queues        = var.queues
  amqp_senders  = var.amqp_senders
  jms_senders   = var.jms_senders
  webhooks      = var.webhooks
  force_destroy = var.force_destroy
}

# Dead messages in any DMQ of the namespace: a warning in every plan, never a change of
# `plan -detailed-exitcode` (see the guide "Detecting Drift"). The data source names the
# namespace, not a resource, so it is read during every plan.
data "sapmessaging_queues" "namespace" {
  name_prefix = "${local.namespace}/"
}

check "dead_messages" {
  assert {
    condition = alltrue([
      for q in data.sapmessaging_queues.namespace.queues : q.message_count == 0 if q.is_dead_message_queue
    ])
    error_message = "Dead messages wait: ${join(", ", [
      for q in data.sapmessaging_queues.namespace.queues : "${q.name} (${q.message_count})" if q.is_dead_message_queue && q.message_count > 0
    ])}."
  }
}

output "queue_names" {
  value = module.retry_policy.queue_names
}

output "worst_case_attempts" {
  value = module.retry_policy.worst_case_attempts
}

output "runtime_status" {
  value = module.retry_policy.runtime_status
}

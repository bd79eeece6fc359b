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
  # and keeps one .tfbackend file per environment with that backend's settings,
  # the environment's name in them (its key or prefix): see README.md.
  backend "local" {}
}

locals {
  namespace = "acme/crm/${var.environment}"

  # The backend settings `terraform init -backend-config=<environment>.tfbackend` recorded in the
  # working directory: the local backend's path, or a team backend's key or prefix. Empty where
  # the directory keeps them elsewhere (TF_DATA_DIR).
  backend_settings = try(jsonencode(jsondecode(file("${path.root}/.terraform/terraform.tfstate")).backend.config), "")
}

# The environment this state belongs to, recorded by its first apply (ignore_changes keeps it).
# A variable file planned against the backend of another environment (init with
# test.tfbackend, then plan -var-file=dev.tfvars) fails here, at plan, before anything is
# written: the backend's settings name another environment, or its state was applied with
# another one.
resource "terraform_data" "environment" {
  input = var.environment

  lifecycle {
    ignore_changes = [input]

    precondition {
      condition     = local.backend_settings == "" || can(regex("(^|[^A-Za-z0-9])${var.environment}([^A-Za-z0-9]|$)", local.backend_settings))
      error_message = "The backend is initialised for another environment than the variable file's (${var.environment}): ${local.backend_settings}. Planned, this state would take ${var.environment}'s queues. Run terraform init -reconfigure -backend-config=${var.environment}.tfbackend first, or use the variable file of the backend's environment."
    }
    postcondition {
      condition     = self.input == var.environment
      error_message = "This state belongs to the environment ${self.input}, and the variable file is ${var.environment}'s. Planned, this state would take ${var.environment}'s queues. Run terraform init -reconfigure -backend-config=${var.environment}.tfbackend first, or use ${self.input}.tfvars."
    }
  }
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

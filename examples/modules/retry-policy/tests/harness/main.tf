# The root module of emulator.tftest.hcl: the retry-policy module with a provider
# configured from two service key files, behind a guard that refuses the keys
# unless every URL in them is a loopback address (the sandbox of `make sandbox`,
# or a test's emulator), or remote_tenant_is_meant says that a real tenant is the
# target. The provider is configured with exactly the keys the guard read, and the
# module waits for the guard, so a refused plan asks no tenant anything.

terraform {
  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

variable "event_mesh_service_key_file" {
  description = "The Event Mesh service key file the test applies the module with."
  type        = string
}

variable "cloud_integration_service_key_file" {
  description = "The Cloud Integration service key file the test applies the module with."
  type        = string
}

variable "remote_tenant_is_meant" {
  description = "Set to true to run the test against a tenant that is not on this machine: it creates and destroys queues and deploys flows there."
  type        = bool
  default     = false
}

# The module's own variables, handed over as they are.
variable "namespace" {
  type = string
}

variable "queues" {
  type = any
}

variable "amqp_senders" {
  type    = any
  default = {}
}

variable "jms_senders" {
  type    = any
  default = {}
}

variable "webhooks" {
  type    = any
  default = {}
}

variable "force_destroy" {
  type    = bool
  default = false
}

locals {
  keys = {
    event_mesh        = file(var.event_mesh_service_key_file)
    cloud_integration = file(var.cloud_integration_service_key_file)
  }
  # The host of every http(s) URL in the keys; [::1] is kept with its brackets.
  hosts  = distinct(flatten([for k in values(local.keys) : flatten(regexall("https?://(\\[[^]]*\\]|[^/:\"]+)", k))]))
  remote = [for h in local.hosts : h if !(h == "localhost" || h == "[::1]" || can(regex("^127\\.", h)))]
}

resource "terraform_data" "tenant" {
  lifecycle {
    precondition {
      condition     = var.remote_tenant_is_meant || length(local.remote) == 0
      error_message = "The service keys name ${join(", ", local.remote)}, not a loopback address: this test creates and destroys queues and deploys flows on that tenant. Run it against the sandbox of `make sandbox`, or set remote_tenant_is_meant = true (-var remote_tenant_is_meant=true) if that tenant is meant."
    }
  }
}

provider "sapmessaging" {
  event_mesh        = { service_key = local.keys.event_mesh }
  cloud_integration = { service_key = local.keys.cloud_integration }
}

module "policy" {
  source     = "../.."
  depends_on = [terraform_data.tenant]

  namespace     = var.namespace
  queues        = var.queues
  amqp_senders  = var.amqp_senders
  jms_senders   = var.jms_senders
  webhooks      = var.webhooks
  force_destroy = var.force_destroy
}

output "policy" {
  value = module.policy
}

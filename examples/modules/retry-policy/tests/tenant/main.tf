# The guard of emulator.tftest.hcl: reads the two service keys the test is to use
# and refuses them unless every URL in them is a loopback address (the sandbox of
# `make sandbox`, or a test's emulator), or remote_tenant_is_meant says that a
# real tenant is the target. The test then configures the provider with exactly
# these keys, so what is checked is what is used.

terraform {
  # The test file's provider block names sapmessaging/sapmessaging; this module
  # declares it too so that Terraform does not take it for hashicorp/sapmessaging.
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

output "event_mesh_service_key" {
  value     = local.keys.event_mesh
  sensitive = true
}

output "cloud_integration_service_key" {
  value     = local.keys.cloud_integration
  sensitive = true
}

# The working directory for `terraform query` (Terraform 1.14 and later): the provider,
# from the environment (SAPMESSAGING_EVENT_MESH_SERVICE_KEY) or configured here, and
# landscape.tfquery.hcl beside it. `terraform query -generate-config-out=generated.tf`
# writes a resource and an import block per queue into generated.tf (guide "Adopting
# an Existing Landscape").

terraform {
  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

provider "sapmessaging" {}

terraform {
  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

# The service keys exactly as SAP BTP hands them out. Either section may be
# left out: the provider then reads SAPMESSAGING_EVENT_MESH_SERVICE_KEY or
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY (JSON text or a path to a file).
provider "sapmessaging" {
  event_mesh = {
    service_key = file("${path.module}/event-mesh-service-key.json")
  }

  cloud_integration = {
    service_key = file("${path.module}/cloud-integration-service-key.json")
  }

  max_retries = 5
}

# The explicit form, for credentials that come from a secret store instead of
# a service key file.
variable "event_mesh_client_secret" {
  type      = string
  sensitive = true
}

variable "cloud_integration_client_secret" {
  type      = string
  sensitive = true
}

provider "sapmessaging" {
  alias = "explicit"

  event_mesh = {
    management_url = "https://enterprise-messaging-hub-backend.cfapps.eu10.hana.ondemand.com"
    token_url      = "https://acme.authentication.eu10.hana.ondemand.com/oauth/token"
    client_id      = "sb-default-0f6d1c3e-event-mesh-client"
    client_secret  = var.event_mesh_client_secret
  }

  cloud_integration = {
    url           = "https://acme.it-cpi018.cfapps.eu10-003.hana.ondemand.com"
    token_url     = "https://acme.authentication.eu10.hana.ondemand.com/oauth/token"
    client_id     = "sb-7c2e9a51-cpi-api-client"
    client_secret = var.cloud_integration_client_secret
  }
}

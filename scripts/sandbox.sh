#!/usr/bin/env bash
# The local sandbox behind `make sandbox`: build the provider and the SAP API
# emulator into SANDBOX_DIR, print the environment variables and the CLI
# configuration that point Terraform at them, and run the emulator in the
# foreground with the sample content (the integration flows the examples
# name) until Ctrl-C.
#
# SANDBOX_DIR (default ${TMPDIR:-/tmp}/sapmessaging-sandbox) keeps the build,
# the service keys and the emulator's state file, so a restarted sandbox still
# holds the queues a Terraform state there refers to. SANDBOX_LISTEN sets the
# loopback address (default 127.0.0.1:0, a free port; the service keys carry it).
# Remove SANDBOX_DIR to start from scratch. TERRAFORM114 names the Terraform 1.14
# CLI that `make terraform114` builds (terraform query, actions); the sandbox
# prints where it is, or how to build it.
set -euo pipefail
cd "$(dirname "$0")/.."

GO="${GO:-go}"
dir="${SANDBOX_DIR:-${TMPDIR:-/tmp}/sapmessaging-sandbox}"
listen="${SANDBOX_LISTEN:-127.0.0.1:0}"
terraform114="${TERRAFORM114:-${HOME}/.cache/sapmessaging/terraform-1.14.3/terraform}"
mkdir -p "${dir}/plugins" "${dir}/keys"
dir="$(cd "${dir}" && pwd)"

echo "sandbox: building the provider and the emulator into ${dir}" >&2
"${GO}" build -o "${dir}/plugins/terraform-provider-sapmessaging" .
"${GO}" build -o "${dir}/emulator" ./internal/cmd/emulator

# A filesystem mirror of the provider just built, and the CLI configuration that installs it
# from there: terraform init works as it does with the registry (lock file, modules, backends).
GO="${GO}" ./scripts/sandbox-cli-config.sh "${dir}"

if [[ -x "${terraform114}" ]]; then
  tf114="Terraform 1.14, for terraform query (guide \"Adopting an Existing Landscape\") and actions
(sapmessaging_redrive): ${terraform114}"
else
  tf114="Terraform 1.14, for terraform query (guide \"Adopting an Existing Landscape\") and actions
(sapmessaging_redrive), is not built yet: \`make terraform114\` builds it into
${terraform114} (once, about 10 minutes on 2 cores)."
fi

cat <<MSG
In another shell, point Terraform at this sandbox:

  export TF_CLI_CONFIG_FILE=${dir}/cli.tfrc
  export SAPMESSAGING_EVENT_MESH_SERVICE_KEY=${dir}/keys/event-mesh.json
  export SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY=${dir}/keys/cloud-integration.json

and for Advanced Event Mesh, the broker service's SEMP access (the emulator writes it to
${dir}/keys/advanced-event-mesh.json when it has started; the password changes at each start):

  export SAPMESSAGING_AEM_SEMP_URL="\$(sed -n 's/.*"semp_url": "\(.*\)".*/\1/p' ${dir}/keys/advanced-event-mesh.json)"
  export SAPMESSAGING_AEM_MSG_VPN_NAME="\$(sed -n 's/.*"msg_vpn_name": "\(.*\)".*/\1/p' ${dir}/keys/advanced-event-mesh.json)"
  export SAPMESSAGING_AEM_USERNAME="\$(sed -n 's/.*"username": "\(.*\)".*/\1/p' ${dir}/keys/advanced-event-mesh.json)"
  export SAPMESSAGING_AEM_PASSWORD="\$(sed -n 's/.*"password": "\(.*\)".*/\1/p' ${dir}/keys/advanced-event-mesh.json)"

${dir}/cli.tfrc installs the provider built above as version 0.1.0 of
sapmessaging/sapmessaging from a filesystem mirror, as the registry would: run
terraform init first in every configuration, and terraform init -upgrade in one
initialised before the sandbox was rebuilt (the build has new checksums).

$(sed 's/^/  /' "${dir}/cli.tfrc")

Then, for example:

  cp -r examples/resources/sapmessaging_queue /tmp/try && cd /tmp/try
  terraform init
  terraform apply

The landscapes root (examples/landscapes) runs against this sandbox as its README says.

${tf114}

Sample content: the integration flows the examples configure (Acme_Orders_Inbound,
OrdersInbound, Acme_Orders_Retry), and a landscape made by hand with healthy and
broken retry paths: the queues under acme/erp/prod/ and the deployed flows that
consume them. To adopt it: guide "Adopting an Existing Landscape"
(examples/adopting-a-landscape).
State of the emulator: ${dir}/emulator-state.json. Stop with Ctrl-C.

MSG

exec "${dir}/emulator" -listen "${listen}" -keys "${dir}/keys" \
  -state "${dir}/emulator-state.json" -sample-content

#!/usr/bin/env bash
# Renders docs/ from templates/ and examples/ with tfplugindocs, fully offline.
#
# The provider schema comes from the CLI TERRAFORM (`make generate` passes the
# Terraform 1.14 build, the first CLI whose schema has the list resources):
# the provider is built into a temporary directory, loaded
# through a dev_overrides CLI configuration, and `providers schema -json` is
# handed to tfplugindocs with --providers-schema. tfplugindocs therefore never
# looks for, or downloads, a Terraform binary of its own.
set -euo pipefail
cd "$(dirname "$0")/.."

GO="${GO:-go}"
TERRAFORM="${TERRAFORM:-terraform}"
TFPLUGINDOCS="${TFPLUGINDOCS:-bin/tfplugindocs}"
PROVIDER_NAME="sapmessaging"
ADDRESS="registry.terraform.io/sapmessaging/${PROVIDER_NAME}"

work="$(mktemp -d "${TMPDIR:-/tmp}/sapmessaging-docs.XXXXXX")"
trap 'rm -rf "${work}"' EXIT

echo "generate-docs: building the provider"
"${GO}" build -o "${work}/plugins/terraform-provider-${PROVIDER_NAME}" .

cat >"${work}/cli.tfrc" <<CFG
provider_installation {
  dev_overrides {
    "registry.terraform.io/sapmessaging/${PROVIDER_NAME}" = "${work}/plugins"
    "registry.opentofu.org/sapmessaging/${PROVIDER_NAME}" = "${work}/plugins"
  }
  direct {}
}
CFG

mkdir -p "${work}/config"
cat >"${work}/config/main.tf" <<CFG
terraform {
  required_providers {
    ${PROVIDER_NAME} = {
      source = "${ADDRESS}"
    }
  }
}
CFG

echo "generate-docs: reading the provider schema with ${TERRAFORM}"
(
  cd "${work}/config"
  TF_CLI_CONFIG_FILE="${work}/cli.tfrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 \
    "${TERRAFORM}" providers schema -json >"${work}/schema.raw.json"
)

# jq renames the schema's key; install it on a machine that lacks it.
if ! command -v jq >/dev/null 2>&1; then
  echo "generate-docs: installing jq" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null
fi

# tfplugindocs looks the schema up by the provider's short name.
jq --arg name "${PROVIDER_NAME}" '
  .provider_schemas |= with_entries(
    if (.key | endswith("/sapmessaging/" + $name)) then .key = $name else . end)
' "${work}/schema.raw.json" >"${work}/schema.json"
if ! jq -e --arg name "${PROVIDER_NAME}" '.provider_schemas | has($name)' "${work}/schema.json" >/dev/null; then
  echo "generate-docs: the schema from ${TERRAFORM} has no provider ${ADDRESS}" >&2
  exit 1
fi

"${TFPLUGINDOCS}" generate \
  --provider-name "${PROVIDER_NAME}" \
  --providers-schema "${work}/schema.json" \
  --website-temp-dir "${work}/tfplugindocs"

# The registry's structural checks: directories, file names, front matter.
echo "generate-docs: validating docs/"
validate_log="${work}/validate.log"
if ! "${TFPLUGINDOCS}" validate \
  --provider-name "${PROVIDER_NAME}" \
  --providers-schema "${work}/schema.json" >"${validate_log}" 2>&1; then
  grep -v '\[DEBUG\]' "${validate_log}" >&2 || true
  exit 1
fi

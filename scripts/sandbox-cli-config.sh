#!/usr/bin/env bash
# The CLI configuration of the sandbox: lays the provider built into DIR/plugins out as
# version VERSION (default 0.1.0) of sapmessaging/sapmessaging in a filesystem mirror,
# DIR/mirror, and writes DIR/cli.tfrc, which installs the provider from that mirror and
# every other provider from its registry. `terraform init` then installs it as it does
# from the registry: it checks the configuration's version constraints, writes
# .terraform.lock.hcl, and fetches modules and configures the backend.
#
# Usage: scripts/sandbox-cli-config.sh DIR [VERSION]
# A rebuilt provider has other checksums than the lock file records: run
# `terraform init -upgrade` in a configuration initialised before the rebuild.
set -euo pipefail

dir="$(cd "$1" && pwd)"
version="${2:-0.1.0}"
GO="${GO:-go}"
platform="$("${GO}" env GOOS)_$("${GO}" env GOARCH)"

rm -rf "${dir}/mirror"
for host in registry.terraform.io registry.opentofu.org; do
  target="${dir}/mirror/${host}/sapmessaging/sapmessaging/${version}/${platform}"
  mkdir -p "${target}"
  cp "${dir}/plugins/terraform-provider-sapmessaging" "${target}/terraform-provider-sapmessaging_v${version}"
done

cat >"${dir}/cli.tfrc" <<CFG
provider_installation {
  filesystem_mirror {
    path    = "${dir}/mirror"
    include = ["registry.terraform.io/sapmessaging/sapmessaging", "registry.opentofu.org/sapmessaging/sapmessaging"]
  }
  direct {
    exclude = ["registry.terraform.io/sapmessaging/sapmessaging", "registry.opentofu.org/sapmessaging/sapmessaging"]
  }
}
CFG

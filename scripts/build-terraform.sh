#!/usr/bin/env bash
# Builds the Terraform CLI from its Go module (served by the Go module proxy)
# into TERRAFORM_DIR, once. Used by `make testacc-tf114` for the acceptance
# tests that need Terraform 1.12 or 1.14 (resource identity, list resources);
# no release of 1.14 is installed on the build machines.
#
# `go install github.com/hashicorp/terraform@v1.14.x` refuses the module: its
# go.mod replaces the remote-state backends (azure, consul, cos, gcs,
# kubernetes, oci, oss, pg, s3) and internal/legacy with nested modules that
# the module archive does not contain. This script builds from a writable copy
# with those replace and require lines removed and the imports of those
# backends (and their entries in the backend table) removed from
# internal/backend/init/init.go. The tests use local state only.
# See ../shared/reference/terraform-1.14.md, "Getting a CLI".
set -euo pipefail

TERRAFORM_VERSION="${TERRAFORM_VERSION:-1.14.3}"
TERRAFORM_DIR="${TERRAFORM_DIR:-${HOME}/.cache/sapmessaging/terraform-${TERRAFORM_VERSION}}"
TERRAFORM_BIN="${TERRAFORM_DIR}/terraform"

if [[ -x "${TERRAFORM_BIN}" ]] && "${TERRAFORM_BIN}" version 2>/dev/null | head -n1 | grep -q "v${TERRAFORM_VERSION}\$"; then
  echo "terraform ${TERRAFORM_VERSION} already built: ${TERRAFORM_BIN}"
  exit 0
fi

mkdir -p "${TERRAFORM_DIR}"
work="$(mktemp -d "${TMPDIR:-/tmp}/terraform-src.XXXXXX")"
trap 'chmod -R u+w "${work}" 2>/dev/null || true; rm -rf "${work}"' EXIT

echo "downloading github.com/hashicorp/terraform@v${TERRAFORM_VERSION} from the Go module proxy"
# Run outside any module, so that no go.mod or go.sum is touched.
mod_dir="$(cd "${work}" && GOFLAGS='' GOWORK=off go mod download -json "github.com/hashicorp/terraform@v${TERRAFORM_VERSION}" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [[ -z "${mod_dir}" || ! -d "${mod_dir}" ]]; then
  echo "build-terraform: go mod download did not report a module directory" >&2
  exit 1
fi

# The module cache is read-only; build from a writable copy.
src="${work}/src"
mkdir -p "${src}"
cp -R "${mod_dir}/." "${src}/"
chmod -R u+w "${src}"

# The nested modules missing from the archive.
missing='internal/(backend/remote-state/(azure|consul|cos|gcs|kubernetes|oci|oss|pg|s3)|legacy)'
sed -E -i "\#github\.com/hashicorp/terraform/${missing}([[:space:]]|\$)#d" "${src}/go.mod"
# Their imports and backend table entries: the import aliases are backendAzure,
# backendConsul, ...; each table entry names its alias once.
init_go="${src}/internal/backend/init/init.go"
sed -E -i '/backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)([[:space:]."]|$)/d' "${init_go}"
if grep -E -q "${missing}" "${src}/go.mod" "${init_go}"; then
  echo "build-terraform: references to the missing nested modules remain:" >&2
  grep -E -n "${missing}" "${src}/go.mod" "${init_go}" >&2
  exit 1
fi

echo "building terraform ${TERRAFORM_VERSION} (takes several minutes on 2 cores)"
(
  cd "${src}"
  GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" \
    -o "${TERRAFORM_BIN}.tmp" .
)
mv "${TERRAFORM_BIN}.tmp" "${TERRAFORM_BIN}"
"${TERRAFORM_BIN}" version

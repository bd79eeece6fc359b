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
# internal/backend/init/init.go. The tests use local state only. The lines
# removed are in the module itself:
#   https://github.com/hashicorp/terraform/blob/v1.14.3/go.mod (the replace directives)
#   https://github.com/hashicorp/terraform/blob/v1.14.3/internal/backend/init/init.go
# and -X github.com/hashicorp/terraform/version.dev=no makes the binary report v1.14.3 instead of v1.14.3-dev
# (https://github.com/hashicorp/terraform/blob/v1.14.3/version/version.go).
#
# It takes about 10 minutes on 2 cores (9m10s measured on 2 shared cores, module
# downloads included), most of it in `go build`; the script says which step it
# is in and, while the compiler runs, how long it has been running, every
# PROGRESS_SECONDS (default 60).
set -euo pipefail

TERRAFORM_VERSION="${TERRAFORM_VERSION:-1.14.3}"
TERRAFORM_DIR="${TERRAFORM_DIR:-${HOME}/.cache/sapmessaging/terraform-${TERRAFORM_VERSION}}"
TERRAFORM_BIN="${TERRAFORM_DIR}/terraform"

PROGRESS_SECONDS="${PROGRESS_SECONDS:-60}"
GO="${GO:-go}"

if [[ -x "${TERRAFORM_BIN}" ]] && "${TERRAFORM_BIN}" version 2>/dev/null | head -n1 | grep -q "v${TERRAFORM_VERSION}\$"; then
  echo "terraform ${TERRAFORM_VERSION} already built: ${TERRAFORM_BIN}"
  exit 0
fi

start=${SECONDS}
elapsed() {
  local s=$((SECONDS - start))
  printf '%dm%02ds' $((s / 60)) $((s % 60))
}
echo "build-terraform: building Terraform ${TERRAFORM_VERSION} from its Go module into ${TERRAFORM_DIR}, once."
echo "build-terraform: this usually takes about 10 minutes on 2 cores (most of it compiling); later runs reuse the build."

mkdir -p "${TERRAFORM_DIR}"
work="$(mktemp -d "${TMPDIR:-/tmp}/terraform-src.XXXXXX")"
trap 'chmod -R u+w "${work}" 2>/dev/null || true; rm -rf "${work}"' EXIT

echo "build-terraform: [1/3] downloading github.com/hashicorp/terraform@v${TERRAFORM_VERSION} from the Go module proxy"
# Run outside any module, so that no go.mod or go.sum is touched.
mod_dir="$(cd "${work}" && GOFLAGS='' GOWORK=off "${GO}" mod download -json "github.com/hashicorp/terraform@v${TERRAFORM_VERSION}" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [[ -z "${mod_dir}" || ! -d "${mod_dir}" ]]; then
  echo "build-terraform: go mod download did not report a module directory" >&2
  exit 1
fi

echo "build-terraform: [2/3] copying the module and removing the remote-state backends its archive lacks ($(elapsed) so far)"
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

echo "build-terraform: [3/3] downloading the dependencies and compiling terraform (about 9 minutes on 2 cores; $(elapsed) so far)"
# The compiler prints nothing while it works: say that it still does.
(
  trap 'kill "${pause}" 2>/dev/null; exit 0' TERM
  while :; do
    sleep "${PROGRESS_SECONDS}" &
    pause=$!
    wait "${pause}"
    echo "build-terraform: still compiling terraform ${TERRAFORM_VERSION}, $(elapsed) since the start (about 10 minutes in all on 2 cores)"
  done
) &
heartbeat=$!
# The CLI is written to a file of this build's own and moved into place, so that a build running at
# the same time (make generate while make test builds) never moves away the file this one writes.
out="$(mktemp "${TERRAFORM_BIN}.XXXXXX")"
trap 'kill "${heartbeat}" 2>/dev/null || true; rm -f "${out}"; chmod -R u+w "${work}" 2>/dev/null || true; rm -rf "${work}"' EXIT
(
  cd "${src}"
  GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0 "${GO}" build -trimpath \
    -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" \
    -o "${out}" .
)
kill "${heartbeat}" 2>/dev/null || true
chmod 0755 "${out}"
mv -f "${out}" "${TERRAFORM_BIN}"
echo "build-terraform: built in $(elapsed): ${TERRAFORM_BIN}"
"${TERRAFORM_BIN}" version

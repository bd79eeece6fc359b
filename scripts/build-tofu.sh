#!/usr/bin/env bash
# Builds the OpenTofu CLI from its Go module (served by the Go module proxy)
# into TOFU_DIR, once. Used when no terraform binary is on PATH and by
# `make testacc-tofu`.
set -euo pipefail

TOFU_VERSION="${TOFU_VERSION:-1.10.6}"
TOFU_DIR="${TOFU_DIR:-${HOME}/.cache/sapmessaging/tofu-${TOFU_VERSION}}"
TOFU_BIN="${TOFU_DIR}/tofu"

if [[ -x "${TOFU_BIN}" ]] && "${TOFU_BIN}" version 2>/dev/null | head -n1 | grep -q "v${TOFU_VERSION}\$"; then
  echo "tofu ${TOFU_VERSION} already built: ${TOFU_BIN}"
  exit 0
fi

mkdir -p "${TOFU_DIR}"
work="$(mktemp -d "${TMPDIR:-/tmp}/tofu-src.XXXXXX")"
trap 'chmod -R u+w "${work}" 2>/dev/null || true; rm -rf "${work}"' EXIT

echo "downloading github.com/opentofu/opentofu@v${TOFU_VERSION} from the Go module proxy"
# Run outside any module, so that no go.mod or go.sum is touched.
mod_dir="$(cd "${work}" && GOFLAGS='' GOWORK=off go mod download -json "github.com/opentofu/opentofu@v${TOFU_VERSION}" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [[ -z "${mod_dir}" || ! -d "${mod_dir}" ]]; then
  echo "build-tofu: go mod download did not report a module directory" >&2
  exit 1
fi

# The module cache is read-only; build from a writable copy.
mkdir -p "${work}/src"
cp -R "${mod_dir}/." "${work}/src/"
chmod -R u+w "${work}/src"

echo "building tofu ${TOFU_VERSION} (takes a few minutes on 2 cores)"
# A file of this build's own, moved into place: a build running at the same time never moves it away.
out="$(mktemp "${TOFU_BIN}.XXXXXX")"
trap 'rm -f "${out}"; chmod -R u+w "${work}" 2>/dev/null || true; rm -rf "${work}"' EXIT
(
  cd "${work}/src"
  GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
    -o "${out}" ./cmd/tofu
)
chmod 0755 "${out}"
mv -f "${out}" "${TOFU_BIN}"
"${TOFU_BIN}" version

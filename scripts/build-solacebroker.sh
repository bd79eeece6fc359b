#!/usr/bin/env bash
# Builds SolaceProducts/terraform-provider-solacebroker v1.3.0, the provider
# that `make bench` compares with on the same AEM queues, into SOLACEBROKER_DIR
# (default ~/.cache/sapmessaging/solacebroker-v1.3.0), once. Offline: the
# source is a checkout of https://github.com/SolaceProducts/terraform-provider-solacebroker
# at tag v1.3.0 named by SOLACEBROKER_SRC, and its dependencies come from the
# Go module cache only (GOPROXY=off, GOFLAGS=-mod=mod): nothing is downloaded.
# Without the source or a dependency the script says so and exits 1; the
# bench then skips the comparison with a message.
set -euo pipefail

SOLACEBROKER_DIR="${SOLACEBROKER_DIR:-${HOME}/.cache/sapmessaging/solacebroker-v1.3.0}"
BIN="${SOLACEBROKER_DIR}/terraform-provider-solacebroker"
GO="${GO:-go}"

if [[ -x "${BIN}" ]]; then
  echo "terraform-provider-solacebroker already built: ${BIN}"
  exit 0
fi
src="${SOLACEBROKER_SRC:-}"
if [[ -z "${src}" || ! -f "${src}/go.mod" ]]; then
  echo "build-solacebroker: set SOLACEBROKER_SRC to a checkout of SolaceProducts/terraform-provider-solacebroker at v1.3.0 (no source at '${src}')." >&2
  exit 1
fi
if ! grep -q '^module terraform-provider-solacebroker$' "${src}/go.mod"; then
  echo "build-solacebroker: ${src}/go.mod is not the module terraform-provider-solacebroker; set SOLACEBROKER_SRC to its checkout." >&2
  exit 1
fi
if [[ -d "${src}/.git" ]] && tag="$(git -C "${src}" describe --tags --exact-match 2>/dev/null)" && [[ "${tag}" != "v1.3.0" ]]; then
  echo "build-solacebroker: ${src} is at ${tag}, not v1.3.0; check out v1.3.0." >&2
  exit 1
fi
mkdir -p "${SOLACEBROKER_DIR}"
echo "build-solacebroker: building ${BIN} from ${src} with the Go module cache only"
(cd "${src}" && GOPROXY=off GOFLAGS=-mod=mod "${GO}" build -trimpath -o "${BIN}" .)
echo "terraform-provider-solacebroker built: ${BIN}"

#!/usr/bin/env bash
# install-tool.sh BIN_DIR MODULE PACKAGE VERSION
#
# Installs PACKAGE@VERSION (a main package of MODULE) into BIN_DIR with
# `go install`, unless the binary there was already built from MODULE at
# VERSION (read from the binary's embedded build information).
set -euo pipefail

if [[ $# -ne 4 ]]; then
  echo "usage: $0 BIN_DIR MODULE PACKAGE VERSION" >&2
  exit 2
fi
bin_dir="$1" module="$2" package="$3" version="$4"
name="$(basename "${package}")"
# A major version suffix (/v2) is not part of the binary name.
if [[ "${name}" =~ ^v[0-9]+$ ]]; then
  name="$(basename "$(dirname "${package}")")"
fi
target="${bin_dir}/${name}"

if [[ -x "${target}" ]] && go version -m "${target}" 2>/dev/null |
  awk -v m="${module}" -v v="${version}" '$1 == "mod" && $2 == m && $3 == v { found = 1 } END { exit !found }'; then
  exit 0
fi

mkdir -p "${bin_dir}"
echo "installing ${package}@${version} into ${bin_dir}"
# Tools are built for this machine with their own go.mod; the project's
# GOFLAGS (for example -mod=vendor) must not leak into their build.
GOFLAGS='' GOBIN="${bin_dir}" go install "${package}@${version}"

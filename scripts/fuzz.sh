#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME (default 10s) each.
# Targets are discovered per package with `go test -list '^Fuzz'`.
set -euo pipefail
cd "$(dirname "$0")/.."

GO="${GO:-go}"
FUZZTIME="${FUZZTIME:-10s}"

packages="$("${GO}" list -f '{{.Dir}} {{.ImportPath}}' ./...)"
ran=0
# Only packages whose test files declare a Fuzz function are compiled for -list.
while read -r dir pkg; do
  if ! grep -qsE '^func Fuzz[A-Z0-9_]' "${dir}"/*_test.go; then
    continue
  fi
  listed="$("${GO}" test -list '^Fuzz' "${pkg}")"
  mapfile -t targets < <(grep -E '^Fuzz' <<<"${listed}" || true)
  for target in "${targets[@]}"; do
    echo "fuzz: ${pkg} ${target} (${FUZZTIME})"
    "${GO}" test -run '^$' -fuzz "^${target}\$" -fuzztime "${FUZZTIME}" "${pkg}"
    ran=$((ran + 1))
  done
done <<<"${packages}"

echo "fuzz: ${ran} target(s) run"

#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME (default 10s) each.
# Targets are discovered per package with `go test -list '^Fuzz'`.
set -euo pipefail
cd "$(dirname "$0")/.."

GO="${GO:-go}"
FUZZTIME="${FUZZTIME:-10s}"

# run_target fuzzes one target. Go 1.26's fuzzing coordinator can end a run with a bare
# "context deadline exceeded" when -fuzztime runs out (a race between the deadline and
# the cancellation of its workers, golang/go#75804, fixed in Go 1.27); it writes no
# failing input then, and such a run is repeated, up to three runs in all. A run that
# found a failing input always fails.
run_target() {
  local pkg="$1" target="$2" out attempt attempts=3
  for attempt in $(seq 1 "${attempts}"); do
    echo "fuzz: ${pkg} ${target} (${FUZZTIME})"
    out="$(mktemp)"
    if "${GO}" test -run '^$' -fuzz "^${target}\$" -fuzztime "${FUZZTIME}" "${pkg}" 2>&1 | tee "${out}"; then
      rm -f "${out}"
      return 0
    fi
    if grep -q 'Failing input written' "${out}" || ! grep -q 'context deadline exceeded' "${out}" || [[ ${attempt} -eq ${attempts} ]]; then
      rm -f "${out}"
      return 1
    fi
    rm -f "${out}"
    echo "fuzz: ${target} ended in the coordinator's deadline race without a failing input; running it again"
  done
}

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
    run_target "${pkg}" "${target}"
    ran=$((ran + 1))
  done
done <<<"${packages}"

echo "fuzz: ${ran} target(s) run"

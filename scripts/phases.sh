#!/usr/bin/env bash
# Runs make targets one after the other as the phases of `make test`: each
# phase is announced when it starts and reported with its duration when it
# ends, and a summary of all durations closes the run. The first failed phase
# stops the run with its exit code.
#
#   scripts/phases.sh PHASE...        (MAKE names the make program)
set -euo pipefail
cd "$(dirname "$0")/.."

MAKE="${MAKE:-make}"
phases=("$@")
durations=()

fmt_duration() {
  local s=$1
  if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "${s}"; fi
}

summary() {
  local i
  echo
  echo "==> phases"
  for i in "${!durations[@]}"; do
    printf '    %-20s %s\n' "${phases[$i]}" "${durations[$i]}"
  done
}

total_start=${SECONDS}
n=${#phases[@]}
for i in "${!phases[@]}"; do
  phase="${phases[$i]}"
  echo
  echo "==> [$((i + 1))/${n}] ${phase}: started at $(date +%H:%M:%S)"
  start=${SECONDS}
  set +e
  "${MAKE}" --no-print-directory "${phase}"
  rc=$?
  set -e
  took="$(fmt_duration $((SECONDS - start)))"
  if ((rc != 0)); then
    durations+=("${took} (failed)")
    echo "<== [$((i + 1))/${n}] ${phase}: FAILED after ${took} (exit ${rc})"
    summary
    exit "${rc}"
  fi
  durations+=("${took}")
  echo "<== [$((i + 1))/${n}] ${phase}: passed in ${took}"
done
summary
echo "    total                $(fmt_duration $((SECONDS - total_start)))"

#!/usr/bin/env bash
# The provider benchmark behind `make bench`: builds the provider, the
# provider without an API (internal/cmd/noapiprovider) and the emulator, then
# prints markdown tables (see BENCHMARKS.md):
#
# - Event Mesh: for each latency (20 ms, 100 ms) and number of queues (50,
#   250), `terraform apply` (create), `terraform plan` (refresh, no changes),
#   an update of every queue and `terraform destroy` (the queues set
#   force_destroy = true), next to the same commands against the
#   provider without an API (the plain floor of the CPU targets, and beside
#   it the one that waits the latency as the provider waits for its API) and
#   over N terraform_data resources, command by command; management API
#   calls, the providers' CPU time and peak RSS (GNU time).
# - Landscape: 8 Event Mesh instances (8 emulators, 8 aliased provider
#   configurations) × 250 queues in one configuration: create, refresh,
#   update of every queue and destroy, against the provider without an API
#   with the same resources, command by command (one run by default, -landscape-runs 3 for
#   medians); management calls per instance, bytes the emulators sent, CPU
#   time, peak RSS.
# - Cloud Integration: 10 flows with 2 AMQP sender channels each, one
#   resource per channel, emulator deploy delay 5 s and latency 100 ms, in two
#   configurations: every channel resource deploys its flow, and the channel
#   resources with deploy = false and one sapmessaging_iflow_deployment per
#   flow; calls, content downloads, uploads and deploys per command and wall
#   time, at -parallelism 10 and 20.
# - Redrive: the sapmessaging_redrive action with the Terraform 1.14 CLI,
#   one message at a time and with the default concurrency (skipped without
#   that CLI).
# - Query (Terraform 1.14): terraform query -generate-config-out of 8 Event
#   Mesh instances × 250 queues made by hand and of 100 deployed flows × 2 AMQP
#   sender channels, then plan and apply of the generated configuration
#   (imports only) and a plan without changes; calls per instance, content
#   downloads, wall time against the refresh, provider CPU and RSS.
# - Audit: `terraform plan` reading the sapmessaging_retry_audit data source
#   over 250 queues and 50 deployed flows at 100 ms latency, against a plan
#   of the same provider that reads a data source without API calls (3
#   interleaved runs, medians); management, Cloud Integration (runtime list,
#   content downloads) and messaging calls, wall time less the baseline's
#   against ceil(50 / 8) x 100 ms plus one latency per list, provider CPU and
#   peak RSS.
# - Advanced Event Mesh: 1,000 sapmessaging_aem_queue resources and the
#   sapmessaging_aem_dead_message_queue they name on one emulated broker at
#   20 ms latency: apply (create), plan -refresh-only and plan, with the SEMP
#   calls the emulator counts (target: a refresh in at most 12), provider CPU
#   against the provider without an API (within 1.15x) and peak RSS (under
#   100 MB); beside it, command by command, the same queues through
#   SolaceProducts/terraform-provider-solacebroker v1.3.0 when a build is at
#   SOLACEBROKER_PROVIDER or ~/.cache/sapmessaging/solacebroker-v1.3.0/
#   (scripts/build-solacebroker.sh), skipped with a message otherwise.
#
# TERRAFORM names the CLI; BENCH_ARGS passes flags to the driver, for example
# BENCH_ARGS="-runs 1 -sizes 50", BENCH_ARGS="-event-mesh" (Event Mesh only:
# naming a section true runs only the sections so named), BENCH_ARGS="-ci"
# (Cloud Integration only), BENCH_ARGS="-query" (the query alone), BENCH_ARGS="-audit" (the audit alone),
# BENCH_ARGS="-landscape" (the landscape alone), BENCH_ARGS="-aem" (Advanced Event Mesh alone),
# BENCH_ARGS="-landscape=false" (without the landscape, which takes longest),
# BENCH_ARGS="-o bench.md" or BENCH_ARGS="-cpuprofile /tmp/prof" (a CPU and an
# allocation profile per provider process, for go tool pprof).
set -euo pipefail
cd "$(dirname "$0")/.."

GO="${GO:-go}"
TERRAFORM="${TERRAFORM:-$(command -v terraform || true)}"
if [[ -z "${TERRAFORM}" || ! -x "${TERRAFORM}" ]]; then
  echo "bench: no Terraform CLI found; run 'make bench', which builds OpenTofu when terraform is missing." >&2
  exit 1
fi

# GNU time measures the provider's peak RSS; install it when it is missing.
if [[ ! -x /usr/bin/time ]] && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [[ "$(id -u)" != 0 ]] && command -v sudo >/dev/null 2>&1; then
    sudo="sudo -n"
  fi
  echo "bench: installing GNU time (Debian package time) for the RSS measurement" >&2
  ${sudo} apt-get install -y -q --no-install-recommends time >&2 ||
    { ${sudo} apt-get update -q >&2 && ${sudo} apt-get install -y -q --no-install-recommends time >&2; } ||
    echo "bench: could not install GNU time; the provider's peak RSS is not measured" >&2
fi

# shellcheck disable=SC2086 # BENCH_ARGS holds several flags.
exec "${GO}" run ./internal/cmd/bench -terraform "${TERRAFORM}" -go "${GO}" ${BENCH_ARGS:-}

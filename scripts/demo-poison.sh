#!/usr/bin/env bash
# The poison message step of `make demo` (called by scripts/demo.sh after
# the apply, with the emulator still running).
#
# It deploys a small integration flow into the emulator whose AMQP sender
# consumes the demo queue (maxRetries 1, deliveryState REJECTED), makes
# every execution end in an Error End, publishes one message, and prints how
# many executions the message took and where it ended, next to
# worst_case_attempts from `terraform output`. It fails when the two differ.
#
# Environment (set by scripts/demo.sh): EMULATOR_URL,
# SAPMESSAGING_EVENT_MESH_SERVICE_KEY, SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY,
# TERRAFORM, DEMO_DIR, REPO, GO. POISON_TIMEOUT bounds the replay (default 90s).
set -euo pipefail

: "${EMULATOR_URL:?EMULATOR_URL is not set; run this through scripts/demo.sh}"
: "${DEMO_DIR:?DEMO_DIR is not set; run this through scripts/demo.sh}"
: "${TERRAFORM:?TERRAFORM is not set; run this through scripts/demo.sh}"
# shellcheck source=scripts/demo-replay.sh
. "$(dirname "$0")/demo-replay.sh" poison

"${TERRAFORM}" -chdir="${DEMO_DIR}" output -json >"${tmp}/outputs.json"
replay_build poison
replay_run 120s "${tmp}/poison" -outputs "${tmp}/outputs.json" -timeout "${POISON_TIMEOUT:-90s}"

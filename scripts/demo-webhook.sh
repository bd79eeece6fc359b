#!/usr/bin/env bash
# The webhook step of `make demo` (called by scripts/demo.sh with the emulator
# still running, started with a short -webhook-minute).
#
# It starts a loopback endpoint that refuses every message, creates a QoS 0
# and a QoS 1 Event Mesh webhook subscription on two queues with
# max_redelivery_count 2 and a dead message queue, pushes one message through
# each and prints what happened beside what the provider's plan says: the QoS 0
# message is lost after one try, the QoS 1 message is retried 15 and 30 minutes
# later (on the emulator's scaled clock) and lands in the dead message queue.
# It fails when the emulator and the rules disagree.
#
# Environment (set by scripts/demo.sh): EMULATOR_URL,
# SAPMESSAGING_EVENT_MESH_SERVICE_KEY, REPO, GO. WEBHOOK_POISON_TIMEOUT bounds
# the replay (default 60s).
set -euo pipefail

: "${EMULATOR_URL:?EMULATOR_URL is not set; run this through scripts/demo.sh}"
: "${SAPMESSAGING_EVENT_MESH_SERVICE_KEY:?SAPMESSAGING_EVENT_MESH_SERVICE_KEY is not set; run this through scripts/demo.sh}"
# shellcheck source=scripts/demo-replay.sh
. "$(dirname "$0")/demo-replay.sh" webhook-poison

replay_build webhookpoison
replay_run 90s "${tmp}/webhookpoison" -timeout "${WEBHOOK_POISON_TIMEOUT:-60s}"

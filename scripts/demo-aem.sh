#!/usr/bin/env bash
# The Advanced Event Mesh poison message step of `make demo` (called by
# scripts/demo.sh with the emulator still running).
#
# It creates two queues on the emulated AEM broker: one with the broker's
# defaults (ingress and egress switched on, so that it takes messages at all)
# and one with the settings the provider's example gives a queue
# (max_redelivery_count 5, the redelivery delay on, a dead message queue with
# a time to live), publishes one message to each through Solace REST
# messaging, lets a consumer fail every delivery, and prints the two side by
# side: the defaults deliver the message as fast as it fails, for ever; the
# provider's settings deliver it the number of times the plan says, then move
# it to the dead message queue. It fails when either differs.
#
# Then it deploys three integration flows whose AdvancedEventMesh sender
# channel consumes an AEM queue (FAILED on the provider's queue settings,
# REJECTED on a queue without a dead message queue, AUTOMATIC_IMMEDIATE),
# makes every run fail, publishes one message to each queue and prints the
# runs observed beside the plan's N_max and the end (DMQ, deleted, lost) with
# its time; it fails when they differ. The emulator runs with a short
# -aem-minute, so the adapter's waits and the redelivery delays pass at once.
#
# Environment (set by scripts/demo.sh): EMULATOR_URL, AEM_KEY (the
# advanced-event-mesh.json the emulator writes),
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY, REPO, GO. AEM_POISON_TIMEOUT
# bounds the run (default 60s).
set -euo pipefail

: "${EMULATOR_URL:?EMULATOR_URL is not set; run this through scripts/demo.sh}"
: "${AEM_KEY:?AEM_KEY is not set; run this through scripts/demo.sh}"
: "${SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY:?SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY is not set; run this through scripts/demo.sh}"
# shellcheck source=scripts/demo-replay.sh
. "$(dirname "$0")/demo-replay.sh" aem-poison

replay_build aempoison
replay_run 90s "${tmp}/aempoison" -emulator "${EMULATOR_URL}" -aem-key "${AEM_KEY}" \
  -cloud-integration-key "${SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY}" -timeout "${AEM_POISON_TIMEOUT:-60s}"

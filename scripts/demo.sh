#!/usr/bin/env bash
# The end-to-end demo behind `make demo`:
#
#   1. build the provider and the SAP API emulator into a temporary directory;
#   2. start the emulator on a free loopback port and read its URL;
#   3. load the provider through a dev_overrides CLI configuration and point
#      it at the emulator's service keys;
#   4. apply examples/demo, then prove that a second plan has no changes;
#   5. print the outputs;
#   6. replay one poison message through a deployed iFlow (scripts/demo-poison.sh)
#      and fail unless its executions equal worst_case_attempts;
#   7. "fix" that flow, redrive the dead message queue with the action
#      sapmessaging_redrive (scripts/demo-redrive.sh, Terraform 1.14 named by
#      TERRAFORM114; skipped, saying so, without one) and fail unless the
#      message is processed;
#   8. replay a poison message through JMS sender flows without and with a
#      retry guard (scripts/demo-jms.sh) and fail unless the executions match
#      the JMS retry rules;
#   9. push a failing message through a QoS 0 and a QoS 1 webhook
#      (scripts/demo-webhook.sh) and fail unless the one is lost and the other
#      retried, then dead-lettered, as the plan says;
#  10. put a poison message on an Advanced Event Mesh queue with the broker's
#      defaults and on one with the provider's settings (scripts/demo-aem.sh)
#      and fail unless the first is still redelivered after 1,000 deliveries
#      and the second is delivered as often as the plan says, then
#      dead-lettered; then replay a poison message through three AEM sender
#      flows and fail unless each runs N_max times and ends (DMQ, deleted,
#      lost) when and where the plan says;
#  11. read the retry audit of the whole landscape (the sample landscape of
#      -sample-content included), print its findings, and fail unless its
#      N_max of the demo queue equals the poison message's executions
#      (scripts/demo-audit.sh); stop the emulator.
#
# TERRAFORM names the CLI (terraform, or the OpenTofu build of `make tofu`).
# KEEP_DEMO=1 keeps the temporary directory for a look afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

GO="${GO:-go}"
TERRAFORM="${TERRAFORM:-$(command -v terraform || true)}"
if [[ -z "${TERRAFORM}" || ! -x "${TERRAFORM}" ]]; then
  echo "demo: no Terraform CLI found; run 'make demo', which builds OpenTofu when terraform is missing." >&2
  exit 1
fi

# Colour only on a terminal: logs of CI and `make demo >file` get plain text
# (NO_COLOR=1 turns it off on a terminal too).
tf_color=()
bold="" reset=""
if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then
  bold=$'\033[1m' reset=$'\033[0m'
else
  tf_color=(-no-color)
fi
step() { printf '\n%s==> %s%s\n' "${bold}" "$*" "${reset}"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/sapmessaging-demo.XXXXXX")"
emulator_pid=""

cleanup() {
  local rc=$?
  if [[ -n "${emulator_pid}" ]] && kill -0 "${emulator_pid}" 2>/dev/null; then
    kill "${emulator_pid}" 2>/dev/null || true
    wait "${emulator_pid}" 2>/dev/null || true
  fi
  if [[ "${rc}" -ne 0 && -f "${work}/emulator.log" ]]; then
    echo "demo: failed (exit ${rc}); emulator log:" >&2
    tail -n 40 "${work}/emulator.log" >&2 || true
  fi
  if [[ "${KEEP_DEMO:-0}" == "1" ]]; then
    echo "demo: kept ${work}"
  else
    rm -rf "${work}"
  fi
  exit "${rc}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "Building the provider and the emulator"
mkdir -p "${work}/plugins" "${work}/keys"
"${GO}" build -o "${work}/plugins/terraform-provider-sapmessaging" .
"${GO}" build -o "${work}/emulator" ./internal/cmd/emulator

step "Starting the emulator"
# -jms-minute 100us: the 30 days of a JMS message's default expiration pass in about 4 s;
# -webhook-minute 1ms: the 45 minutes of the webhook retries pass in 45 ms.
# -aem-minute 10ms: the 31 s of an AEM queue's redelivery delays pass in about 5 ms, the 4 min 31 s
#   of an AEM sender flow's waits in about 45 ms.
# -sample-content: the sample landscape under acme/erp/prod/, whose broken paths the retry audit reports.
"${work}/emulator" -listen 127.0.0.1:0 -keys "${work}/keys" -jms-minute 100us -webhook-minute 1ms -aem-minute 10ms -sample-content \
  >"${work}/emulator.log" 2>&1 &
emulator_pid=$!

emulator_url=""
for _ in $(seq 1 150); do
  emulator_url="$(grep -m1 -oE 'listening on https?://[^[:space:]]+' "${work}/emulator.log" | sed 's/^listening on //' || true)"
  [[ -n "${emulator_url}" ]] && break
  if ! kill -0 "${emulator_pid}" 2>/dev/null; then
    echo "demo: the emulator exited before it was listening." >&2
    exit 1
  fi
  sleep 0.2
done
if [[ -z "${emulator_url}" ]]; then
  echo "demo: the emulator did not print 'listening on' within 30 seconds." >&2
  exit 1
fi
for key in event-mesh.json cloud-integration.json advanced-event-mesh.json; do
  if [[ ! -s "${work}/keys/${key}" ]]; then
    echo "demo: the emulator wrote no ${work}/keys/${key}." >&2
    exit 1
  fi
done
echo "emulator: ${emulator_url} (pid ${emulator_pid})"

# The provider from the build above, whatever the registry host of the CLI.
cat >"${work}/cli.tfrc" <<CFG
provider_installation {
  dev_overrides {
    "registry.terraform.io/sapmessaging/sapmessaging" = "${work}/plugins"
    "registry.opentofu.org/sapmessaging/sapmessaging" = "${work}/plugins"
  }
  direct {}
}
CFG
export TF_CLI_CONFIG_FILE="${work}/cli.tfrc"
export CHECKPOINT_DISABLE=1
export SAPMESSAGING_EVENT_MESH_SERVICE_KEY="${work}/keys/event-mesh.json"
export SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY="${work}/keys/cloud-integration.json"
export EMULATOR_URL="${emulator_url}"

mkdir -p "${work}/demo"
cp "${repo}"/examples/demo/*.tf "${work}/demo/"
cd "${work}/demo"

step "${TERRAFORM##*/} apply (no init needed: the provider comes from dev_overrides)"
"${TERRAFORM}" apply -auto-approve -input=false "${tf_color[@]}"

step "${TERRAFORM##*/} plan -detailed-exitcode (must show no changes)"
set +e
"${TERRAFORM}" plan -detailed-exitcode -input=false "${tf_color[@]}"
plan_rc=$?
set -e
case "${plan_rc}" in
  0) echo "demo: no changes after apply: the configuration and the API agree." ;;
  2)
    echo "demo: the plan after apply shows changes: the provider does not read back what it wrote." >&2
    exit 1
    ;;
  *)
    echo "demo: terraform plan failed (exit ${plan_rc})." >&2
    exit 1
    ;;
esac

step "Outputs"
"${TERRAFORM}" output "${tf_color[@]}"

# --- Hook: poison message -----------------------------------------------
# scripts/demo-poison.sh, when present, publishes a message that always fails
# to the demo queue and counts its executions against the retry arithmetic
# N_max = (R + 1) × n + 1. It runs in the demo work directory with the
# emulator still up and gets everything it needs from the environment:
#   EMULATOR_URL, SAPMESSAGING_EVENT_MESH_SERVICE_KEY,
#   SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY, TF_CLI_CONFIG_FILE,
#   TERRAFORM, DEMO_DIR (the applied configuration), REPO.
if [[ -x "${repo}/scripts/demo-poison.sh" ]]; then
  step "Poison message"
  DEMO_DIR="${work}/demo" REPO="${repo}" TERRAFORM="${TERRAFORM}" GO="${GO}" \
    "${repo}/scripts/demo-poison.sh" | tee "${work}/poison.log"
fi
# -------------------------------------------------------------------------

# --- Hook: redrive --------------------------------------------------------
# scripts/demo-redrive.sh "fixes" the flow of the poison message step, redrives
# the dead message queue with the action sapmessaging_redrive (Terraform 1.14,
# TERRAFORM114) and shows the message processed. It needs EMULATOR_URL,
# DEMO_DIR and the provider environment above.
if [[ -x "${repo}/scripts/demo-redrive.sh" && -x "${repo}/scripts/demo-poison.sh" ]]; then
  step "Redrive the dead message queue"
  DEMO_DIR="${work}/demo" REPO="${repo}" "${repo}/scripts/demo-redrive.sh"
fi
# -------------------------------------------------------------------------

# --- Hook: JMS poison message ----------------------------------------------
# scripts/demo-jms.sh replays a poison message through two flows with a Cloud
# Integration JMS sender (no retry guard; a guard of 5) and compares the
# executions with the JMS retry rules. It needs EMULATOR_URL,
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY, REPO and GO.
if [[ -x "${repo}/scripts/demo-jms.sh" ]]; then
  step "JMS poison message"
  REPO="${repo}" GO="${GO}" "${repo}/scripts/demo-jms.sh"
fi
# -------------------------------------------------------------------------

# --- Hook: webhook poison message ------------------------------------------
# scripts/demo-webhook.sh pushes a failing message through a QoS 0 and a QoS 1
# webhook subscription and compares what happened with the webhook rules. It
# needs EMULATOR_URL, SAPMESSAGING_EVENT_MESH_SERVICE_KEY, REPO and GO.
if [[ -x "${repo}/scripts/demo-webhook.sh" ]]; then
  step "Webhook poison message"
  REPO="${repo}" GO="${GO}" "${repo}/scripts/demo-webhook.sh"
fi

# --- Hook: AEM poison message ----------------------------------------------
# scripts/demo-aem.sh puts a poison message on an Advanced Event Mesh queue with
# the broker's defaults and on one with the provider's settings and compares
# the deliveries with the AEM rules, then runs a poison message through AEM
# sender flows and compares their runs with N_max. It needs EMULATOR_URL,
# AEM_KEY, SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY, REPO and GO.
if [[ -x "${repo}/scripts/demo-aem.sh" ]]; then
  step "Advanced Event Mesh poison message"
  AEM_KEY="${work}/keys/advanced-event-mesh.json" REPO="${repo}" GO="${GO}" "${repo}/scripts/demo-aem.sh"
fi
# -------------------------------------------------------------------------

# --- Hook: retry audit ------------------------------------------------------
# scripts/demo-audit.sh reads data.sapmessaging_retry_audit over the whole
# emulated landscape, prints its findings, and checks the N_max of the demo
# queue's path against the executions the poison message took.
if [[ -x "${repo}/scripts/demo-audit.sh" && -f "${work}/poison.log" ]]; then
  step "Retry audit"
  executions="$(grep -m1 -oE 'executions: +[0-9]+' "${work}/poison.log" | grep -oE '[0-9]+$' || true)"
  mkdir -p "${work}/audit"
  AUDIT_DIR="${work}/audit" TERRAFORM="${TERRAFORM}" POISON_EXECUTIONS="${executions}" \
    AEM_KEY="${work}/keys/advanced-event-mesh.json" "${repo}/scripts/demo-audit.sh"
fi
# -------------------------------------------------------------------------

step "Done"
echo "demo: passed."

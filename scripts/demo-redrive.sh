#!/usr/bin/env bash
# The redrive step of `make demo` (called by scripts/demo.sh after the poison
# message step, with the emulator still running).
#
# The poison message of the previous step waits in the dead message queue of
# the demo queue. This step "fixes" the flow that failed it (its executions
# now end successfully), redrives the dead message queue with the action
# sapmessaging_redrive (`terraform apply -invoke`, Terraform 1.14), and shows
# the message processed by the flow: the dead message queue and the queue are
# empty, and the flow's last run ended completed.
#
# Environment (set by scripts/demo.sh): EMULATOR_URL,
# SAPMESSAGING_EVENT_MESH_SERVICE_KEY, TF_CLI_CONFIG_FILE, DEMO_DIR, REPO.
# TERRAFORM114 names the Terraform 1.14 CLI (default: the build of
# `make terraform114`); without one the step is skipped, saying so.
set -euo pipefail

: "${EMULATOR_URL:?EMULATOR_URL is not set; run this through scripts/demo.sh}"
: "${DEMO_DIR:?DEMO_DIR is not set; run this through scripts/demo.sh}"
TERRAFORM114="${TERRAFORM114:-${HOME}/.cache/sapmessaging/terraform-1.14.3/terraform}"
flow="${POISON_IFLOW:-DemoPoisonConsumer}" # the flow scripts/demo-poison.sh deployed
control="${EMULATOR_URL}/emulator/v1"
# The demo's queues (examples/demo/main.tf), URL-encoded for the control endpoints.
dmq_path="acme%2Fcrm%2Fprod%2Forders%2Fdmq"
queue_path="acme%2Fcrm%2Fprod%2Forders"

if [[ ! -x "${TERRAFORM114}" ]]; then
  echo "demo: redrive skipped: actions need Terraform 1.14 or later, and there is none at ${TERRAFORM114}. To get it, run \`make terraform114\` (builds it there once, about 10 minutes on 2 cores), then make demo again."
  exit 0
fi

count() { curl -fsS "${control}/queues/$1/messages" | { grep -o '"id"' || true; } | wc -l | tr -d ' '; }

dead="$(count "${dmq_path}")"
echo "dead message queue acme/crm/prod/orders/dmq holds ${dead} message(s)"
if [[ "${dead}" -lt 1 ]]; then
  echo "demo: no dead message to redrive; the poison message step should have left one." >&2
  exit 1
fi

echo "fixing ${flow}: its executions end successfully from now on"
curl -fsS -X PUT -H 'Content-Type: application/json' -d '{"outcome": "success"}' "${control}/iflows/${flow}/behaviour" >/dev/null

# A copy of the applied demo, so that its state stays as the demo's CLI wrote it.
work="$(mktemp -d "${TMPDIR:-/tmp}/sapmessaging-redrive.XXXXXX")"
trap 'rm -rf "${work}"' EXIT
cp -R "${DEMO_DIR}/." "${work}/"
cat >"${work}/redrive.tf" <<'HCL'
action "sapmessaging_redrive" "orders" {
  config {
    from         = sapmessaging_dead_message_queue.orders_dmq.name
    to           = sapmessaging_queue.orders.name
    max_messages = 10
  }
}
HCL
echo "+ terraform apply -invoke=action.sapmessaging_redrive.orders (${TERRAFORM114})"
# Colour only on a terminal, as in scripts/demo.sh.
tf_color=()
if [[ ! -t 1 || -n "${NO_COLOR:-}" ]]; then
  tf_color=(-no-color)
fi
"${TERRAFORM114}" -chdir="${work}" apply -auto-approve -input=false "${tf_color[@]}" -invoke=action.sapmessaging_redrive.orders

# The flow consumes the redriven message; wait until both queues are empty.
for _ in $(seq 1 100); do
  if [[ "$(count "${dmq_path}")" == 0 && "$(count "${queue_path}")" == 0 ]]; then
    break
  fi
  sleep 0.1
done
left_dead="$(count "${dmq_path}")"
left_queue="$(count "${queue_path}")"
completed="$(curl -fsS "${control}/iflows/${flow}/runs" | { grep -o '"outcome": *"completed"' || true; } | wc -l | tr -d ' ')"
echo "after the redrive: dead message queue ${left_dead}, queue ${left_queue} message(s); runs of ${flow} completed: ${completed}"
if [[ "${left_dead}" != 0 || "${left_queue}" != 0 || "${completed}" -lt 1 ]]; then
  echo "demo: the redriven message was not processed." >&2
  exit 1
fi
echo "demo: the poison message, redriven after the fix, was processed."

#!/usr/bin/env bash
# The retry audit step of `make demo` (called by scripts/demo.sh after the
# poison message replays, with the emulator still running).
#
# It reads data.sapmessaging_retry_audit over the whole emulated landscape (the
# demo queue with the flow the poison step deployed, and the sample landscape
# of -sample-content with its broken paths), prints the findings and the
# summary, and fails unless the audit's N_max of the demo queue's path equals
# the executions the poison message took (POISON_EXECUTIONS).
#
# The audit joins all three: the Event Mesh queues, the tenant's flows and the
# Advanced Event Mesh queues (the broker's credentials from AEM_KEY, the file
# the emulator writes as the cloud console shows them), so that the AEM sender
# channels of the sample flows get their queues' settings.
#
# Environment (set by scripts/demo.sh): SAPMESSAGING_EVENT_MESH_SERVICE_KEY,
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY, TF_CLI_CONFIG_FILE, TERRAFORM,
# AUDIT_DIR (an empty directory), POISON_EXECUTIONS, AEM_KEY.
set -euo pipefail

: "${TERRAFORM:?TERRAFORM is not set; run this through scripts/demo.sh}"
: "${AUDIT_DIR:?AUDIT_DIR is not set; run this through scripts/demo.sh}"
: "${POISON_EXECUTIONS:?POISON_EXECUTIONS is not set; run this through scripts/demo.sh}"
: "${AEM_KEY:?AEM_KEY is not set; run this through scripts/demo.sh}"
demo_queue="${DEMO_QUEUE:-acme/crm/prod/orders}"

cat >"${AUDIT_DIR}/main.tf" <<HCL
terraform {
  required_providers {
    sapmessaging = {
      source = "sapmessaging/sapmessaging"
    }
  }
}

locals {
  aem = jsondecode(file("${AEM_KEY}"))
}

provider "sapmessaging" {
  advanced_event_mesh = {
    semp_url     = local.aem.semp_url
    msg_vpn_name = local.aem.msg_vpn_name
    username     = local.aem.username
    password     = local.aem.password
  }
}

data "sapmessaging_retry_audit" "landscape" {
  min_severity = "warning"
}

output "findings" {
  value = join("\n", [
    for f in data.sapmessaging_retry_audit.landscape.findings : "  \${upper(f.severity)} \${f.rule_id}: \${f.summary} [\${join(", ", f.objects)}]\n    \${f.message}"
  ])
}

output "summary" {
  value = data.sapmessaging_retry_audit.landscape.summary
}

# The worst cases of the demo queue's flow paths (not its webhooks), as distinct values.
output "demo_queue_worst_cases" {
  value = join(",", distinct([
    for p in data.sapmessaging_retry_audit.landscape.paths : tostring(p.worst_case_attempts) if p.queue == "${demo_queue}" && p.adapter != "WEBHOOK" && p.worst_case_attempts != null
  ]))
}
HCL

"${TERRAFORM}" -chdir="${AUDIT_DIR}" apply -auto-approve -input=false -no-color >"${AUDIT_DIR}/apply.log" 2>&1 || {
  cat "${AUDIT_DIR}/apply.log" >&2
  echo "demo: reading the retry audit failed." >&2
  exit 1
}
echo "findings (warnings and errors):"
"${TERRAFORM}" -chdir="${AUDIT_DIR}" output -raw findings
echo
echo "summary:"
"${TERRAFORM}" -chdir="${AUDIT_DIR}" output -no-color summary
worst="$("${TERRAFORM}" -chdir="${AUDIT_DIR}" output -raw demo_queue_worst_cases)"
echo "audit N_max of ${demo_queue}: ${worst:-none}; the poison message took ${POISON_EXECUTIONS} executions"
if [[ "${worst}" != "${POISON_EXECUTIONS}" ]]; then
  echo "demo: the audit's N_max of ${demo_queue} (${worst:-none}) differs from the executions the poison message took (${POISON_EXECUTIONS})." >&2
  exit 1
fi
echo "demo: the audit's N_max equals the observed executions."

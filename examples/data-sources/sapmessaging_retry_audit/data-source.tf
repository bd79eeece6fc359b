# The whole landscape: every Event Mesh queue and, with an `advanced_event_mesh` connection, every
# AEM queue, joined with the deployed flows that read them.
data "sapmessaging_retry_audit" "landscape" {}

# Only the errors about the production queues of one namespace.
data "sapmessaging_retry_audit" "crm_errors" {
  queue_name_prefix = "acme/crm/prod/"
  min_severity      = "error"
}

# Each path by name: "<queue> → <flow>/<channel>", or "<queue> → webhook <name>" for a webhook
# subscription, whose flow and channel are null.
locals {
  audit_paths = {
    for p in data.sapmessaging_retry_audit.landscape.paths :
    (p.webhook != null ? "${p.queue} → webhook ${p.webhook}" : "${p.queue} → ${p.flow}/${p.channel}") => p
  }
}

# A scheduled plan warns when a path has no bound: R = 0 on a consumed queue, or an empty retry count.
check "no_unbounded_paths" {
  assert {
    condition = data.sapmessaging_retry_audit.landscape.summary.unbounded_paths == 0
    error_message = "Unbounded retry paths: ${join(", ", [
      for name, p in local.audit_paths : "${name} (${p.worst_case_reason})" if p.unbounded
    ])}."
  }
}

check "no_audit_errors" {
  assert {
    condition = length(data.sapmessaging_retry_audit.crm_errors.findings) == 0
    error_message = join("\n", [
      for f in data.sapmessaging_retry_audit.crm_errors.findings : "${f.rule_id}: ${f.message}"
    ])
  }
}

# The most executions one always-failing message can cost, per path.
output "worst_case_attempts" {
  value = {
    for name, p in local.audit_paths : name => p.worst_case_attempts
  }
}

# How long a poison message runs on each AEM path before it reaches its end (the dead message
# queue, deleted, or lost), adapter waits and broker redelivery delays together.
output "aem_time_to_end" {
  value = {
    for name, p in local.audit_paths : name => "${p.worst_case_attempts} runs in ${p.time_to_end}, then ${p.end}"
    if p.broker == "advanced_event_mesh" && p.time_to_end != null
  }
}

# Paste into Markdown between ```mermaid fences, or write it to a GitHub job summary.
output "diagram" {
  value = data.sapmessaging_retry_audit.landscape.diagram
}

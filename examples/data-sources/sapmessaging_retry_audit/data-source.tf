# The whole landscape: every Event Mesh queue joined with the deployed flows that read it.
data "sapmessaging_retry_audit" "landscape" {}

# Only the errors about the production queues of one namespace.
data "sapmessaging_retry_audit" "crm_errors" {
  queue_name_prefix = "acme/crm/prod/"
  min_severity      = "error"
}

# A scheduled plan warns when a path has no bound: R = 0 on a consumed queue, or an empty retry count.
check "no_unbounded_paths" {
  assert {
    condition = data.sapmessaging_retry_audit.landscape.summary.unbounded_paths == 0
    error_message = "Unbounded retry paths: ${join(", ", [
      for p in data.sapmessaging_retry_audit.landscape.paths : "${p.queue} → ${p.flow}/${p.channel} (${p.worst_case_reason})" if p.unbounded
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
    for p in data.sapmessaging_retry_audit.landscape.paths :
    "${p.queue} → ${p.flow != null ? "${p.flow}/${p.channel}" : "webhook"}" => p.worst_case_attempts
  }
}

# Paste into Markdown between ```mermaid fences, or write it to a GitHub job summary.
output "diagram" {
  value = data.sapmessaging_retry_audit.landscape.diagram
}

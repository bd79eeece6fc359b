package framework

import (
	"slices"
	"strings"
)

// adoptionAttribute is an attribute of a resource type that adopts, as it is, an object that breaks a rule the
// resource otherwise refuses: an import sets it (the resource's read, while it is null), terraform query
// -generate-config-out writes it, and the plan warns until it is removed.
type adoptionAttribute struct {
	Resource  string // resource type, for example "sapmessaging_queue"
	Attribute string // attribute name, for example "allow_unlimited_redelivery"
}

// adoption says how an error rule of internal/rules meets an object that already exists on a broker or tenant:
// the adoption attributes of the resources that raise it, or the reason why no existing object can break it.
type adoption struct {
	Attributes []adoptionAttribute
	Reason     string
	// warnings are the warning rules that say, while an adoption attribute keeps the object as it is, what it
	// keeps (for example "queue.redelivery_unlimited_allowed"): the plan warns until the attribute is removed.
	Warnings []string
}

// AdoptionTODO marks a rule that can meet an existing object but has no adoption attribute yet: its import plans
// fail. TestAdoptionCatalogue accepts it only for the rules it lists as pending.
const AdoptionTODO = "TODO adoption attribute"

// Reasons shared by several rules.
const (
	reasonRefusedByEventMesh = "the service refuses the value: Event Mesh's management API does not take it, so no existing queue holds it"
	reasonRefusedByBroker    = "the service refuses the value: SEMP does not take it, so no existing queue holds it"
	reasonRefusedByWebhooks  = "the service refuses the value: the messaging API creates no webhook subscription with it, so no existing one holds it"
	reasonAMQPAdapter        = "the AMQP sender adapter's editor takes no such value, so no existing channel holds it"
	reasonJMSAdapter         = "the JMS sender adapter's editor takes no such value, so no existing channel holds it"
	reasonAEMAdapter         = "the AdvancedEventMesh sender adapter's editor takes no such value, so no existing channel holds it"
	reasonProviderOnly       = "a provider-only attribute: no service holds it, an import leaves it null (or at its default), so it refuses only what a configuration writes"
	reasonJMSResources       = "audit-only rule: reported by the sapmessaging_jms_resources data source for a jms-resources.xml, never refuses a resource plan"
	reasonAudit              = "audit-only rule: reported by the sapmessaging_retry_audit data source, never refuses a resource plan"
	reasonNoDocumentedZero   = "SAP documents the setting only as a positive value, up to its maximum, and gives 0 no meaning; no queue holding 0 or less has been seen, and the emulator refuses 0 as the rule does, so an adoption attribute could not say what it adopts"
	reasonLinkChecked        = "checked only when a plan creates the queue or changes its `dead_message_queue`: an imported queue keeps the link it has and is not checked"
)

func attrs(resource string, names ...string) []adoptionAttribute {
	out := make([]adoptionAttribute, len(names))
	for i, n := range names {
		out[i] = adoptionAttribute{Resource: resource, Attribute: n}
	}
	return out
}

// Adoptions is the catalogue of the error rules of internal/rules (every ID that refuses a plan), with the
// adoption attributes that let an import and terraform query -generate-config-out meet an object breaking it.
// TestAdoptionCatalogue holds it complete; the list resources' descriptions name the attributes of their types.
var Adoptions = map[string]adoption{
	// sapmessaging_queue and sapmessaging_dead_message_queue (queue.go, dmqgraph.go)
	"queue.name_invalid":                {Reason: "a name the service cannot hold: Event Mesh refuses it, so no existing queue has it"},
	"queue.access_type_invalid":         {Reason: reasonRefusedByEventMesh},
	"queue.redelivery_unlimited":        {Attributes: attrs("sapmessaging_queue", "allow_unlimited_redelivery"), Warnings: []string{"queue.redelivery_unlimited_allowed"}},
	"queue.redelivery_range":            {Reason: reasonRefusedByEventMesh},
	"queue.dmq_empty":                   {Reason: "Event Mesh stores an empty dead message queue as none, which an import reads as `dead_message_queue` null, never as an empty name"},
	"queue.dmq_name_invalid":            {Reason: "the service refuses the value: Event Mesh names only an existing queue as dead message queue, and no existing queue has a name it refuses"},
	"queue.dmq_self":                    {Attributes: attrs("sapmessaging_queue", "allow_self_as_dead_message_queue"), Warnings: []string{"queue.dmq_self_allowed"}},
	"queue.dmq_namespace":               {Attributes: attrs("sapmessaging_queue", "allow_dead_message_queue_outside_namespace"), Warnings: []string{"queue.dmq_namespace_allowed"}},
	"queue.dmq_cycle":                   {Reason: reasonLinkChecked},
	"queue.dmq_not_found":               {Reason: reasonLinkChecked},
	"queue.dmq_destroyed":               {Reason: "reported only when the same plan destroys or renames the dead message queue: a plan of imports destroys nothing"},
	"queue.dmq_gone":                    {Attributes: attrs("sapmessaging_queue", "allow_missing_dead_message_queue"), Warnings: []string{"queue.dmq_missing_allowed"}},
	"queue.respect_ttl_without_max_ttl": {Attributes: attrs("sapmessaging_queue", "allow_ineffective_ttl"), Warnings: []string{"queue.respect_ttl_without_max_ttl_allowed"}},
	"queue.max_ttl_without_respect_ttl": {Attributes: attrs("sapmessaging_queue", "allow_ineffective_ttl"), Warnings: []string{"queue.max_ttl_without_respect_ttl_allowed"}}, // the dead message queue raises it only with respect_ttl null, which an import never reads
	// 0 of the queue size and message count: the service shows it on a queue created without them, a queue that
	// takes messages (SAP-archive/teched2020-developer-keynote, s4hana/event/README.md); the rule says so.
	"queue.max_queue_size_range": {Attributes: append(attrs("sapmessaging_queue", "allow_no_queue_limits"),
		attrs("sapmessaging_dead_message_queue", "allow_no_queue_limits")...), Warnings: []string{"queue.max_queue_size_range_allowed"}},
	"queue.max_queue_message_count_range": {Attributes: append(attrs("sapmessaging_queue", "allow_no_queue_limits"),
		attrs("sapmessaging_dead_message_queue", "allow_no_queue_limits")...), Warnings: []string{"queue.max_queue_message_count_range_allowed"}},
	"queue.max_ttl_range": {Reason: reasonNoDocumentedZero + " (create-a-queue-95357fa.md step 10: a time a message may stay, at most 7 days)"},
	// Above 1 MB, the maximum SAP documents for the Integration Suite capability: a queue of the default plan was seen
	// holding 10000000 (reference note sap-apis.md, section 1). A size of 0 stays refused, with no attribute: SAP gives
	// 0 no meaning and the emulator refuses it (reasonNoDocumentedZero).
	"queue.max_message_size_range": {Attributes: append(attrs("sapmessaging_queue", "allow_message_size_above_documented_max"),
		attrs("sapmessaging_dead_message_queue", "allow_message_size_above_documented_max")...), Warnings: []string{"queue.max_message_size_range_allowed"}},
	"queue.max_unacked_per_flow_range": {Reason: reasonNoDocumentedZero + " (create-a-queue-95357fa.md step 7: a threshold of unacknowledged messages)"},
	"dmq.respect_ttl_required":         {Attributes: attrs("sapmessaging_dead_message_queue", "allow_no_ttl"), Warnings: []string{"dmq.no_ttl_allowed"}},
	"dmq.max_ttl_required":             {Attributes: attrs("sapmessaging_dead_message_queue", "allow_no_ttl"), Warnings: []string{"dmq.no_ttl_allowed"}},

	// sapmessaging_webhook_subscription (webhook.go)
	"webhook.qos0_loses_messages": {Attributes: attrs("sapmessaging_webhook_subscription", "accept_message_loss"), Warnings: []string{"webhook.qos0_loses_messages_accepted"}},
	"webhook.qos_range":           {Reason: reasonRefusedByWebhooks},
	"webhook.exempt_without_auth": {Attributes: attrs("sapmessaging_webhook_subscription", "allow_exempt_handshake_without_auth"), Warnings: []string{"webhook.exempt_without_auth_allowed"}},
	"webhook.endpoint_invalid":    {Reason: "the service refuses the value: Event Mesh cannot push to an endpoint that is not an absolute http(s) URL, so no existing subscription has one"},
	"webhook.endpoint_not_https":  {Attributes: attrs("sapmessaging_webhook_subscription", "allow_http_endpoint"), Warnings: []string{"webhook.endpoint_not_https_allowed"}},

	// sapmessaging_amqp_sender (amqp.go)
	"amqp.retries_endless":               {Attributes: attrs("sapmessaging_amqp_sender", "allow_unsafe_retries"), Warnings: []string{"amqp.retries_unsafe_allowed"}},
	"amqp.retries_zero":                  {Attributes: attrs("sapmessaging_amqp_sender", "allow_unsafe_retries"), Warnings: []string{"amqp.retries_unsafe_allowed"}},
	"amqp.retries_range":                 {Reason: reasonAMQPAdapter},
	"amqp.delivery_status_undeliverable": {Attributes: attrs("sapmessaging_amqp_sender", "allow_cancelled_redelivery"), Warnings: []string{"amqp.delivery_status_undeliverable_allowed"}},
	"amqp.delivery_status_invalid":       {Reason: reasonAMQPAdapter},
	"amqp.prefetch_range":                {Reason: reasonAMQPAdapter},
	"amqp.concurrent_range":              {Reason: reasonAMQPAdapter},
	"amqp.expected_processing_range":     {Reason: reasonProviderOnly},
	"amqp.max_total_attempts_range":      {Reason: reasonProviderOnly},
	"amqp.queue_redelivery_unlimited":    {Reason: reasonProviderOnly + " (the count read from the Event Mesh queue instead only warns)"},
	"amqp.queue_redelivery_range":        {Reason: reasonProviderOnly + " (the count read from the Event Mesh queue instead only warns)"},
	"amqp.attempt_budget_exceeded":       {Reason: reasonProviderOnly + ": it needs `max_total_attempts`"},

	// NetWeaver JMS destinations (jms.go): the jms-resources.xml data source only
	"jms.error_destination_cycle":   {Reason: reasonJMSResources},
	"jms.attempts_unlimited":        {Reason: reasonJMSResources},
	"jms.max_attempts_range":        {Reason: reasonJMSResources},
	"jms.delivery_delay_range":      {Reason: reasonJMSResources},
	"jms.error_destination_self":    {Reason: reasonJMSResources},
	"jms.error_destination_unknown": {Reason: reasonJMSResources},

	// sapmessaging_jms_sender (jmssender.go)
	"jms_sender.access_type_invalid":       {Reason: "Cloud Integration knows only the two access types, and an import reads the channel's"},
	"jms_sender.retry_interval_range":      {Reason: reasonJMSAdapter},
	"jms_sender.max_retry_interval_range":  {Reason: reasonJMSAdapter},
	"jms_sender.concurrent_range":          {Reason: reasonJMSAdapter},
	"jms_sender.concurrent_exclusive":      {Attributes: attrs("sapmessaging_jms_sender", "allow_non_exclusive_settings"), Warnings: []string{"jms_sender.concurrent_exclusive_allowed"}},
	"jms_sender.dead_letter_exclusive":     {Attributes: attrs("sapmessaging_jms_sender", "allow_non_exclusive_settings"), Warnings: []string{"jms_sender.dead_letter_exclusive_allowed"}},
	"jms_sender.expiration_range":          {Reason: reasonProviderOnly},
	"jms_sender.max_retries_range":         {Reason: reasonProviderOnly},
	"jms_sender.max_retries_exclusive":     {Reason: reasonProviderOnly + ": it needs `max_retries`"},
	"jms_sender.max_retries_without_guard": {Reason: reasonProviderOnly + ": it needs `max_retries`"},
	"jms_sender.give_up_after_expiry":      {Attributes: attrs("sapmessaging_jms_sender", "allow_give_up_after_expiry"), Warnings: []string{"jms_sender.give_up_after_expiry_allowed"}},

	// The landscape audit (landscape.go, aem_landscape.go)
	"audit.queue_not_found":     {Reason: reasonAudit},
	"audit.aem_queue_not_found": {Reason: reasonAudit},

	// sapmessaging_aem_queue and sapmessaging_aem_dead_message_queue (aem.go)
	"aem.redelivery_unlimited":        {Attributes: attrs("sapmessaging_aem_queue", "allow_unlimited_redelivery"), Warnings: []string{"aem.redelivery_unlimited_allowed"}},
	"aem.redelivery_range":            {Reason: reasonRefusedByBroker},
	"aem.dmq_empty":                   {Attributes: attrs("sapmessaging_aem_queue", "allow_missing_dead_message_queue"), Warnings: []string{"aem.dmq_missing_allowed"}},
	"aem.dmq_self":                    {Attributes: attrs("sapmessaging_aem_queue", "allow_missing_dead_message_queue"), Warnings: []string{"aem.dmq_self_allowed"}}, // SEMP takes it: deadMsgQueue has only a length and a pattern
	"aem.dmq_missing":                 {Attributes: attrs("sapmessaging_aem_queue", "allow_missing_dead_message_queue"), Warnings: []string{"aem.dmq_missing_allowed"}},
	"aem.dmq_cycle":                   {Attributes: attrs("sapmessaging_aem_queue", "allow_missing_dead_message_queue"), Warnings: []string{"aem.dmq_cycle_allowed"}},
	"aem.dmq_takes_nothing":           {Attributes: attrs("sapmessaging_aem_queue", "allow_missing_dead_message_queue"), Warnings: []string{"aem.dmq_missing_allowed"}},
	"aem.redelivery_delay_range":      {Reason: reasonRefusedByBroker},
	"aem.max_ttl_range":               {Reason: reasonRefusedByBroker},
	"aem.max_ttl_without_respect_ttl": {Attributes: append(attrs("sapmessaging_aem_queue", "allow_ineffective_ttl"), attrs("sapmessaging_aem_dead_message_queue", "allow_no_ttl")...), Warnings: []string{"aem.max_ttl_without_respect_ttl_allowed", "aem.dmq_no_ttl_allowed"}},
	"aem.dmq_ttl_missing":             {Attributes: attrs("sapmessaging_aem_dead_message_queue", "allow_no_ttl"), Warnings: []string{"aem.dmq_no_ttl_allowed"}},
	"aem.dmq_ingress_disabled":        {Attributes: attrs("sapmessaging_aem_dead_message_queue", "allow_ingress_disabled"), Warnings: []string{"aem.dmq_ingress_disabled_allowed"}},

	// sapmessaging_aem_sender (aem_sender.go)
	"aem_sender.consumer_mode_invalid":        {Attributes: attrs("sapmessaging_aem_sender", "allow_undocumented_values"), Warnings: []string{"aem_sender.undocumented_value_allowed"}}, // an .iflw can be written by hand
	"aem_sender.acknowledgement_mode_invalid": {Attributes: attrs("sapmessaging_aem_sender", "allow_undocumented_values"), Warnings: []string{"aem_sender.undocumented_value_allowed"}},
	"aem_sender.settlement_outcome_invalid":   {Attributes: attrs("sapmessaging_aem_sender", "allow_undocumented_values"), Warnings: []string{"aem_sender.undocumented_value_allowed"}}, // an .iflw can be written by hand; the stored value of Rejected is unconfirmed
	"aem_sender.ack_immediate":                {Attributes: attrs("sapmessaging_aem_sender", "accept_message_loss"), Warnings: []string{"aem_sender.ack_immediate_accepted"}},
	"aem_sender.attempts_missing":             {Attributes: attrs("sapmessaging_aem_sender", "allow_undocumented_values"), Warnings: []string{"aem_sender.undocumented_value_allowed"}},
	"aem_sender.attempts_zero":                {Attributes: attrs("sapmessaging_aem_sender", "allow_undocumented_values"), Warnings: []string{"aem_sender.undocumented_value_allowed"}},
	"aem_sender.attempts_range":               {Reason: reasonAEMAdapter},
	"aem_sender.retry_interval_range":         {Attributes: attrs("sapmessaging_aem_sender", "allow_undocumented_values"), Warnings: []string{"aem_sender.undocumented_value_allowed"}},
	"aem_sender.retry_multiplier_range":       {Attributes: attrs("sapmessaging_aem_sender", "allow_undocumented_values"), Warnings: []string{"aem_sender.undocumented_value_allowed"}},
	"aem_sender.failed_unlimited_redelivery":  {Attributes: attrs("sapmessaging_aem_sender", "allow_unlimited_redelivery"), Warnings: []string{"aem_sender.failed_unlimited_redelivery_allowed"}},
	"aem_sender.rejected_without_dmq":         {Attributes: attrs("sapmessaging_aem_sender", "allow_missing_dead_message_queue"), Warnings: []string{"aem_sender.rejected_without_dmq_allowed"}},
	"aem_sender.max_total_attempts_range":     {Reason: reasonProviderOnly},
	"aem_sender.attempt_budget_exceeded":      {Reason: reasonProviderOnly + ": it needs `max_total_attempts`"},
}

// AdoptionUnused names, for each adoption attribute ("resource.attribute"), the warning rule of internal/rules that
// says it changes nothing when it is set on an object that does not break the rule it adopts.
var AdoptionUnused = map[string]string{
	"sapmessaging_queue.allow_unlimited_redelivery":                           "queue.allow_unlimited_unused",
	"sapmessaging_queue.allow_self_as_dead_message_queue":                     "queue.allow_self_as_dmq_unused",
	"sapmessaging_queue.allow_dead_message_queue_outside_namespace":           "queue.allow_dmq_outside_namespace_unused",
	"sapmessaging_queue.allow_ineffective_ttl":                                "queue.allow_ineffective_ttl_unused",
	"sapmessaging_queue.allow_missing_dead_message_queue":                     "queue.allow_missing_dmq_unused",
	"sapmessaging_queue.allow_no_queue_limits":                                "queue.allow_no_queue_limits_unused",
	"sapmessaging_dead_message_queue.allow_no_queue_limits":                   "queue.allow_no_queue_limits_unused",
	"sapmessaging_queue.allow_message_size_above_documented_max":              "queue.allow_message_size_above_documented_max_unused",
	"sapmessaging_dead_message_queue.allow_message_size_above_documented_max": "queue.allow_message_size_above_documented_max_unused",
	"sapmessaging_dead_message_queue.allow_no_ttl":                            "dmq.allow_no_ttl_unused",
	"sapmessaging_webhook_subscription.accept_message_loss":                   "webhook.accept_message_loss_unused",
	"sapmessaging_webhook_subscription.allow_exempt_handshake_without_auth":   "webhook.allow_exempt_without_auth_unused",
	"sapmessaging_webhook_subscription.allow_http_endpoint":                   "webhook.allow_http_endpoint_unused",
	"sapmessaging_amqp_sender.allow_unsafe_retries":                           "amqp.allow_unsafe_retries_unused",
	"sapmessaging_amqp_sender.allow_cancelled_redelivery":                     "amqp.allow_cancelled_unused",
	"sapmessaging_jms_sender.allow_non_exclusive_settings":                    "jms_sender.allow_non_exclusive_settings_unused",
	"sapmessaging_jms_sender.allow_give_up_after_expiry":                      "jms_sender.allow_give_up_after_expiry_unused",
	"sapmessaging_aem_queue.allow_unlimited_redelivery":                       "aem.allow_unlimited_unused",
	"sapmessaging_aem_queue.allow_missing_dead_message_queue":                 "aem.allow_missing_dmq_unused",
	"sapmessaging_aem_queue.allow_ineffective_ttl":                            "aem.allow_ineffective_ttl_unused",
	"sapmessaging_aem_dead_message_queue.allow_no_ttl":                        "aem.allow_no_ttl_unused",
	"sapmessaging_aem_dead_message_queue.allow_ingress_disabled":              "aem.allow_ingress_disabled_unused",
	"sapmessaging_aem_sender.accept_message_loss":                             "aem_sender.accept_message_loss_unused",
	"sapmessaging_aem_sender.allow_undocumented_values":                       "aem_sender.allow_undocumented_values_unused",
	"sapmessaging_aem_sender.allow_unlimited_redelivery":                      "aem_sender.allow_unlimited_unused",
	"sapmessaging_aem_sender.allow_missing_dead_message_queue":                "aem_sender.allow_missing_dmq_unused",
}

// AdoptionAttributesOf returns the adoption attributes of resource type typ, sorted.
func AdoptionAttributesOf(typ string) []string {
	var out []string
	for _, a := range Adoptions {
		for _, at := range a.Attributes {
			if at.Resource == typ && !slices.Contains(out, at.Attribute) {
				out = append(out, at.Attribute)
			}
		}
	}
	slices.Sort(out)
	return out
}

// AdoptionSentence is what a list resource's description says of the adoption attributes its generated
// configuration sets, for resource type typ.
func AdoptionSentence(typ string) string {
	names := AdoptionAttributesOf(typ)
	if len(names) == 0 {
		return ""
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	return " Adoption attributes it sets (each `true` only for an object that breaks the rule it adopts, and the plan warns until it is removed): " +
		strings.Join(quoted, ", ") + "."
}

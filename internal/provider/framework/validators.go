package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ validator.String = StringCheck[queueNameCheck]{}
	_ validator.String = StringCheck[topicPatternCheck]{}
)

// StringChecker is what a StringCheck checks: a type without fields whose Check reports a known value that
// breaks its rule, on the attribute at p.
type StringChecker interface {
	Description() string
	Check(p path.Path, value string, diags *diag.Diagnostics)
}

// StringCheck is the validator.String of the check C: null and unknown values pass, a known value is C's to check.
type StringCheck[C StringChecker] struct{}

func (StringCheck[C]) Description(_ context.Context) string {
	var c C
	return c.Description()
}

func (v StringCheck[C]) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (StringCheck[C]) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var c C
	c.Check(req.Path, req.ConfigValue.ValueString(), &resp.Diagnostics)
}

// queueNameCheck checks a full Event Mesh queue name against the management API's pattern.
type queueNameCheck struct{}

// QueueName returns a validator for Event Mesh queue names.
func QueueName() validator.String { return StringCheck[queueNameCheck]{} }

func (queueNameCheck) Description() string {
	return "must be a queue name of up to 20 segments of letters, digits, -, _ and ."
}

func (queueNameCheck) Check(p path.Path, value string, diags *diag.Diagnostics) {
	if err := rules.ValidQueueName(value); err != nil {
		diags.AddAttributeError(p, "Invalid Queue Name", rules.QueueNameDetail(p.String(), err))
	}
}

// topicPatternCheck checks a topic subscription pattern.
type topicPatternCheck struct{}

// TopicPattern returns a validator for topic subscription patterns.
func TopicPattern() validator.String { return StringCheck[topicPatternCheck]{} }

func (topicPatternCheck) Description() string {
	return "must be a topic pattern of up to 20 segments of letters, digits, -, _, . and the wildcards * and +"
}

func (topicPatternCheck) Check(p path.Path, value string, diags *diag.Diagnostics) {
	if err := rules.ValidTopicPattern(value); err != nil {
		diags.AddAttributeError(p, "Invalid Topic Pattern",
			fmt.Sprintf("Event Mesh would reject the topic pattern: %s. Set `%s` to a pattern such as `acme/crm/prod/ce/sap/s4/BusinessPartner/*`.",
				Clause(err), p))
	}
}

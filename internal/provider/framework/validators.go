package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ validator.String = queueNameValidator{}
	_ validator.String = topicPatternValidator{}
)

// queueNameValidator checks a full Event Mesh queue name against the management API's pattern.
type queueNameValidator struct{}

// QueueName returns a validator for Event Mesh queue names.
func QueueName() validator.String { return queueNameValidator{} }

func (queueNameValidator) Description(_ context.Context) string {
	return "must be a queue name of up to 20 segments of letters, digits, -, _ and ."
}

func (v queueNameValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (queueNameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := rules.ValidQueueName(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Queue Name", rules.QueueNameDetail(req.Path.String(), err))
	}
}

// topicPatternValidator checks a topic subscription pattern.
type topicPatternValidator struct{}

// TopicPattern returns a validator for topic subscription patterns.
func TopicPattern() validator.String { return topicPatternValidator{} }

func (topicPatternValidator) Description(_ context.Context) string {
	return "must be a topic pattern of up to 20 segments of letters, digits, -, _, . and the wildcards * and +"
}

func (v topicPatternValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (topicPatternValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := rules.ValidTopicPattern(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Topic Pattern",
			fmt.Sprintf("Event Mesh would reject the topic pattern: %s. Set `%s` to a pattern such as `acme/crm/prod/ce/sap/s4/BusinessPartner/*`.",
				Clause(err), req.Path))
	}
}

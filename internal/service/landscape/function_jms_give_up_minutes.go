package landscape

import (
	"context"
	"math"
	"math/big"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var _ function.Function = (*jmsGiveUpMinutesFunction)(nil)

// NewJMSGiveUpMinutesFunction returns provider::sapmessaging::jms_give_up_minutes.
func NewJMSGiveUpMinutesFunction() function.Function {
	return &jmsGiveUpMinutesFunction{}
}

type jmsGiveUpMinutesFunction struct{}

func (f *jmsGiveUpMinutesFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "jms_give_up_minutes"
}

func (f *jmsGiveUpMinutesFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Minutes from the first failure until the last retry of a Cloud Integration JMS sender",
		MarkdownDescription: "Returns the minutes from the first failure of a message until its retry number `retries` starts, " +
			"with the waits of the Cloud Integration JMS sender adapter: the wait before retry *n* is " +
			"`min(retry_interval × 2^(n−1), max_retry_interval)` with exponential backoff and `retry_interval` without. " +
			"The defaults (1 minute, maximum 60, backoff on) give 303 minutes for 10 retries. Real time is longer: each " +
			"retry also takes its processing time and may start up to about a minute late. The JMS sender has no retry limit of " +
			"its own, so `retries` is the limit the flow enforces with a guard on `SAPJMSRetries`; a guard " +
			"`${header.SAPJMSRetries} > N` ends the message on retry N + 1. Fails for a retry interval below 1, a maximum below 1 " +
			"with backoff, negative retries, and a total too large to represent.",
		Parameters: []function.Parameter{
			function.NumberParameter{Name: "retry_interval", MarkdownDescription: "The JMS sender's Retry Interval in minutes, 1 or more (SAP accepts 1 to 60 for exclusive and 1 to 10080 for non-exclusive queues)."},
			function.NumberParameter{Name: "max_retry_interval", MarkdownDescription: "The Maximum Retry Interval in minutes (SAP accepts 10 to 180 for exclusive and 10 to 43200 for non-exclusive queues); ignored without exponential backoff."},
			function.BoolParameter{Name: "exponential_backoff", MarkdownDescription: "Whether Exponential Backoff doubles the wait after each failed retry (SAP's default: on)."},
			function.NumberParameter{Name: "retries", MarkdownDescription: "The number of retries, 0 or more."},
		},
		Return: function.Int64Return{},
	}
}

func (f *jmsGiveUpMinutesFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var rawInterval, rawMaxInterval, rawRetries *big.Float
	var backoff bool
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &rawInterval, &rawMaxInterval, &backoff, &rawRetries))
	if resp.Error != nil {
		return
	}
	interval, e1 := framework.WholeArgument(rawInterval, 0, "retry_interval", 1, rules.MaxJMSScheduleMinutes,
		func(n int64) error { return rules.JMSSchedule{RetryInterval: n}.Validate() })
	// Without exponential backoff the maximum is not used: any whole number does.
	maxLo, maxHi := int64(math.MinInt64), int64(math.MaxInt64)
	if backoff {
		maxLo, maxHi = 1, rules.MaxJMSScheduleMinutes
	}
	maxInterval, e2 := framework.WholeArgument(rawMaxInterval, 1, "max_retry_interval", maxLo, maxHi,
		func(n int64) error {
			return rules.JMSSchedule{RetryInterval: 1, MaxRetryInterval: n, ExponentialBackoff: true}.Validate()
		})
	retries, e3 := framework.WholeArgument(rawRetries, 3, "retries", 0, math.MaxInt64,
		func(n int64) error { _, err := rules.JMSSchedule{RetryInterval: 1}.GiveUpMinutes(n); return err })
	if resp.Error = function.ConcatFuncErrors(e1, e2, e3); resp.Error != nil {
		return
	}
	s := rules.JMSSchedule{RetryInterval: interval, MaxRetryInterval: maxInterval, ExponentialBackoff: backoff}
	minutes, err := s.GiveUpMinutes(retries)
	if err != nil {
		// The arguments are each in range; the total does not fit: fewer retries do.
		resp.Error = function.NewArgumentFuncError(3, err.Error())
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, minutes))
}

package landscape

import (
	"context"
	"math/big"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var _ function.Function = (*maxAttemptsFunction)(nil)

// NewMaxAttemptsFunction returns provider::sapmessaging::max_attempts.
func NewMaxAttemptsFunction() function.Function {
	return &maxAttemptsFunction{}
}

type maxAttemptsFunction struct{}

func (f *maxAttemptsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "max_attempts"
}

func (f *maxAttemptsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Worst-case executions of one always-failing message",
		MarkdownDescription: "Returns `(redeliveries + 1) × retries + 1`: how often one message that always fails runs through " +
			"an integration flow when its Event Mesh queue redelivers it `redeliveries` times and the AMQP sender retries it " +
			"`retries` times in memory on each delivery. Fails for 0 (Event Mesh reads a redelivery count of 0 as unlimited), " +
			"negative values and values out of range.",
		Parameters: []function.Parameter{
			// Number parameters, so that 1.5 gets a clear answer instead of a conversion error.
			function.NumberParameter{Name: "redeliveries", MarkdownDescription: "The queue's `max_redelivery_count`, a whole number from 1 to 255."},
			function.NumberParameter{Name: "retries", MarkdownDescription: "The AMQP sender's `max_number_of_retries`, a whole number from 1 to 99."},
		},
		Return: function.Int64Return{},
	}
}

func (f *maxAttemptsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var rawRedeliveries, rawRetries *big.Float
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &rawRedeliveries, &rawRetries))
	if resp.Error != nil {
		return
	}
	redeliveries, e1 := framework.WholeArgument(rawRedeliveries, 0, "redeliveries", 1, rules.MaxRedeliveryCountLimit,
		func(n int64) error { _, err := rules.MaxAttempts(n, 1); return err })
	retries, e2 := framework.WholeArgument(rawRetries, 1, "retries", 1, rules.MaxRetriesLimit,
		func(n int64) error { _, err := rules.MaxAttempts(1, n); return err })
	if resp.Error = function.ConcatFuncErrors(e1, e2); resp.Error != nil {
		return
	}
	n, err := rules.MaxAttempts(redeliveries, retries)
	if err != nil { // Not reached: both arguments are in range.
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, n))
}

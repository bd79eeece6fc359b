package landscape

import (
	"context"
	"math/big"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var _ function.Function = (*redeliveriesForFunction)(nil)

// NewRedeliveriesForFunction returns provider::sapmessaging::redeliveries_for.
func NewRedeliveriesForFunction() function.Function {
	return &redeliveriesForFunction{}
}

type redeliveriesForFunction struct{}

func (f *redeliveriesForFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "redeliveries_for"
}

func (f *redeliveriesForFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Queue redeliveries for a budget of executions",
		MarkdownDescription: "Returns `total_attempts − 2`, the queue's `max_redelivery_count` that gives at most `total_attempts` " +
			"executions of one always-failing message when the AMQP sender keeps `max_number_of_retries = 1` (the recommended " +
			"recipe: attempts spent on persistent redeliveries that end in the dead message queue). Fails below 3, the smallest " +
			"total that recipe reaches, and above 257.",
		Parameters: []function.Parameter{
			// A number parameter, so that 1.5 gets a clear answer instead of a conversion error.
			function.NumberParameter{Name: "total_attempts", MarkdownDescription: "How many executions one message may cost at most, a whole number from 3 to 257."},
		},
		Return: function.Int64Return{},
	}
}

func (f *redeliveriesForFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var raw *big.Float
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &raw))
	if resp.Error != nil {
		return
	}
	total, e := framework.WholeArgument(raw, 0, "total_attempts", 3, 257,
		func(n int64) error { _, err := rules.RedeliveriesFor(n); return err })
	if e != nil {
		resp.Error = e
		return
	}
	r, err := rules.RedeliveriesFor(total)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, r))
}

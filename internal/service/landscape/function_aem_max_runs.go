package landscape

import (
	"context"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var _ function.Function = (*aemMaxRunsFunction)(nil)

// NewAEMMaxRunsFunction returns provider::sapmessaging::aem_max_runs.
func NewAEMMaxRunsFunction() function.Function {
	return &aemMaxRunsFunction{}
}

type aemMaxRunsFunction struct{}

func (f *aemMaxRunsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "aem_max_runs"
}

func (f *aemMaxRunsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Worst-case runs of one poison message on an Advanced Event Mesh sender channel",
		MarkdownDescription: "Returns `N_max = m × (R + 1)`: how often a flow runs one message that always fails when its " +
			"AdvancedEventMesh sender channel makes `attempts` attempts on each delivery and then settles the message as " +
			"`FAILED`, and the AEM queue it reads redelivers it `max_redelivery_count` times. With `settlement_outcome = \"REJECTED\"` " +
			"the message runs `attempts` times and goes to the dead message queue; with `acknowledgement_mode = \"AUTOMATIC_IMMEDIATE\"` once. " +
			"Fails for a redelivery count of 0 (the broker retries for ever), for 0 attempts, and for values out of range.",
		Parameters: []function.Parameter{aemAttemptsParameter(), aemMaxRedeliveryCountParameter()},
		Return:     function.Int64Return{},
	}
}

func (f *aemMaxRunsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	attempts, e1 := readAEMAttempts(ctx, req, 0)
	queue, e2 := readAEMQueueTiming(ctx, req, 1, false)
	if resp.Error = function.ConcatFuncErrors(e1, e2); resp.Error != nil {
		return
	}
	n, err := rules.AEMSenderTiming{Attempts: attempts, Queue: queue}.MaxRuns()
	if err != nil {
		// The arguments are each in range; the product does not fit: fewer attempts do.
		resp.Error = function.NewArgumentFuncError(0, framework.Clause(err))
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, n))
}

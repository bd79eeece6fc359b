package landscape

import (
	"context"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var _ function.Function = (*aemTimeToDeadLetterFunction)(nil)

// NewAEMTimeToDeadLetterFunction returns provider::sapmessaging::aem_time_to_dead_letter.
func NewAEMTimeToDeadLetterFunction() function.Function {
	return &aemTimeToDeadLetterFunction{}
}

type aemTimeToDeadLetterFunction struct{}

func (f *aemTimeToDeadLetterFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "aem_time_to_dead_letter"
}

func (f *aemTimeToDeadLetterFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Milliseconds an Advanced Event Mesh queue waits between the deliveries of a poison message",
		MarkdownDescription: "Returns, in whole milliseconds, the redelivery delays an AEM queue spends on one message that every " +
			"consumer fails, from its first delivery until the broker removes it after `max_redelivery_count` redeliveries " +
			"(to its dead message queue, or deleted without one). The wait before redelivery *k* is " +
			"`min(redelivery_delay_initial_interval × (redelivery_delay_multiplier / 100)^(k−1), redelivery_delay_max_interval)`; " +
			"the broker's defaults (1000 ms, ×2.00, at most 64000 ms) give 31000 for 5 redeliveries. With " +
			"`redelivery_delay_enabled = false` (the broker's default) it is 0: the broker redelivers as soon as possible. " +
			"The consumer's processing time comes on top; `aem_sender_time_to_dead_letter` adds the waits of a Cloud Integration " +
			"AdvancedEventMesh sender channel. Fails for a redelivery count of 0 (the broker retries for ever) and for values out of range.",
		Parameters: append([]function.Parameter{aemMaxRedeliveryCountParameter()}, aemRedeliveryDelayParameters()...),
		Return:     function.Int64Return{},
	}
}

func (f *aemTimeToDeadLetterFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	queue, err := readAEMQueueTiming(ctx, req, 0, true)
	if resp.Error = err; err != nil {
		return
	}
	d, derr := queue.TimeToDeadLetter()
	if derr != nil { // Not reached: every argument is in range.
		resp.Error = function.NewArgumentFuncError(0, framework.Clause(derr))
		return
	}
	setMilliseconds(ctx, resp, d)
}

package landscape

import (
	"context"
	"math"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var _ function.Function = (*aemSenderTimeToDeadLetterFunction)(nil)

// NewAEMSenderTimeToDeadLetterFunction returns provider::sapmessaging::aem_sender_time_to_dead_letter.
func NewAEMSenderTimeToDeadLetterFunction() function.Function {
	return &aemSenderTimeToDeadLetterFunction{}
}

type aemSenderTimeToDeadLetterFunction struct{}

func (f *aemSenderTimeToDeadLetterFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "aem_sender_time_to_dead_letter"
}

func (f *aemSenderTimeToDeadLetterFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Milliseconds until an Advanced Event Mesh sender channel's poison message is dead-lettered",
		MarkdownDescription: "Returns, in whole milliseconds, the waits of one message that always fails on a Cloud Integration " +
			"AdvancedEventMesh sender channel with `settlement_outcome = \"FAILED\"`, from its first run until the broker removes it " +
			"from the queue: on each of the `max_redelivery_count + 1` deliveries the adapter's waits between its `attempts` " +
			"attempts (`min(retry_interval × retry_multiplier^(k−1), max_retry_interval)` after attempt *k*), and between the " +
			"deliveries the queue's redelivery delays (as `aem_time_to_dead_letter`). The channel's usual settings (5 attempts, " +
			"1000 ms, ×3.0, at most 30000 ms: 40 s per delivery) on a queue with 5 redeliveries and the broker's default delay " +
			"give 6 × 40000 + 31000 = 271000. The flow's own processing time comes on top. Fails for 0 attempts, a redelivery " +
			"count of 0 (the broker retries for ever), values out of range and a total too large to represent.",
		Parameters: append([]function.Parameter{
			aemAttemptsParameter(),
			function.NumberParameter{Name: "retry_interval", MarkdownDescription: "The channel's `retry_interval`, the adapter's first wait in milliseconds, 1 or more (tenant-written channels: 1000). Not used with 1 attempt."},
			function.NumberParameter{Name: "max_retry_interval", MarkdownDescription: "The channel's `max_retry_interval`, the adapter's longest wait in milliseconds, 1 or more (tenant-written channels: 30000). Not used with 1 attempt."},
			function.NumberParameter{Name: "retry_multiplier", MarkdownDescription: "The channel's `retry_multiplier`, the Exponential Backoff Multiplier, a number above 0 (tenant-written channels: 3.0; 1.0 for constant waits). Not used with 1 attempt."},
			aemMaxRedeliveryCountParameter(),
		}, aemRedeliveryDelayParameters()...),
		Return: function.Int64Return{},
	}
}

func (f *aemSenderTimeToDeadLetterFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var s rules.AEMSenderTiming
	var errs []*function.FuncError
	var err *function.FuncError
	s.Attempts, err = readAEMAttempts(ctx, req, 0)
	errs = append(errs, err)
	// With one attempt the adapter has no waits: its three settings are not used.
	lo := int64(1)
	if err == nil && s.Attempts == 1 {
		lo = math.MinInt64
	}
	for i, w := range []struct {
		name   string
		target *int64
	}{{"retry_interval", &s.RetryIntervalMs}, {"max_retry_interval", &s.MaxRetryIntervalMs}} {
		f, ferr := numberArgument(ctx, req, 1+i)
		if ferr == nil {
			*w.target, ferr = framework.WholeArgument(f, 1+i, w.name, lo, math.MaxInt64, rules.CheckAEMRetryInterval)
		}
		errs = append(errs, ferr)
	}
	mult, err := numberArgument(ctx, req, 3)
	if err == nil {
		s.RetryMultiplier, _ = mult.Float64()
		if cerr := rules.CheckAEMRetryMultiplier(s.RetryMultiplier); cerr != nil && lo == 1 {
			err = function.NewArgumentFuncError(3, "retry_multiplier = "+mult.Text('g', -1)+": "+framework.Clause(cerr))
		}
	}
	errs = append(errs, err)
	s.Queue, err = readAEMQueueTiming(ctx, req, 4, true)
	if resp.Error = function.ConcatFuncErrors(append(errs, err)...); resp.Error != nil {
		return
	}
	d, derr := s.TimeToDeadLetter()
	if derr != nil {
		// The arguments are each in range; the total does not fit: shorter waits do.
		resp.Error = function.NewArgumentFuncError(2, framework.Clause(derr))
		return
	}
	setMilliseconds(ctx, resp, d)
}

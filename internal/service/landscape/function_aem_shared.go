package landscape

import (
	"context"
	"math"
	"math/big"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The arguments the AEM functions (aem_max_runs, aem_time_to_dead_letter, aem_sender_time_to_dead_letter)
// share: the adapter's attempts and the queue's redelivery, read one argument at a time so that each function
// takes them at its own position. The arithmetic is internal/rules/aem_arithmetic.go (aem.md §5).

func aemAttemptsParameter() function.Parameter {
	return function.NumberParameter{Name: "attempts", MarkdownDescription: "The AEM sender channel's `max_message_processing_attempts` m, the attempts per delivery with the first one included, a whole number of 1 or more."}
}

func aemMaxRedeliveryCountParameter() function.Parameter {
	return function.NumberParameter{Name: "max_redelivery_count", MarkdownDescription: "The AEM queue's `max_redelivery_count` R, a whole number from 1 to 255 (the broker reads 0 as retry forever, which has no end to compute)."}
}

// aemRedeliveryDelayParameters are the queue's redelivery delay settings, after max_redelivery_count.
func aemRedeliveryDelayParameters() []function.Parameter {
	return []function.Parameter{
		function.BoolParameter{Name: "redelivery_delay_enabled", MarkdownDescription: "The queue's `redelivery_delay_enabled`: whether the broker waits before a redelivery (broker default `false`: no wait, and the next three arguments are not used)."},
		function.NumberParameter{Name: "redelivery_delay_initial_interval", MarkdownDescription: "The queue's `redelivery_delay_initial_interval`, the wait before the first redelivery in milliseconds, 1 to 3600000 (broker default 1000)."},
		function.NumberParameter{Name: "redelivery_delay_max_interval", MarkdownDescription: "The queue's `redelivery_delay_max_interval`, the longest wait in milliseconds, 1 to 10800000 (broker default 64000)."},
		function.NumberParameter{Name: "redelivery_delay_multiplier", MarkdownDescription: "The queue's `redelivery_delay_multiplier` in hundredths, 100 to 500 (broker default 200 = ×2.00)."},
	}
}

// numberArgument reads the number argument at position i.
func numberArgument(ctx context.Context, req function.RunRequest, i int) (*big.Float, *function.FuncError) {
	var f *big.Float
	return f, req.Arguments.GetArgument(ctx, i, &f)
}

// readAEMAttempts reads the attempts argument at position i.
func readAEMAttempts(ctx context.Context, req function.RunRequest, i int) (int64, *function.FuncError) {
	f, err := numberArgument(ctx, req, i)
	if err != nil {
		return 0, err
	}
	return framework.WholeArgument(f, i, "attempts", 1, math.MaxInt64, rules.CheckAEMAttempts)
}

// readAEMQueueTiming reads max_redelivery_count at position i and, when withDelay, the four redelivery delay
// arguments after it. The delay's numbers are not checked when it is off.
func readAEMQueueTiming(ctx context.Context, req function.RunRequest, i int, withDelay bool) (rules.AEMQueueTiming, *function.FuncError) {
	var q rules.AEMQueueTiming
	f, err := numberArgument(ctx, req, i)
	if err != nil {
		return q, err
	}
	q.MaxRedeliveryCount, err = framework.WholeArgument(f, i, "max_redelivery_count", 1, rules.AEMMaxRedeliveryCountLimit, rules.CheckAEMMaxRedeliveryCount)
	if !withDelay {
		return q, err
	}
	errs := []*function.FuncError{err, req.Arguments.GetArgument(ctx, i+1, &q.DelayEnabled)}
	for k, d := range []struct {
		attr   string
		target *int64
	}{
		{rules.AEMAttrRedeliveryDelayInitial, &q.DelayInitialMs},
		{rules.AEMAttrRedeliveryDelayMax, &q.DelayMaxMs},
		{rules.AEMAttrRedeliveryDelayMultiplier, &q.DelayMult},
	} {
		f, ferr := numberArgument(ctx, req, i+2+k)
		if ferr == nil {
			lo, hi := rules.AEMRedeliveryDelayRange(d.attr)
			if !q.DelayEnabled {
				lo, hi = math.MinInt64, math.MaxInt64 // Not used: any whole number does.
			}
			attr := d.attr
			*d.target, ferr = framework.WholeArgument(f, i+2+k, attr, lo, hi, func(n int64) error { return rules.CheckAEMRedeliveryDelay(attr, n) })
		}
		errs = append(errs, ferr)
	}
	return q, function.ConcatFuncErrors(errs...)
}

// setMilliseconds sets the function's result to d in whole milliseconds, rounded down.
func setMilliseconds(ctx context.Context, resp *function.RunResponse, d time.Duration) {
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, d.Milliseconds()))
}

package eventmesh

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// NewRedriveAction returns the sapmessaging_redrive action: the shared frame (framework.RedriveAction) given
// the Event Mesh management and messaging connections, the checks of the queues and the move through the
// messaging REST API.
func NewRedriveAction() action.Action {
	return &framework.RedriveAction[redriveModel]{
		TypeSuffix:   "_redrive",
		ActionSchema: redriveSchema,
		Queues:       func(m *redriveModel) (types.String, types.String) { return m.From, m.To },
		SameQueue: func(q string, diags *diag.Diagnostics) {
			diags.AddAttributeError(path.Root("to"), "Redrive Into the Same Queue",
				fmt.Sprintf("from and to are both %q: every message would be taken from the queue and put back into it, and a redrive bounded by `max_messages` would move the same messages again. Set `to` to the queue the messages failed on.", q))
		},
		Needs:  []framework.ConnectionNeed{framework.NeedEventMesh, framework.NeedMessaging},
		Client: func(d *framework.ProviderData) bool { return d.EventMesh != nil },
		CheckAtPlan: func(ctx context.Context, d *framework.ProviderData, m *redriveModel, diags *diag.Diagnostics) {
			redriveCheckQueues(ctx, d, m.From.ValueString(), m.To.ValueString(), m.AcceptDeliveryCountUse.ValueBool(), true, diags)
		},
		Ready: redriveReady,
		Run:   redrive,
	}
}

type redriveModel struct {
	From         types.String  `tfsdk:"from"`
	To           types.String  `tfsdk:"to"`
	MaxMessages  types.Int64   `tfsdk:"max_messages"`
	MaxPerSecond types.Float64 `tfsdk:"max_per_second"`
	Concurrency  types.Int64   `tfsdk:"concurrency"`
	// AcceptDeliveryCountUse is the explicit acceptance of a from queue whose redelivery count
	// can discard a message the redrive could neither move nor put back.
	AcceptDeliveryCountUse types.Bool `tfsdk:"accept_delivery_count_use"`
}

// RedriveProgressEvery is how many finished messages, at most, lie between two progress
// messages of a running redrive (and at most eventmesh.DefaultRedriveProgressInterval).
const RedriveProgressEvery = 100

func redriveSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Moves messages from one SAP Event Mesh queue, usually a dead message queue, back to a queue, " +
			"through the messaging REST API: each message is consumed with QoS 1, published to `to` with QoS 1 (the same " +
			"payload, content type and every header the API gives back) and acknowledged on `from` only after `to` took it. " +
			"At least once, never lost: a message is in `from`, in `to`, or, where an answer got lost, in both. " +
			"Run it with `terraform apply -invoke=action.sapmessaging_redrive.NAME` or from a resource's " +
			"`lifecycle { action_trigger { ... } }`; Terraform 1.14 and later (OpenTofu has no actions).",
		Attributes: map[string]schema.Attribute{
			"from": schema.StringAttribute{
				MarkdownDescription: "The full name of the queue to take the messages from, usually a dead message queue.",
				Required:            true,
				Validators:          []validator.String{framework.QueueName()},
			},
			"to": schema.StringAttribute{
				MarkdownDescription: "The full name of the queue to publish the messages to, usually the queue they failed on. Must differ from `from`.",
				Required:            true,
				Validators:          []validator.String{framework.QueueName()},
			},
			"max_messages": schema.Int64Attribute{
				MarkdownDescription: "How many messages to move at most (at least 1): a redrive is always bounded. Redrive a few first, then the rest.",
				Required:            true,
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"max_per_second": schema.Float64Attribute{
				MarkdownDescription: "At most this many messages per second (at least 0.01). Unset, the redrive moves them as fast as the API answers.",
				Optional:            true,
				Validators:          []validator.Float64{float64validator.AtLeast(0.01)},
			},
			"concurrency": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many messages are moved at once, 1 to %d (default %d). 1 keeps the order of `from`; more moves faster, not in order.",
					eventmesh.MaxRedriveConcurrency, eventmesh.DefaultRedriveConcurrency),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(1, eventmesh.MaxRedriveConcurrency)},
			},
			"accept_delivery_count_use": schema.BoolAttribute{
				MarkdownDescription: "Set to `true` to redrive from a queue that has a `max_redelivery_count` and no dead message queue, " +
					"which the action otherwise refuses. A message the redrive consumes counts as a delivery until it is acknowledged; " +
					"one it cannot move is put back into `from` (published again and acknowledged, so that no delivery is spent), " +
					"but should that also fail, or the provider stop in the middle of a move, the delivery returns as a failed one, " +
					"and after `max_redelivery_count` + 1 of them Event Mesh discards the message. Safer: give `from` a dead message queue, " +
					"or set its `max_redelivery_count` to 0 for the redrive.",
				Optional: true,
			},
		},
	}
}

// redriveCheckQueues reads from and to: a missing queue is an attribute error, and so is a from queue
// that discards a message after a bounded number of failed deliveries, unless accepted; with
// warn (at plan), the warnings about a to that would loop, lose or keep the messages are added. It
// returns from as read.
func redriveCheckQueues(ctx context.Context, d *framework.ProviderData, from, to string, acceptDeliveryCountUse, warn bool, diags *diag.Diagnostics) *eventmesh.Queue {
	all, err := d.EventMesh.ListQueues(ctx)
	if err != nil {
		diags.AddError("Cannot Read the Queues of the Redrive", framework.ListErrorDetail(fmt.Sprintf("checking the queues %q and %q of the redrive", from, to), err))
		return nil
	}
	fromQ, toQ := framework.RedriveQueues(all, func(q *eventmesh.Queue) string { return q.Name }, from, to)
	for _, missing := range []struct {
		attr, name string
		q          *eventmesh.Queue
	}{{"from", from, fromQ}, {"to", to, toQ}} {
		if missing.q == nil {
			diags.AddAttributeError(path.Root(missing.attr), "Queue Not Found",
				fmt.Sprintf("Event Mesh has no queue %q, so the redrive cannot %s it. Check the full name including the namespace, or create the queue first.",
					missing.name, map[string]string{"from": "take messages from", "to": "publish to"}[missing.attr]))
		}
	}
	if fromQ != nil && !acceptDeliveryCountUse {
		if r := framework.Deref(fromQ.MaxRedeliveryCount); r > 0 && framework.Deref(fromQ.DeadMsgQueue) == "" {
			diags.AddAttributeError(path.Root("from"), "Redrive From a Queue That Discards Messages",
				fmt.Sprintf("%q has `max_redelivery_count` %d and no dead message queue: each message the redrive consumes counts as a delivery until it is acknowledged, "+
					"and Event Mesh discards a message after %d failed deliveries. The redrive puts a message it cannot move back into %q without spending a delivery, "+
					"but should that fail as well, or the provider stop in the middle of a move, the delivery counts as failed, and a message can be lost after a few runs. "+
					"Set `dead_message_queue` of %q, or its `max_redelivery_count` to 0 for the redrive, or set `accept_delivery_count_use = true` to accept the risk.",
					from, r, r+1, from, from))
		}
	}
	if fromQ == nil || toQ == nil || !warn {
		return fromQ
	}
	dmqOf := []string{}
	for _, q := range all {
		if q.DeadMsgQueue != nil && *q.DeadMsgQueue == to {
			dmqOf = append(dmqOf, q.Name)
		}
	}
	if len(dmqOf) > 0 {
		diags.AddAttributeWarning(path.Root("to"), "Redrive Into a Dead Message Queue",
			fmt.Sprintf("%q is the dead message queue of %s: the messages would go from one dead message queue to another, where nothing processes them. Set `to` to the queue the messages failed on.", to, framework.QuoteList(dmqOf)))
		// A dead message queue's own redelivery count, dead message queue and consumers are not the
		// problem: the destination is. Only the warning above applies.
		return fromQ
	}
	if framework.Deref(toQ.MaxRedeliveryCount) == 0 {
		diags.AddAttributeWarning(path.Root("to"), "Redrive Into a Queue That Redelivers for Ever",
			fmt.Sprintf("%q has `max_redelivery_count` 0, which Event Mesh reads as unlimited: a redriven message that still fails is delivered again and again, each time a billed execution, until its TTL ends or for ever. Set `max_redelivery_count` of %q to a bound before the redrive.", to, to))
	}
	if framework.Deref(toQ.DeadMsgQueue) == "" {
		diags.AddAttributeWarning(path.Root("to"), "Redrive Into a Queue Without Dead Message Queue",
			fmt.Sprintf("%q has no dead message queue: a redriven message that still fails is discarded after its last redelivery, and this time nothing keeps it. Set `dead_message_queue` of %q before the redrive.", to, to))
	}
	if framework.Deref(toQ.ConsumerCount) == 0 {
		diags.AddAttributeWarning(path.Root("to"), "Redrive Into a Queue Without Consumer",
			fmt.Sprintf("%q has no consumer connected now: the redriven messages wait there until one connects, and a message TTL may move them to the dead message queue again. Start or deploy the consumer of %q, or redrive once it runs.", to, to))
	}
	return fromQ
}

// redriveReady reports at invoke whether the management and messaging connections are configured.
func redriveReady(d *framework.ProviderData, diags *diag.Diagnostics) bool {
	if !d.EventMeshOrError(diags) {
		return false
	}
	if d.Messaging == nil {
		diags.AddError("Event Mesh Messaging Not Configured",
			"The redrive consumes and publishes through the Event Mesh messaging REST API, but the provider's Event Mesh connection has no messaging entry. "+
				"Set `event_mesh.service_key` to a service key whose messaging list has an entry with the httprest protocol, or the environment variable "+framework.EnvEventMeshServiceKey+" to one.")
		return false
	}
	return true
}

// redrive moves the messages of m (Invoke): the checks of the queues again, then the moves.
func redrive(ctx context.Context, d *framework.ProviderData, m *redriveModel, send func(string), diags *diag.Diagnostics) {
	from, to := m.From.ValueString(), m.To.ValueString()
	if from == to {
		diags.AddAttributeError(path.Root("to"), "Redrive Into the Same Queue",
			fmt.Sprintf("from and to are both %q: every message would be taken from the queue and put back into it. Set `to` to the queue the messages failed on.", from))
		return
	}
	fromQ := redriveCheckQueues(ctx, d, from, to, m.AcceptDeliveryCountUse.ValueBool(), false, diags)
	if diags.HasError() || fromQ == nil {
		return
	}
	opt := eventmesh.RedriveOptions{
		From: from, To: to, MaxMessages: m.MaxMessages.ValueInt64(),
		ProgressEvery: RedriveProgressEvery, ProgressInterval: eventmesh.DefaultRedriveProgressInterval,
	}
	if !m.MaxPerSecond.IsNull() {
		opt.MaxPerSecond = m.MaxPerSecond.ValueFloat64()
	}
	if !m.Concurrency.IsNull() {
		opt.Concurrency = int(m.Concurrency.ValueInt64())
	}
	// What the redrive can move: the messages in from now, at most max_messages.
	planned := min(opt.MaxMessages, framework.Deref(fromQ.MessageCount)-framework.Deref(fromQ.UnacknowledgedMessageCount))
	planned = max(planned, 0)
	send(redriveStartMessage(from, to, fromQ, opt))
	opt.Progress = func(p eventmesh.RedriveProgress) { send(redriveProgressMessage(p, planned)) }

	res, err := eventmesh.Redrive(ctx, d.Messaging, opt)
	send(redriveSummary(from, to, res))
	if res.DuplicatesPossible > 0 {
		diags.AddWarning("Messages May Be Duplicated",
			fmt.Sprintf("%d of the redriven messages may be in %q twice, or in %q and back in %q: an answer of the messaging API got lost, or an acknowledgement failed after the publish, and the API cannot tell whether the call was carried out. "+
				"Make the consumer of %q tolerate duplicates (for example by a business key), or check the messages of both queues.", res.DuplicatesPossible, to, to, from, to))
	}
	switch {
	case res.Cancelled:
		diags.AddWarning("Redrive Interrupted",
			fmt.Sprintf("The redrive was interrupted after %d moved messages; the messages in flight were finished, and every other message is still in %q. Run the action again to move the rest.", res.Moved, from))
	case err != nil:
		diags.AddError("Redrive Stopped", redriveErrorDetail(from, to, res, err))
	}
}

func redriveStartMessage(from, to string, fromQ *eventmesh.Queue, opt eventmesh.RedriveOptions) string {
	c := opt.Concurrency
	if c == 0 {
		c = eventmesh.DefaultRedriveConcurrency
	}
	s := fmt.Sprintf("Redriving up to %d of the %d messages in %s to %s, %d at a time", opt.MaxMessages, framework.Deref(fromQ.MessageCount), from, to, c)
	if opt.MaxPerSecond > 0 {
		s += fmt.Sprintf(", at most %g per second", opt.MaxPerSecond)
	}
	return s
}

func redriveProgressMessage(p eventmesh.RedriveProgress, planned int64) string {
	s := fmt.Sprintf("Moved %d, remaining %d, failed %d", p.Moved, max(planned-p.Moved-p.Failed, 0), p.Failed)
	if p.DuplicatesPossible > 0 {
		s += fmt.Sprintf(", possible duplicates %d", p.DuplicatesPossible)
	}
	return s + fmt.Sprintf(" (%s)", p.Elapsed.Round(time.Second))
}

func redriveSummary(from, to string, res eventmesh.RedriveResult) string {
	s := fmt.Sprintf("Redrive of %s to %s ended: moved %d, failed %d, possible duplicates %d in %s", from, to, res.Moved, res.Failed, res.DuplicatesPossible, res.Elapsed.Round(time.Millisecond))
	switch {
	case res.Empty:
		s += fmt.Sprintf("; %s has no more messages available", from)
	case res.Cancelled:
		s += "; interrupted"
	case res.Remaining == 0:
		s += "; `max_messages` reached"
	}
	return s
}

func redriveErrorDetail(from, to string, res eventmesh.RedriveResult, err error) string {
	var rerr *eventmesh.RedriveError
	step := "a call"
	if errors.As(err, &rerr) {
		step = map[string]string{"consume": "consuming from " + fmt.Sprintf("%q", from), "publish": "publishing to " + fmt.Sprintf("%q", to),
			"acknowledge": "acknowledging on " + fmt.Sprintf("%q", from)}[rerr.Step]
	}
	failed := ""
	switch {
	case rerr != nil && rerr.Step == "publish" && rerr.Returned:
		failed = fmt.Sprintf("%q did not take message %s; it was put back into %q as a new message at its end, without spending a delivery. ", to, rerr.MessageID, from)
	case rerr != nil && rerr.Step == "publish":
		failed = fmt.Sprintf("%q did not take message %s, and putting it back into %q failed too (%s): it stays unacknowledged and returns to %q when its delivery times out, "+
			"counted as a failed delivery. ", to, rerr.MessageID, from, framework.Clause(cmp.Or(rerr.ReturnErr, errors.New("no answer"))), from)
	}
	n := res.Failed - res.Returned
	if rerr != nil && rerr.Step == "publish" && !rerr.Returned {
		n--
	}
	if n > 0 {
		failed += fmt.Sprintf("%d other messages whose publish failed could not be put back and return to %q when their delivery times out. ", n, from)
	}
	return fmt.Sprintf("The redrive stopped at %s after %d moved messages: %s. %sNo message was acknowledged on %q before %q or %q took it, "+
		"and every other message is in one of the two queues. "+
		"Fix the cause (TF_LOG=debug shows each request; a message too large for %q or a full %q stops the redrive at that message), then run the action again to move the rest.",
		step, res.Moved, framework.Clause(err), failed, from, to, from, to, to)
}

package aem

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// NewAEMRedriveAction returns the sapmessaging_aem_redrive action: the shared frame (framework.RedriveAction)
// given the AEM connection, the checks of the queues in the Message VPN and the move through SEMP.
func NewAEMRedriveAction() action.Action {
	return &framework.RedriveAction[aemRedriveModel]{
		TypeSuffix:   "_aem_redrive",
		ActionSchema: aemRedriveSchema,
		Queues:       func(m *aemRedriveModel) (types.String, types.String) { return m.From, m.To },
		SameQueue:    addSameQueueError,
		Needs:        []framework.ConnectionNeed{framework.NeedAEM},
		Client:       func(d *framework.ProviderData) bool { return d.AEM != nil },
		CheckAtPlan: func(ctx context.Context, d *framework.ProviderData, m *aemRedriveModel, diags *diag.Diagnostics) {
			aemRedriveCheckQueues(ctx, d, m.From.ValueString(), m.To.ValueString(), true, diags)
		},
		Ready: func(d *framework.ProviderData, diags *diag.Diagnostics) bool { return d.AEMOrError(diags) },
		Run:   aemRedrive,
	}
}

type aemRedriveModel struct {
	From        types.String `tfsdk:"from"`
	To          types.String `tfsdk:"to"`
	MaxMessages types.Int64  `tfsdk:"max_messages"`
	Concurrency types.Int64  `tfsdk:"concurrency"`
}

// aemRedriveProgressEvery and aemRedriveProgressInterval bound the progress messages of a running redrive:
// one every 100 moved messages or 5 seconds, whichever comes first.
const (
	aemRedriveProgressEvery    = 100
	aemRedriveProgressInterval = 5 * time.Second
	// aemQueueNameMaxLength is the longest queue name the broker accepts ([SPEC] MsgVpnQueue queueName: maxLength 200).
	aemQueueNameMaxLength = 200
)

func aemRedriveSchema() schema.Schema {
	queue := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: desc,
			Required:            true,
			Validators:          []validator.String{stringvalidator.LengthBetween(1, aemQueueNameMaxLength)},
		}
	}
	return schema.Schema{
		MarkdownDescription: "Moves messages from an SAP Integration Suite, advanced event mesh queue, usually a dead message queue, back to " +
			"a queue, through the broker's SEMP v2 monitoring and action APIs: SEMP has no move, so each message is copied to `to` " +
			"first and deleted from `from` only after `to` took it. At least once, never lost: a message is in `from`, in `to`, or, " +
			"where an answer got lost, in both. Oldest first, several messages at a time (`concurrency`), reading `from` a page of 100 at a time; " +
			"it stops at the first message `to` does not take, and at a copy whose answer is lost, which it does not send twice. " +
			"Run it with `terraform apply -invoke=action.sapmessaging_aem_redrive.NAME` or from a resource's " +
			"`lifecycle { action_trigger { ... } }`; Terraform 1.14 and later (OpenTofu has no actions).",
		Attributes: map[string]schema.Attribute{
			"from": queue("The name of the queue to take the messages from, usually a dead message queue."),
			"to":   queue("The name of the queue to copy the messages to, usually the queue they failed on. Must differ from `from`."),
			"max_messages": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many messages to move at most, 1 to %d: a redrive is always bounded. Redrive a few first, then the rest.",
					aem.MaxRedriveMessages),
				Required:   true,
				Validators: []validator.Int64{int64validator.Between(1, aem.MaxRedriveMessages)},
			},
			"concurrency": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many messages are moved at once, 1 to %d (default %d). 1 keeps the order of `from`; more moves faster, "+
					"and neighbouring messages may reach `to` in another order.", aem.MaxRedriveConcurrency, aem.DefaultRedriveConcurrency),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(1, aem.MaxRedriveConcurrency)},
			},
		},
	}
}

// addSameQueueError refuses a redrive from q into q.
func addSameQueueError(q string, diags *diag.Diagnostics) {
	diags.AddAttributeError(path.Root("to"), "Redrive Into the Same Queue", fmt.Sprintf("`from` and `to` are both %q: every message would be "+
		"copied into the queue it is taken from and deleted there, and a redrive bounded by `max_messages` would move the same messages "+
		"again. Set `to` to the queue the messages failed on.", q))
}

// aemRedriveCheckQueues reads the queues of the Message VPN (one paged list): a missing from or to, or a to whose
// ingress is shut down, is an attribute error; with warn (at plan), the warnings about a to that would loop or
// keep the messages are added.
func aemRedriveCheckQueues(ctx context.Context, d *framework.ProviderData, from, to string, warn bool, diags *diag.Diagnostics) {
	all, err := d.AEM.ListQueues(ctx)
	if err != nil {
		diags.AddError("Cannot Read the Queues of the Redrive", framework.ListErrorDetail(fmt.Sprintf("checking the queues %q and %q of the redrive", from, to), err))
		return
	}
	fromQ, toQ := framework.RedriveQueues(all, func(q *aem.Queue) string { return q.Name }, from, to)
	var dmqOf []string
	for i := range all {
		if framework.Deref(all[i].DeadMsgQueue) == to && all[i].Name != to {
			dmqOf = append(dmqOf, all[i].Name)
		}
	}
	for _, q := range []struct {
		attr, name, use string
		q               *aem.Queue
	}{{"from", from, "take messages from", fromQ}, {"to", to, "copy messages to", toQ}} {
		if q.q == nil {
			diags.AddAttributeError(path.Root(q.attr), "Queue Not Found",
				fmt.Sprintf("Message VPN %q has no queue %q, so the redrive cannot %s it. Check the name, or create the queue first.",
					d.AEM.MsgVpnName(), q.name, q.use))
		}
	}
	if toQ != nil && !framework.Deref(toQ.IngressEnabled) {
		diags.AddAttributeError(path.Root("to"), "Redrive Into a Queue That Takes No Messages",
			fmt.Sprintf("%q has `ingress_enabled = false`: the broker refuses every copy into it, so the redrive would stop at the first message. "+
				"Set `ingress_enabled = true` on %q before the redrive.", to, to))
	}
	if fromQ == nil || toQ == nil || diags.HasError() || !warn {
		return
	}
	if len(dmqOf) > 0 {
		diags.AddAttributeWarning(path.Root("to"), "Redrive Into a Dead Message Queue",
			fmt.Sprintf("%q is the dead message queue of %s: the messages would go from one dead message queue to another, where nothing processes them. "+
				"Set `to` to the queue the messages failed on.", to, framework.QuoteList(dmqOf)))
		return
	}
	if deliveries, unlimited := aemQueueDeliveries(toQ); unlimited {
		diags.AddAttributeWarning(path.Root("to"), "Redrive Into a Queue That Redelivers for Ever",
			fmt.Sprintf("%q has `max_redelivery_count = 0`, which the broker reads as \"retry forever\": a redriven message that still fails is delivered again and again "+
				"and never reaches a dead message queue. Set `max_redelivery_count` of %q to a bound before the redrive.", to, to))
	} else if deliveries > 0 && !framework.Deref(toQ.EgressEnabled) {
		diags.AddAttributeWarning(path.Root("to"), "Redrive Into a Queue That Delivers Nothing",
			fmt.Sprintf("%q has `egress_enabled = false`: the redriven messages wait there and no consumer gets them. Set `egress_enabled = true` on %q, or redrive once it is.", to, to))
	}
}

// aemQueueDeliveries returns the deliveries of a poison message on q as the broker holds it, and whether
// they are unlimited.
func aemQueueDeliveries(q *aem.Queue) (int64, bool) {
	enabled := q.RedeliveryEnabled == nil || *q.RedeliveryEnabled
	return rules.AEMDeliveries(enabled, framework.Deref(q.MaxRedeliveryCount))
}

// aemRedrive moves the messages of m (Invoke): the checks of the queues again, then the copies and deletes.
func aemRedrive(ctx context.Context, d *framework.ProviderData, m *aemRedriveModel, send func(string), diags *diag.Diagnostics) {
	from, to := m.From.ValueString(), m.To.ValueString()
	if from == to {
		addSameQueueError(from, diags)
		return
	}
	if aemRedriveCheckQueues(ctx, d, from, to, false, diags); diags.HasError() {
		return
	}
	start, last := time.Now(), time.Now()
	opt := aem.RedriveOptions{From: from, To: to, MaxMessages: int(m.MaxMessages.ValueInt64()), Progress: func(p aem.RedriveProgress) {
		if p.Moved%aemRedriveProgressEvery == 0 || time.Since(last) >= aemRedriveProgressInterval {
			last = time.Now()
			send(fmt.Sprintf("Moved %d of at most %d (%s)", p.Moved, m.MaxMessages.ValueInt64(), time.Since(start).Round(time.Second)))
		}
	}}
	if !m.Concurrency.IsNull() {
		opt.Concurrency = int(m.Concurrency.ValueInt64())
	}
	concurrency := opt.Concurrency
	if concurrency == 0 {
		concurrency = aem.DefaultRedriveConcurrency
	}
	send(fmt.Sprintf("Redriving up to %s from %s to %s, oldest first, %d at a time: copy to %s, then delete from %s",
		aem.Plural(opt.MaxMessages, "message", "messages"), from, to, concurrency, to, from))
	res, err := d.AEM.Redrive(ctx, opt)
	send(aemRedriveSummary(from, to, res, time.Since(start)))
	var rerr *aem.RedriveError
	interrupted := err != nil && ctx.Err() != nil
	switch {
	case interrupted:
		// Ctrl-C (or Terraform's stop): an error, so that the apply does not report success with messages left behind.
		detail := fmt.Sprintf("The redrive was interrupted after %s (copied to %q, then deleted from %q).", movedCount(res.Moved), to, from)
		if errors.As(err, &rerr) {
			detail += " The moves under way were finished where they could be; these could not:"
			for _, e := range append([]*aem.RedriveError{rerr}, rerr.Others...) {
				detail += " " + aemRedriveWhere(e)
			}
		} else {
			detail += " The moves under way were finished, so no message is in both queues."
		}
		diags.AddError("Redrive Interrupted", detail+fmt.Sprintf(" Every other message not moved is still in %q. Run the action again to move the rest.", from))
	case errors.As(err, &rerr):
		diags.AddError("Redrive Stopped", aemRedriveStoppedDetail(rerr, res.Moved))
	case err != nil:
		diags.AddError("Redrive Stopped", fmt.Sprintf("The redrive could not list the messages of %q after %s: %s. "+
			"Every message not moved is still in %q. Fix what the error names (TF_LOG=debug shows each request), then run the action again.", from, movedCount(res.Moved), framework.Clause(err), from))
	}
}

// movedCount is "1 moved message" or "3 moved messages".
func movedCount(n int) string { return aem.Plural(n, "moved message", "moved messages") }

func aemRedriveSummary(from, to string, res aem.RedriveResult, took time.Duration) string {
	s := fmt.Sprintf("Redrive of %s to %s ended: moved %d in %s", from, to, res.Moved, took.Round(time.Millisecond))
	switch {
	case res.MoreLeft:
		return s + fmt.Sprintf("; at least %s left in %s", aem.Plural(res.Left, "message", "messages"), from)
	case res.Left == 0:
		return s + fmt.Sprintf("; %s has no more messages", from)
	}
	return s + fmt.Sprintf("; %s left in %s", aem.Plural(res.Left, "message", "messages"), from)
}

// aemRedriveStoppedDetail says where each message the redrive stopped at is, and what to do.
func aemRedriveStoppedDetail(e *aem.RedriveError, moved int) string {
	s := fmt.Sprintf("The redrive stopped after %s. %s", movedCount(moved), aemRedriveWhere(e))
	for _, o := range e.Others {
		s += " " + aemRedriveWhere(o)
	}
	return s + " Every other message not moved is still in " + strconv.Quote(e.From) + ". " +
		"Fix what the error names (TF_LOG=debug shows each request), then run the action again to move the rest."
}

// aemRedriveWhere says where the message of e is, and what to do about it.
func aemRedriveWhere(e *aem.RedriveError) string {
	switch {
	case e.OnBoth && e.MaybeDeleted:
		return fmt.Sprintf("Message %d was copied to %q, but its delete from %q got no answer that says whether it was carried out (%s), so it is in %q "+
			"and may still be in %q: look for it in %q in the broker manager; if it is there, delete message %d from %q before the next run, or it is redriven twice.",
			e.MsgID, e.To, e.From, framework.Clause(e.Err), e.To, e.From, e.From, e.MsgID, e.From)
	case e.OnBoth:
		return fmt.Sprintf("Message %d was copied to %q, but its delete from %q failed (%s), so it is in both queues: "+
			"delete message %d from %q in the broker manager before the next run, or it is redriven twice.", e.MsgID, e.To, e.From, framework.Clause(e.Err), e.MsgID, e.From)
	case e.MaybeCopied:
		return fmt.Sprintf("Message %d (replication group message ID %s) is still in %q and may also be in %q: its copy got no answer that says whether it was made (%s), "+
			"and a copy is not sent twice, as that would put the message in %q twice. Look for it in %q in the broker manager; if it is there, "+
			"delete message %d from %q before the next run, or it is redriven twice.", e.MsgID, e.ReplicationGroupMsgID, e.From, e.To, framework.Clause(e.Err), e.To, e.To, e.MsgID, e.From)
	}
	return fmt.Sprintf("%q did not take message %d (%s), which stays in %q.", e.To, e.MsgID, framework.Clause(e.Err), e.From)
}

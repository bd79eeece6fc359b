package eventmesh

import (
	"context"
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// NewQueueDataSource returns the sapmessaging_queue data source: the shared skeleton
// (framework.QueueDataSource) given the Event Mesh queue list.
func NewQueueDataSource() datasource.DataSource {
	return &framework.QueueDataSource[QueueInfoModel]{
		TypeSuffix: "_queue",
		Description: "One SAP Event Mesh queue with its settings and live counters, read when Terraform plans. " +
			"Use it in a `check` block to warn when a dead message queue is not empty.",
		InfoAttributes:  queueInfoAttributes,
		NameDescription: "The full queue name.",
		NameValidator:   framework.QueueName(),
		Need:            framework.NeedEventMesh,
		Find:            findQueue,
		NotFound: func(_ *framework.ProviderData, name string, diags *diag.Diagnostics) {
			diags.AddAttributeError(path.Root("name"), "Queue Not Found",
				fmt.Sprintf("Event Mesh has no queue %q. Check the full name including the namespace, or create the queue first.", name))
		},
	}
}

// findQueue reads queue name from the queue list, which also says whether another queue names it as
// dead message queue.
func findQueue(ctx context.Context, d *framework.ProviderData, name string, diags *diag.Diagnostics) (QueueInfoModel, bool, bool) {
	all, err := d.EventMesh.ListQueues(ctx)
	if err != nil {
		diags.AddError("Cannot Read Queue", framework.ListErrorDetail(fmt.Sprintf("reading the queue %q and which queues name it as dead message queue", name), err))
		return QueueInfoModel{}, false, false
	}
	for i := range all {
		if all[i].Name == name {
			return queueInfo(&all[i], usedAsDMQ(all)[name]), true, true
		}
	}
	return QueueInfoModel{}, false, true
}

type QueueInfoModel struct {
	Name types.String `tfsdk:"name"`
	queueSettingsModel
	MessageCount               types.Int64 `tfsdk:"message_count"`
	UnacknowledgedMessageCount types.Int64 `tfsdk:"unacknowledged_message_count"`
	QueueSizeInBytes           types.Int64 `tfsdk:"queue_size_in_bytes"`
	ConsumerCount              types.Int64 `tfsdk:"consumer_count"`
	UnboundedRedelivery        types.Bool  `tfsdk:"unbounded_redelivery"`
	IsDeadMessageQueue         types.Bool  `tfsdk:"is_dead_message_queue"`
}

// queueInfo converts one queue; usedAsDMQ says whether another queue names it as dead message queue.
func queueInfo(q *eventmesh.Queue, usedAsDMQ bool) QueueInfoModel {
	return QueueInfoModel{
		Name:                       types.StringValue(q.Name),
		queueSettingsModel:         queueSettingsFromAPI(q.QueueSettings),
		MessageCount:               types.Int64Value(framework.Deref(q.MessageCount)),
		UnacknowledgedMessageCount: types.Int64Value(framework.Deref(q.UnacknowledgedMessageCount)),
		QueueSizeInBytes:           types.Int64Value(framework.Deref(q.QueueSizeInBytes)),
		ConsumerCount:              types.Int64Value(framework.Deref(q.ConsumerCount)),
		UnboundedRedelivery:        types.BoolValue(!usedAsDMQ && framework.Deref(q.MaxRedeliveryCount) == 0),
		IsDeadMessageQueue:         types.BoolValue(usedAsDMQ),
	}
}

// usedAsDMQ lists the queue names that some queue names as its dead message queue.
func usedAsDMQ(all []eventmesh.Queue) map[string]bool {
	used := map[string]bool{}
	for _, q := range all {
		if q.DeadMsgQueue != nil && *q.DeadMsgQueue != "" {
			used[*q.DeadMsgQueue] = true
		}
	}
	return used
}

// queueInfoAttributes are the computed attributes shared by both queue data sources.
func queueInfoAttributes() map[string]schema.Attribute {
	attrs := queueDataSourceAttributes()
	for name, a := range map[string]schema.Attribute{
		"message_count":                computedInt64("How many messages the queue holds now."),
		"unacknowledged_message_count": computedInt64("How many of them are delivered but not yet acknowledged."),
		"queue_size_in_bytes":          computedInt64("The current size of the queue in bytes."),
		"consumer_count":               computedInt64("How many consumers are connected."),
		"unbounded_redelivery": schema.BoolAttribute{
			MarkdownDescription: "True when the queue redelivers without limit (`max_redelivery_count` 0 or unset) and no other queue uses it as dead message queue.",
			Computed:            true,
		},
		"is_dead_message_queue": schema.BoolAttribute{
			MarkdownDescription: "True when another queue names this queue as its dead message queue.",
			Computed:            true,
		},
	} {
		attrs[name] = a
	}
	return attrs
}

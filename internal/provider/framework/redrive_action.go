package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ action.Action                   = (*RedriveAction[struct{}])(nil)
	_ action.ActionWithConfigure      = (*RedriveAction[struct{}])(nil)
	_ action.ActionWithValidateConfig = (*RedriveAction[struct{}])(nil)
	_ action.ActionWithModifyPlan     = (*RedriveAction[struct{}])(nil)
)

// RedriveAction is the one frame of the redrive actions of both brokers (sapmessaging_redrive,
// sapmessaging_aem_redrive): a bounded move of messages from the queue `from` to the queue `to`. The
// configuration is refused when both name the same queue; the plan requires the broker's connection and,
// when its client is known then, checks the queues; the invoke requires the connection and runs the move,
// sending its progress messages where Terraform takes them.
//
// The broker configures the schema (of the model M), the connection, the checks of the queues and the move.
type RedriveAction[M any] struct {
	TypeSuffix   string
	ActionSchema func() schema.Schema
	// Queues returns the from and to attributes of m; SameQueue adds the error of a redrive from q into q.
	Queues    func(m *M) (from, to types.String)
	SameQueue func(q string, diags *diag.Diagnostics)
	// Needs are the connections the plan requires; Client reports whether the client of CheckAtPlan is
	// configured (without it, Invoke checks the queues).
	Needs       []ConnectionNeed
	Client      func(d *ProviderData) bool
	CheckAtPlan func(ctx context.Context, d *ProviderData, m *M, diags *diag.Diagnostics)
	// Ready reports at invoke whether the connection is configured, after adding an error when it is not;
	// Run then moves the messages of m, each progress message through send.
	Ready func(d *ProviderData, diags *diag.Diagnostics) bool
	Run   func(ctx context.Context, d *ProviderData, m *M, send func(string), diags *diag.Diagnostics)

	Data *ProviderData
}

func (a *RedriveAction[M]) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + a.TypeSuffix
}

func (a *RedriveAction[M]) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = a.ActionSchema()
}

func (a *RedriveAction[M]) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.Data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (a *RedriveAction[M]) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m M
	resp.Diagnostics.Append(GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if from, to := a.Queues(&m); !from.IsNull() && !from.IsUnknown() && from.Equal(to) {
		a.SameQueue(from.ValueString(), &resp.Diagnostics)
	}
}

// ModifyPlan checks the queues when the action is planned (CheckAtPlan), once the connection is known and
// from and to are known and differ.
func (a *RedriveAction[M]) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var m M
	resp.Diagnostics.Append(GetConfig(ctx, req.Config, &m)...)
	from, to := a.Queues(&m)
	if resp.Diagnostics.HasError() || from.IsUnknown() || to.IsUnknown() || from.Equal(to) {
		return
	}
	if !a.Data.RequireAtPlan(ctx, &resp.Diagnostics, a.Needs...) || a.Data == nil || !a.Client(a.Data) {
		// Without a connection known at plan (a service key from another resource), Invoke checks then.
		return
	}
	a.CheckAtPlan(ctx, a.Data, &m, &resp.Diagnostics)
}

func (a *RedriveAction[M]) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m M
	resp.Diagnostics.Append(GetConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() || !a.Ready(a.Data, &resp.Diagnostics) {
		return
	}
	send := func(msg string) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}
	a.Run(ctx, a.Data, &m, send, &resp.Diagnostics)
}

// RedriveQueues returns the queues named from and to in all, nil where all has none.
func RedriveQueues[Q any](all []Q, name func(q *Q) string, from, to string) (fromQ, toQ *Q) {
	for i := range all {
		switch name(&all[i]) {
		case from:
			fromQ = &all[i]
		case to:
			toQ = &all[i]
		}
	}
	return fromQ, toQ
}

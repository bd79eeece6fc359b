package framework

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestStringValidators(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		v       validator.String
		value   types.String
		wantErr bool
	}{
		"queue name ok":            {QueueName(), types.StringValue("acme/crm/prod/orders"), false},
		"queue name one segment":   {QueueName(), types.StringValue("orders"), false},
		"queue name space":         {QueueName(), types.StringValue("acme/crm prod"), true},
		"queue name empty":         {QueueName(), types.StringValue(""), true},
		"queue name empty segment": {QueueName(), types.StringValue("acme//orders"), true},
		"queue name null":          {QueueName(), types.StringNull(), false},
		"queue name unknown":       {QueueName(), types.StringUnknown(), false},
		"topic ok":                 {TopicPattern(), types.StringValue("acme/crm/prod/ce/sap/s4/BusinessPartner/*"), false},
		"topic plus":               {TopicPattern(), types.StringValue("acme/crm/+/orders"), false},
		"topic comma":              {TopicPattern(), types.StringValue("acme/a,b"), true},
		"topic null":               {TopicPattern(), types.StringNull(), false},
		"topic unknown":            {TopicPattern(), types.StringUnknown(), false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp := &validator.StringResponse{}
			c.v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: c.value}, resp)
			if got := resp.Diagnostics.HasError(); got != c.wantErr {
				t.Fatalf("error = %v, want %v: %v", got, c.wantErr, resp.Diagnostics)
			}
			if c.wantErr && resp.Diagnostics[0].Summary() == "" {
				t.Fatal("error without summary")
			}
		})
	}
}

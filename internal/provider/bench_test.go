package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validateRequest builds the ValidateResourceConfig request Terraform sends at plan time for a
// resource with the given attribute values; every other attribute is null.
func validateRequest(tb testing.TB, srv tfprotov6.ProviderServer, typeName string, values map[string]tftypes.Value) *tfprotov6.ValidateResourceConfigRequest {
	tb.Helper()
	ctx := context.Background()
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	s, ok := schemas.ResourceSchemas[typeName]
	if !ok {
		tb.Fatalf("no schema for %s", typeName)
	}
	objType, ok := s.ValueType().(tftypes.Object)
	if !ok {
		tb.Fatalf("%s: schema type %T is not an object", typeName, s.ValueType())
	}
	attrs := map[string]tftypes.Value{}
	for name, t := range objType.AttributeTypes {
		if v, set := values[name]; set {
			attrs[name] = v
		} else {
			attrs[name] = tftypes.NewValue(t, nil)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(objType, tftypes.NewValue(objType, attrs))
	if err != nil {
		tb.Fatal(err)
	}
	return &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: &dv}
}

// queueValues is the acme/crm/prod/orders queue with the given redelivery count and DMQ.
func queueValues(redeliveries int64, dmq string) map[string]tftypes.Value {
	return map[string]tftypes.Value{
		"name":                 tftypes.NewValue(tftypes.String, "acme/crm/prod/orders"),
		"max_redelivery_count": tftypes.NewValue(tftypes.Number, redeliveries),
		"dead_message_queue":   tftypes.NewValue(tftypes.String, dmq),
		"respect_ttl":          tftypes.NewValue(tftypes.Bool, true),
		"max_ttl":              tftypes.NewValue(tftypes.Number, int64(86400)),
	}
}

// The benchmark's requests are the ones it measures: a clean queue gets no diagnostics, a bad
// one gets its errors, through the same framework path as at plan time.
func TestValidateResourceConfigRequests(t *testing.T) {
	t.Parallel()
	srv, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	clean := validateRequest(t, srv, "sapmessaging_queue", queueValues(5, "acme/crm/prod/orders/dmq"))
	resp, err := srv.ValidateResourceConfig(ctx, clean)
	if err != nil || len(resp.Diagnostics) != 0 {
		t.Fatalf("clean queue: %v %+v", err, resp.Diagnostics)
	}
	bad := validateRequest(t, srv, "sapmessaging_queue", queueValues(0, "acme/crm/test/dmq"))
	resp, err = srv.ValidateResourceConfig(ctx, bad)
	if err != nil {
		t.Fatal(err)
	}
	errs := 0
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs++
		}
	}
	if errs < 2 {
		t.Fatalf("bad queue: %d errors, want the unlimited redelivery and the namespace errors: %+v", errs, resp.Diagnostics)
	}
}

// BenchmarkValidateResourceConfig measures plan-time validation of one resource through the
// provider server, as Terraform calls it: decoding the config, the framework's attribute
// validators and the resource's ValidateConfig with the rules.
func BenchmarkValidateResourceConfig(b *testing.B) {
	srv, err := providerserver.NewProtocol6WithError(New("bench")())()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name     string
		typeName string
		values   map[string]tftypes.Value
	}{
		{"queue", "sapmessaging_queue", queueValues(5, "acme/crm/prod/orders/dmq")},
		{"queue_with_errors", "sapmessaging_queue", queueValues(0, "acme/crm/test/dmq")},
		{"dead_message_queue", "sapmessaging_dead_message_queue", map[string]tftypes.Value{
			"name":    tftypes.NewValue(tftypes.String, "acme/crm/prod/orders/dmq"),
			"max_ttl": tftypes.NewValue(tftypes.Number, int64(604800)),
		}},
		{"queue_subscription", "sapmessaging_queue_subscription", map[string]tftypes.Value{
			"queue_name":    tftypes.NewValue(tftypes.String, "acme/crm/prod/orders"),
			"topic_pattern": tftypes.NewValue(tftypes.String, "acme/crm/prod/ce/orders/*"),
		}},
		{"webhook_subscription", "sapmessaging_webhook_subscription", map[string]tftypes.Value{
			"name":     tftypes.NewValue(tftypes.String, "acme/crm/prod/orders/webhook"),
			"queue":    tftypes.NewValue(tftypes.String, "acme/crm/prod/orders"),
			"endpoint": tftypes.NewValue(tftypes.String, "https://orders.example.com/events"),
			"qos":      tftypes.NewValue(tftypes.Number, int64(1)),
		}},
	} {
		req := validateRequest(b, srv, bc.typeName, bc.values)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp, err := srv.ValidateResourceConfig(ctx, req)
				if err != nil || resp == nil {
					b.Fatal(fmt.Sprint(err))
				}
			}
		})
	}
}

package cpi_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// digestOf returns the content digest of a flow archive as read from the tenant.
func digestOf(t *testing.T, content []byte, configurations map[string]cpi.Configuration) string {
	t.Helper()
	art, err := iflow.ReadZip(content)
	if err != nil {
		t.Fatal(err)
	}
	d, err := (&cpi.Flow{ID: "F", Version: "active", Content: content, Artifact: art, Configurations: configurations}).ContentDigest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The content digest tells a pipeline's change under the same version from the provider's own
// writes: the sender settings the resources write (literal or through their parameter) leave it
// as it is; a script, another channel property or another parameter changes it.
func TestContentDigest(t *testing.T) {
	t.Parallel()
	amqp := iflowbuild.DefaultSenderProperties("acme/orders")
	amqp[iflow.KeyMaxRetries] = "{{Retries}}"
	build := func(extra map[string][]byte, params map[string]string) []byte {
		return iflowbuild.Build(iflowbuild.Options{Name: "F", Senders: []iflowbuild.Sender{
			{ID: "MessageFlow_1", Properties: amqp},
			{ID: "MessageFlow_2", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("orders")},
			{ID: "MessageFlow_3", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties("orders")},
		}, Parameters: params, Extra: extra})
	}
	params := map[string]string{"Retries": "3", "Endpoint": "https://a.example"}
	base := build(nil, params)
	want := digestOf(t, base, nil)
	patch := func(content []byte, flowID string, changes map[string]string) []byte {
		t.Helper()
		out, err := iflow.PatchZip(content, flowID, changes)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	setParams := func(content []byte, values map[string]string) []byte {
		t.Helper()
		out, err := iflow.SetParameters(content, values)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	jmsKey, aemKey := iflow.JMSSenderKeys()[0], iflow.AEMSenderKeys()[0]
	for _, tc := range []struct {
		name    string
		content []byte
		config  map[string]cpi.Configuration
		same    bool
	}{
		{"AMQP sender settings written", patch(base, "MessageFlow_1", map[string]string{iflow.KeyDeliveryState: "MODIFIED_FAILED_UNDELIVERABLE"}), nil, true},
		{"JMS sender setting written", patch(base, "MessageFlow_2", map[string]string{jmsKey: "7"}), nil, true},
		{"AEM sender setting written", patch(base, "MessageFlow_3", map[string]string{aemKey: "x"}), nil, true},
		{"a written setting's parameter in parameters.prop", setParams(base, map[string]string{"Retries": "9"}), nil, true},
		{"a written setting's parameter configured", base, map[string]cpi.Configuration{"Retries": {Key: "Retries", Value: "9"}}, true},
		{"a script added", build(map[string][]byte{"src/main/resources/script/fix.groovy": []byte("// fix\n")}, params), nil, false},
		{"another channel property", patch(base, "MessageFlow_1", map[string]string{"host": "other.example"}), nil, false},
		{"another parameter in parameters.prop", setParams(base, map[string]string{"Endpoint": "https://b.example"}), nil, false},
		{"another parameter configured", base, map[string]cpi.Configuration{"Endpoint": {Key: "Endpoint", Value: "https://b.example"}}, false},
	} {
		if got := digestOf(t, tc.content, tc.config); (got == want) != tc.same {
			t.Errorf("%s: digest unchanged = %t, want %t", tc.name, got == want, tc.same)
		}
	}
}

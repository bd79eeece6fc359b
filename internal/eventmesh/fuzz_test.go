package eventmesh

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzDecodeSubscriptions feeds arbitrary subscription list answers to the decoder: no
// panic, invalid JSON is an error, and every decoded subscription has a topic and a queue.
func FuzzDecodeSubscriptions(f *testing.F) {
	for _, seed := range []string{
		`[{"queueName":"acme/crm/prod/orders","topicPattern":"acme/crm/prod/ce/orders/*"}]`,
		`[{"topicPattern":"t"},{"queueName":"q","topicPattern":""},null]`,
		`null`,
		`[]`,
		`{"queueName":"q"}`,
		`[{"queueName":1}]`,
		`[{"topicPattern":"t"`,
	} {
		f.Add([]byte(seed), "acme/crm/prod/orders")
	}
	f.Fuzz(func(t *testing.T, data []byte, queue string) {
		subs, err := DecodeSubscriptions(data, queue)
		if err != nil {
			if err.Error() == "" || !strings.HasPrefix(err.Error(), "decoding the subscription list") {
				t.Fatalf("unclear error %q", err)
			}
			return
		}
		if !isNull(data) && !json.Valid(data) {
			t.Fatalf("invalid JSON %q decoded without error", data)
		}
		for _, s := range subs {
			if s.TopicPattern == "" {
				t.Fatalf("decoded a subscription without a topic from %q", data)
			}
			if s.QueueName == "" && queue != "" {
				t.Fatalf("decoded a subscription without a queue from %q", data)
			}
		}
	})
}

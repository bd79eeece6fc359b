package eventmesh

import (
	"fmt"
	"strings"
	"testing"
)

// benchQueueJSON is a queue as the management API answers a PUT or lists it.
const benchQueueJSON = `{"name":"acme/crm/prod/bench/q%04d","accessType":"NON_EXCLUSIVE","maxQueueSizeInBytes":1048576000,` +
	`"maxMessageSizeInBytes":1048576,"maxQueueMessageCount":null,"maxDeliveredUnackedMsgsPerFlow":10000,` +
	`"maxRedeliveryCount":5,"deadMsgQueue":"acme/crm/prod/bench/dmq","respectTtl":false,"maxTtl":null,` +
	`"messageCount":0,"unacknowledgedMessageCount":0,"queueSizeInBytes":0,"consumerCount":0}`

// BenchmarkDecodeQueue decodes one queue answer, as after every queue PUT.
func BenchmarkDecodeQueue(b *testing.B) {
	data := []byte(fmt.Sprintf(benchQueueJSON, 1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeQueue(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeQueues250 decodes a list of 250 queues, as a refresh and the checks before writes do.
func BenchmarkDecodeQueues250(b *testing.B) {
	items := make([]string, 250)
	for i := range items {
		items[i] = fmt.Sprintf(benchQueueJSON, i)
	}
	data := []byte("[" + strings.Join(items, ",") + "]")
	b.ReportAllocs()
	for b.Loop() {
		qs, err := DecodeQueues(data)
		if err != nil || len(qs) != 250 {
			b.Fatal(len(qs), err)
		}
	}
}

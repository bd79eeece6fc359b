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

// BenchmarkDeleteChecks250 is the check before each delete of a destroy of 250 queues that name
// one dead message queue (DeadMessageQueueUsers), after the run's list and with the deletes of
// the queues before it recorded: one op checks and records the deletes of all 250.
func BenchmarkDeleteChecks250(b *testing.B) {
	const dmq = "acme/crm/prod/bench/dmq"
	listed := &Snapshot{queues: map[string]*Queue{dmq: {Name: dmq}}}
	names := make([]string, 250)
	for i := range names {
		names[i] = fmt.Sprintf("acme/crm/prod/bench/q%03d", i)
		listed.queues[names[i]] = &Queue{Name: names[i], QueueSettings: QueueSettings{DeadMsgQueue: ptr(dmq)}}
	}
	b.ReportAllocs()
	for b.Loop() {
		c := &Client{listed: listed}
		for _, n := range names {
			if users, err := c.DeadMessageQueueUsers(b.Context(), n); err != nil || len(users) != 0 {
				b.Fatal(users, err)
			}
			c.beginWrite(n, false, "")
			c.finishWrite(n, presenceGone, "")
		}
	}
}

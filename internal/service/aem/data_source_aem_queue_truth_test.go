package aem_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// The AEM queue data sources read the dead message queue as the queue resource and the audit do (one reading
// of the rules): a dead message queue whose ingress is off deletes what it should keep (aem.dmq_takes_nothing,
// "then deleted"); a queue that is its own dead message queue loops a poison message for ever (aem.dmq_self,
// no bound); a dead message queue with a smaller maxMsgSize than the queue's default deletes the larger poison
// messages (aem.dmq_max_msg_size_smaller, said in retry_plan); a dead message queue with maxMsgSpoolUsage 0
// keeps only the last dead message (aem.dmq_keeps_last_only).
func TestAccAEMQueueDataSourcesDeadMessageQueueTruth(t *testing.T) {
	env := acctest.NewTestEnv(t)
	on := aem.Ptr(true)
	bounded := aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, MaxRedeliveryCount: aem.Ptr[int64](3), RedeliveryDelayEnabled: on}
	dmq := func(s aem.QueueSettings) aem.QueueSettings {
		s.RespectTTLEnabled, s.MaxTTL, s.EgressEnabled = on, aem.Ptr[int64](604800), on
		return s
	}
	env.CreateAEMQueue(t, "truth/off/dmq", dmq(aem.QueueSettings{IngressEnabled: aem.Ptr(false)}))
	off := bounded
	off.DeadMsgQueue = aem.Ptr("truth/off/dmq")
	env.CreateAEMQueue(t, "truth/off", off)
	self := bounded
	self.DeadMsgQueue = aem.Ptr("truth/self")
	env.CreateAEMQueue(t, "truth/self", self)
	env.CreateAEMQueue(t, "truth/small/dmq", dmq(aem.QueueSettings{IngressEnabled: on, MaxMsgSize: aem.Ptr[int64](4)}))
	small := bounded
	small.DeadMsgQueue = aem.Ptr("truth/small/dmq")
	env.CreateAEMQueue(t, "truth/small", small)

	// rules checks that the findings at p are exactly the rules ids, in order.
	env.CreateAEMQueue(t, "truth/spool/dmq", dmq(aem.QueueSettings{IngressEnabled: on, MaxMsgSpoolUsage: aem.Ptr[int64](0)}))
	spool := bounded
	spool.DeadMsgQueue = aem.Ptr("truth/spool/dmq")
	env.CreateAEMQueue(t, "truth/spool", spool)

	rules := func(addr, p string, ids ...string) statecheck.StateCheck {
		var cs []knownvalue.Check
		for _, id := range ids {
			cs = append(cs, knownvalue.ObjectPartial(map[string]knownvalue.Check{"rule": knownvalue.StringExact(id)}))
		}
		return acctest.ExpectValue(addr, p+".findings", knownvalue.ListExact(cs))
	}
	const list = "data.sapmessaging_aem_queues.all"
	// The queues of list, by index: their names sorted, off, off/dmq, self, small, small/dmq, spool, spool/dmq.
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.AEMConfig(`
data "sapmessaging_aem_queue" "off" { name = "truth/off" }
data "sapmessaging_aem_queue" "self" { name = "truth/self" }
data "sapmessaging_aem_queue" "small" { name = "truth/small" }
data "sapmessaging_aem_queues" "all" { name_prefix = "truth/" }
`),
		ConfigStateChecks: []statecheck.StateCheck{
			acctest.ExpectMatch("data.sapmessaging_aem_queue.off", "retry_plan", `then deleted \(the dead message queue "truth/off/dmq" takes no messages`),
			acctest.ExpectLen("data.sapmessaging_aem_queue.off", "findings", 1),
			rules(list, "queues.0", "aem.dmq_takes_nothing"),
			rules(list, "queues.2", "aem.dmq_self"),
			rules(list, "queues.3", "aem.dmq_max_msg_size_smaller"),
			// A dead message queue with maxMsgSpoolUsage 0 keeps only the last dead message.
			rules(list, "queues.5", "aem.dmq_keeps_last_only"),
			rules(list, "queues.6", "aem.dmq_keeps_last_only"),
			acctest.ExpectNull("data.sapmessaging_aem_queue.self", "poison_message_deliveries"),
			acctest.ExpectNull("data.sapmessaging_aem_queue.self", "time_to_dead_letter"),
			acctest.ExpectBool("data.sapmessaging_aem_queue.self", "is_dead_message_queue", false),
			acctest.ExpectMatch("data.sapmessaging_aem_queue.small", "retry_plan", `deleted instead when larger than 4 bytes`),
			acctest.ExpectNull(list, "queues.2.poison_message_deliveries"),
			acctest.ExpectMatch(list, "queues.0.retry_plan", `then deleted`),
		},
	}})
}

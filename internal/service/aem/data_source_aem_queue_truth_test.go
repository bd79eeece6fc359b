package aem_test

import (
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

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

	rules := func(addr string, p tfjsonpath.Path, ids ...string) statecheck.StateCheck {
		var cs []knownvalue.Check
		for _, id := range ids {
			cs = append(cs, knownvalue.ObjectPartial(map[string]knownvalue.Check{"rule": knownvalue.StringExact(id)}))
		}
		return statecheck.ExpectKnownValue(addr, p.AtMapKey("findings"), knownvalue.ListExact(cs))
	}
	one := func(s string) tfjsonpath.Path { return tfjsonpath.New(s) }
	const list = "data.sapmessaging_aem_queues.all"
	at := func(i int) tfjsonpath.Path { return tfjsonpath.New("queues").AtSliceIndex(i) } // names sorted: off, off/dmq, self, small, small/dmq, spool, spool/dmq
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.AEMConfig(`
data "sapmessaging_aem_queue" "off" { name = "truth/off" }
data "sapmessaging_aem_queue" "self" { name = "truth/self" }
data "sapmessaging_aem_queue" "small" { name = "truth/small" }
data "sapmessaging_aem_queues" "all" { name_prefix = "truth/" }
`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.sapmessaging_aem_queue.off", one("retry_plan"), knownvalue.StringRegexp(regexp.MustCompile(`then deleted \(the dead message queue "truth/off/dmq" takes no messages`))),
			statecheck.ExpectKnownValue("data.sapmessaging_aem_queue.off", one("findings"), knownvalue.ListSizeExact(1)),
			rules(list, at(0), "aem.dmq_takes_nothing"),
			rules(list, at(2), "aem.dmq_self"),
			rules(list, at(3), "aem.dmq_max_msg_size_smaller"),
			// A dead message queue with maxMsgSpoolUsage 0 keeps only the last dead message.
			rules(list, at(5), "aem.dmq_keeps_last_only"),
			rules(list, at(6), "aem.dmq_keeps_last_only"),
			statecheck.ExpectKnownValue("data.sapmessaging_aem_queue.self", one("poison_message_deliveries"), knownvalue.Null()),
			statecheck.ExpectKnownValue("data.sapmessaging_aem_queue.self", one("time_to_dead_letter"), knownvalue.Null()),
			statecheck.ExpectKnownValue("data.sapmessaging_aem_queue.self", one("is_dead_message_queue"), knownvalue.Bool(false)),
			statecheck.ExpectKnownValue("data.sapmessaging_aem_queue.small", one("retry_plan"), knownvalue.StringRegexp(regexp.MustCompile(`deleted instead when larger than 4 bytes`))),
			statecheck.ExpectKnownValue(list, at(2).AtMapKey("poison_message_deliveries"), knownvalue.Null()),
			statecheck.ExpectKnownValue(list, at(0).AtMapKey("retry_plan"), knownvalue.StringRegexp(regexp.MustCompile(`then deleted`))),
		},
	}})
}

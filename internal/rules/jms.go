package rules

import (
	"slices"
	"strconv"
	"strings"
)

// Names and values of the NetWeaver JMS provider.
const (
	jmsDefaultErrorQueue = "sapDefaultErrorQueue"
	jmsDropDestination   = " " // errorDestination value that drops dead messages.
	jmsTopic             = "topic"
	attrDestinations     = "destinations"
)

// JMSDestination holds the dead message settings of one destination in jms-resources.xml.
type JMSDestination struct {
	Name                    string
	Type                    string // "queue" or "topic".
	DeliveryAttemptsLimited bool
	MaxDeliveryAttempts     int64
	DeliveryDelayIntervalMs int64
	ErrorDestination        string // "" = sapDefaultErrorQueue (none for sapDefaultErrorQueue itself); " " = drop.
}

// JMSTimeToDeadMs returns how long a message that always fails takes to become dead:
// maxDeliveryAttempts × deliveryDelayInterval, in milliseconds.
func JMSTimeToDeadMs(d JMSDestination) int64 {
	return d.MaxDeliveryAttempts * d.DeliveryDelayIntervalMs
}

// errorDestination returns the error destination in effect for d and false when
// dead messages of d go nowhere further (the end of a chain).
func (d JMSDestination) errorDestination() (string, bool) {
	switch d.ErrorDestination {
	case jmsDropDestination:
		return "", false
	case "":
		if d.Name == jmsDefaultErrorQueue {
			return "", false
		}
		return jmsDefaultErrorQueue, true
	}
	return d.ErrorDestination, true
}

// CheckJMSDestinations applies the dead message rules to the destinations of one
// jms-resources.xml: unlimited or too few delivery attempts, dropped dead messages,
// error destinations that are undeclared, topics, the destination itself or a cycle.
func CheckJMSDestinations(ds []JMSDestination) []Finding {
	var r report
	byName := make(map[string]JMSDestination, len(ds))
	for _, d := range ds {
		if _, dup := byName[d.Name]; !dup {
			byName[d.Name] = d
		}
	}
	reportedCycles := map[string]bool{}
	for _, d := range ds {
		checkJMSAttempts(&r, d)
		checkJMSErrorDestination(&r, d, byName)
		if cycle := jmsCycle(d, byName); cycle != nil && !reportedCycles[cycleKey(cycle)] {
			reportedCycles[cycleKey(cycle)] = true
			r.errorf("jms.error_destination_cycle", attrDestinations, "Error Destination Cycle",
				"The error destinations of %q form a cycle (%s), so a message that is dead everywhere moves round the cycle for ever instead of coming to rest. %s",
				d.Name, strings.Join(cycle, " → "), jmsCycleFix(d.Name, cycle))
		}
	}
	return r.fs
}

func checkJMSAttempts(r *report, d JMSDestination) {
	switch {
	case !d.DeliveryAttemptsLimited:
		r.errorf("jms.attempts_unlimited", attrDestinations, "Unlimited Delivery Attempts",
			"deliveryAttemptsLimited = false on %q makes delivery attempts unlimited: a message that always fails is delivered again for ever and never becomes dead, like a max redelivery count of 0 in Event Mesh. "+
				"Set deliveryAttemptsLimited = true and maxDeliveryAttempts to a finite value, for example 5.", d.Name)
	case d.MaxDeliveryAttempts < 1:
		r.errorf("jms.max_attempts_range", attrDestinations, "Invalid Max Delivery Attempts",
			"maxDeliveryAttempts = %d on %q allows no delivery at all, so no message can become dead in a defined way. "+
				"Set maxDeliveryAttempts on %q to 1 or more, for example 5.", d.MaxDeliveryAttempts, d.Name, d.Name)
	}
	if d.DeliveryDelayIntervalMs < 0 {
		r.errorf("jms.delivery_delay_range", attrDestinations, "Invalid Delivery Delay",
			"deliveryDelayInterval = %d on %q is a negative delay between delivery attempts. "+
				"Set deliveryDelayInterval on %q to 0 or more milliseconds, for example 2000.", d.DeliveryDelayIntervalMs, d.Name, d.Name)
	}
}

func checkJMSErrorDestination(r *report, d JMSDestination, byName map[string]JMSDestination) {
	if d.ErrorDestination == jmsDropDestination {
		r.warnf("jms.dead_messages_dropped", attrDestinations, "Dead Messages Dropped",
			"errorDestination = \" \" on %q drops dead messages instead of moving them to an error destination, so a failed message is lost without a trace. %s", d.Name, jmsFix(d.Name))
		return
	}
	target, ok := d.errorDestination()
	if !ok {
		return
	}
	if target == d.Name {
		r.errorf("jms.error_destination_self", attrDestinations, "Error Destination Cycle",
			"errorDestination of %q names the destination itself, so a dead message is moved back to where it failed and becomes dead again for ever. %s", d.Name, jmsFix(d.Name))
		return
	}
	dst, declared := byName[target]
	switch {
	case !declared && target != jmsDefaultErrorQueue:
		r.errorf("jms.error_destination_unknown", attrDestinations, "Unknown Error Destination",
			"errorDestination %q of %q is not declared in jms-resources.xml, but it must name an existing queue or topic, so dead messages have nowhere to go. "+
				"Set errorDestination on %q to a declared queue or to %s.", target, d.Name, d.Name, jmsDefaultErrorQueue)
	case declared && strings.EqualFold(dst.Type, jmsTopic):
		r.warnf("jms.error_destination_topic", attrDestinations, "Topic As Error Destination",
			"errorDestination %q of %q is a topic, so dead messages are lost whenever no subscriber is active on it. "+
				"Set errorDestination on %q to a queue, for example %s.", target, d.Name, d.Name, jmsDefaultErrorQueue)
	}
}

// jmsCycle returns the chain d → … → d when following error destinations from d
// returns to d through at least one other destination, and nil otherwise.
func jmsCycle(d JMSDestination, byName map[string]JMSDestination) []string {
	chain := []string{d.Name}
	seen := map[string]bool{d.Name: true}
	cur := d
	for {
		next, ok := cur.errorDestination()
		if !ok {
			return nil
		}
		if next == d.Name {
			if len(chain) == 1 {
				return nil // Reported as jms.error_destination_self.
			}
			return append(chain, next)
		}
		dst, declared := byName[next]
		if !declared || seen[next] {
			return nil // Undeclared ends the chain; a cycle not through d is reported by its members.
		}
		seen[next] = true
		chain = append(chain, next)
		cur = dst
	}
}

// cycleKey identifies a cycle independent of where it starts.
func cycleKey(cycle []string) string {
	members := cycle[:len(cycle)-1]
	start := 0
	for i, m := range members {
		if m < members[start] {
			start = i
		}
	}
	return strings.Join(append(append([]string{}, members[start:]...), members[:start]...), "\x00")
}

// jmsFix tells how to give the destination name an error destination that ends the chain.
func jmsFix(name string) string {
	if name == jmsDefaultErrorQueue {
		return "Set errorDestination on " + jmsDefaultErrorQueue + " to the empty string, which ends the chain there."
	}
	return "Set errorDestination on " + strconv.Quote(name) + " to " + jmsDefaultErrorQueue + " or another declared queue."
}

// jmsCycleFix tells how to break the cycle that contains name.
func jmsCycleFix(name string, cycle []string) string {
	if slices.Contains(cycle, jmsDefaultErrorQueue) {
		return jmsFix(jmsDefaultErrorQueue)
	}
	return jmsFix(name)
}

// Package jms models the jms-resources.xml descriptor of the SAP NetWeaver AS Java
// JMS Provider: connection factories and destinations with their dead message
// settings (deliveryAttemptsLimited, maxDeliveryAttempts, deliveryDelayInterval
// and errorDestination). It renders, parses and lints such descriptors.
package jms

import (
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// Destination types of the model.
const (
	// TypeQueue is a point-to-point destination, javax.jms.Queue in the descriptor.
	TypeQueue = "queue"
	// TypeTopic is a publish-subscribe destination, javax.jms.Topic in the descriptor.
	TypeTopic = "topic"
)

// Java interface names used for destination types in the descriptor.
const (
	JavaQueue = "javax.jms.Queue"
	JavaTopic = "javax.jms.Topic"
)

// Connection factory types accepted in the descriptor.
const (
	FactoryQueue   = "javax.jms.QueueConnectionFactory"
	FactoryTopic   = "javax.jms.TopicConnectionFactory"
	FactoryGeneric = "javax.jms.ConnectionFactory"
)

// Defaults the JMS Provider applies when a property is not configured.
const (
	DefaultVirtualProvider         = "default"
	DefaultDeliveryAttemptsLimited = true
	DefaultMaxDeliveryAttempts     = int64(5)
	DefaultDeliveryDelayIntervalMs = int64(2000)
	DefaultErrorDestination        = "sapDefaultErrorQueue"
)

// NullErrorDestination is the reserved errorDestination value " " (a single
// space) that makes the JMS Provider drop dead messages instead of moving them.
const NullErrorDestination = " "

// Config property names of a destination and a connection factory.
const (
	PropDeliveryAttemptsLimited = "deliveryAttemptsLimited"
	PropMaxDeliveryAttempts     = "maxDeliveryAttempts"
	PropDeliveryDelayInterval   = "deliveryDelayInterval"
	PropErrorDestination        = "errorDestination"
	PropClientID                = "clientID"
)

// Resources is the content of one jms-resources.xml descriptor.
type Resources struct {
	ApplicationName     string
	ConnectionFactories []ConnectionFactory
	Destinations        []Destination
}

// ConnectionFactory is a <connection-factory> of type sap-local-factory-type.
type ConnectionFactory struct {
	Name string
	// Type is FactoryQueue, FactoryTopic or FactoryGeneric.
	Type string
	// ClientID is the clientID property; empty means the property is not written.
	ClientID        string
	VirtualProvider string
}

// Destination is a <destination> of type sap-local-destination-type with its
// dead message settings.
type Destination struct {
	Name string
	// Type is TypeQueue or TypeTopic.
	Type                    string
	VirtualProvider         string
	DeliveryAttemptsLimited bool
	MaxDeliveryAttempts     int64
	DeliveryDelayIntervalMs int64
	// ErrorDestination names the queue or topic that receives dead messages.
	// NullErrorDestination drops them; the empty string is the setting of an
	// error destination itself.
	ErrorDestination string
}

// NewDestination returns a destination with the given name and type and every
// other field set to the JMS Provider defaults.
func NewDestination(name, typ string) Destination {
	return Destination{
		Name:                    name,
		Type:                    typ,
		VirtualProvider:         DefaultVirtualProvider,
		DeliveryAttemptsLimited: DefaultDeliveryAttemptsLimited,
		MaxDeliveryAttempts:     DefaultMaxDeliveryAttempts,
		DeliveryDelayIntervalMs: DefaultDeliveryDelayIntervalMs,
		ErrorDestination:        DefaultErrorDestination,
	}
}

// NewConnectionFactory returns a connection factory with the given name and
// type on the default virtual provider and without a client ID.
func NewConnectionFactory(name, typ string) ConnectionFactory {
	return ConnectionFactory{Name: name, Type: typ, VirtualProvider: DefaultVirtualProvider}
}

// Rule converts the destination to the form the rules package checks.
func (d Destination) Rule() rules.JMSDestination {
	return rules.JMSDestination{
		Name:                    d.Name,
		Type:                    d.Type,
		DeliveryAttemptsLimited: d.DeliveryAttemptsLimited,
		MaxDeliveryAttempts:     d.MaxDeliveryAttempts,
		DeliveryDelayIntervalMs: d.DeliveryDelayIntervalMs,
		ErrorDestination:        d.ErrorDestination,
	}
}

// Lint checks the dead message settings of all destinations with
// rules.CheckJMSDestinations.
func Lint(r Resources) []rules.Finding {
	ds := make([]rules.JMSDestination, 0, len(r.Destinations))
	for _, d := range r.Destinations {
		ds = append(ds, d.Rule())
	}
	return rules.CheckJMSDestinations(ds)
}

// TimeToDead returns, per destination name, the milliseconds a message that
// always fails spends in delivery attempts before it becomes dead: attempts ×
// delay, as computed by rules.JMSTimeToDeadMs. Destinations with unlimited
// delivery attempts are left out, because their messages never become dead.
func TimeToDead(r Resources) map[string]int64 {
	m := make(map[string]int64, len(r.Destinations))
	for _, d := range r.Destinations {
		if !d.DeliveryAttemptsLimited {
			continue
		}
		m[d.Name] = rules.JMSTimeToDeadMs(d.Rule())
	}
	return m
}

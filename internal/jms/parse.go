package jms

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

type xmlResources struct {
	ApplicationName     *string                `xml:"application-name"`
	ConnectionFactories []xmlConnectionFactory `xml:"connection-factory"`
	Destinations        []xmlDestination       `xml:"destination"`
}

type xmlConnectionFactory struct {
	Name  *string      `xml:"name"`
	Local *xmlSAPLocal `xml:"sap-local-factory-type"`
}

type xmlDestination struct {
	Name  *string      `xml:"name"`
	Type  *string      `xml:"type"`
	Local *xmlSAPLocal `xml:"sap-local-destination-type"`
}

type xmlSAPLocal struct {
	Type            *string       `xml:"type"`
	VirtualProvider *string       `xml:"virtual-provider"`
	Properties      []xmlProperty `xml:"property"`
}

type xmlProperty struct {
	Name  string  `xml:"config-property-name"`
	Value *string `xml:"config-property-value"`
}

// Parse reads a jms-resources.xml descriptor. Names and values are trimmed of
// surrounding whitespace, except the errorDestination value: one made only of
// whitespace that contains a space is the NullErrorDestination " ", and an
// empty one is the empty string. Properties that are not set take the JMS
// Provider defaults, unknown properties and elements are ignored, and the
// destination types javax.jms.Queue and javax.jms.Topic become TypeQueue and
// TypeTopic.
func Parse(data []byte) (Resources, error) {
	var raw xmlResources
	if err := decode(data, &raw); err != nil {
		return Resources{}, err
	}
	r := Resources{ApplicationName: text(raw.ApplicationName, "")}
	for i, xf := range raw.ConnectionFactories {
		f, err := parseFactory(i, xf)
		if err != nil {
			return Resources{}, err
		}
		r.ConnectionFactories = append(r.ConnectionFactories, f)
	}
	for i, xd := range raw.Destinations {
		d, err := parseDestination(i, xd)
		if err != nil {
			return Resources{}, err
		}
		r.Destinations = append(r.Destinations, d)
	}
	return r, nil
}

func decode(data []byte, raw *xmlResources) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var root *xml.StartElement
	for root == nil {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return errors.New("jms: the document has no root element; a descriptor starts with <jms-resources>")
		}
		if err != nil {
			return fmt.Errorf("jms: malformed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			root = &t
		case xml.CharData:
			if len(bytes.Trim(t, xmlSpace)) != 0 {
				return errors.New("jms: malformed XML: text before the root element; a descriptor starts with <jms-resources>")
			}
		}
	}
	if root.Name.Local != "jms-resources" {
		return fmt.Errorf("jms: the root element is <%s>, not <jms-resources>; this is not a jms-resources.xml descriptor", root.Name.Local)
	}
	if err := dec.DecodeElement(raw, root); err != nil {
		return fmt.Errorf("jms: malformed XML: %w", err)
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("jms: malformed XML after </jms-resources>: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return fmt.Errorf("jms: malformed XML: element <%s> after </jms-resources>; a document has one root element", t.Name.Local)
		case xml.CharData:
			if len(bytes.Trim(t, xmlSpace)) != 0 {
				return errors.New("jms: malformed XML: text after </jms-resources>")
			}
		}
	}
}

// text returns the trimmed content of an element, or def if it is absent.
func text(s *string, def string) string {
	if s == nil {
		return def
	}
	return trimXML(*s)
}

func parseFactory(i int, xf xmlConnectionFactory) (ConnectionFactory, error) {
	f := ConnectionFactory{Name: text(xf.Name, ""), VirtualProvider: DefaultVirtualProvider}
	where := fmt.Sprintf("connection factory %d (%q)", i+1, f.Name)
	if f.Name == "" {
		return f, fmt.Errorf("jms: %s has no <name>; set the factory name", where)
	}
	if xf.Local == nil {
		return f, fmt.Errorf("jms: %s has no <sap-local-factory-type>; set it with a <type>", where)
	}
	f.Type = text(xf.Local.Type, "")
	if !validFactoryType(f.Type) {
		return f, fmt.Errorf("jms: %s has type %q, which is not a JMS connection factory type; set %s, %s or %s",
			where, f.Type, FactoryQueue, FactoryTopic, FactoryGeneric)
	}
	f.VirtualProvider = text(xf.Local.VirtualProvider, DefaultVirtualProvider)
	props, err := properties(where, xf.Local.Properties)
	if err != nil {
		return f, err
	}
	f.ClientID = text(props[PropClientID], "")
	return f, nil
}

func parseDestination(i int, xd xmlDestination) (Destination, error) {
	d := NewDestination(text(xd.Name, ""), "")
	where := fmt.Sprintf("destination %d (%q)", i+1, d.Name)
	if d.Name == "" {
		return d, fmt.Errorf("jms: %s has no <name>; set the destination name", where)
	}
	switch jt := text(xd.Type, ""); jt {
	case JavaQueue:
		d.Type = TypeQueue
	case JavaTopic:
		d.Type = TypeTopic
	case "":
		return d, fmt.Errorf("jms: %s has no <type>; set %s or %s", where, JavaQueue, JavaTopic)
	default:
		return d, fmt.Errorf("jms: %s has the unknown type %q; set %s or %s", where, jt, JavaQueue, JavaTopic)
	}
	if xd.Local == nil {
		return d, nil
	}
	d.VirtualProvider = text(xd.Local.VirtualProvider, DefaultVirtualProvider)
	props, err := properties(where, xd.Local.Properties)
	if err != nil {
		return d, err
	}
	if v := props[PropDeliveryAttemptsLimited]; v != nil {
		switch s := trimXML(*v); {
		case strings.EqualFold(s, "true"):
			d.DeliveryAttemptsLimited = true
		case strings.EqualFold(s, "false"):
			d.DeliveryAttemptsLimited = false
		default:
			return d, fmt.Errorf("jms: %s property %s is %q, which is not a boolean; set true or false",
				where, PropDeliveryAttemptsLimited, s)
		}
	}
	if d.MaxDeliveryAttempts, err = integer(where, PropMaxDeliveryAttempts, props, DefaultMaxDeliveryAttempts); err != nil {
		return d, err
	}
	if d.DeliveryDelayIntervalMs, err = integer(where, PropDeliveryDelayInterval, props, DefaultDeliveryDelayIntervalMs); err != nil {
		return d, err
	}
	if v := props[PropErrorDestination]; v != nil {
		d.ErrorDestination = errorDestination(*v)
	}
	return d, nil
}

// errorDestination interprets a raw errorDestination value: whitespace that
// contains a space is the null destination, other values are trimmed.
func errorDestination(v string) string {
	t := trimXML(v)
	if t == "" && strings.Contains(v, " ") {
		return NullErrorDestination
	}
	return t
}

// properties maps config property names to their raw values. A property without
// a <config-property-value> element maps to nil and so takes the default.
func properties(where string, ps []xmlProperty) (map[string]*string, error) {
	m := make(map[string]*string, len(ps))
	for _, p := range ps {
		name := trimXML(p.Name)
		if name == "" {
			continue
		}
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf("jms: %s sets the property %s more than once; keep one", where, name)
		}
		m[name] = p.Value
	}
	return m, nil
}

func integer(where, name string, props map[string]*string, def int64) (int64, error) {
	v := props[name]
	if v == nil {
		return def, nil
	}
	s := trimXML(*v)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("jms: %s property %s is %q, which is not a 64-bit integer; set a whole number", where, name, s)
	}
	return n, nil
}

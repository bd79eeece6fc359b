package jms

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Property descriptions written by Render.
const (
	descClientID                = "Client ID"
	descDeliveryAttemptsLimited = "Message Delivery Attempts Limited"
	descMaxDeliveryAttempts     = "Maximum Delivery Attempts"
	descDeliveryDelayInterval   = "Delay in Milliseconds"
	descErrorDestination        = "Error Destination"
)

const xmlHeader = `<?xml version="1.0" encoding="UTF-8"?>
<jms-resources xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
	xsi:noNamespaceSchemaLocation="jms-resources.xsd">
`

// Render writes r as a tab-indented jms-resources.xml descriptor. The output is
// deterministic, ends with a newline and is read back unchanged by Parse. It
// fails for values Parse could not return: unknown types, missing names,
// leading or trailing whitespace (except the NullErrorDestination) and
// characters XML cannot carry.
func Render(r Resources) ([]byte, error) {
	if err := validate(r); err != nil {
		return nil, err
	}
	w := &writer{}
	w.buf.WriteString(xmlHeader)
	w.elem(1, "application-name", r.ApplicationName)
	for _, f := range r.ConnectionFactories {
		w.open(1, "connection-factory")
		w.elem(2, "name", f.Name)
		w.open(2, "sap-local-factory-type")
		w.elem(3, "type", f.Type)
		w.elem(3, "virtual-provider", f.VirtualProvider)
		if f.ClientID != "" {
			w.property(descClientID, PropClientID, f.ClientID)
		}
		w.close(2, "sap-local-factory-type")
		w.close(1, "connection-factory")
	}
	for _, d := range r.Destinations {
		w.open(1, "destination")
		w.elem(2, "name", d.Name)
		w.elem(2, "type", javaType(d.Type))
		w.open(2, "sap-local-destination-type")
		w.elem(3, "virtual-provider", d.VirtualProvider)
		w.property(descDeliveryAttemptsLimited, PropDeliveryAttemptsLimited, strconv.FormatBool(d.DeliveryAttemptsLimited))
		w.property(descMaxDeliveryAttempts, PropMaxDeliveryAttempts, strconv.FormatInt(d.MaxDeliveryAttempts, 10))
		w.property(descDeliveryDelayInterval, PropDeliveryDelayInterval, strconv.FormatInt(d.DeliveryDelayIntervalMs, 10))
		w.property(descErrorDestination, PropErrorDestination, d.ErrorDestination)
		w.close(2, "sap-local-destination-type")
		w.close(1, "destination")
	}
	w.buf.WriteString("</jms-resources>\n")
	return w.buf.Bytes(), nil
}

type writer struct {
	buf bytes.Buffer
}

func (w *writer) indent(depth int) {
	for range depth {
		w.buf.WriteByte('\t')
	}
}

func (w *writer) open(depth int, name string) {
	w.indent(depth)
	w.buf.WriteString("<" + name + ">\n")
}

func (w *writer) close(depth int, name string) {
	w.indent(depth)
	w.buf.WriteString("</" + name + ">\n")
}

func (w *writer) elem(depth int, name, value string) {
	w.indent(depth)
	w.buf.WriteString("<" + name + ">")
	// Writing to a bytes.Buffer never fails.
	_ = xml.EscapeText(&w.buf, []byte(value))
	w.buf.WriteString("</" + name + ">\n")
}

// propertyDepth is where a property element sits: inside the
// sap-local-factory-type or sap-local-destination-type element.
const propertyDepth = 3

// property writes a config property of a connection factory or destination.
func (w *writer) property(description, name, value string) {
	w.open(propertyDepth, "property")
	w.elem(propertyDepth+1, "description", description)
	w.elem(propertyDepth+1, "config-property-name", name)
	w.elem(propertyDepth+1, "config-property-value", value)
	w.close(propertyDepth, "property")
}

func javaType(t string) string {
	switch t {
	case TypeQueue:
		return JavaQueue
	case TypeTopic:
		return JavaTopic
	}
	return ""
}

func validFactoryType(t string) bool {
	switch t {
	case FactoryQueue, FactoryTopic, FactoryGeneric:
		return true
	}
	return false
}

func validate(r Resources) error {
	if err := checkText("application name", r.ApplicationName); err != nil {
		return err
	}
	for i, f := range r.ConnectionFactories {
		where := fmt.Sprintf("connection factory %d (%q)", i+1, f.Name)
		if f.Name == "" {
			return fmt.Errorf("jms: %s has no name; set a name", where)
		}
		if !validFactoryType(f.Type) {
			return fmt.Errorf("jms: %s has type %q, which is not a JMS connection factory type; set %s, %s or %s",
				where, f.Type, FactoryQueue, FactoryTopic, FactoryGeneric)
		}
		for _, c := range []struct{ field, value string }{
			{"name", f.Name}, {"virtual provider", f.VirtualProvider}, {"client ID", f.ClientID},
		} {
			if err := checkText(where+" "+c.field, c.value); err != nil {
				return err
			}
		}
	}
	for i, d := range r.Destinations {
		where := fmt.Sprintf("destination %d (%q)", i+1, d.Name)
		if d.Name == "" {
			return fmt.Errorf("jms: %s has no name; set a name", where)
		}
		if javaType(d.Type) == "" {
			return fmt.Errorf("jms: %s has type %q, which is not a destination type; set %q or %q",
				where, d.Type, TypeQueue, TypeTopic)
		}
		if err := checkText(where+" name", d.Name); err != nil {
			return err
		}
		if err := checkText(where+" virtual provider", d.VirtualProvider); err != nil {
			return err
		}
		switch e := d.ErrorDestination; {
		case e == NullErrorDestination:
		case trimXML(e) != e:
			return fmt.Errorf("jms: %s error destination %q has leading or trailing whitespace, which a parser drops; "+
				"remove it, or set exactly %q (one space) for the null destination that drops dead messages",
				where, e, NullErrorDestination)
		default:
			if err := checkText(where+" error destination", e); err != nil {
				return err
			}
		}
	}
	return nil
}

// xmlSpace is the whitespace XML trims around values.
const xmlSpace = " \t\r\n"

func trimXML(s string) string {
	return strings.Trim(s, xmlSpace)
}

// checkText reports values that would not survive a render and parse: invalid
// UTF-8, characters outside the XML character range and surrounding whitespace.
func checkText(what, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("jms: %s is not valid UTF-8; set a UTF-8 value", what)
	}
	for _, r := range s {
		if !isXMLChar(r) {
			return fmt.Errorf("jms: %s contains the character %U, which XML cannot carry; remove it", what, r)
		}
	}
	if trimXML(s) != s {
		return fmt.Errorf("jms: %s %q has leading or trailing whitespace, which a parser drops; remove it", what, s)
	}
	return nil
}

// isXMLChar reports whether r is in the XML 1.0 Char production.
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) ||
		(r >= 0x10000 && r <= 0x10FFFF)
}

package jms

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// twoDestinations is a typical configuration: an order queue that dead-letters
// into a declared error queue, which itself has the empty error destination.
func twoDestinations() Resources {
	orders := NewDestination("OrdersQueue", TypeQueue)
	orders.MaxDeliveryAttempts = 10
	orders.DeliveryDelayIntervalMs = 30000
	orders.ErrorDestination = "OrdersErrorQueue"
	errq := NewDestination("OrdersErrorQueue", TypeQueue)
	errq.ErrorDestination = ""
	return Resources{
		ApplicationName: "sap.com/orders",
		ConnectionFactories: []ConnectionFactory{
			{Name: "OrdersQueueFactory", Type: FactoryQueue, ClientID: "ordersApp", VirtualProvider: DefaultVirtualProvider},
		},
		Destinations: []Destination{orders, errq},
	}
}

// seedModel is the model of the example in testdata/seed-jms-resources.xml.
func seedModel() Resources {
	q := NewDestination("MyQueue", TypeQueue)
	q.MaxDeliveryAttempts = 30
	q.DeliveryDelayIntervalMs = 60000
	q.ErrorDestination = "MyErrorDestination"
	return Resources{
		ApplicationName: "MyApplication",
		ConnectionFactories: []ConnectionFactory{
			{Name: "MyQueueFactory", Type: FactoryQueue, ClientID: "myClientApp", VirtualProvider: "default"},
		},
		Destinations: []Destination{q},
	}
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wellFormed fails the test unless b is a well-formed XML document.
func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, b)
		}
	}
}

func TestRenderGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		r    Resources
	}{
		{"two-destinations.golden.xml", twoDestinations()},
		{"seed-model.golden.xml", seedModel()},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			got, err := Render(tc.r)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := readFile(t, tc.file)
			if !bytes.Equal(got, want) {
				t.Errorf("Render differs from %s (run go test -update to rewrite):\n got:\n%s\nwant:\n%s", path, got, want)
			}
			wellFormed(t, got)
			again, err := Render(tc.r)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("Render is not deterministic: %v", err)
			}
		})
	}
}

func TestRenderShape(t *testing.T) {
	t.Parallel()
	got, err := Render(seedModel())
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<jms-resources xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n\txsi:noNamespaceSchemaLocation=\"jms-resources.xsd\">\n",
		"\t<application-name>MyApplication</application-name>\n",
		"\t\t<sap-local-factory-type>\n\t\t\t<type>javax.jms.QueueConnectionFactory</type>\n\t\t\t<virtual-provider>default</virtual-provider>\n",
		"\t\t\t\t<config-property-name>clientID</config-property-name>\n\t\t\t\t<config-property-value>myClientApp</config-property-value>\n",
		"\t\t<name>MyQueue</name>\n\t\t<type>javax.jms.Queue</type>\n\t\t<sap-local-destination-type>\n\t\t\t<virtual-provider>default</virtual-provider>\n",
		"<description>Message Delivery Attempts Limited</description>\n\t\t\t\t<config-property-name>deliveryAttemptsLimited</config-property-name>\n\t\t\t\t<config-property-value>true</config-property-value>",
		"<description>Maximum Delivery Attempts</description>\n\t\t\t\t<config-property-name>maxDeliveryAttempts</config-property-name>\n\t\t\t\t<config-property-value>30</config-property-value>",
		"<description>Delay in Milliseconds</description>\n\t\t\t\t<config-property-name>deliveryDelayInterval</config-property-name>\n\t\t\t\t<config-property-value>60000</config-property-value>",
		"<description>Error Destination</description>\n\t\t\t\t<config-property-name>errorDestination</config-property-name>\n\t\t\t\t<config-property-value>MyErrorDestination</config-property-value>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("rendered XML lacks %q:\n%s", want, s)
		}
	}
	if !strings.HasSuffix(s, "</jms-resources>\n") {
		t.Errorf("rendered XML does not end with </jms-resources> and a newline")
	}
}

func TestRenderEscapes(t *testing.T) {
	t.Parallel()
	d := NewDestination(`Q<&>"'`, TypeTopic)
	d.ErrorDestination = NullErrorDestination
	got, err := Render(Resources{ApplicationName: "a&b", Destinations: []Destination{d}})
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, got)
	for _, want := range []string{
		"<application-name>a&amp;b</application-name>",
		"<name>Q&lt;&amp;&gt;&#34;&#39;</name>",
		"<type>javax.jms.Topic</type>",
		"<config-property-value> </config-property-value>",
	} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("rendered XML lacks %q:\n%s", want, got)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	withDest := func(mod func(*Destination)) Resources {
		d := NewDestination("Q", TypeQueue)
		mod(&d)
		return Resources{Destinations: []Destination{d}}
	}
	for _, tc := range []struct {
		name string
		r    Resources
		want string
	}{
		{"unknown destination type", withDest(func(d *Destination) { d.Type = "javax.jms.Queue" }), `type "javax.jms.Queue", which is not a destination type`},
		{"empty destination name", withDest(func(d *Destination) { d.Name = "" }), "has no name"},
		{"padded destination name", withDest(func(d *Destination) { d.Name = " Q" }), "leading or trailing whitespace"},
		{"tab error destination", withDest(func(d *Destination) { d.ErrorDestination = "\t" }), "error destination"},
		{"two spaces error destination", withDest(func(d *Destination) { d.ErrorDestination = "  " }), "leading or trailing whitespace"},
		{"control character", withDest(func(d *Destination) { d.VirtualProvider = "a\x00b" }), "U+0000"},
		{"invalid UTF-8", Resources{ApplicationName: "\xff"}, "not valid UTF-8"},
		{"unknown factory type", Resources{ConnectionFactories: []ConnectionFactory{{Name: "F", Type: "queue"}}}, "not a JMS connection factory type"},
		{"empty factory name", Resources{ConnectionFactories: []ConnectionFactory{{Type: FactoryTopic}}}, "has no name"},
		{"padded client ID", Resources{ConnectionFactories: []ConnectionFactory{{Name: "F", Type: FactoryGeneric, ClientID: "c\n"}}}, "client ID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := Render(tc.r)
			if err == nil {
				t.Fatalf("Render succeeded, want error containing %q:\n%s", tc.want, b)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	nullDst := NewDestination("DropQueue", TypeQueue)
	nullDst.ErrorDestination = NullErrorDestination
	unlimited := NewDestination("events/orders", TypeTopic)
	unlimited.DeliveryAttemptsLimited = false
	unlimited.MaxDeliveryAttempts = 0
	unlimited.DeliveryDelayIntervalMs = 0
	unlimited.ErrorDestination = "ErrorTopic"
	unlimited.VirtualProvider = "provider-2"
	odd := NewDestination("Q with\ttab & <markup> \"quotes\" ünïcødé 😀", TypeQueue)
	odd.MaxDeliveryAttempts = -1
	odd.DeliveryDelayIntervalMs = 9223372036854775807
	odd.ErrorDestination = "line\r\nbreak"
	odd.VirtualProvider = ""
	for _, tc := range []struct {
		name string
		r    Resources
	}{
		{"empty", Resources{}},
		{"typical two destinations", twoDestinations()},
		{"seed model", seedModel()},
		{"defaults only", Resources{ApplicationName: "app", Destinations: []Destination{NewDestination("Q", TypeQueue)}}},
		{"null error destination", Resources{Destinations: []Destination{nullDst}}},
		{"unlimited topic", Resources{Destinations: []Destination{unlimited}}},
		{"odd characters", Resources{ApplicationName: "a\nb", Destinations: []Destination{odd}}},
		{"factories without client ID", Resources{ConnectionFactories: []ConnectionFactory{
			NewConnectionFactory("TF", FactoryTopic),
			{Name: "GF", Type: FactoryGeneric, ClientID: "id", VirtualProvider: "vp"},
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := Render(tc.r)
			if err != nil {
				t.Fatal(err)
			}
			wellFormed(t, b)
			got, err := Parse(b)
			if err != nil {
				t.Fatalf("Parse(Render(x)): %v\n%s", err, b)
			}
			if !reflect.DeepEqual(got, tc.r) {
				t.Errorf("Parse(Render(x)) != x\n got: %#v\nwant: %#v\n%s", got, tc.r, b)
			}
		})
	}
}

func TestParseSeed(t *testing.T) {
	t.Parallel()
	got, err := Parse(readFile(t, "seed-jms-resources.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := seedModel(); !reflect.DeepEqual(got, want) {
		t.Errorf("Parse(seed)\n got: %#v\nwant: %#v", got, want)
	}
	q := got.Destinations[0]
	if q.Name != "MyQueue" || q.MaxDeliveryAttempts != 30 || q.DeliveryDelayIntervalMs != 60000 ||
		q.ErrorDestination != "MyErrorDestination" || got.ConnectionFactories[0].ClientID != "myClientApp" {
		t.Errorf("seed values not parsed: %#v", got)
	}
	if ttd := TimeToDead(got); !reflect.DeepEqual(ttd, map[string]int64{"MyQueue": 30 * 60000}) {
		t.Errorf("TimeToDead(seed) = %v, want MyQueue: 1800000", ttd)
	}
}

func TestLintSeed(t *testing.T) {
	t.Parallel()
	r, err := Parse(readFile(t, "seed-jms-resources.xml"))
	if err != nil {
		t.Fatal(err)
	}
	fs := Lint(r)
	if !rules.HasErrors(fs) {
		t.Fatalf("Lint(seed) has no error finding: %#v", fs)
	}
	found := false
	for _, f := range fs {
		if f.Severity == rules.SeverityError && strings.Contains(f.Detail, "MyErrorDestination") {
			found = true
		}
	}
	if !found {
		t.Errorf("no error finding names the undeclared MyErrorDestination: %#v", fs)
	}

	// Declaring the error destination (with the empty error destination of
	// its own) removes the error.
	errDst := NewDestination("MyErrorDestination", TypeQueue)
	errDst.ErrorDestination = ""
	r.Destinations = append(r.Destinations, errDst)
	if fs := Lint(r); rules.HasErrors(fs) {
		t.Errorf("Lint with MyErrorDestination declared still has errors: %#v", fs)
	}
}

func TestLintMatchesRules(t *testing.T) {
	t.Parallel()
	r := twoDestinations()
	want := rules.CheckJMSDestinations([]rules.JMSDestination{
		{Name: "OrdersQueue", Type: "queue", DeliveryAttemptsLimited: true, MaxDeliveryAttempts: 10, DeliveryDelayIntervalMs: 30000, ErrorDestination: "OrdersErrorQueue"},
		{Name: "OrdersErrorQueue", Type: "queue", DeliveryAttemptsLimited: true, MaxDeliveryAttempts: 5, DeliveryDelayIntervalMs: 2000, ErrorDestination: ""},
	})
	if got := Lint(r); !reflect.DeepEqual(got, want) {
		t.Errorf("Lint = %#v, want %#v", got, want)
	}
	if got := TimeToDead(r); !reflect.DeepEqual(got, map[string]int64{"OrdersQueue": 300000, "OrdersErrorQueue": 10000}) {
		t.Errorf("TimeToDead = %v", got)
	}
	r.Destinations[1].DeliveryAttemptsLimited = false
	if got := TimeToDead(r); !reflect.DeepEqual(got, map[string]int64{"OrdersQueue": 300000}) {
		t.Errorf("TimeToDead with unlimited attempts on OrdersErrorQueue = %v, want only OrdersQueue", got)
	}
}

const docHead = `<?xml version="1.0" encoding="UTF-8"?>
<jms-resources xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="jms-resources.xsd">
`

// destDoc wraps the inner XML of a <sap-local-destination-type> in a document.
func destDoc(local string) []byte {
	return []byte(docHead + "<destination><name>Q</name><type>javax.jms.Queue</type><sap-local-destination-type>" +
		local + "</sap-local-destination-type></destination></jms-resources>")
}

func errDstDoc(value string) []byte {
	return destDoc("<property><config-property-name>errorDestination</config-property-name>" + value + "</property>")
}

func TestParseErrorDestination(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, value, want string
	}{
		{"single space", "<config-property-value> </config-property-value>", " "},
		{"space as character reference", "<config-property-value>&#32;</config-property-value>", " "},
		{"spaces split across lines", "<config-property-value>\n\t\t\t\t \n\t\t\t</config-property-value>", " "},
		{"empty element", "<config-property-value></config-property-value>", ""},
		{"self-closing element", "<config-property-value/>", ""},
		{"only tabs and newlines", "<config-property-value>\n\t\t\t</config-property-value>", ""},
		{"name split across lines", "<config-property-value>\n\t\t\t\tMyErrorDestination\n\t\t\t</config-property-value>", "MyErrorDestination"},
		{"padded name", "<config-property-value>  Err  </config-property-value>", "Err"},
		{"CDATA", "<config-property-value><![CDATA[ ]]></config-property-value>", " "},
		{"no value element", "", DefaultErrorDestination},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse(errDstDoc(tc.value))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Destinations[0].ErrorDestination; got != tc.want {
				t.Errorf("ErrorDestination = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseDefaultsAndTolerance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		doc  []byte
		want Destination
	}{
		{"no sap-local-destination-type", []byte(docHead + "<destination><name>Q</name><type>javax.jms.Queue</type></destination></jms-resources>"), NewDestination("Q", TypeQueue)},
		{"no properties", destDoc(""), NewDestination("Q", TypeQueue)},
		{"unknown property and element ignored", destDoc("<extra>x</extra><property><config-property-name>somethingElse</config-property-name><config-property-value>1</config-property-value></property>"), NewDestination("Q", TypeQueue)},
		{"topic, padded values, upper-case boolean", []byte(docHead + `<destination>
	<name>
		T
	</name>
	<type> javax.jms.Topic </type>
	<sap-local-destination-type>
		<virtual-provider> vp </virtual-provider>
		<property><config-property-name> deliveryAttemptsLimited </config-property-name><config-property-value> FALSE </config-property-value></property>
		<property><config-property-name>maxDeliveryAttempts</config-property-name><config-property-value>
			7
		</config-property-value></property>
		<property><config-property-name>deliveryDelayInterval</config-property-name><config-property-value>+100</config-property-value></property>
	</sap-local-destination-type>
</destination></jms-resources>`), Destination{Name: "T", Type: TypeTopic, VirtualProvider: "vp", MaxDeliveryAttempts: 7, DeliveryDelayIntervalMs: 100, ErrorDestination: DefaultErrorDestination}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Destinations) != 1 || !reflect.DeepEqual(r.Destinations[0], tc.want) {
				t.Errorf("Parse = %#v, want one destination %#v", r.Destinations, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		doc  string
		want string
	}{
		{"empty document", "", "no root element"},
		{"truncated", docHead + "<destination>", "malformed XML"},
		{"mismatched tags", docHead + "<destination></name></jms-resources>", "malformed XML"},
		{"undefined entity", docHead + "<application-name>&nbsp;</application-name></jms-resources>", "malformed XML"},
		{"text before root", "hello <jms-resources/>", "text before the root element"},
		{"wrong root", "<resources/>", "root element is <resources>"},
		{"second root", "<jms-resources/><jms-resources/>", "after </jms-resources>"},
		{"text after root", "<jms-resources/>junk", "text after </jms-resources>"},
		{"unknown destination type", docHead + "<destination><name>Q</name><type>javax.jms.Foo</type></destination></jms-resources>", `unknown type "javax.jms.Foo"; set javax.jms.Queue or javax.jms.Topic`},
		{"destination type in model form", docHead + "<destination><name>Q</name><type>queue</type></destination></jms-resources>", `unknown type "queue"`},
		{"missing destination type", docHead + "<destination><name>Q</name></destination></jms-resources>", "has no <type>"},
		{"missing destination name", docHead + "<destination><name> </name><type>javax.jms.Queue</type></destination></jms-resources>", "has no <name>"},
		{"bad integer", string(destDoc("<property><config-property-name>maxDeliveryAttempts</config-property-name><config-property-value>five</config-property-value></property>")), `maxDeliveryAttempts is "five", which is not a 64-bit integer`},
		{"integer overflow", string(destDoc("<property><config-property-name>deliveryDelayInterval</config-property-name><config-property-value>9223372036854775808</config-property-value></property>")), "deliveryDelayInterval"},
		{"bad boolean", string(destDoc("<property><config-property-name>deliveryAttemptsLimited</config-property-name><config-property-value>yes</config-property-value></property>")), "not a boolean"},
		{"duplicate property", string(destDoc(strings.Repeat("<property><config-property-name>errorDestination</config-property-name><config-property-value>E</config-property-value></property>", 2))), "more than once"},
		{"unknown factory type", docHead + "<connection-factory><name>F</name><sap-local-factory-type><type>javax.jms.Queue</type></sap-local-factory-type></connection-factory></jms-resources>", "not a JMS connection factory type"},
		{"factory without local type", docHead + "<connection-factory><name>F</name></connection-factory></jms-resources>", "no <sap-local-factory-type>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse([]byte(tc.doc))
			if err == nil {
				t.Fatalf("Parse succeeded with %#v, want error containing %q", r, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestNewDestinationDefaults(t *testing.T) {
	t.Parallel()
	want := Destination{Name: "Q", Type: TypeTopic, VirtualProvider: "default", DeliveryAttemptsLimited: true,
		MaxDeliveryAttempts: 5, DeliveryDelayIntervalMs: 2000, ErrorDestination: "sapDefaultErrorQueue"}
	if got := NewDestination("Q", TypeTopic); got != want {
		t.Errorf("NewDestination = %#v, want %#v", got, want)
	}
}

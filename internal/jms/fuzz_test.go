package jms

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// renders and parses back to the same model and the same bytes.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"seed-jms-resources.xml", "seed-model.golden.xml", "two-destinations.golden.xml"} {
		f.Add(readFile(f, name))
	}
	f.Add(errDstDoc("<config-property-value> </config-property-value>"))
	f.Add(errDstDoc("<config-property-value>\n\t</config-property-value>"))
	f.Add([]byte("<jms-resources/>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		b, err := Render(r)
		if err != nil {
			t.Fatalf("Render of a parsed model failed: %v\nmodel: %#v", err, r)
		}
		r2, err := Parse(b)
		if err != nil {
			t.Fatalf("Parse of rendered XML failed: %v\n%s", err, b)
		}
		if !reflect.DeepEqual(r, r2) {
			t.Fatalf("parse(render(parse(x))) != parse(x)\n got: %#v\nwant: %#v", r2, r)
		}
		b2, err := Render(r2)
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("render is not stable: %v\n%s\n%s", err, b, b2)
		}
	})
}

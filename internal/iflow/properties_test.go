package iflow

import (
	"reflect"
	"testing"
)

func TestParseProperties(t *testing.T) {
	t.Parallel()
	data := "# comment = not a key\r\n" +
		"! also a comment\r\n" +
		"\r\n" +
		"   plain=value\r\n" +
		"colon:v2\r\n" +
		"space   v3\r\n" +
		"spaced\\ key = value with spaces  \r\n" +
		"multi = first \\\r\n" +
		"        second\r\n" +
		"escaped=a\\:b\\=c\\\\d\\te\\u00e9\\uD83D\\uDE00\r\n" +
		"onlykey\r\n" +
		"empty=\r\n" +
		"bad=\\u12\r\n" +
		"url=https://host:443/x\r\n" +
		"even=ends\\\\\r\n" +
		"next=1\r\n" +
		"dup=1\r\n" +
		"dup=2"
	got := propertiesMap([]byte(data))
	want := map[string]string{
		"plain":      "value",
		"colon":      "v2",
		"space":      "v3",
		"spaced key": "value with spaces  ",
		"multi":      "first second",
		"escaped":    "a:b=c\\d\te\u00e9\U0001F600",
		"onlykey":    "",
		"empty":      "",
		"bad":        "\\u12",
		"url":        "https://host:443/x",
		"even":       "ends\\",
		"next":       "1",
		"dup":        "2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestParsePropertiesLatin1(t *testing.T) {
	t.Parallel()
	got := propertiesMap([]byte("name=caf\xe9\n"))
	if got["name"] != "café" {
		t.Fatalf("latin-1 value = %q", got["name"])
	}
}

func TestSetPropertiesInPlace(t *testing.T) {
	t.Parallel()
	data := "#Store parameters\r\n" +
		"#Mon Jan 06 10:00:00 UTC 2025\r\n" +
		"url=https://host:443/x\r\n" +
		"multi = first \\\r\n" +
		"        second\r\n" +
		"onlykey\r\n" +
		"   indented : 5\r\n" +
		"tail=1"
	out := setProperties([]byte(data), map[string]string{
		"url":      "https://host:443/x", // same value, differently escaped: untouched
		"multi":    "one line",
		"onlykey":  "now set",
		"indented": "6",
		"added":    "é",
	})
	want := "#Store parameters\r\n" +
		"#Mon Jan 06 10:00:00 UTC 2025\r\n" +
		"url=https://host:443/x\r\n" +
		"multi = one line\r\n" +
		"onlykey=now set\r\n" +
		"   indented : 6\r\n" +
		"tail=1\r\n" +
		"added=\\u00E9\r\n"
	if string(out) != want {
		t.Fatalf("got\n%q\nwant\n%q", out, want)
	}
	m := propertiesMap(out)
	if m["added"] != "é" || m["multi"] != "one line" || m["url"] != "https://host:443/x" {
		t.Fatalf("read back %q", m)
	}
	if string(setProperties([]byte(data), nil)) != data {
		t.Fatal("no values changed the file")
	}
	if got := string(setProperties(nil, map[string]string{"k y": " v"})); got != "k\\ y=\\ v\n" {
		t.Fatalf("new file = %q", got)
	}
}

func TestEscapePropRoundTrip(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"", " lead", "a b", "x=y:z#!", "tab\tnl\ncr\rff\f", "back\\slash", "é€😀", "{{Param}}"} {
		for _, isKey := range []bool{false, true} {
			line := "k=" + escapeProp(v, isKey)
			if isKey {
				line = escapeProp(v, true) + "=x"
			}
			m := propertiesMap([]byte(line))
			if isKey {
				if v == "" {
					continue
				}
				if m[v] != "x" {
					t.Errorf("key %q: read back %q", v, m)
				}
			} else if m["k"] != v {
				t.Errorf("value %q: read back %q", v, m["k"])
			}
		}
	}
}

func TestStripExtra(t *testing.T) {
	t.Parallel()
	extra := []byte{
		0x01, 0x00, 0x02, 0x00, 0xAA, 0xBB, // zip64
		0x55, 0x54, 0x01, 0x00, 0x01, // extended timestamp
		0x0A, 0x00, 0x01, 0x00, 0xCC, // NTFS-like, kept
	}
	if got := stripExtra(extra); !reflect.DeepEqual(got, []byte{0x0A, 0x00, 0x01, 0x00, 0xCC}) {
		t.Fatalf("stripExtra = %x", got)
	}
}

package cpi

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKeyLiteral(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"Flow_1":              "'Flow_1'",
		"it's":                "'it%27%27s'",
		"Max Retries":         "'Max%20Retries'",
		"a/b?c#d&e=f+g":       "'a%2Fb%3Fc%23d%26e%3Df%2Bg'",
		"(x),y":               "'%28x%29%2Cy'",
		"ü":                   "'%C3%BC'",
		"100%":                "'100%25'",
		"":                    "''",
		"a-b.c_d~e":           "'a-b.c_d~e'",
		"''":                  "'%27%27%27%27'",
		"Parameter 'Retries'": "'Parameter%20%27%27Retries%27%27'",
	}
	for in, want := range cases {
		got := KeyLiteral(in)
		if got != want {
			t.Errorf("KeyLiteral(%q) = %s, want %s", in, got, want)
		}
		dec, err := url.PathUnescape(strings.Trim(got, "'"))
		if err != nil || strings.ReplaceAll(dec, "''", "'") != in {
			t.Errorf("KeyLiteral(%q) does not decode back: %q, %v", in, dec, err)
		}
	}
}

func TestDecodeEnvelopes(t *testing.T) {
	t.Parallel()
	entities := map[string]string{
		`{"d":{"Id":"A","Version":"1.0.0","Name":null}}`:         "A|1.0.0|",
		`{"d":{"results":{"Id":"A","Version":"2"}}}`:             "A|2|",
		`{"Id":"A","Name":"n"}`:                                  "A||n",
		`{"d":{"Id":"A","Version":1.5,"Name":true}}`:             "A|1.5|true",
		` {"d":{"__metadata":{"uri":"x"},"Id":"A","Extra":[1]}}`: "A||",
	}
	for in, want := range entities {
		var w artifactWire
		if err := decodeEntity([]byte(in), &w); err != nil {
			t.Errorf("decodeEntity(%s): %v", in, err)
			continue
		}
		if got := string(w.ID) + "|" + string(w.Version) + "|" + string(w.Name); got != want {
			t.Errorf("decodeEntity(%s) = %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{``, `null`, `[]`, `"x"`, `{"d":null}`, `{"d":[1]}`, `{"d":{"Id":{"x":1}}}`, `<xml/>`, `{`} {
		var w artifactWire
		if err := decodeEntity([]byte(bad), &w); err == nil {
			t.Errorf("decodeEntity(%s) succeeded", bad)
		}
	}
	lists := map[string]int{
		`{"d":{"results":[{"ParameterKey":"a"},{"ParameterKey":"b"}]}}`: 2,
		`{"d":{"results":[]}}`:             0,
		`{"d":{"results":null}}`:           0,
		`{"d":{}}`:                         0,
		`{"d":null}`:                       0,
		`{"d":[{"ParameterKey":"a"}]}`:     1,
		`{"value":[{"ParameterKey":"a"}]}`: 1,
		`[{"ParameterKey":"a"}]`:           1,
		`{"d":{"results":[{"ParameterKey":null,"ParameterValue":5}]}}`: 1,
	}
	for in, want := range lists {
		got, err := decodeList[configurationWire]([]byte(in))
		if err != nil || len(got) != want {
			t.Errorf("decodeList(%s) = %d entries, %v; want %d", in, len(got), err, want)
		}
	}
	for _, bad := range []string{``, `{}`, `{"d":{"results":{}}}`, `{"d":"x"}`, `{"d":{"results":[1]}}`, `x`} {
		if got, err := decodeList[configurationWire]([]byte(bad)); err == nil {
			t.Errorf("decodeList(%s) = %v, want an error", bad, got)
		}
	}
}

func TestErrorTextAndTaskID(t *testing.T) {
	t.Parallel()
	texts := map[string]string{
		`{"message":{"messageText":"m"},"parameter":["p1"," p2 "]}`: "p1; p2",
		`{"message":{"messageText":"only message"},"parameter":[]}`: "only message",
		`{"parameter":null}`: `{"parameter":null}`,
		"plain\ntext  here":  "plain text here",
		"":                   "",
	}
	for in, want := range texts {
		if got := errorText([]byte(in)); got != want {
			t.Errorf("errorText(%q) = %q, want %q", in, got, want)
		}
	}
	ids := map[string]string{
		"abc-123\n":                    "abc-123",
		`"abc-123"`:                    "abc-123",
		`{"d":{"TaskId":"abc-123"}}`:   "abc-123",
		`{"d":{"Status":"DEPLOYING"}}`: "",
		"":                             "",
	}
	for in, want := range ids {
		if got := parseTaskID([]byte(in)); got != want {
			t.Errorf("parseTaskID(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDecodeOData feeds arbitrary answers to the OData decoders: they must
// never panic, must agree with encoding/json about what is valid, and must
// give back the entries of a well-formed collection.
func FuzzDecodeOData(f *testing.F) {
	for _, seed := range []string{
		`{"d":{"Id":"A","Version":"active","PackageId":"P","Name":"N"}}`,
		`{"d":{"results":[{"ParameterKey":"k","ParameterValue":"v","DataType":"xsd:string"}]}}`,
		`{"d":{"results":null}}`,
		`{"d":{"TaskId":"t","Status":"SUCCESS"}}`,
		`{"value":[]}`,
		`[{"ParameterKey":1}]`,
		`{"error":{"code":"Not Found","message":{"lang":"en","value":"x"}}}`,
		`{"message":{"messageText":"m"},"parameter":["p"]}`,
		"task-id",
		`{"d":`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var a artifactWire
		entityErr := decodeEntity(body, &a)
		var st statusWire
		_ = decodeEntity(body, &st)
		var rt runtimeWire
		_ = decodeEntity(body, &rt)
		items, listErr := decodeList[configurationWire](body)
		_ = errorText(body)
		_ = parseTaskID(body)
		if (entityErr == nil || listErr == nil) && !json.Valid(body) {
			t.Fatalf("invalid JSON %q decoded without error", body)
		}
		if entityErr == nil && !utf8.ValidString(string(a.ID)) && json.Valid(body) {
			// encoding/json replaces invalid UTF-8, so decoded text is valid.
			t.Fatalf("decoded Id %q is not valid UTF-8", a.ID)
		}
		// Wrapping the decoded entries again must give the same entries.
		if listErr == nil {
			again, err := json.Marshal(map[string]any{"d": map[string]any{"results": items}})
			if err != nil {
				t.Fatalf("re-encoding %v: %v", items, err)
			}
			back, err := decodeList[configurationWire](again)
			if err != nil || len(back) != len(items) {
				t.Fatalf("round trip of %s: %d entries, %v; want %d", again, len(back), err, len(items))
			}
			for i := range back {
				if back[i] != items[i] {
					t.Fatalf("round trip entry %d = %+v, want %+v", i, back[i], items[i])
				}
			}
		}
	})
}

package flowreader

import (
	"testing"
)

func TestSimpleGuardEvaluation(t *testing.T) {
	t.Parallel()
	type at struct {
		retries int64
		present bool
		want    Tri
	}
	const f, u = TriFalse, TriUnknown
	true_ := TriTrue
	for _, tc := range []struct {
		cond string
		ok   bool
		at   []at
	}{
		{"${header.SAPJMSRetries} > '5'", true, []at{{5, true, f}, {6, true, true_}, {9, false, f}}},
		{"${header.SAPJMSRetries} > 5", true, []at{{5, true, f}, {6, true, true_}}},
		{`${in.header.SAPJMSRetries} >= "3"`, true, []at{{2, true, f}, {3, true, true_}}},
		{"${headers.SAPJMSRetries} = 4", true, []at{{4, true, true_}, {5, true, f}, {4, false, f}}},
		{"${header[SAPJMSRetries]} == '4'", true, []at{{4, true, true_}, {3, true, f}}},
		{"${header.SAPJMSRetries} != 2", true, []at{{2, true, f}, {3, true, true_}, {0, false, true_}}},
		{"${header.SAPJMSRetries} < 2", true, []at{{1, true, true_}, {2, true, f}, {0, false, f}}},
		{"${header.SAPJMSRetries} <= 2", true, []at{{2, true, true_}, {3, true, f}}},
		{"7 < ${header.SAPJMSRetries}", true, []at{{7, true, f}, {8, true, true_}}},
		{"${header.SAPJMSRetries} == null", true, []at{{0, false, true_}, {0, true, f}}},
		{"${header.SAPJMSRetries} > 5 and ${header.SAPJMSRetries} < 8", true, []at{{5, true, f}, {6, true, true_}, {8, true, f}}},
		{"${header.SAPJMSRetries} = 2 or ${header.SAPJMSRetries} = 4", true, []at{{2, true, true_}, {3, true, f}, {4, true, true_}}},
		{"${header.SAPJMSRetries} = 2 || ${header.SAPJMSRetries} = 4 && ${header.SAPJMSRetries} > 3", true, []at{{2, true, f}, {4, true, true_}}},
		{"${header.SAPJMSRetries} > ${header.maxJMSRetries}", true, []at{{3, true, u}, {3, false, u}}},
		{"${header.SAPJMSRetries} > 5 and ${property.CustomXError_Enabled} != 'true'", true, []at{{5, true, f}, {6, true, u}}},
		{"${header.SAPJMSRetries} > 5 or ${header.maxJMSRetries} = '0'", true, []at{{5, true, u}, {6, true, true_}}},
		{"${header.SAPJMSRetries} = ${header.maxJMSRetries} or ${header.maxJMSRetries} = '0'", true, []at{{0, true, u}, {9, true, u}}},
		{"${header.SAPJMSRetries} > 'five'", true, []at{{6, true, u}}},
		{"${header.SAPJMSRetries} regex '[0-9]+'", false, nil},
		{"(${header.SAPJMSRetries} > 5)", false, nil},
		{"${header.SAPJMSRetries} >", false, nil},
		{"${header.SAPJMSRetries", false, nil},
		{"", false, nil},
	} {
		e, ok := ParseSimpleGuard(tc.cond)
		if ok != tc.ok {
			t.Errorf("%q: evaluable = %t, want %t", tc.cond, ok, tc.ok)
			continue
		}
		for _, a := range tc.at {
			if got := e.Eval(a.retries, a.present); got != a.want {
				t.Errorf("%q with SAPJMSRetries %d (set %t) = %d, want %d (0 false, 1 true, 2 unknown)", tc.cond, a.retries, a.present, got, a.want)
			}
		}
	}
}

func TestJavaPropertiesReadAndSet(t *testing.T) {
	t.Parallel()
	data := []byte("#Store parameters\n! comment\nMax\\ Retries\\ 'orders'=5\nDelivery : REJECTED\nlong=a\\\n    b\nuni=\\u00e9t\\u00E9\nbare\n")
	got := map[string]string{}
	for _, l := range javaPropertyLines(data) {
		got[l.key] = l.value
	}
	want := map[string]string{"Max Retries 'orders'": "5", "Delivery": "REJECTED", "long": "ab", "uni": "été", "bare": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q = %q, want %q (all: %q)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("read %q, want %q", got, want)
	}
	out := setJavaProperty(data, "Max Retries 'orders'", "1")
	if string(out) != "#Store parameters\n! comment\nMax\\ Retries\\ 'orders'=1\nDelivery : REJECTED\nlong=a\\\n    b\nuni=\\u00e9t\\u00E9\nbare\n" {
		t.Errorf("set existing key: %q", out)
	}
	out = setJavaProperty(data, "long", "x=y é")
	if string(out) != "#Store parameters\n! comment\nMax\\ Retries\\ 'orders'=5\nDelivery : REJECTED\nlong=x\\=y \\u00E9\nuni=\\u00e9t\\u00E9\nbare\n" {
		t.Errorf("set continued key: %q", out)
	}
	out = setJavaProperty([]byte("a=1\\"), "b", " 2")
	lines := javaPropertyLines(out)
	if len(lines) != 2 || lines[1].key != "b" || lines[1].value != " 2" {
		t.Errorf("appending after a continued last line: %q reads %+v", out, lines)
	}
	if out := setJavaProperty(data, "Delivery", "REJECTED"); string(out) != string(data) {
		t.Errorf("setting the same value changed the file: %q", out)
	}
}

package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	t.Parallel()
	const a, b = "example.com/a", "example.com/b"
	ok := strings.Join([]string{
		`{"Action":"start","Package":"` + a + `"}`,
		`{"Action":"run","Package":"` + a + `","Test":"TestOne"}`,
		`{"Action":"output","Package":"` + a + `","Test":"TestOne","Output":"=== RUN   TestOne\n"}`,
		`{"Action":"pass","Package":"` + a + `","Test":"TestOne","Elapsed":0.5}`,
		`{"Action":"run","Package":"` + a + `","Test":"TestTwo"}`,
		`{"Action":"skip","Package":"` + a + `","Test":"TestTwo"}`,
		`{"Action":"pass","Package":"` + a + `","Elapsed":1.25}`,
		`{"Action":"start","Package":"` + b + `"}`,
		`{"Action":"skip","Package":"` + b + `"}`,
	}, "\n")
	var out strings.Builder
	if code := run(strings.NewReader(ok), &out, 0); code != 0 {
		t.Fatalf("exit %d for passing packages:\n%s", code, out.String())
	}
	for _, want := range []string{"ok    " + a + " 1.2s: 1 passed, 0 failed, 1 skipped", "skip  " + b + " (no tests)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "=== RUN") {
		t.Errorf("the output of a passing test is shown:\n%s", out.String())
	}

	failing := strings.Join([]string{
		`{"Action":"start","Package":"` + a + `"}`,
		`{"Action":"run","Package":"` + a + `","Test":"TestBad"}`,
		`{"Action":"output","Package":"` + a + `","Test":"TestBad","Output":"    bad_test.go:9: want 2, got 3\n"}`,
		`{"Action":"fail","Package":"` + a + `","Test":"TestBad","Elapsed":0.1}`,
		`{"Action":"fail","Package":"` + a + `","Elapsed":0.2}`,
	}, "\n")
	out.Reset()
	if code := run(strings.NewReader(failing), &out, 0); code != 1 {
		t.Errorf("exit %d for a failed test, want 1", code)
	}
	for _, want := range []string{"--- FAIL " + a + " TestBad", "want 2, got 3", "FAIL  " + a} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	for name, stream := range map[string]string{
		"build failure": `{"ImportPath":"` + a + ` [` + a + `.test]","Action":"build-output","Output":"a.go:3: undefined: x\n"}` + "\n" +
			`{"ImportPath":"` + a + ` [` + a + `.test]","Action":"build-fail"}`,
		"no result": `{"Action":"start","Package":"` + a + `"}` + "\n" + `{"Action":"run","Package":"` + a + `","Test":"TestHangs"}`,
	} {
		out.Reset()
		if code := run(strings.NewReader(stream), &out, 0); code != 1 {
			t.Errorf("%s: exit %d, want 1:\n%s", name, code, out.String())
		}
	}
}

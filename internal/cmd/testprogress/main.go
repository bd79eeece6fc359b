// Command testprogress turns the event stream of `go test -json` into one line
// per package as it starts and ends, a progress line for packages that run
// long, and the full output of every failed test.
//
//	go test -json ./... | go run ./internal/cmd/testprogress
//
// It exits 1 when a test, a package or a build failed, so that a pipeline with
// pipefail fails for a failed test even where go test's own status is lost.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Time       time.Time
	Action     string
	Package    string
	ImportPath string
	Test       string
	Elapsed    float64
	Output     string
}

// pkgState is what is known of one package so far.
type pkgState struct {
	started        time.Time
	passed, failed int
	skipped        int
	running        map[string]bool
	output         map[string]*strings.Builder // per test, kept until the test ends
	pkgOutput      strings.Builder             // output outside any test
	lastProgress   time.Time
	done           bool
}

func main() {
	every := flag.Duration("progress", 30*time.Second, "interval of the progress line of a package that is still running")
	flag.Parse()
	os.Exit(run(os.Stdin, os.Stdout, *every))
}

// run reads events from r and writes the report to w, with a progress line per running package
// every interval (none when every is 0); it returns the exit code.
func run(r io.Reader, w io.Writer, every time.Duration) int {
	now := time.Now
	pkgs := map[string]*pkgState{}
	failed := false
	get := func(name string) *pkgState {
		p := pkgs[name]
		if p == nil {
			p = &pkgState{started: now(), running: map[string]bool{}, output: map[string]*strings.Builder{}, lastProgress: now()}
			pkgs[name] = p
		}
		return p
	}
	lines := make(chan []byte)
	var readErr error
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		readErr = sc.Err()
		close(lines)
	}()
	var tick <-chan time.Time
	if every > 0 {
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	for {
		var line []byte
		select {
		case l, ok := <-lines:
			if !ok {
				goto end
			}
			line = l
		case t := <-tick:
			progress(w, pkgs, t, every)
			continue
		}
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event (for example a line of go vet): pass it on.
			fmt.Fprintln(w, string(line))
			continue
		}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
			continue
		case "build-fail":
			failed = true
			fmt.Fprintf(w, "FAIL  %s (build failed)\n", e.ImportPath)
			continue
		}
		if e.Package == "" {
			continue
		}
		p := get(e.Package)
		if e.Action == "start" {
			fmt.Fprintf(w, "      %s ...\n", e.Package)
			continue
		}
		if e.Test == "" {
			switch e.Action {
			case "output":
				p.pkgOutput.WriteString(e.Output)
			case "pass", "fail", "skip":
				p.done = true
				status := map[string]string{"pass": "ok   ", "fail": "FAIL ", "skip": "skip "}[e.Action]
				if e.Action == "fail" {
					failed = true
					if p.failed == 0 {
						// A package that failed outside its tests (panic, TestMain, timeout).
						fmt.Fprint(w, indent(p.pkgOutput.String()))
					}
				}
				if e.Action == "skip" || p.passed+p.failed+p.skipped == 0 {
					fmt.Fprintf(w, "%s %s (no tests)\n", status, e.Package)
				} else {
					fmt.Fprintf(w, "%s %s %.1fs: %d passed, %d failed, %d skipped\n", status, e.Package, e.Elapsed, p.passed, p.failed, p.skipped)
				}
			}
			continue
		}
		switch e.Action {
		case "run":
			p.running[e.Test] = true
			p.output[e.Test] = &strings.Builder{}
		case "output":
			if b := p.output[e.Test]; b != nil {
				b.WriteString(e.Output)
			}
		case "pass", "fail", "skip":
			delete(p.running, e.Test)
			out := p.output[e.Test]
			delete(p.output, e.Test)
			if strings.Contains(e.Test, "/") {
				if e.Action == "fail" && out != nil {
					fmt.Fprint(w, indent(out.String()))
				}
				break
			}
			switch e.Action {
			case "pass":
				p.passed++
			case "skip":
				p.skipped++
			case "fail":
				p.failed++
				failed = true
				fmt.Fprintf(w, "--- FAIL %s %s (%.1fs)\n", e.Package, e.Test, e.Elapsed)
				if out != nil {
					fmt.Fprint(w, indent(out.String()))
				}
			}
		}
	}
end:
	if err := readErr; err != nil {
		fmt.Fprintf(w, "testprogress: reading go test -json: %v\n", err)
		return 1
	}
	for name, p := range pkgs {
		if !p.done {
			failed = true
			fmt.Fprintf(w, "FAIL  %s: no result (go test ended early)\n%s", name, indent(p.pkgOutput.String()))
		}
	}
	if failed {
		return 1
	}
	return 0
}

// progress prints one line per package that has run for at least every since its start or its last line.
func progress(w io.Writer, pkgs map[string]*pkgState, t time.Time, every time.Duration) {
	names := make([]string, 0, len(pkgs))
	for n := range pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := pkgs[n]
		if p.done || t.Sub(p.lastProgress) < every {
			continue
		}
		p.lastProgress = t
		fmt.Fprintf(w, "      %s %s: %d passed, %d failed, %d skipped; running %s\n",
			n, t.Sub(p.started).Round(time.Second), p.passed, p.failed, p.skipped, running(p.running))
	}
}

// running names the top-level tests still running, at most five.
func running(m map[string]bool) string {
	var names []string
	for n := range m {
		if !strings.Contains(n, "/") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) > 5 {
		names = append(names[:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	if len(names) == 0 {
		return "subtests"
	}
	return strings.Join(names, ", ")
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

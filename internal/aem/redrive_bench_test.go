package aem_test

import (
	"bufio"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// BenchmarkRedrive10000 moves 10,000 messages from a dead message queue to a queue per iteration, over
// HTTP against the emulator's broker, and reports the SEMP calls per message (one paged list, then one
// copy and one delete per message: about 2.01) and the process's peak RSS, emulator included.
func BenchmarkRedrive10000(b *testing.B) {
	const n = 10000
	emu := emulatortest.Start(b, emulator.Options{})
	creds := emu.AdvancedEventMeshCredentials()
	c := client(b, creds, nil)
	for _, name := range []string{"orders/dmq", "orders"} {
		if _, err := c.CreateQueue(b.Context(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
			b.Fatal(err)
		}
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	publish := func(queue string) {
		req, _ := http.NewRequest(http.MethodPost, creds.SEMPURL+"/QUEUE/"+url.PathEscape(queue), strings.NewReader(`{"order":1}`))
		req.SetBasicAuth(creds.Username, creds.Password)
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	var calls, moved int64
	for b.Loop() {
		b.StopTimer()
		for range n {
			publish("orders/dmq")
		}
		emu.ResetStats()
		b.StartTimer()
		res, err := c.Redrive(b.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", MaxMessages: n})
		if err != nil || res.Moved != n {
			b.Fatalf("moved %d of %d: %v", res.Moved, n, err)
		}
		b.StopTimer()
		for _, v := range emu.Stats().Routes {
			calls += v
		}
		moved += int64(res.Moved)
		if err := c.DeleteQueue(b.Context(), "orders"); err != nil {
			b.Fatal(err)
		}
		if _, err := c.CreateQueue(b.Context(), aem.Queue{Name: "orders", QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(calls)/float64(moved), "calls/msg")
	b.ReportMetric(float64(peakRSSKiB())/1024, "peak-RSS-MiB")
}

// peakRSSKiB is the process's peak resident set size (VmHWM of /proc/self/status), 0 where there is none.
func peakRSSKiB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer func() { _ = f.Close() }()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

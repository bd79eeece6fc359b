package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Call runs handler h in process as a client's request would reach it: method, body as JSON (no body when
// nil) and the path values pathValues (name, value pairs). When the answer's status is not want, it returns an
// error that says what failed, with the status and the answer. The sample content goes through the APIs'
// handlers this way, so that it obeys every rule of the APIs.
func Call(h http.HandlerFunc, method string, body any, pathValues []string, want int, what string) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, "/", rd)
	for i := 0; i+1 < len(pathValues); i += 2 {
		req.SetPathValue(pathValues[i], pathValues[i+1])
	}
	rec := httptest.NewRecorder()
	h(rec, req)
	if rec.Code != want {
		return fmt.Errorf("emulator: sample content: %s: status %d: %s", what, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	return nil
}

// FoundJSON returns the handler that answers 200 with the JSON of what get finds for the path value param,
// or 404 with the message missing (a format of that value) when get finds nothing.
func FoundJSON[T any](param string, get func(string) (T, bool), missing string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue(param)
		v, ok := get(name)
		if !ok {
			RespondMessage(w, http.StatusNotFound, fmt.Sprintf(missing, name))
			return
		}
		RespondJSON(w, http.StatusOK, v)
	}
}

// LoopbackAddr checks that addr (host:port) names a loopback interface and
// returns the address to bind. "localhost" binds 127.0.0.1; an empty host or
// any non-loopback address is refused.
func LoopbackAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("emulator: the listen address %q is not host:port; set a loopback address such as 127.0.0.1:0", addr)
	}
	if strings.EqualFold(host, "localhost") {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("emulator: the listen address %q is not a loopback address, and the emulator serves secrets and unauthenticated control endpoints; set a loopback address such as 127.0.0.1:0", addr)
	}
	return net.JoinHostPort(ip.String(), port), nil
}

// API categories used by the statistics.
type category int

const (
	catOther category = iota
	catToken
	catManagement
	catMessaging
	catCloudIntegration
	catSEMP // the AEM broker's SEMP v2 APIs (aem/aem.go)
)

func categorize(path string) category {
	switch {
	case path == TokenPath:
		return catToken
	case HasPathPrefix(path, ManagementBasePath):
		return catManagement
	case HasPathPrefix(path, MessagingBasePath):
		return catMessaging
	case HasPathPrefix(path, CloudIntegrationBasePath):
		return catCloudIntegration
	case HasPathPrefix(path, "/SEMP/v2"):
		return catSEMP
	}
	return catOther
}

func HasPathPrefix(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// routeLabel names the route of r for the statistics, e.g. "PUT /queues/{queue}".
func (s *FaultInjector) routeLabel(r *http.Request) string {
	if categorize(r.URL.Path) == catCloudIntegration {
		if label := s.opLabel(r); label != "" {
			return label
		}
	}
	_, pattern := s.mux.Handler(r)
	if pattern == "" {
		return r.Method + " (no route)"
	}
	if label, ok := s.Labels[pattern]; ok {
		return label
	}
	if !strings.Contains(pattern, " ") {
		return r.Method + " " + pattern
	}
	return pattern
}

// ServeAPI is the single middleware every API request passes.
func (s *FaultInjector) ServeAPI(w http.ResponseWriter, r *http.Request) {
	cat := categorize(r.URL.Path)
	label := s.routeLabel(r)
	s.Counters.countRequest(label, cat)
	defer s.Counters.begin()()
	s.Logf("emulator: %s %s", r.Method, r.URL.EscapedPath())

	f := s.faults.get()
	if f.Latency > 0 && !SleepCtx(r.Context(), f.Latency) {
		return
	}
	if kind, ok := s.faults.pick(cat == catToken, label); ok {
		s.Counters.countFault(kind)
		s.Logf("emulator: injecting fault %s into %s", kind, label)
		if s.applyFault(kind, f, w, r) {
			return
		}
	}
	if f.ResponseLatency > 0 && cat == catManagement {
		// Carry the request out, then hold the answer back.
		buf := &bufferedWriter{header: http.Header{}}
		s.mux.ServeHTTP(&statusWriter{ResponseWriter: buf, stats: &s.Counters}, r)
		if !SleepCtx(r.Context(), f.ResponseLatency) {
			return
		}
		for k, v := range buf.header {
			w.Header()[k] = v
		}
		w.WriteHeader(buf.status)
		_, _ = w.Write(buf.body.Bytes())
		return
	}
	s.mux.ServeHTTP(&statusWriter{ResponseWriter: w, stats: &s.Counters}, r)
}

// bufferedWriter keeps a response to send it later.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}

func IsLoopbackRemote(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SleepCtx sleeps d and reports whether it slept fully (false when ctx ended first).
func SleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// statusWriter counts the status code of each response before it is sent.
type statusWriter struct {
	http.ResponseWriter
	stats *StatsState
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote && code >= 200 {
		w.wrote = true
		w.stats.countStatus(code)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.stats.countBytes(n)
	return n, err
}

// Flush implements http.Flusher.
func (w *statusWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ReadBody reads the request body up to limit bytes.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, Msgf("The request body is larger than %d bytes. Send a smaller body.", limit)
		}
		return nil, Msgf("The request body could not be read: %v.", err)
	}
	return b, nil
}

// messageError is an error whose text is a full sentence meant for an API answer.
type messageError string

func (e messageError) Error() string { return string(e) }

// Msgf formats an API error message.
func Msgf(format string, args ...any) error { return messageError(fmt.Sprintf(format, args...)) }

// RespondJSON writes v as JSON with status.
func RespondJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// RespondMessage writes the error body {"message": msg} with status.
func RespondMessage(w http.ResponseWriter, status int, msg string) {
	RespondJSON(w, status, map[string]string{"message": msg})
}

// WriteFileAtomic writes data to a temporary file in the same directory and renames it over path.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	cleanup := func(err error) error {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return cleanup(err)
	}
	if _, err := f.Write(data); err != nil {
		return cleanup(err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

func CeilSeconds(d time.Duration) int64 {
	secs := int64((d + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	return secs
}

package httpx

// DefaultTransport lets the external tests (package httpx_test) build a
// transport as New does.
var DefaultTransport = defaultTransport

package emulator

import "net/http"

// cpiState holds the emulated Cloud Integration tenant.
type cpiState struct{}

func newCPIState() *cpiState { return &cpiState{} }

// mountCloudIntegration registers the Cloud Integration OData API under /api/v1.
func (s *Server) mountCloudIntegration(mux *http.ServeMux) { _ = mux }

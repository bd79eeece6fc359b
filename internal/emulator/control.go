package emulator

import (
	"net/http"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// mountControl registers the unauthenticated control endpoints (loopback
// clients only): the statistics, and each room's own.
func (s *Server) mountControl(mux *http.ServeMux) {
	c := ControlBasePath
	mux.HandleFunc("GET "+c+"/stats", func(w http.ResponseWriter, _ *http.Request) {
		core.RespondJSON(w, http.StatusOK, s.Stats())
	})
	mux.HandleFunc("POST "+c+"/stats/reset", func(w http.ResponseWriter, _ *http.Request) {
		s.ResetStats()
		w.WriteHeader(http.StatusNoContent)
	})
	for _, r := range s.rooms() {
		r.MountControl(mux)
	}
	s.Runtime.MountControl(mux)
	s.FaultInjector.MountControl(mux)
}

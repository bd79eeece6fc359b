package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

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
	s.TokenService.MountControl(mux)
	s.eventMesh.mountControl(mux)
	s.mountCloudIntegrationControl(mux)
	s.mountRuntimeControl(mux)
	s.mountJMSControl(mux)
	s.mountWebhookControl(mux)
	s.AdvancedEventMesh.MountControl(mux)
	s.FaultInjector.MountControl(mux)
}

// mountControl registers the Event Mesh control endpoints: readiness, and the
// messages of a queue with the broker's rejection path.
func (s *eventMesh) mountControl(mux *http.ServeMux) {
	c := ControlBasePath
	mux.HandleFunc("PUT "+c+"/readiness", s.handlePutReadiness)
	mux.HandleFunc("GET "+c+"/queues/{queue}/messages", s.handleControlMessages)
	mux.HandleFunc("POST "+c+"/queues/{queue}/messages/{id}/rejection", s.handleControlReject)
}

func (s *eventMesh) handlePutReadiness(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Ready      bool              `json:"ready"`
		RetryAfter core.JSONDuration `json:"retryAfter"`
	}
	body, err := core.ReadBody(w, r, 64<<10)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The body must be {\"ready\": true|false, \"retryAfter\": \"5s\"}: %v.", err))
		return
	}
	s.SetReady(req.Ready, time.Duration(req.RetryAfter))
	w.WriteHeader(http.StatusNoContent)
}

func (s *eventMesh) handleControlMessages(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("queue")
	msgs, ok := s.Messages(name)
	if !ok {
		queueNotFound(w, name)
		return
	}
	core.RespondJSON(w, http.StatusOK, msgs)
}

func (s *eventMesh) handleControlReject(w http.ResponseWriter, r *http.Request) {
	name, id := r.PathValue("queue"), r.PathValue("id")
	res, err := s.Reject(name, id)
	switch {
	case errors.Is(err, ErrQueueNotFound):
		queueNotFound(w, name)
	case errors.Is(err, ErrMessageNotFound):
		core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf("Queue %q has no unacknowledged message %q. Reject the X-Message-Id of a message consumed with x-qos 1.", name, id))
	case err != nil:
		core.RespondMessage(w, http.StatusInternalServerError, err.Error())
	default:
		core.RespondJSON(w, http.StatusOK, res)
	}
}

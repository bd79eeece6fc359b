package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// mountControl registers the unauthenticated control endpoints (loopback
// clients only): the statistics, and each room's own.
func (s *Server) mountControl(mux *http.ServeMux) {
	c := ControlBasePath
	mux.HandleFunc("GET "+c+"/stats", func(w http.ResponseWriter, _ *http.Request) {
		respondJSON(w, http.StatusOK, s.Stats())
	})
	mux.HandleFunc("POST "+c+"/stats/reset", func(w http.ResponseWriter, _ *http.Request) {
		s.ResetStats()
		w.WriteHeader(http.StatusNoContent)
	})
	s.tokenService.mountControl(mux)
	s.eventMesh.mountControl(mux)
	s.mountCloudIntegrationControl(mux)
	s.mountRuntimeControl(mux)
	s.mountJMSControl(mux)
	s.mountWebhookControl(mux)
	s.advancedEventMesh.mountControl(mux)
	s.faultInjector.mountControl(mux)
}

// mountControl registers the token control endpoint: expire every token.
func (s *tokenService) mountControl(mux *http.ServeMux) {
	mux.HandleFunc("POST "+ControlBasePath+"/tokens/expire", func(w http.ResponseWriter, _ *http.Request) {
		s.ExpireTokens()
		w.WriteHeader(http.StatusNoContent)
	})
}

// mountControl registers the fault control endpoints: the settings and the
// queued faults.
func (s *faultInjector) mountControl(mux *http.ServeMux) {
	c := ControlBasePath
	mux.HandleFunc("GET "+c+"/faults", s.handleGetFaults)
	mux.HandleFunc("PUT "+c+"/faults", s.handlePutFaults)
	mux.HandleFunc("POST "+c+"/faults/next", s.handleInjectNext)
	mux.HandleFunc("DELETE "+c+"/faults", func(w http.ResponseWriter, _ *http.Request) {
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	})
}

// mountControl registers the Event Mesh control endpoints: readiness, and the
// messages of a queue with the broker's rejection path.
func (s *eventMesh) mountControl(mux *http.ServeMux) {
	c := ControlBasePath
	mux.HandleFunc("PUT "+c+"/readiness", s.handlePutReadiness)
	mux.HandleFunc("GET "+c+"/queues/{queue}/messages", s.handleControlMessages)
	mux.HandleFunc("POST "+c+"/queues/{queue}/messages/{id}/rejection", s.handleControlReject)
}

// faultsView is the GET /emulator/v1/faults answer: the settings plus the queued faults.
type faultsView struct {
	Faults
	Pending []FaultKind `json:"pending"`
}

func (v faultsView) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(v.Faults)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["pending"] = v.Pending
	return json.Marshal(m)
}

func (s *faultInjector) handleGetFaults(w http.ResponseWriter, _ *http.Request) {
	respondJSON(w, http.StatusOK, faultsView{Faults: s.Faults(), Pending: s.PendingFaults()})
}

func (s *faultInjector) handlePutFaults(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, 64<<10)
	if err != nil {
		respondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	var f Faults
	if err := json.Unmarshal(body, &f); err != nil {
		respondMessage(w, http.StatusBadRequest, fmt.Sprintf("The fault settings are not valid: %v.", err))
		return
	}
	if err := f.Validate(); err != nil {
		respondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	s.SetFaults(f)
	respondJSON(w, http.StatusOK, faultsView{Faults: s.Faults(), Pending: s.PendingFaults()})
}

func (s *faultInjector) handleInjectNext(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, 64<<10)
	if err != nil {
		respondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	var req struct {
		Kinds []FaultKind `json:"kinds"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		respondMessage(w, http.StatusBadRequest, fmt.Sprintf("The body must be {\"kinds\": [...]}: %v.", err))
		return
	}
	s.InjectNext(req.Kinds...)
	respondJSON(w, http.StatusOK, map[string]any{"pending": s.PendingFaults()})
}

func (s *eventMesh) handlePutReadiness(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Ready      bool         `json:"ready"`
		RetryAfter jsonDuration `json:"retryAfter"`
	}
	body, err := readBody(w, r, 64<<10)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		respondMessage(w, http.StatusBadRequest, fmt.Sprintf("The body must be {\"ready\": true|false, \"retryAfter\": \"5s\"}: %v.", err))
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
	respondJSON(w, http.StatusOK, msgs)
}

func (s *eventMesh) handleControlReject(w http.ResponseWriter, r *http.Request) {
	name, id := r.PathValue("queue"), r.PathValue("id")
	res, err := s.Reject(name, id)
	switch {
	case errors.Is(err, ErrQueueNotFound):
		queueNotFound(w, name)
	case errors.Is(err, ErrMessageNotFound):
		respondMessage(w, http.StatusNotFound, fmt.Sprintf("Queue %q has no unacknowledged message %q. Reject the X-Message-Id of a message consumed with x-qos 1.", name, id))
	case err != nil:
		respondMessage(w, http.StatusInternalServerError, err.Error())
	default:
		respondJSON(w, http.StatusOK, res)
	}
}

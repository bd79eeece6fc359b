package core

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// MountControl registers the token control endpoint: expire every token.
func (s *TokenService) MountControl(mux *http.ServeMux) {
	mux.HandleFunc("POST "+ControlBasePath+"/tokens/expire", func(w http.ResponseWriter, _ *http.Request) {
		s.ExpireTokens()
		w.WriteHeader(http.StatusNoContent)
	})
}

// MountControl registers the fault control endpoints: the settings and the
// queued faults.
func (s *FaultInjector) MountControl(mux *http.ServeMux) {
	c := ControlBasePath
	mux.HandleFunc("GET "+c+"/faults", s.handleGetFaults)
	mux.HandleFunc("PUT "+c+"/faults", s.handlePutFaults)
	mux.HandleFunc("POST "+c+"/faults/next", s.handleInjectNext)
	mux.HandleFunc("DELETE "+c+"/faults", func(w http.ResponseWriter, _ *http.Request) {
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	})
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

func (s *FaultInjector) handleGetFaults(w http.ResponseWriter, _ *http.Request) {
	RespondJSON(w, http.StatusOK, faultsView{Faults: s.Faults(), Pending: s.PendingFaults()})
}

func (s *FaultInjector) handlePutFaults(w http.ResponseWriter, r *http.Request) {
	body, err := ReadBody(w, r, 64<<10)
	if err != nil {
		RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	var f Faults
	if err := json.Unmarshal(body, &f); err != nil {
		RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The fault settings are not valid: %v.", err))
		return
	}
	if err := f.Validate(); err != nil {
		RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	s.SetFaults(f)
	RespondJSON(w, http.StatusOK, faultsView{Faults: s.Faults(), Pending: s.PendingFaults()})
}

func (s *FaultInjector) handleInjectNext(w http.ResponseWriter, r *http.Request) {
	body, err := ReadBody(w, r, 64<<10)
	if err != nil {
		RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	var req struct {
		Kinds []FaultKind `json:"kinds"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The body must be {\"kinds\": [...]}: %v.", err))
		return
	}
	s.InjectNext(req.Kinds...)
	RespondJSON(w, http.StatusOK, map[string]any{"pending": s.PendingFaults()})
}

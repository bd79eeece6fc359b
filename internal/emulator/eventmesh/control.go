package eventmesh

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// MountControl registers the Event Mesh control endpoints: readiness, and the
// messages of a queue with the broker's rejection path.
func (s *EventMesh) MountControl(mux *http.ServeMux) {
	c := core.ControlBasePath
	mux.HandleFunc("PUT "+c+"/readiness", s.handlePutReadiness)
	mux.HandleFunc("GET "+c+"/queues/{queue}/messages", core.FoundJSON("queue", s.Messages, queueMissing))
	mux.HandleFunc("POST "+c+"/queues/{queue}/messages/{id}/rejection", s.handleControlReject)
}

func (s *EventMesh) handlePutReadiness(w http.ResponseWriter, r *http.Request) {
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

func (s *EventMesh) handleControlReject(w http.ResponseWriter, r *http.Request) {
	name, id := r.PathValue("queue"), r.PathValue("id")
	res, err := s.Reject(name, id)
	switch {
	case errors.Is(err, core.ErrQueueNotFound):
		queueNotFound(w, name)
	case errors.Is(err, core.ErrMessageNotFound):
		core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf("Queue %q has no unacknowledged message %q. Reject the X-Message-Id of a message consumed with x-qos 1.", name, id))
	case err != nil:
		core.RespondMessage(w, http.StatusInternalServerError, err.Error())
	default:
		core.RespondJSON(w, http.StatusOK, res)
	}
}

// Mount registers the management and the messaging API on mux.
func (s *EventMesh) Mount(mux *http.ServeMux) {
	s.mountManagement(mux)
	s.mountMessaging(mux)
}

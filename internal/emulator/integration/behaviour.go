package integration

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// FlowOutcome is how the executions of an integration flow end.
type FlowOutcome string

// Outcomes of Behaviour.
const (
	// FlowSuccess: the execution completes (Message End); the flow
	// acknowledges the message. This is the default.
	FlowSuccess FlowOutcome = "success"
	// FlowError: the execution fails and the exception subprocess ends in an
	// Error End; the message is not acknowledged, so the sender's retries
	// and the broker's redeliveries follow.
	FlowError FlowOutcome = "error"
	// FlowEscalation: the execution fails and the exception subprocess ends
	// in an Escalation End; the flow acknowledges (consumes) the message and
	// the processing log says ESCALATED.
	FlowEscalation FlowOutcome = "escalation"
	// FlowException: the execution fails and the deployed flow's own
	// exception subprocess decides: an Error End acts as FlowError, an
	// Escalation End as FlowEscalation, a Message End or none completes the
	// message (ACK). When the first exception subprocess has several end
	// events, Error End wins over Escalation End over Message End; a flow
	// without an exception subprocess acts as FlowError.
	FlowException FlowOutcome = "exception"
)

// maxProcessingMs bounds Behaviour.ProcessingMs (ten minutes).
const maxProcessingMs = 600000

// Behaviour sets how the executions of one deployed integration flow end.
// The zero value completes every execution.
type Behaviour struct {
	// Outcome is how failing executions end ("" means FlowSuccess).
	Outcome FlowOutcome `json:"outcome"`
	// FailFirst, when above 0, makes only the first FailFirst executions of
	// each message end with Outcome; later executions of that message
	// succeed. 0 makes every execution end with Outcome.
	FailFirst int64 `json:"fail_first"`
	// ProcessingMs is how long each execution takes, in milliseconds.
	ProcessingMs int64 `json:"processing_ms"`
}

// Validate checks a behaviour and explains what to set instead.
func (b Behaviour) Validate() error {
	switch b.Outcome {
	case "", FlowSuccess, FlowError, FlowEscalation, FlowException:
	default:
		return core.Msgf("outcome %q is not known. Set outcome to \"success\", \"error\", \"escalation\" or \"exception\".", b.Outcome)
	}
	if b.FailFirst < 0 {
		return core.Msgf("fail_first is %d. Set fail_first to 0 (every execution ends with the outcome) or to the number of executions that fail before the flow succeeds.", b.FailFirst)
	}
	if b.FailFirst > 0 && (b.Outcome == "" || b.Outcome == FlowSuccess) {
		return core.Msgf("fail_first makes the first executions end with the outcome, but the outcome is success. Set outcome to \"error\", \"escalation\" or \"exception\", or leave fail_first out.")
	}
	if b.ProcessingMs < 0 || b.ProcessingMs > maxProcessingMs {
		return core.Msgf("processing_ms is %d. Set processing_ms to a duration from 0 to %d milliseconds.", b.ProcessingMs, maxProcessingMs)
	}
	return nil
}

// result returns how execution number n (from 1) of a message ends; end is
// the end event kind of the flow's exception subprocess.
func (b Behaviour) result(n int64, end string) execResult {
	if b.Outcome == "" || b.Outcome == FlowSuccess || (b.FailFirst > 0 && n > b.FailFirst) {
		return execCompleted
	}
	switch b.Outcome {
	case FlowEscalation:
		return execEscalated
	case FlowException:
		switch end {
		case "escalation":
			return execEscalated
		case "message", "none":
			return execCompleted
		}
	}
	return execFailed
}

// ErrIFlowNotFound is returned when no integration flow has the given id.
var ErrIFlowNotFound = errors.New("emulator: there is no integration flow with this id")

// SetBehaviour sets how the executions of integration flow id end, from the
// next execution on. The flow must exist in the design time workspace or
// the runtime.
func (s *Runtime) SetBehaviour(id string, b Behaviour) error {
	if err := b.Validate(); err != nil {
		return err
	}
	if !s.iflowKnown(id) {
		return fmt.Errorf("%w: %q", ErrIFlowNotFound, id)
	}
	if b.Outcome == "" {
		b.Outcome = FlowSuccess
	}
	rt := s.rt
	rt.mu.Lock()
	rt.behaviours[id] = b
	rt.mu.Unlock()
	return nil
}

// IFlowBehaviour returns the behaviour of integration flow id.
func (s *Runtime) IFlowBehaviour(id string) Behaviour { return s.rt.behaviour(id) }

func (rt *runtimeState) behaviour(id string) Behaviour {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if b, ok := rt.behaviours[id]; ok {
		return b
	}
	return Behaviour{Outcome: FlowSuccess}
}

// iflowKnown reports whether integration flow id exists in the design time
// workspace or has a runtime artifact.
func (s *Runtime) iflowKnown(id string) bool {
	c := s.cpi
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.iflows[id] != nil || c.runtimes[id] != nil
}

// mountRuntimeControl registers the runtime's control endpoints.
func (s *Runtime) mountRuntimeControl(mux *http.ServeMux) {
	c := core.ControlBasePath
	mux.HandleFunc("PUT "+c+"/iflows/{id}/behaviour", s.handlePutBehaviour)
	mux.HandleFunc("GET "+c+"/iflows/{id}/behaviour", func(w http.ResponseWriter, r *http.Request) {
		core.RespondJSON(w, http.StatusOK, s.IFlowBehaviour(r.PathValue("id")))
	})
	mux.HandleFunc("DELETE "+c+"/iflows/{id}/behaviour", func(w http.ResponseWriter, r *http.Request) {
		s.rt.mu.Lock()
		delete(s.rt.behaviours, r.PathValue("id"))
		s.rt.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET "+c+"/iflows/{id}/runs", func(w http.ResponseWriter, r *http.Request) {
		core.RespondJSON(w, http.StatusOK, s.MessageRuns(r.PathValue("id")))
	})
	mux.HandleFunc("GET "+c+"/iflows/{id}/stats", func(w http.ResponseWriter, r *http.Request) {
		core.RespondJSON(w, http.StatusOK, s.RuntimeStats(r.PathValue("id")))
	})
	mux.HandleFunc("GET "+c+"/runtime", func(w http.ResponseWriter, _ *http.Request) {
		core.RespondJSON(w, http.StatusOK, map[string]any{"consumers": s.Consumers(), "aemConsumers": s.AEMConsumers(), "stats": s.RuntimeStats("")})
	})
}

func (s *Runtime) handlePutBehaviour(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	var b Behaviour
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(&b)
	}
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, `The body is not a behaviour: `+err.Error()+`. Send {"outcome": "error" | "escalation" | "success" | "exception", "fail_first": 0, "processing_ms": 0}.`)
		return
	}
	switch err := s.SetBehaviour(r.PathValue("id"), b); {
	case errors.Is(err, ErrIFlowNotFound):
		core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf("There is no integration flow %q. Create it before setting its behaviour.", r.PathValue("id")))
	case err != nil:
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
	default:
		core.RespondJSON(w, http.StatusOK, s.IFlowBehaviour(r.PathValue("id")))
	}
}

// MountControl registers the runtime's control endpoints (behaviours, message runs, statistics) and the
// JMS broker's.
func (s *Runtime) MountControl(mux *http.ServeMux) {
	s.mountRuntimeControl(mux)
	s.mountJMSControl(mux)
}

package integration

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/integration/flowreader"
)

// DeployedIFlow is what the runtime of an integration flow runs: the
// version, parameter values and content of the deploy in force.
type DeployedIFlow struct {
	Version    string            `json:"version"`
	Status     string            `json:"status"`
	Error      string            `json:"error,omitempty"`
	Parameters map[string]string `json:"parameters"`
	Content    []byte            `json:"content"`
}

// CreateIFlow creates the integration flow id in package pkg from an iFlow
// archive, replacing a flow with the same id. The archive must hold an .iflw.
func (s *CloudIntegration) CreateIFlow(id, name, pkg string, zip []byte) error {
	if strings.TrimSpace(id) == "" {
		return errors.New("emulator: the integration flow id is empty; set an id")
	}
	art, err := flowreader.ReadArchive(zip)
	if err != nil {
		return fmt.Errorf("emulator: the content of integration flow %q cannot be read: %w", id, err)
	}
	if name == "" {
		name = id
	}
	if pkg == "" {
		pkg = "EmulatorPackage"
	}
	f := &cpiIFlow{ID: id, Name: name, PackageID: pkg, Version: artifactVersion(art), Content: bytes.Clone(zip)}
	c := s.cpi
	c.mu.Lock()
	c.iflows[id] = f
	c.mu.Unlock()
	s.SaveState()
	return nil
}

// IFlowContent returns the current archive of integration flow id, or nil
// when there is no such flow.
func (s *CloudIntegration) IFlowContent(id string) []byte {
	c := s.cpi
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.iflows[id]; f != nil {
		return bytes.Clone(f.Content)
	}
	return nil
}

// IFlowConfigurations returns the externalized parameter values of
// integration flow id, and false when there is no such flow.
func (s *CloudIntegration) IFlowConfigurations(id string) (map[string]string, bool) {
	c := s.cpi
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.iflows[id]
	if f == nil {
		return nil, false
	}
	list, err := f.configurations()
	if err != nil {
		return map[string]string{}, true
	}
	out := make(map[string]string, len(list))
	for _, cf := range list {
		out[cf.Key] = cf.Value
	}
	return out, true
}

// SetConfigurationValue changes one externalized parameter of integration
// flow id out of band, as a user in the Cloud Integration UI would. Unknown
// keys are added.
func (s *CloudIntegration) SetConfigurationValue(id, key, value string) error {
	c := s.cpi
	c.mu.Lock()
	f := c.iflows[id]
	if f == nil {
		c.mu.Unlock()
		return fmt.Errorf("emulator: there is no integration flow %q", id)
	}
	_, err := f.setParameter(key, value, "", false)
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("emulator: setting parameter %q of integration flow %q: %w", key, id, err)
	}
	s.SaveState()
	return nil
}

// DeleteIFlow deletes integration flow id from the design time workspace;
// a deployed runtime artifact stays. It reports whether the flow existed.
func (s *CloudIntegration) DeleteIFlow(id string) bool {
	c := s.cpi
	c.mu.Lock()
	_, ok := c.iflows[id]
	delete(c.iflows, id)
	c.mu.Unlock()
	if ok {
		s.SaveState()
	}
	return ok
}

// FailNextDeploy makes the next deploy of integration flow id end with task
// status FAIL and runtime status ERROR, with errorText as error information.
func (s *CloudIntegration) FailNextDeploy(id, errorText string) {
	s.cpi.failNextWith(s.cpi.failNext, id, errorText, "Deployment failed.")
}

// FailNextBuild makes the next deploy of integration flow id fail in its build: the task ends
// with status FAIL and errorText, and the runtime keeps running the version it ran before (or
// nothing, if the flow was not deployed).
func (s *CloudIntegration) FailNextBuild(id, errorText string) {
	s.cpi.failNextWith(s.cpi.failBuild, id, errorText, "Build failed.")
}

// failNextWith records in failures (failNext or failBuild) that the next deploy of integration flow id fails
// with errorText, or with def when errorText is empty.
func (c *cpiState) failNextWith(failures map[string]string, id, errorText, def string) {
	if errorText == "" {
		errorText = def
	}
	c.mu.Lock()
	failures[id] = errorText
	c.mu.Unlock()
}

// SetDeployDelay sets how long a deploy stays DEPLOYING; the runtime then
// stays STARTING as long again. Zero makes deploys finish at once.
func (s *CloudIntegration) SetDeployDelay(d time.Duration) {
	if d < 0 {
		d = 0
	}
	c := s.cpi
	c.mu.Lock()
	c.deployDelay = d
	c.mu.Unlock()
}

// Deployed returns what the runtime of integration flow id runs, and false
// when nothing is deployed.
func (s *CloudIntegration) Deployed(id string) (DeployedIFlow, bool) {
	c := s.cpi
	now := s.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.runtimeLocked(id, now)
	if d == nil {
		return DeployedIFlow{}, false
	}
	return DeployedIFlow{Version: d.Version, Status: d.status(now), Error: d.Error,
		Parameters: maps.Clone(d.Parameters), Content: bytes.Clone(d.Content)}, true
}

// InvalidateCSRFTokens forgets every Cloud Integration session, so that
// clients must fetch a new CSRF token.
func (s *CloudIntegration) InvalidateCSRFTokens() { s.cpi.invalidateCSRF() }

// MountControl registers the Cloud Integration control
// endpoints under /emulator/v1 on the control mux.
func (s *CloudIntegration) MountControl(mux *http.ServeMux) {
	c := core.ControlBasePath
	mux.HandleFunc("PUT "+c+"/iflows/{id}", s.handleControlPutIFlow)
	mux.HandleFunc("DELETE "+c+"/iflows/{id}", func(w http.ResponseWriter, r *http.Request) {
		if !s.DeleteIFlow(r.PathValue("id")) {
			core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf("There is no integration flow %q.", r.PathValue("id")))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET "+c+"/iflows/{id}/content", func(w http.ResponseWriter, r *http.Request) {
		content := s.IFlowContent(r.PathValue("id"))
		if content == nil {
			core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf("There is no integration flow %q.", r.PathValue("id")))
			return
		}
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(content)
	})
	mux.HandleFunc("GET "+c+"/iflows/{id}/configurations", core.FoundJSON("id", s.IFlowConfigurations, "There is no integration flow %q."))
	mux.HandleFunc("PUT "+c+"/iflows/{id}/configurations/{key}", s.handleControlSetConfiguration)
	mux.HandleFunc("POST "+c+"/iflows/{id}/fail-next-deploy", failNextHandler(s.FailNextDeploy))
	mux.HandleFunc("POST "+c+"/iflows/{id}/fail-next-build", failNextHandler(s.FailNextBuild))
	mux.HandleFunc("GET "+c+"/iflows/{id}/deployed", core.FoundJSON("id", s.Deployed, "Integration flow %q is not deployed."))
	mux.HandleFunc("PUT "+c+"/cloud-integration/deploy-delay", s.handleControlDeployDelay)
	mux.HandleFunc("POST "+c+"/cloud-integration/csrf/invalidate", func(w http.ResponseWriter, _ *http.Request) {
		s.InvalidateCSRFTokens()
		w.WriteHeader(http.StatusNoContent)
	})
}

// readControlJSON decodes a small JSON control body into v.
func readControlJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, cpiMaxBody))
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, "The body is not the expected JSON object: "+err.Error()+".")
		return false
	}
	return true
}

func (s *CloudIntegration) handleControlPutIFlow(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name      string `json:"name"`
		PackageID string `json:"packageId"`
		Content   string `json:"content"`
	}
	if !readControlJSON(w, r, &body) {
		return
	}
	content, err := base64.StdEncoding.DecodeString(body.Content)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, "content is not standard base64; set it to the base64-encoded iFlow archive.")
		return
	}
	if err := s.CreateIFlow(r.PathValue("id"), body.Name, body.PackageID, content); err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *CloudIntegration) handleControlSetConfiguration(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Value *string `json:"value"`
	}
	if !readControlJSON(w, r, &body) {
		return
	}
	if body.Value == nil {
		core.RespondMessage(w, http.StatusBadRequest, `The body has no "value"; send {"value": "..."}.`)
		return
	}
	if err := s.SetConfigurationValue(r.PathValue("id"), r.PathValue("key"), *body.Value); err != nil {
		core.RespondMessage(w, http.StatusNotFound, err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// failNextHandler serves a control request {"error": "..."} that makes the next deploy of the
// flow in the path fail through fail (FailNextDeploy or FailNextBuild).
func failNextHandler(fail func(id, errorText string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Error string `json:"error"`
		}
		if !readControlJSON(w, r, &body) {
			return
		}
		fail(r.PathValue("id"), body.Error)
		w.WriteHeader(http.StatusNoContent)
	}
}

func (s *CloudIntegration) handleControlDeployDelay(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Delay string `json:"delay"`
	}
	if !readControlJSON(w, r, &body) {
		return
	}
	d, err := time.ParseDuration(body.Delay)
	if err != nil || d < 0 {
		core.RespondMessage(w, http.StatusBadRequest, `delay is not a duration; set it like "50ms" or "2s".`)
		return
	}
	s.SetDeployDelay(d)
	w.WriteHeader(http.StatusNoContent)
}

// cpiStateJSON is the Cloud Integration part of the state file.
type cpiStateJSON struct {
	IFlows      map[string]*cpiIFlow   `json:"iflows"`
	Tasks       map[string]*cpiTask    `json:"tasks"`
	Runtimes    map[string]*cpiRuntime `json:"runtimes"`
	DeployDelay *core.JSONDuration     `json:"deployDelay,omitempty"`
}

// marshalState returns the tenant for the state file.
func (c *cpiState) marshalState() (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delay := core.JSONDuration(c.deployDelay)
	return json.Marshal(cpiStateJSON{IFlows: c.iflows, Tasks: c.tasks, Runtimes: c.runtimes, DeployDelay: &delay})
}

// unmarshalState restores the tenant from the state file.
func (c *cpiState) unmarshalState(raw json.RawMessage) error {
	var st cpiStateJSON
	if err := json.Unmarshal(raw, &st); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, f := range st.IFlows {
		if f != nil {
			f.ID = id
			c.iflows[id] = f
		}
	}
	for id, t := range st.Tasks {
		if t != nil {
			t.ID = id
			c.tasks[id] = t
		}
	}
	for id, rt := range st.Runtimes {
		if rt != nil {
			c.runtimes[id] = rt
		}
	}
	if st.DeployDelay != nil && *st.DeployDelay >= 0 {
		c.deployDelay = time.Duration(*st.DeployDelay)
	}
	return nil
}

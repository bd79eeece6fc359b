package integration

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/integration/flowreader"
)

// Limits of the emulated Cloud Integration API.
const (
	cpiMaxBody      = 96 << 20
	cpiMaxSessions  = 10000
	cpiMaxTasks     = 1000
	cpiSessionName  = "JSESSIONID"
	cpiDefaultVer   = "1.0.0"
	cpiActive       = "active"
	cpiDataString   = "xsd:string"
	cpiTypeIFlow    = "INTEGRATION_FLOW"
	cpiEntityPrefix = "com.sap.hci.api."
)

// Status values of build-and-deploy tasks and runtime artifacts.
const (
	cpiTaskDeploying = "DEPLOYING"
	cpiTaskSuccess   = "SUCCESS"
	cpiTaskFail      = "FAIL"
	cpiRunStarting   = "STARTING"
	cpiRunStarted    = "STARTED"
	cpiRunError      = "ERROR"
)

// cpiNamePattern is the rule for integration flow names stated in the API description.
var cpiNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_ .\-]*$`)

func cpiIsWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// serveCPI is the single handler of the Cloud Integration API.
func (s *CloudIntegration) serveCPI(w http.ResponseWriter, r *http.Request) {
	switch s.auth.CheckBearer(r, core.AudienceCloudIntegration) {
	case core.AuthOK:
	case core.AuthWrongAudience:
		w.Header().Set("WWW-Authenticate", `Bearer realm="emulator", error="insufficient_scope"`)
		respondODataError(w, http.StatusForbidden, "The access token was issued to a client that may not call this API; use the credentials of the Cloud Integration service key.")
		return
	default:
		s.auth.Challenge(w, r)
		respondODataError(w, http.StatusUnauthorized, "Full authentication is required to access this resource.")
		return
	}
	c := s.cpi
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && strings.EqualFold(strings.TrimSpace(r.Header.Get("X-CSRF-Token")), "Fetch") {
		c.issueCSRF(w, r)
	}
	if cpiIsWrite(r.Method) && s.Opts.RequireCSRF && !c.validCSRF(r) {
		w.Header().Set("X-CSRF-Token", "Required")
		respondODataError(w, http.StatusForbidden, "CSRF token validation failed")
		return
	}
	req, status, msg := matchCPI(r.Method, cpiRelPath(r), r.URL.Query())
	if status != 0 {
		respondODataError(w, status, msg)
		return
	}
	switch req.op {
	case cpiOpRoot:
		s.cpiRoot(w, r)
	case cpiOpListDesigntime:
		s.cpiListDesigntime(w, r)
	case cpiOpCreateDesigntime:
		s.cpiCreateDesigntime(w, r)
	case cpiOpGetDesigntime:
		s.cpiGetDesigntime(w, r, req)
	case cpiOpUpdateDesigntime:
		s.cpiUpdateDesigntime(w, r, req)
	case cpiOpDeleteDesigntime:
		s.cpiDeleteDesigntime(w, req)
	case cpiOpGetContent:
		s.cpiGetContent(w, req)
	case cpiOpGetConfigurations:
		s.cpiGetConfigurations(w, r, req)
	case cpiOpSetConfiguration:
		s.cpiSetConfiguration(w, r, req)
	case cpiOpDeploy:
		s.cpiDeploy(w, req)
	case cpiOpDeployStatus:
		s.cpiDeployStatus(w, r, req)
	case cpiOpListRuntime:
		s.cpiListRuntime(w, r)
	case cpiOpGetRuntime:
		s.cpiGetRuntime(w, r, req)
	case cpiOpUndeploy:
		s.cpiUndeploy(w, req)
	case cpiOpRuntimeError:
		s.cpiRuntimeError(w, req)
	case cpiOpListMPL:
		s.cpiListMPL(w, r)
	case cpiOpGetMPL:
		s.cpiGetMPL(w, r, req)
	default:
		if !s.runtime.serveJMS(w, r, req) { // jms.go
			respondODataError(w, http.StatusNotFound, "Resource not found.")
		}
	}
}

// issueCSRF answers a fetch: it keeps (or opens) the caller's session and
// returns the session's token in the X-CSRF-Token header.
func (c *cpiState) issueCSRF(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	session := ""
	if ck, err := r.Cookie(cpiSessionName); err == nil {
		if _, ok := c.sessions[ck.Value]; ok {
			session = ck.Value
		}
	}
	if session == "" {
		if len(c.sessions) >= cpiMaxSessions {
			clear(c.sessions)
		}
		session = core.RandomHex(16)
		c.sessions[session] = core.RandomHex(16)
	}
	token := c.sessions[session]
	c.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cpiSessionName, Value: session, Path: "/", HttpOnly: true})
	w.Header().Set("X-CSRF-Token", token)
}

// validCSRF reports whether r carries the CSRF token of its session cookie.
func (c *cpiState) validCSRF(r *http.Request) bool {
	token := strings.TrimSpace(r.Header.Get("X-CSRF-Token"))
	ck, err := r.Cookie(cpiSessionName)
	if token == "" || err != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	want, ok := c.sessions[ck.Value]
	return ok && want == token
}

// invalidateCSRF forgets every session, so that every token is stale.
func (c *cpiState) invalidateCSRF() {
	c.mu.Lock()
	clear(c.sessions)
	c.mu.Unlock()
}

func cpiBaseURI(r *http.Request) string {
	return "http://" + r.Host + core.CloudIntegrationBasePath
}

func (s *CloudIntegration) cpiRoot(w http.ResponseWriter, _ *http.Request) {
	respondOData(w, http.StatusOK, map[string]any{"EntitySets": []string{
		cpiStatusSet, "Configurations", cpiDesigntimeSet, cpiRuntimeSet, "RuntimeArtifactErrorInformations", mplSet,
	}})
}

// Wire shapes of the entities.
type cpiMetadataJSON struct {
	ID          string `json:"id"`
	URI         string `json:"uri"`
	Type        string `json:"type"`
	ContentType string `json:"content_type,omitempty"`
	MediaSrc    string `json:"media_src,omitempty"`
	EditMedia   string `json:"edit_media,omitempty"`
}

// cpiDeferredJSON is an OData v2 deferred navigation property (the design time, runtime and JMS APIs).
type cpiDeferredJSON struct {
	Deferred struct {
		URI string `json:"uri"`
	} `json:"__deferred"`
}

func cpiDeferred(uri string) cpiDeferredJSON {
	var d cpiDeferredJSON
	d.Deferred.URI = uri
	return d
}

type cpiDesigntimeJSON struct {
	Metadata        cpiMetadataJSON `json:"__metadata"`
	ID              string          `json:"Id"`
	Version         string          `json:"Version"`
	PackageID       string          `json:"PackageId"`
	Name            string          `json:"Name"`
	Description     string          `json:"Description"`
	Sender          string          `json:"Sender"`
	Receiver        string          `json:"Receiver"`
	ArtifactContent *string         `json:"ArtifactContent"`
	Configurations  cpiDeferredJSON `json:"Configurations"`
	Resources       cpiDeferredJSON `json:"Resources"`
}

type cpiConfigurationJSON struct {
	Metadata       cpiMetadataJSON `json:"__metadata"`
	ParameterKey   string          `json:"ParameterKey"`
	ParameterValue string          `json:"ParameterValue"`
	DataType       string          `json:"DataType"`
}

type cpiStatusJSON struct {
	Metadata cpiMetadataJSON `json:"__metadata"`
	TaskID   string          `json:"TaskId"`
	Status   string          `json:"Status"`
}

type cpiRuntimeJSON struct {
	Metadata         cpiMetadataJSON `json:"__metadata"`
	ID               string          `json:"Id"`
	Version          string          `json:"Version"`
	Name             string          `json:"Name"`
	Type             string          `json:"Type"`
	DeployedBy       string          `json:"DeployedBy"`
	DeployedOn       string          `json:"DeployedOn"`
	Status           string          `json:"Status"`
	ErrorInformation cpiDeferredJSON `json:"ErrorInformation"`
}

func (f *cpiIFlow) view(base string) cpiDesigntimeJSON {
	uri := base + "/" + cpiDesigntimeSet + "(Id=" + odataLiteral(f.ID) + ",Version=" + odataLiteral(f.Version) + ")"
	return cpiDesigntimeJSON{
		Metadata: cpiMetadataJSON{ID: uri, URI: uri, Type: cpiEntityPrefix + "IntegrationDesigntimeArtifact",
			ContentType: "application/octet-stream", MediaSrc: uri + "/$value", EditMedia: uri + "/$value"},
		ID: f.ID, Version: f.Version, PackageID: f.PackageID, Name: f.Name, Description: f.Description,
		Configurations: cpiDeferred(uri + "/Configurations"), Resources: cpiDeferred(uri + "/Resources"),
	}
}

// odataDate formats t as an OData v2 JSON date, /Date(milliseconds)/.
func odataDate(t time.Time) string {
	return fmt.Sprintf("/Date(%d)/", t.UnixMilli())
}

func (d *cpiDeployment) status(now time.Time) string {
	switch {
	case d.Error != "":
		return cpiRunError
	case now.Before(d.Ready):
		return cpiRunStarting
	}
	return cpiRunStarted
}

func (t *cpiTask) status(now time.Time) string {
	switch {
	case now.Before(t.Ready):
		return cpiTaskDeploying
	case t.Error != "":
		return cpiTaskFail
	}
	return cpiTaskSuccess
}

func (s *CloudIntegration) runtimeView(base, id string, d *cpiDeployment, now time.Time) cpiRuntimeJSON {
	uri := base + "/" + cpiRuntimeSet + "(" + odataLiteral(id) + ")"
	return cpiRuntimeJSON{
		Metadata: cpiMetadataJSON{ID: uri, URI: uri, Type: cpiEntityPrefix + "IntegrationRuntimeArtifact"},
		ID:       id, Version: d.Version, Name: d.Name, Type: cpiTypeIFlow,
		DeployedBy: s.auth.Client(core.AudienceCloudIntegration).ID, DeployedOn: odataDate(d.DeployedOn),
		Status: d.status(now), ErrorInformation: cpiDeferred(uri + "/ErrorInformation"),
	}
}

// iflowLocked returns the flow addressed by id and version ('active' or the
// current version), or nil.
func (c *cpiState) iflowLocked(id, version string) *cpiIFlow {
	f := c.iflows[id]
	if f == nil {
		return nil
	}
	if strings.EqualFold(version, cpiActive) || version == f.Version {
		return f
	}
	return nil
}

// runtimeLocked returns the deployment in force for id at now, promoting a
// finished build, or nil when nothing is deployed.
func (c *cpiState) runtimeLocked(id string, now time.Time) *cpiDeployment {
	rt := c.runtimes[id]
	if rt == nil {
		return nil
	}
	if rt.Next != nil && !now.Before(rt.Next.TaskReady) {
		rt.Current, rt.Next = rt.Next, nil
	}
	return rt.Current
}

func cpiNotFoundDesigntime(w http.ResponseWriter) {
	respondODataError(w, http.StatusNotFound, "Integration design time artifact not found")
}

func (s *CloudIntegration) cpiListDesigntime(w http.ResponseWriter, r *http.Request) {
	c := s.cpi
	c.mu.Lock()
	ids := slices.Sorted(maps.Keys(c.iflows))
	out := make([]cpiDesigntimeJSON, 0, len(ids))
	for _, id := range ids {
		out = append(out, c.iflows[id].view(cpiBaseURI(r)))
	}
	c.mu.Unlock()
	respondOData(w, http.StatusOK, map[string]any{"results": out})
}

func (s *CloudIntegration) cpiGetDesigntime(w http.ResponseWriter, r *http.Request, req cpiRequest) {
	c := s.cpi
	c.mu.Lock()
	f := c.iflowLocked(req.id, req.version)
	var v cpiDesigntimeJSON
	if f != nil {
		v = f.view(cpiBaseURI(r))
	}
	c.mu.Unlock()
	if f == nil {
		cpiNotFoundDesigntime(w)
		return
	}
	respondOData(w, http.StatusOK, v)
}

// readCPIBody reads a JSON object body into a map of raw values.
func readCPIBody(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, cpiMaxBody))
	if err != nil {
		respondODataError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("The request body is larger than %d bytes.", cpiMaxBody))
		return nil, false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		respondODataError(w, http.StatusBadRequest, "Bad request - the body is not a JSON object.")
		return nil, false
	}
	return m, true
}

// cpiStringField reads an optional string member; null counts as absent.
func cpiStringField(m map[string]json.RawMessage, key string) (string, bool, error) {
	raw, ok := m[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return "", false, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false, fmt.Errorf("the member %q is not a string", key)
	}
	return v, true, nil
}

// decodeArtifactContent decodes base64 (standard or URL alphabet, padded
// or not) and checks that the result is an integration flow archive.
func decodeArtifactContent(text string) ([]byte, *flowreader.Archive, error) {
	text = strings.Join(strings.Fields(text), "")
	var data []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if data, err = enc.DecodeString(text); err == nil {
			break
		}
	}
	if err != nil {
		return nil, nil, errors.New("ArtifactContent is not base64-encoded")
	}
	art, err := flowreader.ReadArchive(data)
	if err != nil {
		return nil, nil, fmt.Errorf("ArtifactContent is not an integration flow archive: %v", err)
	}
	return data, art, nil
}

// checkSymbolicName refuses an archive whose manifest names another bundle
// than the artifact id it is uploaded as. Assumed: SAP documents no such
// answer, but a tenant identifies an integration flow's bundle by its
// Bundle-SymbolicName, and community CI/CD tools (flashpipe's "update
// artifact") rewrite Bundle-SymbolicName to the artifact id before they
// upload, because a mismatched archive does not import as that artifact. The
// emulator refuses it, never being more lenient than a tenant.
func checkSymbolicName(id string, art *flowreader.Archive) string {
	sym, _, _ := strings.Cut(art.Manifest["Bundle-SymbolicName"], ";")
	if sym = strings.TrimSpace(sym); sym != id {
		return fmt.Sprintf("Bad request - the archive's META-INF/MANIFEST.MF has Bundle-SymbolicName %q, which does not match the artifact ID %q. Set Bundle-SymbolicName to %q.", sym, id, id)
	}
	return ""
}

func artifactVersion(art *flowreader.Archive) string {
	if v := strings.TrimSpace(art.Manifest["Bundle-Version"]); v != "" {
		return v
	}
	return cpiDefaultVer
}

// badIFlowName returns the tenant's message for an invalid flow name, "" for a valid one.
func badIFlowName(name string) string {
	if !cpiNamePattern.MatchString(name) || strings.HasSuffix(name, ".") {
		return "Name should begin with alphabet or underscore (_) and can also contain numbers, space, period(.) or hyphen(-). But it should not end with period(.)"
	}
	return ""
}

func (s *CloudIntegration) cpiCreateDesigntime(w http.ResponseWriter, r *http.Request) {
	m, ok := readCPIBody(w, r)
	if !ok {
		return
	}
	fields := map[string]string{}
	for _, k := range []string{"Id", "Name", "PackageId", "ArtifactContent", "Description"} {
		v, _, err := cpiStringField(m, k)
		if err != nil {
			respondODataError(w, http.StatusBadRequest, "Bad request - "+err.Error()+".")
			return
		}
		fields[k] = v
	}
	for _, k := range []string{"Id", "Name", "PackageId"} {
		if strings.TrimSpace(fields[k]) == "" {
			respondODataError(w, http.StatusBadRequest, fmt.Sprintf("Bad request - %s is required.", k))
			return
		}
	}
	if msg := badIFlowName(fields["Name"]); msg != "" {
		respondODataError(w, http.StatusBadRequest, msg)
		return
	}
	content := emptyIFlowZip(fields["Id"])
	version := cpiDefaultVer
	if fields["ArtifactContent"] != "" {
		data, art, err := decodeArtifactContent(fields["ArtifactContent"])
		if err != nil {
			respondODataError(w, http.StatusBadRequest, "Bad request - "+err.Error()+".")
			return
		}
		if msg := checkSymbolicName(fields["Id"], art); msg != "" {
			respondODataError(w, http.StatusBadRequest, msg)
			return
		}
		content, version = data, artifactVersion(art)
	}
	f := &cpiIFlow{ID: fields["Id"], Name: fields["Name"], PackageID: fields["PackageId"], Version: version,
		Description: fields["Description"], Content: content}
	c := s.cpi
	c.mu.Lock()
	if existing := c.iflows[f.ID]; existing != nil {
		c.mu.Unlock()
		respondODataError(w, http.StatusInternalServerError, fmt.Sprintf("An integration flow %s with the ID %s already exists in the %s package. Please rename the artifact ID.", existing.Name, existing.ID, existing.PackageID))
		return
	}
	c.iflows[f.ID] = f
	v := f.view(cpiBaseURI(r))
	c.mu.Unlock()
	s.SaveState()
	respondOData(w, http.StatusCreated, v)
}

func (s *CloudIntegration) cpiUpdateDesigntime(w http.ResponseWriter, r *http.Request, req cpiRequest) {
	m, ok := readCPIBody(w, r)
	if !ok {
		return
	}
	name, hasName, err := cpiStringField(m, "Name")
	if err != nil {
		respondODataError(w, http.StatusBadRequest, "Bad request - "+err.Error()+".")
		return
	}
	if msg := badIFlowName(name); hasName && msg != "" {
		respondODataError(w, http.StatusBadRequest, msg)
		return
	}
	text, hasContent, err := cpiStringField(m, "ArtifactContent")
	if err != nil {
		respondODataError(w, http.StatusBadRequest, "Bad request - "+err.Error()+".")
		return
	}
	var content []byte
	var art *flowreader.Archive
	if hasContent {
		if content, art, err = decodeArtifactContent(text); err != nil {
			respondODataError(w, http.StatusBadRequest, "Bad request - "+err.Error()+".")
			return
		}
	}
	if !hasName && !hasContent {
		respondODataError(w, http.StatusBadRequest, "Bad request - set Name, ArtifactContent or both.")
		return
	}
	c := s.cpi
	c.mu.Lock()
	f := c.iflowLocked(req.id, req.version)
	if f == nil {
		c.mu.Unlock()
		cpiNotFoundDesigntime(w)
		return
	}
	if hasContent {
		// The upload replaces the whole design-time content, parameters.prop
		// included: the externalized parameters' configured values become the
		// uploaded ones, or none when the archive has no parameters.prop. SAP
		// documents that configuring a parameter (Configurations, PUT
		// IntegrationDesigntimeArtifacts(...)/$links/Configurations('KEY'))
		// changes the design-time artifact, and that an update of the artifact
		// replaces its content; that the values go with it is assumed from
		// these two (no SAP page says it in one sentence).
		if msg := checkSymbolicName(f.ID, art); msg != "" {
			c.mu.Unlock()
			respondODataError(w, http.StatusBadRequest, msg)
			return
		}
		f.Content = content
		f.Version = artifactVersion(art)
		if !hasName {
			if n := strings.TrimSpace(art.Manifest["Bundle-Name"]); n != "" {
				f.Name = n
			}
		}
	}
	if hasName {
		f.Name = name
	}
	c.mu.Unlock()
	s.SaveState()
	w.WriteHeader(http.StatusOK)
}

func (s *CloudIntegration) cpiDeleteDesigntime(w http.ResponseWriter, req cpiRequest) {
	c := s.cpi
	c.mu.Lock()
	f := c.iflowLocked(req.id, req.version)
	if f != nil {
		delete(c.iflows, f.ID)
	}
	c.mu.Unlock()
	if f == nil {
		cpiNotFoundDesigntime(w)
		return
	}
	s.SaveState()
	w.WriteHeader(http.StatusOK)
}

func (s *CloudIntegration) cpiGetContent(w http.ResponseWriter, req cpiRequest) {
	c := s.cpi
	c.mu.Lock()
	var content []byte
	f := c.iflowLocked(req.id, req.version)
	if f != nil {
		content = bytes.Clone(f.Content)
	}
	c.mu.Unlock()
	if f == nil {
		cpiNotFoundDesigntime(w)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+strings.NewReplacer(`"`, "", "\r", "", "\n", "").Replace(req.id)+`.zip"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(content)
}

// cpiConfiguration is one externalized parameter of a flow.
type cpiConfiguration struct {
	Key, Value, DataType string
}

// configurations lists the externalized parameters of f: the keys of
// parameters.prop and parameters.propdef, sorted.
func (f *cpiIFlow) configurations() ([]cpiConfiguration, error) {
	art, err := flowreader.ReadArchive(f.Content)
	if err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for k := range art.Params {
		keys[k] = true
	}
	for k := range art.ParamTypes {
		keys[k] = true
	}
	out := make([]cpiConfiguration, 0, len(keys))
	for k := range keys {
		dt := f.DataTypes[k]
		if dt == "" {
			dt = art.ParamTypes[k]
		}
		if dt == "" {
			dt = cpiDataString
		}
		out = append(out, cpiConfiguration{Key: k, Value: art.Params[k], DataType: dt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func (s *CloudIntegration) cpiGetConfigurations(w http.ResponseWriter, r *http.Request, req cpiRequest) {
	c := s.cpi
	c.mu.Lock()
	f := c.iflowLocked(req.id, req.version)
	var list []cpiConfiguration
	var err error
	var prefix string
	if f != nil {
		list, err = f.configurations()
		prefix = cpiBaseURI(r) + "/" + cpiDesigntimeSet + "(Id=" + odataLiteral(f.ID) + ",Version=" + odataLiteral(f.Version) + ")/Configurations("
	}
	c.mu.Unlock()
	if f == nil {
		cpiNotFoundDesigntime(w)
		return
	}
	if err != nil {
		respondODataError(w, http.StatusInternalServerError, "The integration flow content cannot be read: "+err.Error())
		return
	}
	out := make([]cpiConfigurationJSON, 0, len(list))
	for _, cf := range list {
		uri := prefix + odataLiteral(cf.Key) + ")"
		out = append(out, cpiConfigurationJSON{
			Metadata:     cpiMetadataJSON{ID: uri, URI: uri, Type: cpiEntityPrefix + "Configuration"},
			ParameterKey: cf.Key, ParameterValue: cf.Value, DataType: cf.DataType,
		})
	}
	respondOData(w, http.StatusOK, map[string]any{"results": out})
}

// setParameter sets one parameter value in f's parameters.prop.
// With requireKnown, an unknown key is an error.
func (f *cpiIFlow) setParameter(key, value, dataType string, requireKnown bool) (known bool, err error) {
	if requireKnown {
		art, err := flowreader.ReadArchive(f.Content)
		if err != nil {
			return false, err
		}
		_, inProp := art.Params[key]
		_, inDef := art.ParamTypes[key]
		if !inProp && !inDef {
			return false, nil
		}
	}
	content, err := flowreader.SetParameters(f.Content, key, value)
	if err != nil {
		return true, err
	}
	f.Content = content
	if dataType != "" {
		if f.DataTypes == nil {
			f.DataTypes = map[string]string{}
		}
		f.DataTypes[key] = dataType
	}
	return true, nil
}

func (s *CloudIntegration) cpiSetConfiguration(w http.ResponseWriter, r *http.Request, req cpiRequest) {
	m, ok := readCPIBody(w, r)
	if !ok {
		return
	}
	value, hasValue, err1 := cpiStringField(m, "ParameterValue")
	dataType, _, err2 := cpiStringField(m, "DataType")
	if err1 != nil || err2 != nil || !hasValue {
		respondODataError(w, http.StatusBadRequest, "Bad request - wrong body format for the expected parameter value: set ParameterValue to a string.")
		return
	}
	c := s.cpi
	c.mu.Lock()
	f := c.iflowLocked(req.id, req.version)
	if f == nil {
		c.mu.Unlock()
		cpiNotFoundDesigntime(w)
		return
	}
	known, err := f.setParameter(req.key, value, dataType, true)
	c.mu.Unlock()
	switch {
	case err != nil:
		respondODataError(w, http.StatusInternalServerError, "The configuration cannot be saved: "+err.Error())
		return
	case !known:
		respondODataError(w, http.StatusNotFound, fmt.Sprintf("Parameter key '%s' not found.", req.key))
		return
	}
	s.SaveState()
	w.WriteHeader(http.StatusAccepted)
}

func (s *CloudIntegration) cpiDeploy(w http.ResponseWriter, req cpiRequest) {
	c := s.cpi
	now := s.Now()
	c.mu.Lock()
	f := c.iflowLocked(req.id, req.version)
	if f == nil {
		c.mu.Unlock()
		respondODataError(w, http.StatusBadRequest, fmt.Sprintf("No content for id '%s'.", req.id))
		return
	}
	if buildError, ok := c.failBuild[f.ID]; ok {
		// A build that fails hands nothing to the runtime: the task ends in FAIL and the runtime
		// artifact keeps running what it ran before (assumed: SAP builds the artifact before it
		// replaces the deployed one, and documents no undeploy on a failed build; see doc.go).
		delete(c.failBuild, f.ID)
		task := &cpiTask{ID: core.RandomUUID(), IFlowID: f.ID, Started: now, Ready: now.Add(c.deployDelay), Error: buildError}
		c.pruneTasksLocked()
		c.tasks[task.ID] = task
		c.mu.Unlock()
		s.SaveState()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, task.ID)
		return
	}
	task := c.deployLocked(f, now, c.deployDelay)
	c.mu.Unlock()
	s.SaveState()
	s.runtime.KickRuntime()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusAccepted)
	_, _ = io.WriteString(w, task.ID)
}

// deployLocked starts a build-and-deploy task of flow f at now: the task
// stays DEPLOYING for delay, the runtime artifact then STARTING as long
// again, and a delay of 0 makes it STARTED at once. The caller holds c.mu.
func (c *cpiState) deployLocked(f *cpiIFlow, now time.Time, delay time.Duration) *cpiTask {
	failText, forced := c.failNext[f.ID]
	delete(c.failNext, f.ID)
	params := map[string]string{}
	art, err := flowreader.ReadArchive(f.Content)
	switch {
	case err != nil && !forced:
		failText = "Validation of the artifact failed: " + err.Error()
	case err == nil:
		params = art.ParameterValues(nil)
	}
	taskReady := now.Add(delay)
	task := &cpiTask{ID: core.RandomUUID(), IFlowID: f.ID, Started: now, Ready: taskReady, Error: failText}
	c.pruneTasksLocked()
	c.tasks[task.ID] = task
	rt := c.runtimes[f.ID]
	if rt == nil {
		rt = &cpiRuntime{}
		c.runtimes[f.ID] = rt
	}
	c.runtimeLocked(f.ID, now)
	rt.Next = &cpiDeployment{
		TaskID: task.ID, Name: f.Name, Version: f.Version, DeployedOn: now,
		TaskReady: taskReady, Ready: taskReady.Add(delay), Error: failText,
		Content: bytes.Clone(f.Content), Parameters: params,
	}
	return task
}

// pruneTasksLocked drops the oldest tasks when there are too many.
func (c *cpiState) pruneTasksLocked() {
	if len(c.tasks) < cpiMaxTasks {
		return
	}
	all := make([]*cpiTask, 0, len(c.tasks))
	for _, t := range c.tasks {
		all = append(all, t)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Started.Before(all[j].Started) })
	for _, t := range all[:len(all)-cpiMaxTasks/2] {
		delete(c.tasks, t.ID)
	}
}

func (s *CloudIntegration) cpiDeployStatus(w http.ResponseWriter, r *http.Request, req cpiRequest) {
	c := s.cpi
	now := s.Now()
	c.mu.Lock()
	t := c.tasks[req.taskID]
	var status string
	if t != nil {
		status = t.status(now)
	}
	c.mu.Unlock()
	if t == nil {
		respondODataError(w, http.StatusNotFound, fmt.Sprintf("Cannot get build and deploy status for artifact with TaskId '%s'.", req.taskID))
		return
	}
	uri := cpiBaseURI(r) + "/" + cpiStatusSet + "(" + odataLiteral(t.ID) + ")"
	respondOData(w, http.StatusOK, cpiStatusJSON{
		Metadata: cpiMetadataJSON{ID: uri, URI: uri, Type: cpiEntityPrefix + "BuildAndDeployStatus"},
		TaskID:   t.ID, Status: status,
	})
}

func (s *CloudIntegration) cpiListRuntime(w http.ResponseWriter, r *http.Request) {
	c := s.cpi
	now := s.Now()
	c.mu.Lock()
	ids := slices.Sorted(maps.Keys(c.runtimes))
	out := []cpiRuntimeJSON{}
	for _, id := range ids {
		if d := c.runtimeLocked(id, now); d != nil {
			out = append(out, s.runtimeView(cpiBaseURI(r), id, d, now))
		}
	}
	c.mu.Unlock()
	respondOData(w, http.StatusOK, map[string]any{"results": out})
}

func cpiNotDeployed(w http.ResponseWriter) {
	respondODataError(w, http.StatusNotFound, "Requested entity could not be found.")
}

func (s *CloudIntegration) cpiGetRuntime(w http.ResponseWriter, r *http.Request, req cpiRequest) {
	c := s.cpi
	now := s.Now()
	c.mu.Lock()
	d := c.runtimeLocked(req.id, now)
	var v cpiRuntimeJSON
	if d != nil {
		v = s.runtimeView(cpiBaseURI(r), req.id, d, now)
	}
	c.mu.Unlock()
	if d == nil {
		cpiNotDeployed(w)
		return
	}
	respondOData(w, http.StatusOK, v)
}

func (s *CloudIntegration) cpiUndeploy(w http.ResponseWriter, req cpiRequest) {
	c := s.cpi
	c.mu.Lock()
	rt := c.runtimes[req.id]
	found := rt != nil && (rt.Current != nil || rt.Next != nil)
	delete(c.runtimes, req.id)
	c.mu.Unlock()
	if !found {
		cpiNotDeployed(w)
		return
	}
	s.SaveState()
	s.runtime.KickRuntime()
	w.WriteHeader(http.StatusAccepted)
}

// cpiErrorInformation is the error document of a failed deployment.
type cpiErrorInformation struct {
	Message struct {
		SubsystemName     string `json:"subsystemName"`
		SubsystemPartName string `json:"subsystemPartName"`
		MessageID         string `json:"messageId"`
		MessageText       string `json:"messageText"`
	} `json:"message"`
	Parameter             []string `json:"parameter"`
	AdditionalInformation []string `json:"additionalInformation"`
	ChildInstances        []any    `json:"childInstances"`
}

func (s *CloudIntegration) cpiRuntimeError(w http.ResponseWriter, req cpiRequest) {
	c := s.cpi
	now := s.Now()
	c.mu.Lock()
	d := c.runtimeLocked(req.id, now)
	var text string
	if d != nil {
		text = d.Error
	}
	c.mu.Unlock()
	if d == nil {
		cpiNotDeployed(w)
		return
	}
	if text == "" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	var info cpiErrorInformation
	info.Message.SubsystemName = "IFLMAP"
	info.Message.SubsystemPartName = "Deployment"
	info.Message.MessageID = "RUNTIME_ARTIFACT_DEPLOYMENT_FAILED"
	info.Message.MessageText = text
	info.Parameter = []string{text}
	info.AdditionalInformation = []string{}
	info.ChildInstances = []any{}
	core.RespondJSON(w, http.StatusOK, info)
}

// emptyIFlowZip returns the archive of a new, empty integration flow.
func emptyIFlowZip(id string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 {
			return '_'
		}
		return r
	}, id)
	add := func(entry, content string) {
		fw, _ := zw.Create(entry)
		_, _ = io.WriteString(fw, content)
	}
	add(flowreader.ManifestPath, "Manifest-Version: 1.0\r\nBundle-ManifestVersion: 2\r\nBundle-Name: "+name+
		"\r\nBundle-SymbolicName: "+name+"; singleton:=true\r\nBundle-Version: "+cpiDefaultVer+"\r\nSAP-BundleType: IntegrationFlow\r\n\r\n")
	add(flowreader.IflwDir+name+".iflw", `<?xml version="1.0" encoding="UTF-8"?><bpmn2:definitions xmlns:bpmn2="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:ifl="http:///com.sap.ifl.model/Ifl.xsd" id="Definitions_1">`+
		"\n    <bpmn2:collaboration id=\"Collaboration_1\" name=\"Default Collaboration\"/>\n</bpmn2:definitions>\n")
	add(flowreader.ParametersPath, "#Store parameters\n")
	_ = zw.Close()
	return buf.Bytes()
}

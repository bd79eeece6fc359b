package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// DefaultDeployDelay is how long an emulated deploy stays DEPLOYING; the
// runtime artifact then stays STARTING for the same time again.
const DefaultDeployDelay = 50 * time.Millisecond

// cloudIntegration is the room of the Cloud Integration tenant's design time
// and deploy API: the OData API (integration flows, their configurations,
// deploy and undeploy, runtime artifacts, message processing logs), its CSRF
// check and its control endpoints. The tenant's content is cpiState, under
// its own lock; the deployed flows run in the integration runtime room,
// which it asks to look at the deployments after each change and whose
// processing logs it serves.
type cloudIntegration struct {
	*core
	auth    *tokenService
	cpi     *cpiState
	runtime *integrationRuntime
}

// cpiState holds the emulated Cloud Integration tenant.
type cpiState struct {
	mu       sync.Mutex
	iflows   map[string]*cpiIFlow
	tasks    map[string]*cpiTask
	runtimes map[string]*cpiRuntime
	failNext map[string]string
	// failBuild holds the flows whose next deploy fails in its build: the task ends in FAIL and
	// the runtime keeps what it ran before.
	failBuild   map[string]string
	deployDelay time.Duration
	// sessions maps a session cookie value to its CSRF token.
	sessions map[string]string
}

// cpiIFlow is one integration flow in the design time workspace.
type cpiIFlow struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	PackageID   string            `json:"packageId"`
	Version     string            `json:"version"`
	Description string            `json:"description,omitempty"`
	Content     []byte            `json:"content"`
	DataTypes   map[string]string `json:"dataTypes,omitempty"`
}

// cpiTask is one build-and-deploy task.
type cpiTask struct {
	ID      string    `json:"id"`
	IFlowID string    `json:"iflowId"`
	Started time.Time `json:"started"`
	Ready   time.Time `json:"ready"`
	Error   string    `json:"error,omitempty"`
}

// cpiDeployment is what one deploy put (or puts) into the runtime: the
// content and parameter values of the design time artifact at deploy time,
// and DeployedOn, the time of that deploy (IntegrationRuntimeArtifact.DeployedOn
// of specs/IntegrationContent.json). An upload of the design time, under the
// same version or a new one, changes neither until the next deploy: changes
// take effect only after a redeploy (reference note sap-apis.md, section 2).
type cpiDeployment struct {
	TaskID     string            `json:"taskId"`
	Name       string            `json:"name"`
	Version    string            `json:"version"`
	DeployedOn time.Time         `json:"deployedOn"`
	TaskReady  time.Time         `json:"taskReady"`
	Ready      time.Time         `json:"ready"`
	Error      string            `json:"error,omitempty"`
	Content    []byte            `json:"content"`
	Parameters map[string]string `json:"parameters"`
}

// cpiRuntime is the runtime artifact of one flow: the deployment in force
// and one still being built.
type cpiRuntime struct {
	Current *cpiDeployment `json:"current,omitempty"`
	Next    *cpiDeployment `json:"next,omitempty"`
}

func newCPIState() *cpiState {
	return &cpiState{
		iflows:      map[string]*cpiIFlow{},
		tasks:       map[string]*cpiTask{},
		runtimes:    map[string]*cpiRuntime{},
		failNext:    map[string]string{},
		failBuild:   map[string]string{},
		deployDelay: DefaultDeployDelay,
		sessions:    map[string]string{},
	}
}

// mountCloudIntegration registers the Cloud Integration OData API under /api/v1.
// One handler serves the whole API because OData key predicates such as
// (Id='X',Version='active') do not fit mux patterns.
func (s *cloudIntegration) mountCloudIntegration(mux *http.ServeMux) {
	base := CloudIntegrationBasePath
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		s.route(mux, m, base, m+" "+base+"/", s.serveCPI)
		s.route(mux, m, base+"/{path...}", m+" "+base+"/(unknown resource)", s.serveCPI)
	}
}

// routeLabel names the Cloud Integration operation of r for the statistics,
// for example "GET /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$value".
func (c *cpiState) routeLabel(r *http.Request) string {
	req, status, _ := matchCPI(r.Method, cpiRelPath(r), r.URL.Query())
	if status != 0 {
		return ""
	}
	return r.Method + " " + CloudIntegrationBasePath + "/" + req.resource
}

// cpiOp is one operation of the emulated API.
type cpiOp int

const (
	cpiOpRoot cpiOp = iota + 1
	cpiOpListDesigntime
	cpiOpCreateDesigntime
	cpiOpGetDesigntime
	cpiOpUpdateDesigntime
	cpiOpDeleteDesigntime
	cpiOpGetContent
	cpiOpGetConfigurations
	cpiOpSetConfiguration
	cpiOpDeploy
	cpiOpDeployStatus
	cpiOpListRuntime
	cpiOpGetRuntime
	cpiOpUndeploy
	cpiOpRuntimeError
	cpiOpListMPL
	cpiOpGetMPL
)

// cpiRequest is a matched request.
type cpiRequest struct {
	op cpiOp
	// resource is the path template, e.g. "IntegrationRuntimeArtifacts(Id)".
	resource string
	id       string
	version  string
	key      string
	taskID   string
}

// Entity sets of the emulated API.
const (
	cpiDesigntimeSet = "IntegrationDesigntimeArtifacts"
	cpiRuntimeSet    = "IntegrationRuntimeArtifacts"
	cpiDeployAction  = "DeployIntegrationDesigntimeArtifact"
	cpiStatusSet     = "BuildAndDeployStatus"
)

func cpiRelPath(r *http.Request) string {
	p := strings.TrimPrefix(r.URL.Path, CloudIntegrationBasePath)
	return strings.TrimPrefix(p, "/")
}

// matchCPI maps a method and a decoded resource path to an operation. When
// it cannot, it returns the HTTP status and message of the error answer.
func matchCPI(method, rel string, query url.Values) (cpiRequest, int, string) {
	if method == http.MethodHead {
		method = http.MethodGet
	}
	segs, err := parseODataPath(rel)
	if err != nil {
		return cpiRequest{}, http.StatusBadRequest, "Invalid resource path: " + strings.TrimPrefix(err.Error(), errODataSyntax.Error()+": ") + "."
	}
	allow := func(req cpiRequest, ops map[string]cpiOp) (cpiRequest, int, string) {
		op, ok := ops[method]
		if !ok {
			return cpiRequest{}, http.StatusMethodNotAllowed, "The method " + method + " is not allowed on " + req.resource + "."
		}
		req.op = op
		return req, 0, ""
	}
	notFound := func() (cpiRequest, int, string) {
		return cpiRequest{}, http.StatusNotFound, "Resource not found for the segment '" + rel + "'."
	}
	if len(segs) == 0 {
		return allow(cpiRequest{resource: ""}, map[string]cpiOp{http.MethodGet: cpiOpRoot})
	}
	first := segs[0]
	switch first.Name {
	case cpiDesigntimeSet:
		if !first.HasKey {
			if len(segs) != 1 {
				return notFound()
			}
			return allow(cpiRequest{resource: cpiDesigntimeSet},
				map[string]cpiOp{http.MethodGet: cpiOpListDesigntime, http.MethodPost: cpiOpCreateDesigntime})
		}
		id, okID := first.keyValue("Id", false)
		version, okVersion := first.keyValue("Version", false)
		if !okID || !okVersion || len(first.Keys) != 2 {
			return cpiRequest{}, http.StatusBadRequest, "Invalid key predicate: an integration flow is addressed as IntegrationDesigntimeArtifacts(Id='...',Version='...')."
		}
		req := cpiRequest{id: id, version: version, resource: cpiDesigntimeSet + "(Id,Version)"}
		switch {
		case len(segs) == 1:
			return allow(req, map[string]cpiOp{http.MethodGet: cpiOpGetDesigntime, http.MethodPut: cpiOpUpdateDesigntime, http.MethodDelete: cpiOpDeleteDesigntime})
		case len(segs) == 2 && segs[1].Name == "$value" && !segs[1].HasKey:
			req.resource += "/$value"
			return allow(req, map[string]cpiOp{http.MethodGet: cpiOpGetContent})
		case len(segs) == 2 && segs[1].Name == "Configurations" && !segs[1].HasKey:
			req.resource += "/Configurations"
			return allow(req, map[string]cpiOp{http.MethodGet: cpiOpGetConfigurations})
		case len(segs) == 3 && segs[1].Name == "$links" && !segs[1].HasKey && segs[2].Name == "Configurations" && segs[2].HasKey:
			key, ok := segs[2].keyValue("ParameterKey", true)
			if !ok {
				return cpiRequest{}, http.StatusBadRequest, "Invalid key predicate: a configuration is addressed as Configurations('KEY')."
			}
			req.key = key
			req.resource += "/$links/Configurations(ParameterKey)"
			return allow(req, map[string]cpiOp{http.MethodPut: cpiOpSetConfiguration})
		}
		return notFound()
	case cpiDeployAction:
		if first.HasKey || len(segs) != 1 {
			return notFound()
		}
		req := cpiRequest{resource: cpiDeployAction}
		if method == http.MethodPost {
			id, err1 := parseODataQuoted(query.Get("Id"))
			version, err2 := parseODataQuoted(query.Get("Version"))
			if err1 != nil || err2 != nil {
				return cpiRequest{}, http.StatusBadRequest, "Bad request - wrong Id or version or single quotes are missing."
			}
			req.id, req.version = id, version
		}
		return allow(req, map[string]cpiOp{http.MethodPost: cpiOpDeploy})
	case cpiStatusSet:
		if !first.HasKey || len(segs) != 1 {
			return notFound()
		}
		task, ok := first.keyValue("TaskId", true)
		if !ok || task == "" {
			return cpiRequest{}, http.StatusBadRequest, "You have specified an incorrect URI or the TaskId is empty."
		}
		return allow(cpiRequest{resource: cpiStatusSet + "(TaskId)", taskID: task}, map[string]cpiOp{http.MethodGet: cpiOpDeployStatus})
	case mplSet:
		if !first.HasKey {
			if len(segs) != 1 {
				return notFound()
			}
			return allow(cpiRequest{resource: mplSet}, map[string]cpiOp{http.MethodGet: cpiOpListMPL})
		}
		guid, ok := first.keyValue("MessageGuid", true)
		if !ok || len(segs) != 1 {
			return notFound()
		}
		return allow(cpiRequest{resource: mplSet + "(MessageGuid)", id: guid}, map[string]cpiOp{http.MethodGet: cpiOpGetMPL})
	case cpiRuntimeSet:
		if !first.HasKey {
			if len(segs) != 1 {
				return notFound()
			}
			return allow(cpiRequest{resource: cpiRuntimeSet}, map[string]cpiOp{http.MethodGet: cpiOpListRuntime})
		}
		id, ok := first.keyValue("Id", true)
		if !ok {
			return cpiRequest{}, http.StatusBadRequest, "Invalid key predicate: a runtime artifact is addressed as IntegrationRuntimeArtifacts('ID')."
		}
		req := cpiRequest{id: id, resource: cpiRuntimeSet + "(Id)"}
		switch {
		case len(segs) == 1:
			return allow(req, map[string]cpiOp{http.MethodGet: cpiOpGetRuntime, http.MethodDelete: cpiOpUndeploy})
		case len(segs) == 3 && segs[1].Name == "ErrorInformation" && !segs[1].HasKey && segs[2].Name == "$value" && !segs[2].HasKey:
			req.resource += "/ErrorInformation/$value"
			return allow(req, map[string]cpiOp{http.MethodGet: cpiOpRuntimeError})
		}
		return notFound()
	}
	if req, ok := matchJMS(segs); ok { // jms.go
		return allow(req, map[string]cpiOp{http.MethodGet: req.op})
	}
	return notFound()
}

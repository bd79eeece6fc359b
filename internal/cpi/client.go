// Package cpi is a client of the SAP Cloud Integration OData API (plan
// "api" of the Process Integration Runtime) for the calls the provider
// needs: integration flow content and externalized parameters, deployment
// and runtime state, and the retry settings of AMQP sender channels.
//
// OData answers are decoded tolerantly: single entities as {"d":{...}},
// collections as {"d":{"results":[...]}}, with null and absent members
// alike. Key values are quoted OData literals with quotes doubled and the
// rest percent-encoded.
package cpi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// CSRFFetchPath is the path a CSRF token is fetched from; set it as
// httpx.Config.CSRFFetchPath of the client passed to New.
const CSRFFetchPath = "/api/v1/"

// BasePath is the path of the OData service below the tenant URL.
const BasePath = "/api/v1"

// ActiveVersion addresses the current version of a design time artifact.
const ActiveVersion = "active"

// ErrNotFound is matched (errors.Is) by errors for answers 404 Not Found:
// no such integration flow, configuration key, task, or runtime artifact.
var ErrNotFound = errors.New("not found")

// notFoundError is a 404 answer; it matches ErrNotFound.
type notFoundError struct{ api *httpx.APIError }

func (e *notFoundError) Error() string        { return e.api.Error() }
func (e *notFoundError) Unwrap() error        { return e.api }
func (e *notFoundError) Is(target error) bool { return target == ErrNotFound }

// Client calls the Cloud Integration OData API.
type Client struct {
	h *httpx.Client
}

// New returns a Client sending through h, whose base URL is the tenant URL
// (the "url" of the service key, without /api/v1).
func New(h *httpx.Client) *Client { return &Client{h: h} }

// Artifact is the metadata of an integration flow in the design time workspace.
type Artifact struct {
	ID          string
	Version     string
	PackageID   string
	Name        string
	Description string
}

// Configuration is one externalized parameter of an integration flow.
type Configuration struct {
	Key      string
	Value    string
	DataType string
}

// RuntimeArtifact is the deployed state of an integration flow.
type RuntimeArtifact struct {
	ID         string
	Version    string
	Name       string
	Type       string
	DeployedBy string
	// DeployedOn is the time as the tenant writes it, e.g. "/Date(1521463557739)/".
	DeployedOn string
	// Status is STARTING, STARTED, ERROR or STOPPING.
	Status string
}

// Deploy task and runtime states.
const (
	TaskDeploying   = "DEPLOYING"
	TaskSuccess     = "SUCCESS"
	TaskFail        = "FAIL"
	RuntimeStarted  = "STARTED"
	RuntimeStarting = "STARTING"
	RuntimeError    = "ERROR"
)

func versionOrActive(v string) string {
	if strings.TrimSpace(v) == "" {
		return ActiveVersion
	}
	return v
}

func designtimePath(id, version string) string {
	return BasePath + "/IntegrationDesigntimeArtifacts(Id=" + KeyLiteral(id) + ",Version=" + KeyLiteral(versionOrActive(version)) + ")"
}

func runtimePath(id string) string {
	return BasePath + "/IntegrationRuntimeArtifacts(" + KeyLiteral(id) + ")"
}

// call sends one request and returns the answer when its status is one of
// ok; other answers become errors (404 ones match ErrNotFound).
func (c *Client) call(ctx context.Context, method, path string, body []byte, header http.Header, ok ...int) (*httpx.Response, error) {
	resp, err := c.h.Do(ctx, method, path, body, header)
	if err != nil {
		return nil, err
	}
	for _, code := range ok {
		if resp.StatusCode == code {
			return resp, nil
		}
	}
	apiErr := httpx.NewAPIError(method, path, resp)
	if resp.StatusCode == http.StatusNotFound {
		return resp, &notFoundError{api: apiErr}
	}
	return resp, apiErr
}

// decodeError describes an answer to a GET that could not be decoded.
func decodeError(path string, err error) error {
	return fmt.Errorf("GET %s: %w", strings.SplitN(path, "?", 2)[0], err)
}

// GetArtifact returns the metadata of integration flow id in version
// ("" or "active" for the current one).
func (c *Client) GetArtifact(ctx context.Context, id, version string) (*Artifact, error) {
	p := designtimePath(id, version)
	resp, err := c.call(ctx, http.MethodGet, p, nil, nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	var w artifactWire
	if err := decodeEntity(resp.Body, &w); err != nil {
		return nil, decodeError(p, err)
	}
	return &Artifact{ID: string(w.ID), Version: string(w.Version), PackageID: string(w.PackageID),
		Name: string(w.Name), Description: string(w.Description)}, nil
}

// Content downloads the integration flow archive (zip) of id in version.
func (c *Client) Content(ctx context.Context, id, version string) ([]byte, error) {
	p := designtimePath(id, version) + "/$value"
	resp, err := c.call(ctx, http.MethodGet, p, nil,
		http.Header{"Accept": {"application/zip, application/octet-stream, */*"}}, http.StatusOK)
	if err != nil {
		return nil, err
	}
	if len(resp.Body) == 0 {
		return nil, fmt.Errorf("GET %s: the tenant answered with empty content", p)
	}
	return resp.Body, nil
}

// UpdateContent replaces the content of integration flow id in version with
// the archive content. name is sent as the flow's name; the tenant takes
// the name from the archive's manifest when name is empty.
func (c *Client) UpdateContent(ctx context.Context, id, version, name string, content []byte) error {
	body := map[string]string{"ArtifactContent": base64.StdEncoding.EncodeToString(content)}
	if name != "" {
		body["Name"] = name
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	_, err = c.call(ctx, http.MethodPut, designtimePath(id, version), data, nil,
		http.StatusOK, http.StatusAccepted, http.StatusNoContent)
	return err
}

// CreateArtifact creates the integration flow a.ID named a.Name in package
// a.PackageID, with content as its archive (nil creates an empty flow).
func (c *Client) CreateArtifact(ctx context.Context, a Artifact, content []byte) (*Artifact, error) {
	body := map[string]string{"Id": a.ID, "Name": a.Name, "PackageId": a.PackageID}
	if a.Description != "" {
		body["Description"] = a.Description
	}
	if content != nil {
		body["ArtifactContent"] = base64.StdEncoding.EncodeToString(content)
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	p := BasePath + "/IntegrationDesigntimeArtifacts"
	resp, err := c.call(ctx, http.MethodPost, p, data, nil, http.StatusCreated, http.StatusOK)
	if err != nil {
		return nil, err
	}
	var w artifactWire
	if len(strings.TrimSpace(string(resp.Body))) == 0 || decodeEntity(resp.Body, &w) != nil || w.ID == "" {
		return c.GetArtifact(ctx, a.ID, ActiveVersion)
	}
	return &Artifact{ID: string(w.ID), Version: string(w.Version), PackageID: string(w.PackageID),
		Name: string(w.Name), Description: string(w.Description)}, nil
}

// DeleteArtifact deletes integration flow id in version from the design
// time workspace.
func (c *Client) DeleteArtifact(ctx context.Context, id, version string) error {
	_, err := c.call(ctx, http.MethodDelete, designtimePath(id, version), nil, nil,
		http.StatusOK, http.StatusAccepted, http.StatusNoContent)
	return err
}

// Configurations lists the externalized parameters of integration flow id.
func (c *Client) Configurations(ctx context.Context, id, version string) ([]Configuration, error) {
	p := designtimePath(id, version) + "/Configurations"
	resp, err := c.call(ctx, http.MethodGet, p, nil, nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	items, err := decodeList[configurationWire](resp.Body)
	if err != nil {
		return nil, decodeError(p, err)
	}
	out := make([]Configuration, 0, len(items))
	for _, w := range items {
		if w.ParameterKey == "" {
			continue
		}
		out = append(out, Configuration{Key: string(w.ParameterKey), Value: string(w.ParameterValue), DataType: string(w.DataType)})
	}
	return out, nil
}

// SetConfiguration sets the externalized parameter key of integration flow
// id to value. dataType (e.g. "xsd:integer") is sent when not empty. The
// running flow uses the new value only after the next deploy.
func (c *Client) SetConfiguration(ctx context.Context, id, version, key, value, dataType string) error {
	body := map[string]string{"ParameterValue": value}
	if dataType != "" {
		body["DataType"] = dataType
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	p := designtimePath(id, version) + "/$links/Configurations(" + KeyLiteral(key) + ")"
	_, err = c.call(ctx, http.MethodPut, p, data, nil, http.StatusAccepted, http.StatusOK, http.StatusNoContent)
	return err
}

// Deploy starts deploying integration flow id in version and returns the
// task id to pass to DeployStatus.
func (c *Client) Deploy(ctx context.Context, id, version string) (string, error) {
	p := BasePath + "/DeployIntegrationDesigntimeArtifact?Id=" + KeyLiteral(id) + "&Version=" + KeyLiteral(versionOrActive(version))
	resp, err := c.call(ctx, http.MethodPost, p, nil, nil, http.StatusAccepted, http.StatusOK)
	if err != nil {
		return "", err
	}
	task := parseTaskID(resp.Body)
	if task == "" {
		return "", fmt.Errorf("POST %s: the tenant accepted the deploy but answered without a task id", BasePath+"/DeployIntegrationDesigntimeArtifact")
	}
	return task, nil
}

// DeployStatus returns the status of a build-and-deploy task: DEPLOYING,
// SUCCESS or FAIL (FAIL_ON_LICENSE_ERROR and others are passed through).
func (c *Client) DeployStatus(ctx context.Context, taskID string) (string, error) {
	p := BasePath + "/BuildAndDeployStatus(TaskId=" + KeyLiteral(taskID) + ")"
	resp, err := c.call(ctx, http.MethodGet, p, nil, nil, http.StatusOK)
	if err != nil {
		return "", err
	}
	var w statusWire
	if err := decodeEntity(resp.Body, &w); err != nil {
		return "", decodeError(p, err)
	}
	if w.Status == "" {
		return "", fmt.Errorf("GET %s: the answer has no Status", p)
	}
	return strings.ToUpper(strings.TrimSpace(string(w.Status))), nil
}

// RuntimeArtifact returns the deployed state of integration flow id; the
// error matches ErrNotFound when the flow is not deployed.
func (c *Client) RuntimeArtifact(ctx context.Context, id string) (*RuntimeArtifact, error) {
	p := runtimePath(id)
	resp, err := c.call(ctx, http.MethodGet, p, nil, nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	var w runtimeWire
	if err := decodeEntity(resp.Body, &w); err != nil {
		return nil, decodeError(p, err)
	}
	return &RuntimeArtifact{ID: string(w.ID), Version: string(w.Version), Name: string(w.Name), Type: string(w.Type),
		DeployedBy: string(w.DeployedBy), DeployedOn: string(w.DeployedOn),
		Status: strings.ToUpper(strings.TrimSpace(string(w.Status)))}, nil
}

// RuntimeErrorInformation returns the deploy error text of integration flow
// id; it is "" while the tenant has none (204 No Content).
func (c *Client) RuntimeErrorInformation(ctx context.Context, id string) (string, error) {
	p := runtimePath(id) + "/ErrorInformation/$value"
	resp, err := c.call(ctx, http.MethodGet, p, nil, http.Header{"Accept": {"application/json, text/plain, */*"}},
		http.StatusOK, http.StatusNoContent)
	if err != nil {
		return "", err
	}
	if resp.StatusCode == http.StatusNoContent {
		return "", nil
	}
	return errorText(resp.Body), nil
}

// Undeploy removes the runtime artifact of integration flow id.
func (c *Client) Undeploy(ctx context.Context, id string) error {
	_, err := c.call(ctx, http.MethodDelete, runtimePath(id), nil, nil,
		http.StatusAccepted, http.StatusOK, http.StatusNoContent)
	return err
}

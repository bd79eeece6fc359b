package cpi

import (
	"context"
	"net/http"
	"strings"
)

// TypeIntegrationFlow is the Type of a runtime artifact that is an integration
// flow; the runtime list also holds value mappings, script collections and
// other artifact types.
const TypeIntegrationFlow = "INTEGRATION_FLOW"

// ListRuntimeArtifacts returns every artifact deployed on the tenant: GET
// IntegrationRuntimeArtifacts, an OData collection {"d":{"results":[...]}}
// (/work/shared/reference/sap-apis.md section 2; IntegrationContent.json,
// IntegrationRuntimeArtifacts). One call for the whole tenant.
func (c *Client) ListRuntimeArtifacts(ctx context.Context) ([]RuntimeArtifact, error) {
	p := BasePath + "/IntegrationRuntimeArtifacts"
	resp, err := c.call(ctx, http.MethodGet, p, nil, nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	ws, err := decodeList[runtimeWire](resp.Body)
	if err != nil {
		return nil, decodeError(p, err)
	}
	out := make([]RuntimeArtifact, 0, len(ws))
	for _, w := range ws {
		out = append(out, RuntimeArtifact{ID: string(w.ID), Version: string(w.Version), Name: string(w.Name), Type: string(w.Type),
			DeployedBy: string(w.DeployedBy), DeployedOn: string(w.DeployedOn),
			Status: strings.ToUpper(strings.TrimSpace(string(w.Status)))})
	}
	return out, nil
}

// ListArtifacts returns the metadata of every integration flow in the design
// time workspace, with its package: GET IntegrationDesigntimeArtifacts, one
// call for the whole tenant (IntegrationContent.json,
// IntegrationDesigntimeArtifacts).
func (c *Client) ListArtifacts(ctx context.Context) ([]Artifact, error) {
	p := BasePath + "/IntegrationDesigntimeArtifacts"
	resp, err := c.call(ctx, http.MethodGet, p, nil, nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	ws, err := decodeList[artifactWire](resp.Body)
	if err != nil {
		return nil, decodeError(p, err)
	}
	out := make([]Artifact, 0, len(ws))
	for _, w := range ws {
		out = append(out, Artifact{ID: string(w.ID), Version: string(w.Version), PackageID: string(w.PackageID),
			Name: string(w.Name), Description: string(w.Description)})
	}
	return out, nil
}

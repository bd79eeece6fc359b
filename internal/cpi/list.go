package cpi

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// TypeIntegrationFlow is the Type of a runtime artifact that is an integration
// flow; the runtime list also holds value mappings, script collections and
// other artifact types.
const TypeIntegrationFlow = "INTEGRATION_FLOW"

// ListRuntimeArtifacts returns every artifact deployed on the tenant: GET
// IntegrationRuntimeArtifacts, an OData collection {"d":{"results":[...]}}
// (../shared/reference/sap-apis.md section 2; IntegrationContent.json,
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

// SenderChannels returns the channel values that select each AMQP sender
// channel of the flow, in document order (see Sender's Candidates): the
// message flow name where it is unique, else the message flow id. A flow
// with one AMQP sender returns one value, which Sender("") also selects.
func (f *Flow) SenderChannels() []string {
	return channelCandidates(f.Artifact.AMQPSenders(), func(s iflow.AMQPSender) (string, string) { return s.Name, s.ID })
}

// JMSSenderChannels returns the channel values that select each JMS sender
// channel of the flow, in document order, as SenderChannels does for AMQP.
func (f *Flow) JMSSenderChannels() []string {
	return channelCandidates(f.Artifact.JMSSenders(), func(s iflow.JMSChannel) (string, string) { return s.Name, s.ID })
}

// FlowRead is one flow read by ReadFlows: the flow, or the error reading it.
type FlowRead struct {
	ID   string
	Flow *Flow
	Err  error
}

// ReadFlows reads the flows ids in version through the run's cache (Flow):
// at most parallel downloads at a time (1 when parallel < 1), each flow once
// however many callers ask for it in the run. The results are in the order of
// ids; a flow that fails carries its error, the others are still read. A
// cancelled ctx stops starting new reads.
func (fs *Flows) ReadFlows(ctx context.Context, ids []string, version string, parallel int) []FlowRead {
	if parallel < 1 {
		parallel = 1
	}
	out := make([]FlowRead, len(ids))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, id := range ids {
		out[i].ID = id
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			out[i].Err = ctx.Err()
			continue
		}
		wg.Add(1)
		go func(i int, id string) {
			defer wg.Done()
			defer func() { <-sem }()
			out[i].Flow, out[i].Err = fs.Flow(ctx, id, version)
		}(i, id)
	}
	wg.Wait()
	return out
}

// PrimeRuntimes records the runtime artifacts of a list of every artifact
// deployed on the tenant (ListRuntimeArtifacts) as this run's runtime reads
// of the flows ids: a flow in the list as read, one not in it as not deployed
// (ErrNotFound). A flow whose runtime this run has already read, or is
// reading, keeps that read; a later write to a flow drops it as usual.
func (fs *Flows) PrimeRuntimes(listed []RuntimeArtifact, ids []string) {
	byID := make(map[string]*RuntimeArtifact, len(listed))
	for i := range listed {
		if listed[i].Type == "" || listed[i].Type == TypeIntegrationFlow {
			byID[listed[i].ID] = &listed[i]
		}
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.runtimes == nil {
		fs.runtimes = map[string]*runtimeRead{}
	}
	for _, id := range ids {
		if fs.runtimes[id] != nil {
			continue
		}
		r := &runtimeRead{done: make(chan struct{}), gen: fs.runtimeGen[id]}
		if rt, ok := byID[id]; ok {
			cp := *rt
			r.rt = &cp
		} else {
			r.err = fmt.Errorf("integration flow %q is not deployed: %w", id, ErrNotFound)
		}
		close(r.done)
		fs.runtimes[id] = r
	}
}
